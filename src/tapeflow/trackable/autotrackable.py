"""AutoTrackable: a Trackable whose attribute assignments track (a tf.Module, a Keras
object, `tf.train.Checkpoint`).

`obj.name = value` stores `value` wrapped (a list or dict becomes a ListWrapper or
_DictWrapper) and, when it is trackable, tracks it as the dependency `name` (replacing the
older one); deleting the attribute removes the dependency.

Example:
    >>> import tapeflow as tf
    >>> from tapeflow.trackable.autotrackable import AutoTrackable
    >>> root = AutoTrackable()
    >>> root.v = tf.Variable(1.0)
    >>> root.items = {"w": tf.Variable(2.0)}
    >>> list(root._trackable_children())
    ['v', 'items']
"""
from __future__ import annotations

from . import data_structures
from .base import Trackable

__all__ = ["AutoTrackable"]


class AutoTrackable(Trackable):
    """Tracks the trackables assigned to its attributes (see the module docstring)."""

    def __setattr__(self, name: str, value) -> None:
        if getattr(self, "_self_setattr_tracking", True) and not name.startswith("_self_"):
            try:
                if object.__getattribute__(self, name) is value:
                    return
            except Exception:  # noqa: BLE001  (an unset attribute or a property that raises)
                pass
            value = data_structures.sticky_attribute_assignment(self, name, value)
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        self._untrack(name)
        object.__delattr__(self, name)
