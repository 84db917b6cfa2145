"""CriticalSection: runs functions one at a time (a lock shared by every `execute` of the
section). Inside tf.function the function is traced like any other code."""
from __future__ import annotations

import threading

from ..framework import nest
from ..framework.tensor import convert_to_tensor

__all__ = ["CriticalSection"]


class CriticalSection:
    """Serializes the functions run through `execute`, across threads.

    Args:
        name: the section's name.

    Example:
        >>> import tapeflow as tf
        >>> counter = tf.Variable(0)
        >>> section = tf.CriticalSection()
        >>> int(section.execute(lambda: counter.assign_add(1)))
        1
    """

    def __init__(self, name=None, shared_name=None, critical_section_def=None,
                 import_scope=None) -> None:
        self._name = "CriticalSection" if name is None else str(name)
        self._lock = threading.Lock()
        self._running = threading.local()

    @property
    def name(self) -> str:
        return self._name

    def execute(self, fn, exclusive_resource_access=True, name=None):
        """Runs `fn()` while holding the section; its results come back as tensors (None
        kept).

        Raises:
            ValueError: `fn` executes in this section again (it would deadlock).
        """
        if getattr(self._running, "active", False):
            raise ValueError(f"Attempting to lock a CriticalSection ({self._name}) in which "
                             f"we are already running. This is illegal and may cause "
                             f"deadlocks.")
        with self._lock:
            self._running.active = True
            try:
                result = fn()
            finally:
                self._running.active = False
        return nest.map_structure(lambda x: None if x is None else convert_to_tensor(x),
                                  result)
