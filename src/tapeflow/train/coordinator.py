"""`Coordinator`: threads that stop together, and the first error among them re-raised where
they are joined."""
from __future__ import annotations

import contextlib
import sys
import threading
import time

from ..framework import errors

__all__ = ["Coordinator"]


class Coordinator:
    """Coordinates the termination of a set of threads.

    Threads loop while `should_stop()` is false; any of them may `request_stop(ex)`, and
    `join(threads)` waits for them, then re-raises the first exception reported (an
    exception of `clean_stop_exception_types`, by default OutOfRangeError, only stops).

    Example:
        >>> import threading
        >>> import tapeflow as tf
        >>> coord = tf.train.Coordinator()
        >>> def work():
        ...     with coord.stop_on_exception():
        ...         raise ValueError("input went bad")
        >>> threads = [threading.Thread(target=work) for _ in range(2)]
        >>> for t in threads:
        ...     t.start()
        >>> try:
        ...     coord.join(threads)
        ... except ValueError as e:
        ...     print(e, coord.should_stop())
        input went bad True
    """

    def __init__(self, clean_stop_exception_types=None) -> None:
        self._clean_stop_exception_types = tuple(
            (errors.OutOfRangeError,) if clean_stop_exception_types is None
            else clean_stop_exception_types)
        self._lock = threading.Lock()
        self._stop_event = threading.Event()
        self._exc_info = None       # the first error reported, as sys.exc_info() gives it
        self._joined = False
        self._registered_threads: set = set()

    def _as_exc_info(self, ex):
        """`ex` (an exception or an exc_info tuple) as exc_info; None for a clean stop."""
        if ex is None:
            return None
        error = ex[1] if isinstance(ex, tuple) else ex
        if isinstance(error, self._clean_stop_exception_types):
            return None
        if isinstance(ex, tuple):
            return ex
        return type(ex), ex, ex.__traceback__

    def request_stop(self, ex=None) -> None:
        """Asks every thread to stop; `ex` (an exception or `sys.exc_info()`), unless a clean
        stop, is kept to re-raise from `join` when it is the first one reported before the
        stop. After `join`, an exception is raised right here (nobody is left to report it)."""
        with self._lock:
            exc_info = self._as_exc_info(ex)
            if self._joined and exc_info is not None:
                raise exc_info[1].with_traceback(exc_info[2])
            if not self._stop_event.is_set():
                if exc_info is not None and self._exc_info is None:
                    self._exc_info = exc_info
                self._stop_event.set()

    def clear_stop(self) -> None:
        """Forgets the stop request and the error: the coordinator can run threads again."""
        with self._lock:
            self._joined = False
            self._exc_info = None
            if self._stop_event.is_set():
                self._stop_event.clear()

    def should_stop(self) -> bool:
        return self._stop_event.is_set()

    @contextlib.contextmanager
    def stop_on_exception(self):
        """Reports any exception raised inside to `request_stop` (and does not re-raise it)."""
        try:
            yield
        except:  # noqa: E722  (every exception is reported, as TF's does)
            self.request_stop(ex=sys.exc_info())

    def wait_for_stop(self, timeout=None) -> bool:
        """Waits at most `timeout` seconds for a stop request; True when there is one."""
        return self._stop_event.wait(timeout)

    def register_thread(self, thread) -> None:
        """Adds `thread` to those `join` waits for."""
        with self._lock:
            self._registered_threads.add(thread)

    def join(self, threads=None, stop_grace_period_secs=120, ignore_live_threads=False):
        """Waits until the threads (and the registered ones) have ended or a stop is
        requested, then at most `stop_grace_period_secs` more for them to end.

        Raises:
            The first exception reported to `request_stop`.
            RuntimeError: threads still alive after the grace period (unless
                `ignore_live_threads`).
        """
        with self._lock:
            threads = set(self._registered_threads) | set(threads or ())
        while any(t.is_alive() for t in threads) and not self.wait_for_stop(1.0):
            pass
        wait, left = 0.001, stop_grace_period_secs
        while any(t.is_alive() for t in threads) and left >= 0:
            time.sleep(wait)
            left -= wait
            wait = max(min(2 * wait, left), 0.001)
        stragglers = sorted(t.name for t in threads if t.is_alive())
        with self._lock:
            self._joined = True
            self._registered_threads = set()
            if self._exc_info is not None:
                raise self._exc_info[1].with_traceback(self._exc_info[2])
        if stragglers and not ignore_live_threads:
            raise RuntimeError("Coordinator stopped with threads still running: "
                               f"{' '.join(stragglers)}")

    @property
    def joined(self) -> bool:
        return self._joined

    def raise_requested_exception(self) -> None:
        """Re-raises the exception reported to `request_stop`, if any."""
        with self._lock:
            if self._exc_info is not None:
                raise self._exc_info[1].with_traceback(self._exc_info[2])
