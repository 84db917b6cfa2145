"""TF1's training loop helpers: `MonitoredTrainingSession` and its hooks.

A monitored session initializes the variables (or restores the latest checkpoint of its
`checkpoint_dir`), then calls each hook around every `run`: `before_run` may add fetches and
feeds, `after_run` sees their values and may ask the loop to stop (`should_stop()`).
"""
from __future__ import annotations

import collections
import logging
import os
import time

import numpy as np

import tapeflow as tf

from ...client.session import Session
from ...framework import errors
from ...framework.graph import GraphKeys, get_default_graph
from .saver import Saver
from .schedules import get_global_step

__all__ = ["SessionRunHook", "SessionRunArgs", "SessionRunContext", "SessionRunValues",
           "StopAtStepHook", "CheckpointSaverHook", "LoggingTensorHook", "NanTensorHook",
           "FinalOpsHook", "FeedFnHook",
           "NanLossDuringTrainingError", "SecondOrStepTimer",
           "Scaffold", "ChiefSessionCreator", "MonitoredTrainingSession", "MonitoredSession",
           "SingularMonitoredSession"]

_logger = logging.getLogger("tapeflow")


class SessionRunHook:
    """The hook interface (every method optional): `begin()` before the session exists,
    `after_create_session(session, coord)`, `before_run(run_context)` returning
    SessionRunArgs or None, `after_run(run_context, run_values)`, `end(session)`."""

    def begin(self) -> None:
        pass

    def after_create_session(self, session, coord) -> None:
        pass

    def before_run(self, run_context):
        return None

    def after_run(self, run_context, run_values) -> None:
        pass

    def end(self, session) -> None:
        pass


class SessionRunArgs(collections.namedtuple("SessionRunArgs",
                                            ["fetches", "feed_dict", "options"])):
    """What a hook adds to a `run`: fetches, feeds (and options, ignored)."""

    def __new__(cls, fetches, feed_dict=None, options=None):
        return super().__new__(cls, fetches, feed_dict, options)


SessionRunValues = collections.namedtuple("SessionRunValues",
                                          ["results", "options", "run_metadata"])
SessionRunValues.__doc__ = "The values of a hook's fetches after a `run`."


class SessionRunContext:
    """The `run` call a hook sees: its arguments, the session, and `request_stop()`."""

    def __init__(self, original_args, session) -> None:
        self.original_args, self.session = original_args, session
        self._stop_requested = False

    def request_stop(self) -> None:
        self._stop_requested = True

    @property
    def stop_requested(self) -> bool:
        return self._stop_requested


class SecondOrStepTimer:
    """Triggers every `every_secs` seconds or every `every_steps` steps.

    Raises:
        ValueError: both or neither of every_secs and every_steps.
    """

    def __init__(self, every_secs=None, every_steps=None) -> None:
        if (every_secs is None) == (every_steps is None):
            raise ValueError("exactly one of every_secs and every_steps should be provided.")
        self._every_secs, self._every_steps = every_secs, every_steps
        self.reset()

    def reset(self) -> None:
        self._last_time = self._last_step = None

    def should_trigger_for_step(self, step: int) -> bool:
        if self._last_step is None:
            return True
        if step == self._last_step:
            return False
        if self._every_steps is not None:
            return step >= self._last_step + self._every_steps
        return time.time() >= self._last_time + self._every_secs

    def update_last_triggered_step(self, step: int) -> tuple:
        """Records a trigger at `step`; returns (seconds, steps) since the previous one."""
        now = time.time()
        elapsed = (None, None) if self._last_time is None else (now - self._last_time,
                                                                step - self._last_step)
        self._last_time, self._last_step = now, step
        return elapsed

    def last_triggered_step(self):
        return self._last_step


def _global_step_of(hook: str):
    step = get_global_step()
    if step is None:
        raise RuntimeError(f"Global step should be created to use {hook}.")
    return step


class StopAtStepHook(SessionRunHook):
    """Stops after `num_steps` more steps, or once the global step reaches `last_step`.

    Raises:
        ValueError: both or neither of num_steps and last_step.
    """

    def __init__(self, num_steps=None, last_step=None) -> None:
        if (num_steps is None) == (last_step is None):
            raise ValueError("One of num_steps or last_step must be specified.")
        if num_steps is not None and num_steps < 0:
            raise ValueError("num_steps must be non-negative.")
        self._num_steps, self._last_step = num_steps, last_step

    def begin(self) -> None:
        self._global_step = _global_step_of("StopAtStepHook")

    def after_create_session(self, session, coord) -> None:
        if self._last_step is None:
            self._last_step = int(session.run(self._global_step)) + self._num_steps

    def before_run(self, run_context):
        return SessionRunArgs(self._global_step)

    def after_run(self, run_context, run_values) -> None:
        if int(run_values.results) + 1 >= self._last_step:
            if int(run_context.session.run(self._global_step)) >= self._last_step:
                run_context.request_stop()


class NanLossDuringTrainingError(RuntimeError):
    """The loss a `NanTensorHook` watches became NaN."""

    def __str__(self) -> str:
        return "NaN loss during training."


class NanTensorHook(SessionRunHook):
    """Watches `loss_tensor` at every run: when it is NaN, logs "Model diverged with loss =
    NaN." and raises NanLossDuringTrainingError (`fail_on_nan_loss`, the default) or asks the
    loop to stop.

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> with tf1.Graph().as_default():
        ...     loss = tf1.placeholder(tf1.float32, [])
        ...     hook = tf1.train.NanTensorHook(loss, fail_on_nan_loss=False)
        ...     with tf1.train.MonitoredSession(hooks=[hook]) as sess:
        ...         _ = sess.run(loss, feed_dict={loss: 1.0})
        ...         _ = sess.run(loss, feed_dict={loss: float("nan")})
        ...         print(sess.should_stop())
        True
    """

    def __init__(self, loss_tensor, fail_on_nan_loss=True) -> None:
        self._loss_tensor, self._fail_on_nan_loss = loss_tensor, fail_on_nan_loss

    def before_run(self, run_context):
        return SessionRunArgs(self._loss_tensor)

    def after_run(self, run_context, run_values) -> None:
        if np.isnan(run_values.results):
            if self._fail_on_nan_loss:
                _logger.error("Model diverged with loss = NaN.")
                raise NanLossDuringTrainingError
            _logger.warning("Model diverged with loss = NaN.")
            run_context.request_stop()


class FinalOpsHook(SessionRunHook):
    """Runs `final_ops` (a tensor, a list or a dict of them; fed `final_ops_feed_dict`) as
    the session ends; their values are then `final_ops_values`."""

    def __init__(self, final_ops, final_ops_feed_dict=None) -> None:
        self._final_ops, self._feed_dict = final_ops, final_ops_feed_dict
        self._final_ops_values = None

    @property
    def final_ops_values(self):
        return self._final_ops_values

    def end(self, session) -> None:
        if self._final_ops is not None:
            self._final_ops_values = session.run(self._final_ops, feed_dict=self._feed_dict)


class FeedFnHook(SessionRunHook):
    """Feeds every run what `feed_fn()` returns (a dict of tensors to values)."""

    def __init__(self, feed_fn) -> None:
        self.feed_fn = feed_fn

    def before_run(self, run_context):
        return SessionRunArgs(fetches=None, feed_dict=self.feed_fn())


class CheckpointSaverHook(SessionRunHook):
    """Saves a checkpoint when the session starts, every `save_secs` seconds or
    `save_steps` steps (of the global step), and at the end.

    Raises:
        ValueError: both or neither of save_secs and save_steps.
    """

    def __init__(self, checkpoint_dir, save_secs=None, save_steps=None, saver=None,
                 checkpoint_basename="model.ckpt", scaffold=None, listeners=None,
                 save_graph_def=True) -> None:
        if (save_secs is None) == (save_steps is None):
            raise ValueError("exactly one of save_secs and save_steps should be set.")
        self._directory = os.fspath(checkpoint_dir)
        self._path = os.path.join(self._directory, checkpoint_basename)
        self._saver, self._scaffold = saver, scaffold
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)
        self._listeners = list(listeners or [])

    def begin(self) -> None:
        self._global_step = _global_step_of("CheckpointSaverHook")
        for listener in self._listeners:
            listener.begin()

    def after_create_session(self, session, coord) -> None:
        self._save(session, int(session.run(self._global_step)))

    def before_run(self, run_context):
        return SessionRunArgs(self._global_step)

    def after_run(self, run_context, run_values) -> None:
        if self._timer.should_trigger_for_step(int(run_values.results) + 1):
            step = int(run_context.session.run(self._global_step))
            if self._timer.should_trigger_for_step(step):
                self._save(run_context.session, step)

    def end(self, session) -> None:
        step = int(session.run(self._global_step))
        if step != self._timer.last_triggered_step():
            self._save(session, step)
        for listener in self._listeners:
            listener.end(session, step)

    def _get_saver(self) -> Saver:
        if self._saver is None:
            self._saver = self._scaffold.saver if self._scaffold is not None else Saver()
        return self._saver

    def _save(self, session, step: int) -> None:
        for listener in self._listeners:
            listener.before_save(session, step)
        self._timer.update_last_triggered_step(step)
        _logger.info("Saving checkpoints for %d into %s.", step, self._path)
        self._get_saver().save(session, self._path, global_step=step)
        for listener in self._listeners:
            listener.after_save(session, step)


class LoggingTensorHook(SessionRunHook):
    """Logs the values of `tensors` (a dict of names, or a list) every `every_n_iter`
    runs or `every_n_secs` seconds, at level INFO of the "tapeflow" logger.

    Raises:
        ValueError: both or neither of every_n_iter and every_n_secs (without at_end).
    """

    def __init__(self, tensors, every_n_iter=None, every_n_secs=None, at_end=False,
                 formatter=None) -> None:
        if not at_end and (every_n_iter is None) == (every_n_secs is None):
            raise ValueError("either at_end and/or exactly one of every_n_iter and "
                             "every_n_secs must be provided.")
        if every_n_iter is not None and every_n_iter <= 0:
            raise ValueError(f"invalid every_n_iter={every_n_iter}.")
        if not isinstance(tensors, dict):
            tensors = {getattr(t, "name", t): t for t in tensors}
        self._tensors, self._formatter, self._at_end = tensors, formatter, at_end
        self._timer = (None if every_n_iter is None and every_n_secs is None
                       else SecondOrStepTimer(every_secs=every_n_secs, every_steps=every_n_iter))

    def begin(self) -> None:
        self._iteration = 0
        graph = get_default_graph()
        self._fetches = {name: graph.as_graph_element(t) if isinstance(t, str) else t
                         for name, t in self._tensors.items()}

    def before_run(self, run_context):
        self._triggered = (self._timer is not None
                           and self._timer.should_trigger_for_step(self._iteration))
        return SessionRunArgs(self._fetches) if self._triggered else None

    def after_run(self, run_context, run_values) -> None:
        if self._triggered:
            self._timer.update_last_triggered_step(self._iteration)
            self._log(run_values.results)
        self._iteration += 1

    def end(self, session) -> None:
        if self._at_end:
            self._log(session.run(self._fetches))

    def _log(self, values: dict) -> None:
        if self._formatter is not None:
            _logger.info(self._formatter(values))
        else:
            _logger.info(", ".join(f"{name} = {values[name]}" for name in self._tensors))


class Scaffold:
    """What a monitored session needs to start: the init op and the Saver (made by
    `finalize()` when not given)."""

    def __init__(self, init_op=None, init_feed_dict=None, init_fn=None, ready_op=None,
                 ready_for_local_init_op=None, local_init_op=None, summary_op=None,
                 saver=None, copy_from_scaffold=None, local_init_feed_dict=None) -> None:
        self.init_op, self.init_feed_dict, self.init_fn = init_op, init_feed_dict, init_fn
        self.local_init_op, self.saver = local_init_op, saver

    def finalize(self) -> None:
        """Makes the default init op (global variables) and local init op (local variables
        and tables), and a Saver of the global variables."""
        graph = get_default_graph()
        if self.init_op is None:
            self.init_op = tf.group(*[v.initializer for v in
                                      graph.get_collection(GraphKeys.GLOBAL_VARIABLES)])
        if self.local_init_op is None:
            self.local_init_op = tf.group(*[v.initializer for v in
                                            graph.get_collection(GraphKeys.LOCAL_VARIABLES)])
        if self.saver is None and graph.get_collection(GraphKeys.GLOBAL_VARIABLES):
            self.saver = Saver()


class ChiefSessionCreator:
    """How a MonitoredSession starts: `scaffold`'s init ops, or a restore of the latest
    checkpoint of `checkpoint_dir` (or of `checkpoint_filename_with_path`)."""

    def __init__(self, scaffold=None, master="", config=None, checkpoint_dir=None,
                 checkpoint_filename_with_path=None) -> None:
        self._scaffold = scaffold or Scaffold()
        self._checkpoint_dir = checkpoint_dir
        self._checkpoint_path = checkpoint_filename_with_path

    def create_session(self) -> Session:
        """A new Session of the default graph, restored or initialized."""
        scaffold = self._scaffold
        scaffold.finalize()
        session = Session(graph=get_default_graph())
        latest = self._checkpoint_path or (tf.train.latest_checkpoint(self._checkpoint_dir)
                                           if self._checkpoint_dir else None)
        if latest is not None:
            scaffold.saver.restore(session, latest)
        else:
            session.run(scaffold.init_op, scaffold.init_feed_dict)
            if scaffold.init_fn is not None:
                scaffold.init_fn(scaffold, session)
        session.run(scaffold.local_init_op)
        return session


class MonitoredSession:
    """A Session that runs hooks around each `run` and stops when one asks it to.

    Use it in a `with` block; `should_stop()` becomes True once a hook requests a stop
    (or a run raised OutOfRangeError, which ends the `with` block quietly). Closing it
    calls each hook's `end`.
    """

    def __init__(self, session_creator=None, hooks=None, stop_grace_period_secs=120) -> None:
        self._hooks = list(hooks or [])
        for hook in self._hooks:
            hook.begin()
        self._graph = get_default_graph()
        self._session = (session_creator or ChiefSessionCreator()).create_session()
        self._stop = False
        for hook in self._hooks:
            hook.after_create_session(self._session, None)

    @property
    def graph(self):
        return self._graph

    def should_stop(self) -> bool:
        return self._stop

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """Runs `fetches` with each hook's extra fetches and feeds; returns the values of
        `fetches` alone.

        Raises:
            RuntimeError: the session is closed.
            ValueError: a hook feeds a tensor the caller (or another hook) also feeds.
        """
        context = SessionRunContext(SessionRunArgs(fetches, feed_dict, options), self._session)
        extra_fetches, feeds = [], dict(feed_dict or {})
        for hook in self._hooks:
            args = hook.before_run(context)
            extra_fetches.append(None if args is None else args.fetches)
            for key, value in ((args.feed_dict or {}) if args is not None else {}).items():
                if key in feeds:
                    raise ValueError(f"Same tensor is fed by a SessionRunHook and user: {key}")
                feeds[key] = value
        wanted = [f for f in extra_fetches if f is not None]
        results = self._session.run({"caller": fetches, "hooks": wanted}, feeds)
        hook_results = iter(results["hooks"])
        for hook, extra in zip(self._hooks, extra_fetches):
            value = next(hook_results) if extra is not None else None
            hook.after_run(context, SessionRunValues(value, options, run_metadata))
        self._stop = self._stop or context.stop_requested
        return results["caller"]

    def close(self) -> None:
        """Calls each hook's `end` and closes the session."""
        if self._session is None:
            return
        try:
            for hook in self._hooks:
                hook.end(self._session)
        finally:
            self._session.close()
            self._session = None

    def __enter__(self) -> "MonitoredSession":
        return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        if exc_type is None or issubclass(exc_type, (errors.OutOfRangeError, StopIteration)):
            self.close()
        elif self._session is not None:
            self._session.close()
            self._session = None
        return exc_type is not None and issubclass(exc_type, (errors.OutOfRangeError,
                                                              StopIteration))


class SingularMonitoredSession(MonitoredSession):
    """A MonitoredSession of one worker, made from the ChiefSessionCreator arguments, whose
    underlying Session `raw_session()` gives (to run without the hooks).

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> with tf1.Graph().as_default():
        ...     v = tf1.Variable(2.0)
        ...     with tf1.train.SingularMonitoredSession() as sess:
        ...         print(sess.run(v * 3.0), sess.raw_session().run(v))
        6.0 2.0
    """

    def __init__(self, hooks=None, scaffold=None, master="", config=None, checkpoint_dir=None,
                 stop_grace_period_secs=120, checkpoint_filename_with_path=None) -> None:
        creator = ChiefSessionCreator(scaffold, master, config, checkpoint_dir,
                                      checkpoint_filename_with_path)
        super().__init__(creator, hooks, stop_grace_period_secs)

    def raw_session(self) -> Session:
        return self._session


_USE_DEFAULT = object()


def MonitoredTrainingSession(master="", is_chief=True, checkpoint_dir=None, scaffold=None,
                             hooks=None, chief_only_hooks=None,
                             save_checkpoint_secs=_USE_DEFAULT, save_summaries_steps=100,
                             save_summaries_secs=None, config=None, stop_grace_period_secs=120,
                             log_step_count_steps=100, max_wait_secs=7200,
                             save_checkpoint_steps=_USE_DEFAULT, summary_dir=None,
                             save_graph_def=True):
    """A MonitoredSession for training: initializes or restores from `checkpoint_dir`,
    and (with a checkpoint_dir) saves checkpoints every `save_checkpoint_steps` steps or
    `save_checkpoint_secs` seconds (default: 600 s). Summaries and distributed arguments are
    accepted and have no effect.

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> with tf1.Graph().as_default():
        ...     step = tf1.train.get_or_create_global_step()
        ...     w = tf1.Variable(4.0)
        ...     train = tf1.train.GradientDescentOptimizer(0.25).minimize(w * w, step)
        ...     hooks = [tf1.train.StopAtStepHook(last_step=3)]
        ...     with tf1.train.MonitoredTrainingSession(hooks=hooks) as sess:
        ...         while not sess.should_stop():
        ...             _ = sess.run(train)
        ...         print(sess.run([step, w]))
        [3, 0.5]
    """
    hooks = list(hooks or []) + (list(chief_only_hooks or []) if is_chief else [])
    scaffold = scaffold or Scaffold()
    if checkpoint_dir and is_chief:
        if save_checkpoint_steps is _USE_DEFAULT and save_checkpoint_secs is _USE_DEFAULT:
            save_checkpoint_secs, save_checkpoint_steps = 600, None
        elif save_checkpoint_steps is _USE_DEFAULT:
            save_checkpoint_steps = None
        elif save_checkpoint_secs is _USE_DEFAULT:
            save_checkpoint_secs = None
        if save_checkpoint_secs or save_checkpoint_steps:
            hooks.append(CheckpointSaverHook(checkpoint_dir, save_secs=save_checkpoint_secs,
                                             save_steps=save_checkpoint_steps,
                                             scaffold=scaffold))
    return MonitoredSession(ChiefSessionCreator(scaffold, checkpoint_dir=checkpoint_dir), hooks)
