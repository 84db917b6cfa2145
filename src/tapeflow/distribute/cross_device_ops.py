"""How a MirroredStrategy combines its replicas' values: `CrossDeviceOps` and TF's three
kinds. The replicas of one process share its memory, so each reduces by summing the
replicas' tensors with tapeflow ops (differentiable); they differ on GPUs only (NCCL, a
hierarchical copy), which a CPU machine has not, and keep their arguments and checks.
"""
from __future__ import annotations

from ..framework import nest
from ..framework.tensor import convert_to_tensor
from ..ops import math_ops

__all__ = ["CrossDeviceOps", "HierarchicalCopyAllReduce", "NcclAllReduce",
           "ReductionToOneDevice"]


def _parts(value) -> tuple:
    values = getattr(value, "values", None)
    return tuple(values) if isinstance(values, tuple) else (value,)


class CrossDeviceOps:
    """Reduces and broadcasts the values of a strategy's replicas.

    Example:
        >>> import tapeflow as tf
        >>> from tapeflow.distribute.values import PerReplica
        >>> ops = tf.distribute.ReductionToOneDevice()
        >>> float(ops.reduce("sum", PerReplica([tf.constant(1.0), tf.constant(2.0)]),
        ...                  destinations="/cpu:0"))
        3.0
    """

    def _accumulate(self, tensors: list):
        return math_ops.add_n(tensors)

    def reduce(self, reduce_op, per_replica_value, destinations, options=None):
        """The sum (or mean) of `per_replica_value`'s replica values.

        Args:
            reduce_op: `tf.distribute.ReduceOp` (or "sum" / "mean").
            per_replica_value: a PerReplica value, or one tensor (a single replica).
            destinations: where the result goes (the CPU here).
            options: accepted for compatibility.
        """
        from .distribute_lib import ReduceOp
        op = ReduceOp.of(reduce_op)
        tensors = [convert_to_tensor(v) for v in _parts(per_replica_value)]
        total = tensors[0] if len(tensors) == 1 else self._accumulate(tensors)
        if op is ReduceOp.MEAN and len(tensors) > 1:
            total = math_ops.divide(total, math_ops.cast(len(tensors), total.dtype))
        return total

    def batch_reduce(self, reduce_op, value_destination_pairs, options=None) -> list:
        """`reduce` of each (value, destinations) pair."""
        return [self.reduce(reduce_op, value, destinations, options)
                for value, destinations in value_destination_pairs]

    def broadcast(self, tensor, destinations):
        """`tensor` on `destinations` (the replicas share this process's memory)."""
        return nest.map_structure(convert_to_tensor, tensor)


class ReductionToOneDevice(CrossDeviceOps):
    """Reduces by gathering the values on one device and adding them there.

    Args:
        reduce_to_device: the device that adds (default: the first destination).
        accumulation_fn: adds a list of tensors (default `tf.math.add_n`).
    """

    def __init__(self, reduce_to_device=None, accumulation_fn=None) -> None:
        self.reduce_to_device = reduce_to_device
        self.accumulation_fn = accumulation_fn or math_ops.add_n

    def _accumulate(self, tensors: list):
        return self.accumulation_fn(tensors)


class _AllReduce(CrossDeviceOps):
    _kind = ""

    def __init__(self, num_packs=1) -> None:
        if num_packs < 0:
            raise ValueError(f"{self._kind} requires num_packs >= 0, but {num_packs} is "
                             "specified")
        self.num_packs = num_packs


class HierarchicalCopyAllReduce(_AllReduce):
    """An all-reduce by copies along a tree of GPUs; here a sum in this process.

    Args:
        num_packs: how many packs the tensors are packed into (>= 0).

    Raises:
        ValueError: `num_packs` < 0.
    """

    _kind = "HierarchicalCopy"


class NcclAllReduce(_AllReduce):
    """An all-reduce by NVIDIA's NCCL on GPUs; here a sum in this process.

    Args:
        num_packs: how many packs the tensors are packed into (>= 0).

    Raises:
        ValueError: `num_packs` < 0.
    """

    _kind = "NCCL all-reduce"
