"""Loops and branches over functions: `map_fn`, `scan`, `foldl`, `foldr`, `vectorized_map`,
`switch_case` and `case`.

Eagerly each is a Python loop or branch (a tape records the ops that ran). While a graph is
built, the loops are one `while_loop` reading element t as `elems[t]` and writing results
into TensorArrays, and the branches are nested `cond`s, so tracing, gradients and second
order come from those two. `vectorized_map` traces its function once and runs each op of
the trace once on the whole batch, as the op's declared family and batching facts allow.
"""
from __future__ import annotations

from ..framework import dtypes, errors, nest
from ..framework.composite_tensor import CompositeTensor, is_composite_spec
from ..ops.extension_type import BatchableExtensionType, BatchableExtensionTypeSpec
from ..framework.context import state
from ..framework.graph import FuncGraph
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_spec import TensorSpec
from ..framework.execute import execute
from ..framework.registry import ELEMENTWISE, Stacking
from ..ops.array_ops import broadcast_to, concat, expand_dims, shape, stack
from ..ops.tensor_array_ops import TensorArray
from .control_flow import cond, while_loop

__all__ = ["map_fn", "scan", "foldl", "foldr", "vectorized_map", "switch_case", "case"]


def _elements(elems, what: str) -> tuple:
    """The flat tensors of `elems` and their common length (an int when static)."""
    flat = [convert_to_tensor(e) for e in nest.flatten(elems)]
    if not flat:
        raise ValueError(f"{what}: elems must hold at least one tensor")
    lengths = {e.shape[0] if e.shape.rank else None for e in flat}
    if any(e.shape.rank == 0 for e in flat):
        raise ValueError(f"{what}: the elements of elems must have rank >= 1, got shapes "
                         f"{[str(e.shape) for e in flat]}")
    known = lengths - {None}
    if len(known) > 1:
        raise ValueError(f"{what}: the tensors of elems must have one first dimension, got "
                         f"{sorted(known)}")
    n = known.pop() if known else shape(flat[0])[0]
    return flat, n


def _iterate(step, flat: list, n, carry, outputs: list, reverse: bool) -> tuple:
    """Runs `carry, out = step(carry, [x[t] for x in flat])` for t over range(n) (backwards
    when `reverse`); returns the last carry and each output stacked in order of t.

    `outputs` gives the (dtype, element shape) of each output; a graph collects them in
    TensorArrays written inside one while_loop.
    """
    if state.graph is None:
        order = range(int(n) - 1, -1, -1) if reverse else range(int(n))
        collected = []
        for t in order:
            carry, out = step(carry, [x[t] for x in flat])
            collected.append(out)
        if reverse:
            collected.reverse()
        if not collected:
            return carry, [TensorArray(dtype, size=0, element_shape=s).stack()
                           for dtype, s in outputs]
        return carry, [stack([out[k] for out in collected]) for k in range(len(outputs))]

    arrays = [TensorArray(dtype, size=n, element_shape=s) for dtype, s in outputs]

    def body(i, carry, arrays):
        t = n - 1 - i if reverse else i
        carry, out = step(carry, [x[t] for x in flat])
        return i + 1, carry, [a.write(t, o) for a, o in zip(arrays, out)]

    _, carry, arrays = while_loop(lambda i, carry, arrays: i < n, body,
                                  (convert_to_tensor(0), carry, arrays))
    return carry, [a.stack() for a in arrays]


def _output_specs(signature, default) -> tuple:
    """The structure and flat (dtype, element shape) of a map's outputs."""
    structure = default if signature is None else signature
    specs = []
    for leaf in nest.flatten(structure):
        if isinstance(leaf, TensorSpec):
            specs.append((leaf.dtype, leaf.shape))
        elif hasattr(leaf, "dtype") and hasattr(leaf, "shape") and signature is None:
            specs.append((leaf.dtype, TensorShape(None)))
        else:
            specs.append((dtypes.as_dtype(leaf), TensorShape(None)))
    return structure, specs


def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False,
           infer_shape=True, name=None, fn_output_signature=None):
    """`fn` applied to each element of `elems` (each slice along the first axis), stacked.

    Args:
        fn: a function of one element (with the structure of `elems`).
        elems: a tensor or a (nested) structure of tensors of one first dimension.
        dtype: the old name of `fn_output_signature`.
        fn_output_signature: the outputs' dtypes or TensorSpecs (a structure); by default
            the structure and dtypes of `elems`.

    Returns:
        The stacked outputs, with the structure of `fn_output_signature`.

    Raises:
        ValueError: `elems` is empty, scalar, or of several first dimensions.

    Example:
        >>> import tapeflow as tf
        >>> tf.map_fn(lambda x: x * x, tf.constant([1.0, 2.0, 3.0])).numpy()
        array([1., 4., 9.], dtype=float32)
        >>> tf.map_fn(lambda p: p[0] + tf.cast(p[1], tf.float32),
        ...           (tf.constant([1.0, 2.0]), tf.constant([10, 20])),
        ...           fn_output_signature=tf.float32).numpy()
        array([11., 22.], dtype=float32)
    """
    signature = fn_output_signature if fn_output_signature is not None else dtype
    if any(isinstance(x, CompositeTensor) for x in nest.flatten(elems)) or \
            any(is_composite_spec(s) for s in nest.flatten(signature)):
        return _map_rows(fn, elems, signature)
    flat, n = _elements(elems, "map_fn")
    structure, specs = _output_specs(signature, elems)

    def step(carry, xs):
        out = fn(nest.pack_sequence_as(elems, xs))
        return carry, [convert_to_tensor(o) for o in nest.flatten(out)]

    _, stacked = _iterate(step, flat, n, [], specs, reverse=False)
    return nest.pack_sequence_as(structure, stacked)


def _map_rows(fn, elems, signature):
    """map_fn over RaggedTensor elements or to ragged outputs: `fn` on each row in turn
    (the rows' count is known), outputs of a RaggedTensorSpec stacked as ragged rows."""
    from ..ops.ragged import ragged_ops
    leaves = nest.flatten(elems)
    counts = {_rows(x) for x in leaves}
    if len(counts) != 1 or None in counts:
        raise ValueError(f"map_fn: the elements' first dimensions must be one known size, "
                         f"got {sorted(map(str, counts))}")
    n = counts.pop()
    structure = signature if signature is not None else \
        nest.map_structure(lambda x: x._type_spec._unbatch() if isinstance(x, CompositeTensor)
                           else x.dtype, elems)
    outputs = [nest.flatten(fn(nest.pack_sequence_as(elems, [_row(x, i) for x in leaves])))
               for i in range(n)]

    def stack_column(column, spec):
        if isinstance(spec, BatchableExtensionTypeSpec):
            return spec._stack(column, stack_column)
        return ragged_ops.stack(column) if is_composite_spec(spec) else \
            stack([convert_to_tensor(c) for c in column])
    stacked = [stack_column([row[j] for row in outputs], spec)
               for j, spec in enumerate(nest.flatten(structure))]
    return nest.pack_sequence_as(structure, stacked)


def _rows(x):
    """The number of rows of a map_fn element (a tensor, ragged or batchable extension
    type)."""
    if isinstance(x, BatchableExtensionType):
        return x._type_spec._rows(x, _rows)
    return x.shape[0]


def _row(x, i: int):
    if isinstance(x, BatchableExtensionType):
        return x._type_spec._row(x, i, _row)
    return x[i]


def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
         swap_memory=False, infer_shape=True, reverse=False, name=None):
    """The running accumulation `acc = fn(acc, x)` over the elements of `elems`, stacked.

    Args:
        fn: a function of (accumulator, element) returning the next accumulator.
        elems: a tensor or structure of tensors, scanned along the first axis.
        initializer: the first accumulator; by default the first element (which is then
            the first output).
        reverse: scan from the last element to the first.

    Returns:
        Every accumulator, stacked (in the order of `elems`), with the accumulator's
        structure.

    Example:
        >>> import tapeflow as tf
        >>> tf.scan(lambda a, x: a + x, tf.constant([1, 2, 3, 4])).numpy()
        array([ 1,  3,  6, 10], dtype=int32)
    """
    flat, n = _elements(elems, "scan")
    return _accumulate(fn, elems, flat, n, initializer, reverse, keep=True)


def _accumulate(fn, elems, flat, n, initializer, reverse: bool, keep: bool):
    if initializer is None:
        # The first element (last when reversed) starts the accumulation.
        first = n - 1 if reverse else 0
        carry = [x[first] for x in flat]
        structure = elems
        rest = [x[:-1] if reverse else x[1:] for x in flat]
        n = n - 1
    else:
        structure = initializer
        carry = [convert_to_tensor(c) for c in nest.flatten(initializer)]
        rest = flat

    def step(carry, xs):
        new = fn(nest.pack_sequence_as(structure, carry), nest.pack_sequence_as(elems, xs))
        new = [convert_to_tensor(c) for c in nest.flatten(new)]
        return new, new if keep else []

    specs = [(c.dtype, c.shape) for c in carry] if keep else []
    final, stacked = _iterate(step, rest, n, carry, specs, reverse)
    if not keep:
        return nest.pack_sequence_as(structure, final)
    if initializer is None:
        stacked = [concat([s, expand_dims(c, 0)] if reverse else [expand_dims(c, 0), s], 0)
                   for s, c in zip(stacked, carry)]
    return nest.pack_sequence_as(structure, stacked)


def foldl(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
          swap_memory=False, name=None):
    """The accumulation `acc = fn(acc, x)` over `elems` from first to last.

    Example:
        >>> import tapeflow as tf
        >>> int(tf.foldl(lambda a, x: a * 10 + x, tf.constant([1, 2, 3])))
        123
    """
    flat, n = _elements(elems, "foldl")
    return _accumulate(fn, elems, flat, n, initializer, reverse=False, keep=False)


def foldr(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
          swap_memory=False, name=None):
    """The accumulation `acc = fn(acc, x)` over `elems` from last to first.

    Example:
        >>> import tapeflow as tf
        >>> int(tf.foldr(lambda a, x: a * 10 + x, tf.constant([1, 2, 3])))
        321
    """
    flat, n = _elements(elems, "foldr")
    return _accumulate(fn, elems, flat, n, initializer, reverse=True, keep=False)


def vectorized_map(fn, elems, fallback_to_while_loop=True, warn=True):
    """`fn` applied to each element of `elems`, stacked, computed on the whole batch at once.

    `fn` is traced once on one element; each op of the trace then runs once on the batch,
    as the op's declared facts allow: elementwise ops as they are (ranks aligned), ops that
    batch by stacking with their attributes shifted, and any other op once per element.
    Functions that write variables run as `map_fn`.

    Example:
        >>> import tapeflow as tf
        >>> tf.vectorized_map(lambda x: tf.reduce_sum(x * x), tf.ones([3, 2])).numpy()
        array([2., 2., 2.], dtype=float32)
    """
    flat, n = _elements(elems, "vectorized_map")
    probe = FuncGraph("vectorized_map", outer_graph=state.graph)
    with probe.as_default():
        placeholders = [probe.placeholder(x.dtype._np, TensorShape(x.shape.as_list()[1:]))
                        for x in flat]
        sample = fn(nest.pack_sequence_as(elems, placeholders))
        outputs = [probe._graph_input(convert_to_tensor(t)) for t in nest.flatten(sample)]
    try:
        return nest.pack_sequence_as(sample, _batched_run(probe, placeholders, outputs, flat, n))
    except _Unbatchable:
        signature = nest.map_structure(
            lambda t: TensorSpec(convert_to_tensor(t).shape, convert_to_tensor(t).dtype), sample)
        return map_fn(fn, elems, fn_output_signature=signature)


class _Unbatchable(Exception):
    """A traced op that vectorized_map cannot run on the batch (it runs map_fn instead)."""


def _batched_run(graph, placeholders: list, outputs: list, flat: list, n) -> list:
    """The traced `graph`'s `outputs` for every element at once: each value is (tensor,
    batched), a batched one with the elements along a new first axis."""
    values = {p._id: (x, True) for p, x in zip(placeholders, flat)}
    values.update({inner._id: (outer, False) for outer, inner in graph.captures.values()})
    for op in graph._ops:
        if op._stateful:
            raise _Unbatchable(op.type)
        if op.type == "Const":
            values[op._outputs[0]._id] = (convert_to_tensor(op._outputs[0]._const), False)
            continue
        if op.type == "ReadVariableOp":  # the variable itself: ops read it where they run
            values[op._outputs[0]._id] = (op._inputs[0], False)
            continue
        if op.type == "Placeholder":
            if op._outputs[0]._id not in values:
                raise _Unbatchable("an input it was not given")
            continue
        inputs = [x if not hasattr(x, "_op") else values[x._id] for x in op._inputs]
        inputs = [x if isinstance(x, tuple) else (x, False) for x in inputs]
        outs = _batched_op(op, inputs, n)
        for o, v in zip(op._outputs, outs):
            values[o._id] = v
    return [_broadcast_rows(*values[o._id], n) for o in outputs]


def _batched_op(op, inputs: list, n) -> list:
    op_def, attrs = op._op_def, op._attrs
    if not any(batched for _, batched in inputs):
        return [(o, False) for o in _as_list(execute(op_def, tuple(v for v, _ in inputs),
                                                    attrs))]
    if op_def.family is ELEMENTWISE and op._outputs[0].shape.rank is not None:
        rank = op._outputs[0].shape.rank
        aligned = []
        for (v, batched), x in zip(inputs, op._inputs):
            if batched:
                if x.shape.rank is None:
                    raise _Unbatchable(op.type)
                for _ in range(rank - x.shape.rank):  # the element's rank broadcast to the output's
                    v = expand_dims(v, 1)
            aligned.append(v)
        return [(o, True) for o in _as_list(execute(op_def, tuple(aligned), attrs))]
    stacking = op_def.batching if isinstance(op_def.batching, Stacking) else None
    shifted = None if stacking is None or not all(b for _, b in inputs) else \
        stacking.attrs(attrs, n)
    if shifted is not None:
        return [(o, True) for o in _as_list(execute(op_def, tuple(v for v, _ in inputs),
                                                    shifted))]
    if not isinstance(n, int):
        raise _Unbatchable(op.type)
    rows = [_as_list(execute(op_def, tuple(v[i] if b else v for v, b in inputs), attrs))
            for i in range(n)]
    return [(stack([row[k] for row in rows]), True) for k in range(len(op._outputs))]


def _as_list(outs) -> list:
    return list(outs) if isinstance(outs, (list, tuple)) else [outs]


def _broadcast_rows(value, batched: bool, n):
    value = convert_to_tensor(value)
    if batched:
        return value
    return broadcast_to(expand_dims(value, 0), concat([[n], shape(value)], 0))


def switch_case(branch_index, branch_fns, default=None, name="switch_case"):
    """The result of `branch_fns[branch_index]()`; `default()` (or the last branch) when
    the index is out of range.

    Args:
        branch_index: an int32 scalar tensor (or int).
        branch_fns: a list of functions, a dict {int: function}, or (int, function) pairs.
        default: called for an index no branch has.

    Returns:
        What the chosen function returns.

    Raises:
        TypeError: a branch is not callable.

    Example:
        >>> import tapeflow as tf
        >>> float(tf.switch_case(tf.constant(1), [lambda: tf.constant(1.0),
        ...                                       lambda: tf.constant(2.0)]))
        2.0
    """
    pairs = sorted(branch_fns.items()) if isinstance(branch_fns, dict) else \
        list(branch_fns) if branch_fns and isinstance(list(branch_fns)[0], tuple) else \
        list(enumerate(branch_fns))
    if not pairs or not all(callable(f) for _, f in pairs):
        raise TypeError("switch_case: branch_fns must be a non-empty list or dict of callables")
    if default is None:
        *pairs, (_, default) = pairs
    index = convert_to_tensor(branch_index)
    if state.graph is None:
        return dict(pairs).get(int(index), default)()
    return _chain([(lambda k=k: index == k, f) for k, f in pairs], default)


def _chain(pairs: list, default):
    """Nested conds: the first pair whose predicate holds, else `default`."""
    if not pairs:
        return default()
    (pred, fn), rest = pairs[0], pairs[1:]
    return cond(pred(), fn, lambda: _chain(rest, default))


def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name="case"):
    """The result of the function paired with the first true predicate; `default()` (or
    the last pair's function) when none holds.

    Args:
        pred_fn_pairs: (boolean scalar tensor, function) pairs, or a dict of them.
        default: called when no predicate holds.
        exclusive: eagerly, more than one true predicate is an InvalidArgumentError.

    Raises:
        TypeError: a function is not callable.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.constant(3)
        >>> int(tf.case([(x < 0, lambda: tf.constant(-1)), (x > 0, lambda: tf.constant(1))],
        ...             default=lambda: tf.constant(0)))
        1
    """
    pairs = list(pred_fn_pairs.items()) if isinstance(pred_fn_pairs, dict) else \
        list(pred_fn_pairs)
    if not pairs or not all(callable(f) for _, f in pairs):
        raise TypeError("case: pred_fn_pairs must be a non-empty list of (predicate, callable)")
    if default is None:
        default = pairs[-1][1]
    if state.graph is None:
        taken = [f for p, f in pairs if bool(p)]
        if exclusive and len(taken) > 1:
            raise errors.InvalidArgumentError(
                None, "case", f"case: {len(taken)} predicates are true but exclusive=True")
        return (taken[0] if taken else default)()
    return _chain([(lambda p=p: p, f) for p, f in pairs], default)
