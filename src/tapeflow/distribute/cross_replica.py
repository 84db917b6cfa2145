"""Collectives on tensors: the communicator's array collectives as tapeflow values.

Eagerly they run at once on the tensors' arrays; while a graph is built (`tf.function`)
each becomes an `EagerPyFunc` node that runs them when the graph runs. The all-reduce of
dense tensors is differentiable (the gradient of a sum over workers is the sum of the
gradients); IndexedSlices are all-gathered, never made dense.
"""
from __future__ import annotations

import numpy as np

from ..custom_gradient import custom_gradient
from ..framework import nest
from ..framework.context import executing_eagerly
from ..framework.execute import execute
from ..framework.indexed_slices import IndexedSlices
from ..framework.tensor import Tensor, convert_to_tensor
from ..ops import math_ops
from ..ops.script_ops import EagerPyFunc, spec_of

__all__ = ["StartedReduction", "all_gather", "all_reduce", "broadcast"]


def _on_arrays(fn, tensors: list, out_specs: list, into=None) -> list:
    """`fn(arrays) -> arrays` on the tensors' values: now, or as a graph node. The values
    are read without a copy and the new arrays `fn` returns are wrapped without one. In a
    graph, `into(index)` may give the array the input `index` is to be computed in (see
    framework/plan.py), or None."""
    if executing_eagerly():
        return [Tensor(a) for a in fn([np.asarray(t) for t in tensors])]

    def call(*values):
        return fn([np.asarray(v) for v in values])

    attrs = {"fn": call, "Tout": out_specs}
    if into is not None:
        attrs["into"] = into
    return list(execute(EagerPyFunc, tuple(tensors), attrs))


def _reduce_dense(communicator, op: str, tensors: list, bytes_per_pack: int, timeout) -> list:
    @custom_gradient
    def reduced(*xs):
        def run(arrays):
            return communicator.all_reduce(arrays, op, bytes_per_pack, timeout)

        ys = _on_arrays(run, list(xs), [spec_of(x) for x in xs])

        def grad(*dys):
            return _reduce_dense(communicator, op, [convert_to_tensor(d) for d in dys],
                                 bytes_per_pack, timeout)

        return ys, grad

    return list(reduced(*tensors)) if tensors else []


class StartedReduction:
    """The sum (or mean) over the workers of dense tensors, started here (at once, or where
    this stands in the graph being built) and finished by `result()`, which may come much
    later: what runs in between overlaps with the communication. `earlier` reductions are
    moved on (`progress`) when this one starts."""

    def __init__(self, communicator, op: str, tensors: list, bytes_per_pack: int = 0,
                 timeout=None, earlier: list = ()) -> None:
        self._specs = [spec_of(t) for t in tensors]
        self._timeout = timeout
        self._running = None
        self._results = None
        self.eager = executing_eagerly()
        # In a graph, the gradients may be computed where they are summed (no copy there).
        places = None if self.eager else communicator.input_places(self._specs,
                                                                   bytes_per_pack)

        def start(arrays):
            for reduction in earlier:
                reduction.progress()
            self._running = communicator.start_all_reduce(arrays, op, bytes_per_pack, places)
            return [np.array(True)]

        self._token = _on_arrays(start, tensors, [(np.dtype(np.bool_), ())], places)[0]

    def progress(self) -> None:
        if self._running is not None:
            self._running.progress()

    def result(self) -> list:
        """The reduced tensors (in a graph: the node that waits for them), made once."""
        if self._results is None:
            def finish(_):
                running, self._running = self._running, None
                return running.wait(self._timeout)

            self._results = _on_arrays(finish, [self._token], self._specs)
        return self._results


def _gather_slices(communicator, op: str, slices: IndexedSlices, timeout) -> IndexedSlices:
    values = all_gather(communicator, slices.values, 0, timeout)
    if op == "mean":
        values = math_ops.divide(values, np.asarray(communicator.size, values.dtype.as_numpy_dtype))
    return IndexedSlices(values, all_gather(communicator, slices.indices, 0, timeout),
                         slices.dense_shape)


def all_reduce(communicator, op: str, values, bytes_per_pack: int = 0, timeout=None):
    """The sum (`op="sum"`) or mean over the workers of each tensor in the structure
    `values`; dense tensors travel packed together, IndexedSlices are all-gathered."""
    flat = nest.flatten(values)
    dense = [i for i, v in enumerate(flat) if not isinstance(v, IndexedSlices)]
    reduced = _reduce_dense(communicator, op, [convert_to_tensor(flat[i]) for i in dense],
                            bytes_per_pack, timeout)
    out = list(flat)
    for i, r in zip(dense, reduced):
        out[i] = r
    for i, v in enumerate(flat):
        if isinstance(v, IndexedSlices):
            out[i] = _gather_slices(communicator, op, v, timeout)
    return nest.pack_sequence_as(values, out)


def all_gather(communicator, value, axis: int, timeout=None):
    """The workers' tensors concatenated along `axis` (their sizes there may differ)."""
    tensor = convert_to_tensor(value)
    dtype, dims = spec_of(tensor)
    dims = None if dims is None else tuple(None if i == axis else d for i, d in enumerate(dims))
    return _on_arrays(lambda arrays: [communicator.all_gather(arrays[0], axis, timeout)],
                      [tensor], [(dtype, dims)])[0]


def broadcast(communicator, values: list, root: int, bytes_per_pack: int = 0,
              timeout=None) -> list:
    """The root worker's tensors (every worker passes tensors of the same specs)."""
    tensors = [convert_to_tensor(v) for v in values]
    return _on_arrays(lambda arrays: communicator.broadcast(arrays, root, bytes_per_pack,
                                                            timeout),
                      tensors, [spec_of(t) for t in tensors])
