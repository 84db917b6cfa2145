"""A Variable with one component per replica: which component a read or an update reaches
is chosen, when it happens, by the replica the calling thread runs (`replica_of()`), so the
ops and tapes that take a Variable take it unchanged. Outside every replica (the
cross-replica context) a mirrored variable reads the first component and writes all of
them; a sync-on-read variable reads its components combined by its aggregation.
(MirroredStrategy's MirroredVariable and SyncOnReadVariable.)
"""
from __future__ import annotations

import numpy as np

from .variables import Variable, VariableAggregation

__all__ = ["ReplicatedVariable", "SyncOnReadReplicatedVariable"]


class ReplicatedVariable(Variable):
    """Made from its component Variables by `of`, never by calling the class.

    `_values` holds the components in replica order (one per replica of this process, a
    single one with one device); `values` gives them.
    """

    __slots__ = ("_values", "_replica_of")

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
        made._values = tuple(components)
        made._replica_of = replica_of
        return made

    @property
    def _value(self):
        index = self._replica_of()
        return self._read_outside() if index is None else self._values[index]._value

    @_value.setter
    def _value(self, value) -> None:
        index = self._replica_of()
        if index is None:
            self._write_outside(value)
        else:
            self._values[index]._value = value

    # Outside the replicas: a read sees the first component, a write sets them all.
    def _read_outside(self):
        return self._values[0]._value

    def _write_outside(self, value) -> None:
        self._set_all(value)

    def _set_all(self, value) -> None:
        first, *others = self._values
        first._value = value
        for component in others:
            component._value = value.copy() if hasattr(value, "copy") else value

    def _components_to_restore(self) -> tuple:
        return self._values

    @property
    def values(self) -> tuple:
        """The components, in replica order."""
        return self._values


def _no_reduction(aggregation) -> ValueError:
    return ValueError(f"Could not convert from `tf.VariableAggregation` {aggregation} to"
                      "`tf.distribute.ReduceOp` type")


class SyncOnReadReplicatedVariable(ReplicatedVariable):
    """A replicated variable made with `synchronization=ON_READ`: each replica reads and
    writes its own component; outside the replicas a read combines the components by the
    aggregation (SUM adds them, MEAN averages, ONLY_FIRST_REPLICA takes the first) and a
    write gives every component the value (divided among them for SUM). With aggregation
    NONE there is no way to combine them: both raise ValueError."""

    __slots__ = ()

    def _read_outside(self):
        aggregation = self._aggregation
        if aggregation is VariableAggregation.ONLY_FIRST_REPLICA:
            return self._values[0]._value
        if aggregation is VariableAggregation.NONE:
            raise _no_reduction(aggregation)
        parts = [c._value for c in self._values]
        if len(parts) == 1:
            return parts[0]
        total = np.add.reduce(parts, dtype=parts[0].dtype)
        if aggregation is VariableAggregation.MEAN:
            total = (total / len(parts)).astype(parts[0].dtype)
        return np.asarray(total)

    def _write_outside(self, value) -> None:
        aggregation = self._aggregation
        if aggregation is VariableAggregation.NONE:
            raise _no_reduction(aggregation)
        if aggregation is VariableAggregation.SUM and len(self._values) > 1:
            value = np.asarray(value / len(self._values)).astype(value.dtype)
        self._set_all(value)
