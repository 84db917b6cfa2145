"""Static dtypes and shapes of a graph op's outputs, found by running its kernel on probes.

An op may define `shape_fn(inputs, attrs) -> [(numpy dtype, dims)]`; most do not, and
the kernel itself answers: it runs on small stand-in arrays (constant inputs keep their
real value). Inputs with unknown dimensions are probed twice, with those dimensions 2 and
then 3, and with different values; a dimension of the output that differs between the two
runs is unknown (None); an input of unknown rank is probed as ranks 1 and 2. An op whose
inputs are all constants is folded into constants when two runs agree; so is `Shape` (and
`Size`, `Rank`) of a tensor whose shape is fully known. Incompatible known dimensions of an
elementwise op's operands, and what an op's `shape_fn` rejects (it returns None when it has
no shape to give), are a ValueError as in TF. A probe that fails with fully known input
shapes (and constant integer inputs) is a graph construction error (ValueError), as TF's
shape functions raise.

Besides its shape, inference tracks what is known of each graph tensor's value while the
graph is built (`known_value`): all of it for a constant, and for whatever is computed from
constants and fully known static shapes (`tf.shape(x)[1] * tf.shape(x)[2]` of an x of shape
[None, 3, 4] is known to be 12); and, for a 1-D integer tensor such as a shape vector, the
entries known so far (`tf.concat([tf.shape(x)[:1], [12]], 0)` is known as (None, 12)). An op
states how its outputs' values follow from partly known inputs with a `value_fn(inputs,
attrs)`; ops whose inputs are all fully known are run. Known values stand in for the probes,
so shapes that depend on them come out exact (`tf.range(tf.shape(x)[1])` has shape [3]).
Only constants are constants to user code (`tf.get_static_value`, NumPy conversion).
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from .execute import tf_wording
from .string_values import as_value
from .registry import ELEMENTWISE, SHAPE_ONLY

__all__ = ["infer_outputs", "broadcast_dims", "constant_shape", "shape_text", "known_value",
           "full_value", "moved_elements", "passed_through", "unless_known"]


def known_value(t):
    """What is known of the value of graph tensor `t` while the graph is built: an array
    when all of it is, a tuple with None for the entries known only when it runs (a 1-D
    integer tensor known in part, such as a shape of partly known dimensions), else None.
    An eager tensor's value is known."""
    if hasattr(t, "_op"):
        return t._known
    value = getattr(t, "_value", None)
    return value if isinstance(value, np.ndarray) else None


def full_value(t):
    """The array `t` is known to hold while the graph is built, or None."""
    known = known_value(t)
    return None if known is None or isinstance(known, tuple) else known


def constant_shape(t):
    """What a graph's 1-D integer tensor `t`, used as a shape, is known to hold while the
    graph is built: a tuple with None for the entries known only when it runs (a `stack`
    of sizes, some computed), or None when not even its length is known."""
    known = known_value(t)
    if isinstance(known, tuple):
        return known
    if known is not None:
        return tuple(int(d) for d in np.ravel(known))
    dims = getattr(t, "_dims", None)
    return None if dims is None or len(dims) != 1 or dims[0] is None else (None,) * dims[0]


# Partly known values are tracked for small integer tensors only (shapes, sizes, indices).
_PARTIAL_LIMIT = 64


def unless_known(fn):
    """A shape_fn giving `fn`'s specs, or None (the kernel runs, and its outputs are known)
    when every input's value is known."""
    def shape_fn(inputs, attrs):
        if all(full_value(x) is not None for x in inputs):
            return None
        return fn(inputs, attrs)
    return shape_fn


def _as_known(out: np.ndarray, dtype: np.dtype):
    """An object array of entries (None where unknown) as a known value."""
    if out.dtype.kind != "O":
        return out.astype(dtype)
    if not any(v is None for v in out.flat):
        return out.astype(dtype)
    return tuple(out.tolist()) if out.ndim == 1 else None


def moved_elements(kernel):
    """The `value_fn` of an op that only moves its inputs' elements (slices, stacks,
    concatenations): `kernel` run on the known entries, None standing for unknown ones."""
    def value_fn(inputs, attrs):
        arrays = []
        for x in inputs:
            known = known_value(x)
            if known is not None:
                arrays.append(np.array(known, dtype=object))
            elif x._dims is not None and None not in x._dims and \
                    math.prod(x._dims) <= _PARTIAL_LIMIT:
                arrays.append(np.full(x._dims, None, dtype=object))
            else:
                return None
        try:
            out = kernel(*arrays, **attrs)
        except Exception:  # noqa: BLE001  (the op itself reports bad input when it runs)
            return None
        return _as_known(np.asarray(out, dtype=object), inputs[0]._value.dtype)
    return value_fn


def passed_through(inputs, attrs):
    """The `value_fn` of an op whose output holds its input's values (Identity, an integer
    Cast): the known entries of a partly known input."""
    known = known_value(inputs[0])
    return known if isinstance(known, tuple) else None


def shape_text(dims) -> str:
    """TF's way of printing a static shape: [?,3], or <unknown>."""
    if dims is None:
        return "<unknown>"
    return "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"


def broadcast_dims(op_name: str, shapes: list):
    """The static shape the static `shapes` broadcast to (None entries unknown; None for
    an unknown rank).

    Raises:
        ValueError: two known dimensions differ and neither is 1.
    """
    if any(d is None for d in shapes):
        return None
    out: list = []
    for dims in shapes:
        lead = len(dims) - len(out)
        out = list(dims[:lead]) + out if lead > 0 else out
        offset = len(out) - len(dims)
        for i, d in enumerate(dims):
            e = out[offset + i]
            if d is None or d == 1:
                out[offset + i] = e if d == 1 or e not in (None, 1) else None
            elif e is None or e == 1:
                out[offset + i] = d
            elif d != e:
                raise ValueError(
                    f"Dimensions must be equal, but are {e} and {d} for '{op_name}' with input "
                    f"shapes: {', '.join(shape_text(x) for x in shapes)}.")
    return tuple(out)


def _probe_array(x, size: int, variant: int, dims=None):
    const = full_value(x)
    if const is not None:
        return const
    ghost = x._value
    dtype = ghost.dtype
    # Unknown rank: ranks 1 and 2 (an output whose rank follows the input's then differs).
    if dims is None:
        dims = ghost.dims if ghost.dims is not None else (None,) * (variant + 1)
    shape = tuple(size if d is None else d for d in dims)
    if dtype.kind in "fc":
        if variant == 0:
            value = np.ones(shape, dtype)
        else:
            value = np.linspace(-1.0, 1.0, max(int(np.prod(shape)), 1))[:int(np.prod(shape))]
            value = value.reshape(shape).astype(dtype)
        if len(shape) >= 2 and shape[-1] == shape[-2]:
            # Invertible and positive definite, for the linear-algebra kernels.
            value = value + (2 * shape[-1] + 1) * np.eye(shape[-1], dtype=dtype)
        return value
    if dtype.kind == "O":  # strings
        return np.full(shape, b"%d" % variant, dtype)
    return np.full(shape, variant, dtype)


def _run(op, arrays: list, attrs: dict) -> list:
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = op.kernel(*arrays, **attrs)
    if op.num_outputs == 1:
        out = (out,)
    return [o if hasattr(o, "dtype") and hasattr(o, "shape") else as_value(o) if type(o) is bytes
            else np.asarray(o) for o in out]


def _try(op, inputs: list, attrs: dict, size: int, variant: int, hints=None):
    hints = hints or [None] * len(inputs)
    try:
        return _run(op, [_probe_array(x, size, variant, h) for x, h in zip(inputs, hints)],
                    attrs)
    except Exception:  # noqa: BLE001  (a probe may fail for many reasons: then it tells nothing)
        return None


def _broadcast_hints(inputs):
    """Each input's dims with the unknown ones that broadcasting against the other inputs'
    known dims (right-aligned, > 1) must equal filled in; None when no rank is unknown
    or nothing is filled. ([None] * [4]: the probe [2] * [4] fails, [4] * [4] does not.)"""
    dims = [getattr(x, "_const", None).shape if getattr(x, "_const", None) is not None
            else x._value.dims for x in inputs]
    if not dims or any(d is None for d in dims):
        return None
    filled, changed = [], False
    for own in dims:
        row = list(own)
        for i in range(len(own)):
            if own[i] is None:
                back = len(own) - i
                known = {d[-back] for d in dims if len(d) >= back and d[-back] not in (None, 1)}
                if len(known) == 1:
                    row[i], changed = known.pop(), True
        filled.append(tuple(row))
    return filled if changed else None


def _merge(first: list, second: list) -> list:
    specs = []
    for a, b in zip(first, second):
        if a.ndim != b.ndim:
            specs.append((a.dtype, None))
        else:
            specs.append((a.dtype, tuple(d if d == e else None for d, e in zip(a.shape, b.shape))))
    return specs


def infer_outputs(op, inputs: tuple, attrs: dict) -> tuple:
    """[(numpy dtype, dims or None)] for each output of `op` on symbolic `inputs`; the
    output values when every input is a constant and the op is deterministic (else None);
    and what is known of each output's value (see `known_value`; None when nothing is).

    Raises:
        ValueError: the op cannot run on inputs of these (fully known) shapes.
    """
    if op.shape_fn is not None:
        specs = op.shape_fn(inputs, attrs)
        if specs is not None:
            return specs, None, _partly_known(op, inputs, attrs, specs)
    if op.family is ELEMENTWISE and len(inputs) > 1:
        broadcast_dims(op.name, [x._dims for x in inputs])
    consts = [getattr(x, "_const", None) for x in inputs]
    if op.family is SHAPE_ONLY and all(x._shape.is_fully_defined() for x in inputs):
        consts = [_probe_array(x, 0, 0) for x in inputs]
    if all(c is not None for c in consts):
        try:
            outs = _run(op, consts, attrs)
        except Exception as e:  # noqa: BLE001
            raise ValueError(f"{op.name}: {tf_wording(e, inputs)} "
                             f"(inputs {_describe(inputs)})") from None
        values = _folded(op, consts, attrs, outs)
        return [(o.dtype, o.shape) for o in outs], values, values
    knowns = [full_value(x) for x in inputs]
    if all(k is not None for k in knowns):
        # Known from static shapes, not constants: a failure here is the running op's to report.
        outs = _try_run(op, knowns, attrs)
        if outs is not None:
            return [(o.dtype, o.shape) for o in outs], None, _folded(op, knowns, attrs, outs)
    specs = _probed(op, inputs, attrs)
    return specs, None, _partly_known(op, inputs, attrs, specs)


def _partly_known(op, inputs: tuple, attrs: dict, specs: list):
    """The known values of an op's outputs from its `value_fn` (for one integer output)."""
    value_fn = getattr(op, "value_fn", None)
    if value_fn is None or len(specs) != 1 or np.dtype(specs[0][0]).kind not in "iu":
        return None
    known = value_fn(inputs, attrs)
    return None if known is None else [known]


def _try_run(op, arrays: list, attrs: dict):
    try:
        return _run(op, arrays, attrs)
    except Exception:  # noqa: BLE001
        return None


def _probed(op, inputs: tuple, attrs: dict) -> list:
    """The output specs found by running the kernel on probes (see the module's doc)."""
    ranked = all(x._dims is not None for x in inputs)
    first = _try(op, inputs, attrs, 2, 0)
    second = _try(op, inputs, attrs, 3, 1)
    if second is None and ranked:  # (for an unknown rank, a probe of the same rank tells nothing)
        second = _try(op, inputs, attrs, 3, 0)
    if first is None and second is None and (hints := _broadcast_hints(inputs)):
        first = _try(op, inputs, attrs, 2, 0, hints)
        second = _try(op, inputs, attrs, 3, 1, hints) or _try(op, inputs, attrs, 3, 0, hints)
    # Probes stand in for integer inputs (indices, sizes) with made-up values: a failure
    # tells something only when those are known.
    known = all(x._shape.is_fully_defined() and (
        full_value(x) is not None or x._value.dtype.kind not in "iu") for x in inputs)
    if first is None and known:
        try:
            _run(op, [_probe_array(x, 2, 0) for x in inputs], attrs)
        except Exception as e:  # noqa: BLE001
            raise ValueError(f"{op.name}: {tf_wording(e, inputs)} "
                             f"(inputs {_describe(inputs)})") from None
    if first is not None and second is not None and len(first) == len(second):
        return _merge(first, second)
    found = first if first is not None else second
    if found is not None:
        # One probe rank says nothing of the output's rank when an input's is unknown.
        return [(o.dtype, o.shape if known and first is not None else
                 (None,) * o.ndim if ranked else None) for o in found]
    if op.num_outputs is None:
        raise ValueError(f"{op.name}: cannot tell how many outputs it has on inputs "
                         f"{_describe(inputs)}; give the op a shape_fn")
    dtype = inputs[0]._value.dtype if inputs else np.dtype(np.float32)
    return [(dtype, None)] * op.num_outputs


_FOLD_LIMIT = 1 << 16


def _folded(op, consts: list, attrs: dict, outs: list):
    """The outputs as constants when the op is a function of its (constant) inputs: a
    second run gives the same arrays (a random op does not). None otherwise."""
    if sum(np.size(o) for o in outs) > _FOLD_LIMIT:
        return None
    try:
        again = _run(op, consts, attrs)
    except Exception:  # noqa: BLE001
        return None
    for a, b in zip(outs, again):
        if a.dtype != b.dtype or a.shape != b.shape or not np.array_equal(
                a, b, equal_nan=a.dtype.kind in "fc"):
            return None
    return [np.asarray(o) for o in outs]


def _describe(inputs) -> str:
    return ", ".join(f"{x.shape} {x.dtype.name}" for x in inputs) or "none"
