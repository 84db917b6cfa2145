"""A Variable with one component per replica: which component a read or an update reaches
is chosen, when it happens, by the replica the calling thread runs (`replica_of()`), so the
ops and tapes that take a Variable take it unchanged. Outside every replica reads give the
first component and updates go to all of them. (MirroredStrategy's MirroredVariable.)
"""
from __future__ import annotations

from .variables import Variable

__all__ = ["ReplicatedVariable"]


class ReplicatedVariable(Variable):
    """Made from its component Variables by `of`, never by calling the class."""

    __slots__ = ("_components", "_replica_of")

    def __init__(self, *args, **kwargs) -> None:
        raise TypeError(f"{type(self).__name__} is made by creating a tf.Variable in a "
                        "distribution strategy's scope.")

    @classmethod
    def of(cls, components: list, replica_of) -> "ReplicatedVariable":
        """The variable of `components` (the first gives the name and modes);
        `replica_of()` is the calling thread's replica index, or None outside replicas."""
        primary = components[0]
        made = object.__new__(cls)
        for name in ("_id", "_trainable", "_name", "_shape", "constraint",
                     "_synchronization", "_aggregation"):
            object.__setattr__(made, name, getattr(primary, name))
        made._components = tuple(components)
        made._replica_of = replica_of
        return made

    @property
    def _value(self):
        index = self._replica_of()
        return self._components[0 if index is None else index]._value

    @_value.setter
    def _value(self, value) -> None:
        index = self._replica_of()
        if index is not None:
            self._components[index]._value = value
            return
        for component in self._components:
            component._value = value.copy() if hasattr(value, "copy") else value

    @property
    def values(self) -> tuple:
        """The components, in replica order."""
        return self._components
