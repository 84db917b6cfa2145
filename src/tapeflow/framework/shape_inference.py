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
"""
from __future__ import annotations

import warnings

import numpy as np

from .execute import tf_wording
from .registry import ELEMENTWISE, SHAPE_ONLY

__all__ = ["infer_outputs", "broadcast_dims", "constant_shape", "shape_text"]


def constant_shape(t):
    """What a graph's 1-D integer tensor `t`, used as a shape, is known to hold while the
    graph is built: a tuple with None for the entries known only when it runs (a `stack`
    of sizes, some computed), or None when not even its length is known."""
    const = getattr(t, "_const", None)
    if const is not None:
        return tuple(int(d) for d in np.ravel(const))
    op = getattr(t, "_op", None)
    if op is not None and op.type == "Shape":
        return op._inputs[0]._dims
    if op is not None and op.type == "Pack" and all(x._dims == () for x in op._inputs):
        return tuple(None if x._const is None else int(x._const) for x in op._inputs)
    dims = getattr(t, "_dims", None)
    return None if dims is None or len(dims) != 1 or dims[0] is None else (None,) * dims[0]


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
    const = getattr(x, "_const", None)
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
    return np.full(shape, variant, dtype)


def _run(op, arrays: list, attrs: dict) -> list:
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = op.kernel(*arrays, **attrs)
    if op.num_outputs == 1:
        out = (out,)
    return [o if hasattr(o, "dtype") and hasattr(o, "shape") else np.asarray(o) for o in out]


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
    """[(numpy dtype, dims or None)] for each output of `op` on symbolic `inputs`, and the
    output values when every input is a constant and the op is deterministic (else None).

    Raises:
        ValueError: the op cannot run on inputs of these (fully known) shapes.
    """
    if op.shape_fn is not None:
        specs = op.shape_fn(inputs, attrs)
        if specs is not None:
            return specs, None
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
        return [(o.dtype, o.shape) for o in outs], _folded(op, consts, attrs, outs)
    ranked = all(x._dims is not None for x in inputs)
    first = _try(op, inputs, attrs, 2, 0)
    second = _try(op, inputs, attrs, 3, 1)
    if second is None and ranked:  # (for an unknown rank, a probe of the same rank tells nothing)
        second = _try(op, inputs, attrs, 3, 0)
    if first is None and second is None and (hints := _broadcast_hints(inputs)):
        first = _try(op, inputs, attrs, 2, 0, hints)
        second = _try(op, inputs, attrs, 3, 1, hints) or _try(op, inputs, attrs, 3, 0, hints)
    # Probes stand in for integer inputs (indices, sizes) with made-up values: a failure
    # tells something only when those are constants.
    known = all(x._shape.is_fully_defined() and (
        x._const is not None or x._value.dtype.kind not in "iu") for x in inputs)
    if first is None and known:
        try:
            _run(op, [_probe_array(x, 2, 0) for x in inputs], attrs)
        except Exception as e:  # noqa: BLE001
            raise ValueError(f"{op.name}: {tf_wording(e, inputs)} "
                             f"(inputs {_describe(inputs)})") from None
    if first is not None and second is not None and len(first) == len(second):
        return _merge(first, second), None
    found = first if first is not None else second
    if found is not None:
        # One probe rank says nothing of the output's rank when an input's is unknown.
        return [(o.dtype, o.shape if known and first is not None else
                 (None,) * o.ndim if ranked else None) for o in found], None
    if op.num_outputs is None:
        raise ValueError(f"{op.name}: cannot tell how many outputs it has on inputs "
                         f"{_describe(inputs)}; give the op a shape_fn")
    dtype = inputs[0]._value.dtype if inputs else np.dtype(np.float32)
    return [(dtype, None)] * op.num_outputs, None


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
