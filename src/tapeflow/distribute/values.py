"""Distributed values of the replicas of one process: `PerReplica` (what `strategy.run`
returns, one value per replica), `MirroredVariable` (a variable made in a
MirroredStrategy's scope: one component per replica, kept equal by the strategy) and
`SyncOnReadVariable` (one made with `synchronization=ON_READ`: each replica keeps its own
value, combined by the aggregation when read outside the replicas).
"""
from __future__ import annotations

from ..framework.replicated_variable import ReplicatedVariable, SyncOnReadReplicatedVariable

__all__ = ["DistributedValues", "MirroredVariable", "PerReplica", "SyncOnReadVariable"]


def _listing(kind: str, values, show) -> str:
    lines = ",\n".join(f"  {i}: {show(v)}" for i, v in enumerate(values))
    return f"{kind}:{{\n{lines}\n}}"


class DistributedValues:
    """Values, one per replica; `values` holds them in replica order.

    Example:
        >>> from tapeflow.distribute.values import PerReplica
        >>> print(PerReplica([1, 2]))
        PerReplica:{
          0: 1,
          1: 2
        }
    """

    def __init__(self, values) -> None:
        self._values = tuple(values)

    @property
    def values(self) -> tuple:
        return self._values

    def _replica_value(self, replica: int):
        return self._values[replica]

    def __str__(self) -> str:
        return _listing(type(self).__name__, self._values, str)

    def __repr__(self) -> str:
        return _listing(type(self).__name__, self._values, repr)


class PerReplica(DistributedValues):
    """The values the replicas of `strategy.run` returned (or take as an argument)."""


class MirroredVariable(ReplicatedVariable, DistributedValues):
    """A variable with one component per replica of a MirroredStrategy: inside
    `strategy.run` each replica reads and updates its own component; outside it (the
    cross-replica context) reads give the first and updates go to every component.

    Made by the strategy's scope, never directly.
    """

    __slots__ = ()
    __repr__ = DistributedValues.__repr__  # (before Variable's)


class SyncOnReadVariable(SyncOnReadReplicatedVariable, DistributedValues):
    """A variable with one component per replica of a MirroredStrategy, made with
    `synchronization=ON_READ`: inside `strategy.run` each replica reads and updates its
    own component; outside it a read combines them by the aggregation (SUM, MEAN or
    ONLY_FIRST_REPLICA; NONE is a ValueError).

    Made by the strategy's scope, never directly.
    """

    __slots__ = ()
    __repr__ = DistributedValues.__repr__  # (before Variable's)
