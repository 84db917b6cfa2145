"""Horovod's entry points on the same collectives: `rank`, `size`, `allreduce`,
`allgather`, `broadcast`, `broadcast_variables` and `DistributedGradientTape`.

Written the Horovod way, a training script needs no strategy: wrap the tape, broadcast the
initial variables from rank 0, and scale the learning rate by `size()` if you like.
"""
from __future__ import annotations

import contextlib

from ..eager.backprop import final_gradient_hooks
from ..framework.indexed_slices import IndexedSlices
from ..framework.nest import flatten, pack_sequence_as
from ..framework.tensor import convert_to_tensor
from . import cross_replica
from .buckets import GradientBuckets
from .collectives import default_timeout, world
from .distribute_lib import ReduceOp

__all__ = ["Average", "DistributedGradientTape", "Sum", "allgather", "allreduce", "broadcast",
           "broadcast_variables", "init", "local_rank", "local_size", "rank", "size"]

Average = ReduceOp.MEAN
Sum = ReduceOp.SUM


def init() -> None:
    """Starts the collectives (done on first use otherwise)."""
    world()


def rank() -> int:
    """This process's rank among the workers (0: the chief).

    Example:
        >>> import tapeflow.distribute as hvd
        >>> hvd.rank(), hvd.size()    # run without mpiexec: one worker
        (0, 1)
    """
    return world().rank


def size() -> int:
    """The number of workers."""
    return world().size


def local_rank() -> int:
    """This process's rank among the workers on its machine."""
    return world().local_rank


def local_size() -> int:
    """The number of workers on this machine."""
    return world().local_size


def allreduce(tensor, average=None, op=None, name=None):
    """The mean (default) or sum of `tensor` over the workers.

    Args:
        tensor: a tensor, array or IndexedSlices (all-gathered, not made dense).
        average: Horovod's older flag: True for Average, False for Sum.
        op: `Average` or `Sum` (tf.distribute.ReduceOp MEAN or SUM).

    Returns:
        A tensor (IndexedSlices for IndexedSlices), the same on every worker.

    Raises:
        ValueError: both `average` and `op` given.

    Example:
        >>> import tapeflow as tf
        >>> import tapeflow.distribute as hvd
        >>> hvd.allreduce(tf.constant([2.0, 4.0])).numpy()
        array([2., 4.], dtype=float32)
    """
    if average is not None and op is not None:
        raise ValueError("allreduce: give `average` or `op`, not both")
    op = ReduceOp.of(op) if op is not None else (Sum if average is False else Average)
    return cross_replica.all_reduce(world(), op.value.lower(), tensor,
                                    timeout=default_timeout())


def allgather(tensor, name=None):
    """Every worker's `tensor` concatenated along the first axis (sizes there may differ).

    Example:
        >>> import tapeflow as tf
        >>> import tapeflow.distribute as hvd
        >>> hvd.allgather(tf.constant([[1, 2]])).shape
        TensorShape([1, 2])
    """
    return cross_replica.all_gather(world(), tensor, 0, default_timeout())


def broadcast(tensor, root_rank: int, name=None):
    """The `root_rank` worker's `tensor`, on every worker.

    Raises:
        InvalidArgumentError: `root_rank` is not a worker's rank.

    Example:
        >>> import tapeflow as tf
        >>> import tapeflow.distribute as hvd
        >>> int(hvd.broadcast(tf.constant(7), root_rank=0))
        7
    """
    return cross_replica.broadcast(world(), [tensor], root_rank,
                                   timeout=default_timeout())[0]


def broadcast_variables(variables, root_rank: int = 0) -> None:
    """Assigns every worker's `variables` the values of the `root_rank` worker's, in a few
    packed broadcasts (call it after the variables are made, before training).

    Example:
        >>> import tapeflow as tf
        >>> import tapeflow.distribute as hvd
        >>> w = tf.Variable([1.0, 2.0])
        >>> hvd.broadcast_variables([w], root_rank=0)
        >>> w.numpy()
        array([1., 2.], dtype=float32)
    """
    variables = list(variables)
    values = cross_replica.broadcast(world(), [v.read_value() for v in variables], root_rank,
                                     timeout=default_timeout())
    for variable, value in zip(variables, values):
        variable.assign(value)


class DistributedGradientTape:
    """A GradientTape whose `gradient` returns gradients averaged (or summed) over the
    workers, dense ones packed into few buffers, IndexedSlices all-gathered.

    Args:
        gradtape: the `tf.GradientTape` that recorded the loss.
        op: `Average` (default) or `Sum`.
        sparse_as_dense: make IndexedSlices gradients dense before reducing them.
        compression, device_dense, device_sparse: accepted for compatibility.

    Example:
        >>> import tapeflow as tf
        >>> import tapeflow.distribute as hvd
        >>> w = tf.Variable(3.0)
        >>> with tf.GradientTape() as tape:
        ...     loss = w * w
        >>> tape = hvd.DistributedGradientTape(tape)
        >>> float(tape.gradient(loss, w))
        6.0
    """

    def __init__(self, gradtape, device_dense="", device_sparse="", compression=None,
                 sparse_as_dense=False, op=Average, **kwargs) -> None:
        self._tape = gradtape
        self._op = ReduceOp.of(op)
        self._sparse_as_dense = sparse_as_dense

    def gradient(self, target, sources, output_gradients=None, **kwargs):
        """The tape's gradients, reduced over the workers (None stays None). The dense ones
        start their reduction while the backward pass still runs (`buckets`)."""
        communicator, op = world(), self._op.value.lower()
        started = []

        def start_reductions(flat_sources):
            started.append(GradientBuckets(communicator, flat_sources,
                                           set(range(len(flat_sources))), op,
                                           timeout=default_timeout()))
            return started[-1]

        with contextlib.ExitStack() as hooks:
            if communicator.size > 1:
                hooks.enter_context(final_gradient_hooks(start_reductions))
            grads = self._tape.gradient(target, sources, output_gradients, **kwargs)
        flat = flatten(grads)
        rest = []
        for i, g in enumerate(flat):
            reduced = started[0].reduced(g) if started and g is not None else None
            if reduced is not None:
                flat[i] = reduced
            elif g is not None:
                rest.append(i)
        values = [flat[i] for i in rest]
        if self._sparse_as_dense:
            values = [convert_to_tensor(v) if isinstance(v, IndexedSlices) else v for v in values]
        reduced = cross_replica.all_reduce(communicator, op, values, timeout=default_timeout())
        for i, r in zip(rest, reduced):
            flat[i] = r
        return pack_sequence_as(grads, flat)

    def __getattr__(self, name: str):
        return getattr(self._tape, name)

    def __enter__(self):
        self._tape.__enter__()
        return self

    def __exit__(self, *exc):
        return self._tape.__exit__(*exc)
