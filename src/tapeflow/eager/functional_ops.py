"""Loops and branches over functions: `map_fn`, `scan`, `foldl`, `foldr`, `vectorized_map`,
`switch_case` and `case`.

Eagerly each is a Python loop or branch (a tape records the ops that ran). While a graph is
built, the loops are one `while_loop` reading element t as `elems[t]` and writing results
into TensorArrays, and the branches are nested `cond`s, so tracing, gradients and second
order come from those two.
"""
from __future__ import annotations

from ..framework import dtypes, errors, nest
from ..framework.context import state
from ..framework.graph import FuncGraph
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_spec import TensorSpec
from ..ops.array_ops import concat, expand_dims, shape, stack
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
    flat, n = _elements(elems, "map_fn")
    structure, specs = _output_specs(fn_output_signature if fn_output_signature is not None
                                     else dtype, elems)

    def step(carry, xs):
        out = fn(nest.pack_sequence_as(elems, xs))
        return carry, [convert_to_tensor(o) for o in nest.flatten(out)]

    _, stacked = _iterate(step, flat, n, [], specs, reverse=False)
    return nest.pack_sequence_as(structure, stacked)


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
    """`fn` applied to each element of `elems`, stacked: `map_fn` whose output signature
    is found by tracing `fn` on the first element (a loop; not vectorized).

    Example:
        >>> import tapeflow as tf
        >>> tf.vectorized_map(lambda x: tf.reduce_sum(x * x), tf.ones([3, 2])).numpy()
        array([2., 2., 2.], dtype=float32)
    """
    flat, _ = _elements(elems, "vectorized_map")
    probe = FuncGraph("vectorized_map_probe", outer_graph=state.graph)
    with probe.as_default():
        sample = fn(nest.pack_sequence_as(elems, [
            probe.placeholder(x.dtype._np, TensorShape(x.shape.as_list()[1:]))
            for x in flat]))
    signature = nest.map_structure(
        lambda t: TensorSpec(convert_to_tensor(t).shape, convert_to_tensor(t).dtype), sample)
    return map_fn(fn, elems, fn_output_signature=signature)


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
