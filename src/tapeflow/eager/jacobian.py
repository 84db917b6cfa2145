"""GradientTape.jacobian and GradientTape.batch_jacobian.

By default both run the backward pass once for all output elements, with a batch of one-hot
upstream gradients (the batched domain of eager/backward.py). `experimental_use_pfor=False` runs one
`gradient` call per output element instead, on a persistent tape, as TF's loop does.
Inside a tf.function both build graph ops through the same rules; when a shape is not
fully known while tracing (an input_signature with None), the Jacobian is computed when
the graph runs, from the values of the recorded ops.
"""
from __future__ import annotations

import numpy as np

from ..framework import nest
from ..framework.context import state
from ..framework.indexed_slices import IndexedSlices
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.variables import Variable
from ..ops.array_ops import ConcatV2, Reshape, Transpose
from ..ops.op_util import dtype_of, shape_of
from .backward import UnconnectedGradients, as_unconnected, backward, reachable
from .domains import BatchedDomain, GraphDomain, dense, eager_domain
from .tape import Tape, is_trainable, snapshot

__all__ = ["jacobian", "batch_jacobian"]


def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
             parallel_iterations=None, experimental_use_pfor=True):
    """The Jacobian of `target` with respect to each of `sources`.

    Unlike `gradient`, nothing is summed: the result for a source has shape
    `target.shape + source.shape`, entry [i..., j...] being d target[i...] / d source[j...].

    Args:
        target: a Tensor or Variable.
        sources: a Tensor or Variable, or a nested structure of them.
        unconnected_gradients: 'none' (None for an unconnected source) or 'zero'.
        parallel_iterations: how many output elements to differentiate at once (all when
            None); bounds the memory of the vectorized pass.
        experimental_use_pfor: vectorize (default); False runs one backward pass per
            output element, which needs a persistent tape.

    Returns:
        A structure like `sources` of Tensors (or None where unconnected).

    Raises:
        RuntimeError: the non-persistent tape was already used, or
            `experimental_use_pfor=False` on a non-persistent tape.
        ValueError: a source is not a Tensor or Variable, or an unknown
            `unconnected_gradients`.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.constant([1.0, 2.0])
        >>> with tf.GradientTape() as g:
        ...     g.watch(x)
        ...     y = x * x
        >>> g.jacobian(y, x).numpy()
        array([[2., 0.],
               [0., 4.]], dtype=float32)
    """
    _check_usable(self)
    unconnected = as_unconnected(unconnected_gradients)
    target = _as_target(self, target)
    flat_sources = _flat_sources(sources)
    if not _static(target, flat_sources):
        return nest.pack_sequence_as(sources, _at_run_time(
            self, "jacobian", target, flat_sources, unconnected, parallel_iterations,
            experimental_use_pfor))
    target_shape = target._value.shape
    size = int(np.prod(target_shape))
    upstream = np.eye(size, dtype=target._value.dtype).reshape((size,) + target_shape)
    rows = _backward(self, target, flat_sources, upstream, parallel_iterations,
                     experimental_use_pfor, "jacobian")
    results = []
    for source, g in zip(flat_sources, rows):
        shape = target_shape + source._value.shape
        if g is None:
            if unconnected is UnconnectedGradients.ZERO:
                g = Tensor(np.zeros(shape, source._value.dtype))
        else:
            g = Reshape(g, shape)
        results.append(g)
    return nest.pack_sequence_as(sources, results)


def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                   parallel_iterations=None, experimental_use_pfor=True):
    """Per-example Jacobians: entry i is the Jacobian of target[i] with respect to source[i].

    Assumes target[i] depends on source[i] only (as in a batch of independent examples);
    costs one backward pass per element of a target row, all run at once by default.

    Args:
        target: a Tensor of shape [b, y1, ..., yn], rank 2 or more.
        source: a Tensor or Variable of shape [b, x1, ..., xm], rank 2 or more.
        unconnected_gradients: accepted for TF compatibility; an unconnected source gives
            zeros either way, as in TF.
        parallel_iterations: how many row elements to differentiate at once (all when None).
        experimental_use_pfor: vectorize (default); False loops, on a persistent tape.

    Returns:
        A Tensor of shape [b, y1, ..., yn, x1, ..., xm].

    Raises:
        RuntimeError: the non-persistent tape was already used, or
            `experimental_use_pfor=False` on a non-persistent tape.
        ValueError: a rank below 2, or first dimensions of target and source that differ.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        >>> with tf.GradientTape() as g:
        ...     g.watch(x)
        ...     y = x * x
        >>> g.batch_jacobian(y, x).numpy()
        array([[[2., 0.],
                [0., 4.]],
        <BLANKLINE>
               [[6., 0.],
                [0., 8.]]], dtype=float32)
    """
    _check_usable(self)
    as_unconnected(unconnected_gradients)
    target = _as_target(self, target)
    (source,) = _flat_sources(source)
    if not _static(target, [source]):
        rank_t, rank_s = target.shape.rank, source.shape.rank
        if (rank_t is not None and rank_t < 2) or (rank_s is not None and rank_s < 2) or \
                rank_t and rank_s and not target.shape[:1].is_compatible_with(source.shape[:1]):
            raise ValueError(f"Need first dimension of target shape {target.shape} and source "
                             f"shape {source.shape} to match; both need rank 2 or more.")
        (g,) = _at_run_time(self, "batch_jacobian", target, [source], None,
                            parallel_iterations, experimental_use_pfor)
        return g
    target_shape = target._value.shape
    source_shape = source._value.shape
    if len(target_shape) < 2 or len(source_shape) < 2 or target_shape[0] != source_shape[0]:
        raise ValueError(f"Need first dimension of target shape {list(target_shape)} and source "
                         f"shape {list(source_shape)} to match; both need rank 2 or more.")
    batch = target_shape[0]
    row = int(np.prod(target_shape[1:]))
    one_hot = np.eye(row, dtype=target._value.dtype)[:, None, :]
    upstream = np.broadcast_to(one_hot, (row, batch, row)).reshape((row,) + target_shape)
    (g,) = _backward(self, target, [source], upstream, parallel_iterations,
                     experimental_use_pfor, "batch_jacobian")
    shape = target_shape + source_shape[1:]
    if g is None:
        return Tensor(np.zeros(shape, target._value.dtype))
    g = Transpose(g, perm=(1, 0) + tuple(range(2, len(source_shape) + 1)))
    return Reshape(g, shape)


def _check_usable(tape) -> None:
    if tape._tape is None:
        raise RuntimeError("A non-persistent GradientTape can only be used to compute one set "
                           "of gradients (or jacobians).")


def _as_target(tape, target) -> Tensor:
    """The target as a Tensor; an IndexedSlices is made dense on the tape, as TF does."""
    if not isinstance(target, IndexedSlices):
        return snapshot(target)
    if tape._recording:
        return convert_to_tensor(target)
    tape._push()
    try:
        return convert_to_tensor(target)
    finally:
        tape._pop()


def _static(target, sources: list) -> bool:
    """Whether the shapes of `target` and `sources` are fully known (always so eagerly)."""
    return all(not hasattr(t, "_op") or t.shape.is_fully_defined() for t in [target, *sources])


def _at_run_time(self, method: str, target, sources: list, unconnected, parallel_iterations,
                 use_pfor: bool) -> list:
    """`method` ('jacobian' or 'batch_jacobian') of a tape that recorded graph ops whose
    shapes are not all known while the graph is built: one EagerPyFunc node runs it on the
    recorded ops' values when the graph runs. Sources the target does not reach give None
    (zeros for batch_jacobian, or with unconnected 'zero')."""
    from ..framework.plan import current_value
    from ..ops.script_ops import EagerPyFunc
    if not use_pfor and not self._persistent:
        raise RuntimeError(f"GradientTape must be created with persistent=True to compute the "
                           f"{method} with experimental_use_pfor set to False.")
    if self._recording and not self._persistent:
        self._pop()
    tape = self._tape
    if not self._persistent:
        self._tape = None
    entries = list(tape.entries)
    reached = reachable(entries, {s._id for s in sources})
    batch = method == "batch_jacobian"
    connected = [batch or unconnected is UnconnectedGradients.ZERO or target._id in reached
                 for s in sources]
    symbolic: dict = {}
    for t in [target, *sources, *[x for _, ins, outs, _ in entries for x in (*ins, *outs)]]:
        if hasattr(t, "_op"):
            symbolic.setdefault(t._id, t)
    order = list(symbolic.values())
    kwargs = {"parallel_iterations": parallel_iterations, "experimental_use_pfor": use_pfor}
    if not batch:
        kwargs["unconnected_gradients"] = "zero"

    def run(*values):
        new = {t._id: v if isinstance(v, Tensor) else Tensor(np.asarray(v))
               for t, v in zip(order, values)}

        def value(x):
            if x._id not in new:
                if not isinstance(x, Variable):
                    return x  # an eager constant
                new[x._id] = Tensor(current_value(x) if hasattr(x, "_graph") else x._value)
            return new[x._id]

        copy = Tape()
        copy.entries = [(op, tuple([value(x) for x in ins]), tuple([value(o) for o in outs]),
                         attrs) for op, ins, outs, attrs in entries]
        for x in sources:
            value(x)
        copy.ids = {new[i]._id if i in new else i for i in tape.ids}
        copy.watched = {new[i]._id if i in new else i for i in tape.watched}
        eager = type(self)(persistent=True)
        eager._tape = copy
        inputs = [value(s) for s in sources]
        result = getattr(eager, method)(value(target), inputs if not batch else inputs[0],
                                        **kwargs)
        return [r for r, c in zip(result if not batch else [result], connected) if c]

    specs = []
    for s, c in zip(sources, connected):
        if c:
            t_dims, s_dims = _dims_of(target), _dims_of(s)
            dims = None if t_dims is None or s_dims is None else \
                t_dims + (s_dims[1:] if batch else s_dims)
            specs.append((s._value.dtype, dims))
    outs = iter(EagerPyFunc(*order, fn=run, Tout=specs) if specs else ())
    return [next(outs) if c else None for c in connected]


def _dims_of(t):
    if hasattr(t, "_dims"):
        return t._dims
    return tuple(t.shape.dims) if t.shape.rank is not None else None


def _flat_sources(sources) -> list:
    flat = nest.flatten(sources)
    for s in flat:
        if not isinstance(s, (Tensor, Variable)):
            raise ValueError(f"jacobian sources must be Tensors or Variables, got {s!r}")
    return flat


def _backward(self, target, sources: list, upstream: np.ndarray, parallel_iterations,
              use_pfor: bool, name: str) -> list:
    """For each source, the gradients seeded with each row of `upstream`, stacked."""
    if not use_pfor:
        if not self._persistent:
            raise RuntimeError(f"GradientTape must be created with persistent=True to compute "
                               f"the {name} with eager execution enabled and with "
                               "experimental_use_pfor set to False.")
        if not len(upstream):  # no rows: one seed with no elements tells what is connected
            seed = np.zeros(upstream.shape[1:], upstream.dtype)
            return [None if g is None else Tensor(np.zeros((0,) + shape_of(dense(g)),
                                                           dtype_of(dense(g))))
                    for g in self.gradient(target, sources, output_gradients=[seed])]
        return _stack([self.gradient(target, sources, output_gradients=[u]) for u in upstream])
    if not is_trainable(target):
        return [None] * len(sources)
    if self._recording and not self._persistent:
        self._pop()
    tape = self._tape
    if not self._persistent:
        self._tape = None
    size = len(upstream)
    step = size if parallel_iterations is None else max(1, int(parallel_iterations))
    if step >= size:
        return _batched(tape, target, sources, upstream, consume=not self._persistent)
    return _stack([_batched(tape, target, sources, upstream[i:i + step], consume=False)
                   for i in range(0, size, step)], concat=True)


def _batched(tape, target, sources: list, upstream, consume: bool) -> list:
    """For each source, the gradients of `target` seeded with each row of `upstream` (one
    reverse pass in the batched domain), stacked along a new first axis."""
    inner = GraphDomain() if state.graph is not None else eager_domain()
    return backward(tape.entries, [target], [upstream], sources,
                    BatchedDomain(inner, shape_of(upstream)[0]), tape=tape, consume=consume)


def _stack(rows: list, concat: bool = False) -> list:
    """Per source: the rows stacked (or concatenated) along a new first axis; None if all are.

    Rows that are None (an unconnected seed) are zeros, so every stacked row has its place.
    """
    stacked = []
    for column in zip(*rows):
        present = next((g for g in column if g is not None), None)
        if present is None:
            stacked.append(None)
            continue
        present = dense(present)
        zeros = np.zeros(shape_of(present), dtype_of(present))
        tensors = bool(state.recorders) or state.graph is not None
        pieces = [zeros if g is None else dense(g) if tensors else dense(g)._value
                  for g in column]
        if not concat:
            pieces = [Reshape(p, (1,) + zeros.shape) for p in pieces]
        result = ConcatV2(*pieces, axis=0)
        stacked.append(result if isinstance(result, Tensor) else Tensor(result))
    return stacked
