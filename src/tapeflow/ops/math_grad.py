"""Gradient rules of math_ops. Each works on raw arrays and on Tensors alike (see registry).

Complex inputs follow TF's convention: the gradient of f at z is conj(df/dz) times the
upstream gradient, so every rule multiplies by the conjugate of its local derivative.
"""
from __future__ import annotations

import math

import numpy as np

from ..framework import dtypes
from ..framework.errors import SymbolicValueError
from ..framework.indexed_slices import IndexedSlices, to_dense
from ..framework.registry import RegisterGradient, no_gradient
from .array_ops import BroadcastTo, Reshape, Shape
from .comparison_ops import Greater, GreaterEqual, LessEqual, NotEqual
from .complex_ops import Complex, Conj
from .creation_ops import zero_gradient
from .indexing_ops import SelectV2
from .math_ops import (Cast, Cos, Cosh, DivNoNan, Exp, FloorDiv, Log, MatMul, Pow, Reciprocal,
                       ReciprocalGrad, RsqrtGrad, Sign, Sin, Sinh, Sqrt, SqrtGrad, Square)
from .gather_ops import GatherV2
from .op_util import dtype_of, partly_known_dims, shape_of
from .reduction_ops import Prod


def is_complex(x) -> bool:
    """Whether a raw array or a Tensor holds complex numbers."""
    return (x if type(x) is np.ndarray else getattr(x, "_value", x)).dtype.kind == "c"


def conj(x):
    """conj(x) for complex x; real x as it is (TF's conj is the identity on reals)."""
    return Conj(x) if is_complex(x) else x


# -- arithmetic --------------------------------------------------------------------------------
def _past_a_constant_scalar(op, g):
    """An IndexedSlices gradient of x + c or x - c: TF passes it on to x as it is when c is a
    scalar that needs no gradient, and makes it dense otherwise."""
    if shape_of(op.inputs[1]) == () and not op.needs_gradient(1):
        return g
    return to_dense(g)


@RegisterGradient("AddV2", takes_indexed_slices=True)
def _add_grad(op, g):
    if type(g) is IndexedSlices:
        g = _past_a_constant_scalar(op, g)
        if type(g) is IndexedSlices:
            return g, None
    return g, g


@RegisterGradient("Sub", takes_indexed_slices=True)
def _sub_grad(op, g):
    if type(g) is IndexedSlices:
        g = _past_a_constant_scalar(op, g)
        if type(g) is IndexedSlices:
            return g, None
    return g, -g


@RegisterGradient("Mul")
def _mul_grad(op, g):
    x, y = op.inputs
    if is_complex(g):
        x, y = Conj(x), Conj(y)
    return (g * y if op.needs_gradient(0) else None), (x * g if op.needs_gradient(1) else None)


@RegisterGradient("RealDiv")
def _div_grad(op, g):
    x, y = op.inputs
    x, y = conj(x), conj(y)
    return (g / y if op.needs_gradient(0) else None,
            g * (-x / y / y) if op.needs_gradient(1) else None)


@RegisterGradient("DivNoNan")
def _div_no_nan_grad(op, g):
    x, y = op.inputs
    x, y = conj(x), conj(y)
    return DivNoNan(g, y), g * DivNoNan(DivNoNan(-x, y), y)


@RegisterGradient("FloorMod")
def _floor_mod_grad(op, g):
    x, y = op.inputs
    return g, -g * FloorDiv(x, y)


@RegisterGradient("Pow")
def _pow_grad(op, g):
    x, y = op.inputs
    x, y = conj(x), conj(y)
    gx = g * y * Pow(x, y - 1) if op.needs_gradient(0) else None
    if not op.needs_gradient(1):
        return gx, None
    # TF's convention: no gradient w.r.t. the exponent where the (real) base is <= 0
    # (log(1) = 0 there).
    dtype = dtype_of(x)
    valid = (NotEqual if dtype.kind == "c" else Greater)(x, np.zeros((), dtype))
    gy = g * conj(op.outputs[0]) * Log(SelectV2(valid, x, np.ones((), dtype)))
    return gx, gy


def _selected_grads(op, g, x_wins):
    """g split between x and y by the comparison op `x_wins(x, y)`; ties go to x, as in TF."""
    x, y = op.inputs
    mask = x_wins(x, y)
    zero = np.zeros((), dtype_of(g))
    return (SelectV2(mask, g, zero) if op.needs_gradient(0) else None,
            SelectV2(mask, zero, g) if op.needs_gradient(1) else None)


@RegisterGradient("Maximum")
def _maximum_grad(op, g):
    return _selected_grads(op, g, GreaterEqual)


@RegisterGradient("Minimum")
def _minimum_grad(op, g):
    return _selected_grads(op, g, LessEqual)


@RegisterGradient("SquaredDifference")
def _squared_difference_grad(op, g):
    x, y = op.inputs
    # (g + conj(g)) is 2 re(g): the output's imaginary part is identically zero, so only the
    # real part of a complex upstream gradient counts (TF's 2 g (x - y) agrees for real g).
    gx = (g + conj(g)) * (x - y)
    return gx, -gx


@RegisterGradient("Atan2")
def _atan2_grad(op, g):
    y, x = op.inputs
    g_over = g / (x * x + y * y)
    return x * g_over, -y * g_over


@RegisterGradient("AddN")
def _add_n_grad(op, g):
    return (g,) * len(op.inputs)


# (adjoint_a, adjoint_b) -> for each input, the product giving its gradient:
# (left, right, adjoint_left, adjoint_right) over the names a, b and g (upstream).
_MATMUL_GRADS = {
    (False, False): (("g", "b", False, True), ("a", "g", True, False)),
    (False, True): (("g", "b", False, False), ("g", "a", True, False)),
    (True, False): (("b", "g", False, True), ("a", "g", False, False)),
    (True, True): (("b", "g", True, True), ("g", "a", True, True)),
}


@RegisterGradient("BatchMatMulV2")
def _matmul_grad(op, g):
    a, b = op.inputs
    attrs = op.attrs
    if not any(attrs.values()):  # the common a @ b
        if type(g) is np.ndarray and g.ndim == 2 and b.ndim == 2 and g.dtype.kind == "f":
            # Real matrices over raw arrays (a dense layer's pass): NumPy's product as the
            # MatMul kernel would compute it, without its checks.
            return (g @ b.T if op.needs_gradient(0) else None,
                    a.T @ g if op.needs_gradient(1) else None)
        return (MatMul(g, b, adjoint_b=True) if op.needs_gradient(0) else None,
                MatMul(a, g, adjoint_a=True) if op.needs_gradient(1) else None)
    transpose_a, transpose_b = attrs.get("transpose_a", False), attrs.get("transpose_b", False)
    adjoint_a, adjoint_b = attrs.get("adjoint_a", False), attrs.get("adjoint_b", False)
    # A plain transpose of a complex matrix is the adjoint of its conjugate: differentiate
    # with respect to that conjugate, then conjugate its gradient back.
    conj_a = transpose_a and not adjoint_a and is_complex(a)
    conj_b = transpose_b and not adjoint_b and is_complex(b)
    named = {"a": Conj(a) if conj_a else a, "b": Conj(b) if conj_b else b, "g": g}
    skip = op.skip_input_indices
    ga, gb = (None if i in skip else
              MatMul(named[left], named[right], adjoint_a=adj_left, adjoint_b=adj_right)
              for i, (left, right, adj_left, adj_right)
              in enumerate(_MATMUL_GRADS[transpose_a or adjoint_a, transpose_b or adjoint_b]))
    return (Conj(ga) if conj_a and ga is not None else ga,
            Conj(gb) if conj_b and gb is not None else gb)


# -- elementwise functions ---------------------------------------------------------------------
@RegisterGradient("Neg", takes_indexed_slices=True)
def _neg_grad(op, g):
    if type(g) is IndexedSlices:
        return IndexedSlices(-g.values, g.indices, g.dense_shape)
    return -g


@RegisterGradient("Abs")
def _abs_grad(op, g):
    return g * Sign(op.inputs[0])


@RegisterGradient("ComplexAbs")
def _complex_abs_grad(op, g):
    y = op.outputs[0]
    return DivNoNan(Complex(g, zero_gradient(g)) * op.inputs[0], Complex(y, zero_gradient(y)))


@RegisterGradient("Sign")
def _sign_grad(op, g):
    return zero_gradient(op.inputs[0])


@RegisterGradient("Square")
def _square_grad(op, g):
    return g * (2 * conj(op.inputs[0]))


@RegisterGradient("Sqrt")
def _sqrt_grad(op, g):
    return SqrtGrad(op.outputs[0], g)


@RegisterGradient("Rsqrt")
def _rsqrt_grad(op, g):
    return RsqrtGrad(op.outputs[0], g)


@RegisterGradient("Reciprocal")
def _reciprocal_grad(op, g):
    return ReciprocalGrad(op.outputs[0], g)


# The gradient ops are antiholomorphic in y (they read conj(y)) and linear in dy.
@RegisterGradient("SqrtGrad")
def _sqrt_grad_grad(op, g):
    y, _ = op.inputs
    g_over_y = g / y
    return -conj(g_over_y) * op.outputs[0], 0.5 * g_over_y


@RegisterGradient("RsqrtGrad")
def _rsqrt_grad_grad(op, g):
    y, dy = op.inputs
    y = conj(y)
    return -1.5 * conj(g) * dy * (y * y), RsqrtGrad(y, g)


@RegisterGradient("ReciprocalGrad")
def _reciprocal_grad_grad(op, g):
    y, dy = op.inputs
    y = conj(y)
    return -2.0 * conj(g) * dy * y, ReciprocalGrad(y, g)


@RegisterGradient("Exp")
def _exp_grad(op, g):
    return g * conj(op.outputs[0])


@RegisterGradient("Expm1")
def _expm1_grad(op, g):
    return g * Exp(conj(op.inputs[0]))


@RegisterGradient("Log")
def _log_grad(op, g):
    return g / conj(op.inputs[0])


@RegisterGradient("Log1p")
def _log1p_grad(op, g):
    return g / (1 + conj(op.inputs[0]))


@RegisterGradient("Sin")
def _sin_grad(op, g):
    return g * Cos(conj(op.inputs[0]))


@RegisterGradient("Cos")
def _cos_grad(op, g):
    return -g * Sin(conj(op.inputs[0]))


@RegisterGradient("Tan")
def _tan_grad(op, g):
    return g * Square(Reciprocal(Cos(conj(op.inputs[0]))))


@RegisterGradient("Asin")
def _asin_grad(op, g):
    x = conj(op.inputs[0])
    return g / Sqrt(1 - x * x)


@RegisterGradient("Acos")
def _acos_grad(op, g):
    x = conj(op.inputs[0])
    return -g / Sqrt(1 - x * x)


@RegisterGradient("Atan")
def _atan_grad(op, g):
    x = conj(op.inputs[0])
    return g / (1 + x * x)


@RegisterGradient("Sinh")
def _sinh_grad(op, g):
    return g * Cosh(conj(op.inputs[0]))


@RegisterGradient("Cosh")
def _cosh_grad(op, g):
    return g * Sinh(conj(op.inputs[0]))


@RegisterGradient("Tanh")
def _tanh_grad(op, g):
    y = conj(op.outputs[0])
    return g * (1 - y * y)


@RegisterGradient("Asinh")
def _asinh_grad(op, g):
    return g / Cosh(conj(op.outputs[0]))


@RegisterGradient("Acosh")
def _acosh_grad(op, g):
    return g / Sinh(conj(op.outputs[0]))


@RegisterGradient("Atanh")
def _atanh_grad(op, g):
    x = conj(op.inputs[0])
    return g / (1 - x * x)


@RegisterGradient("Sigmoid")
def _sigmoid_grad(op, g):
    y = conj(op.outputs[0])
    return g * y * (1 - y)


# -- sum, mean, cast ---------------------------------------------------------------------------
def reduced_axes(attrs: dict, rank: int) -> tuple:
    """A reduction's axes, non-negative (its `axis` attribute is None or holds negative
    axes when the input's rank was unknown as the graph was built)."""
    axes = attrs["axis"]
    return tuple(range(rank)) if axes is None else tuple(a % rank for a in axes)


def keep_reduced_dims(t, shape: tuple, attrs: dict):
    """A reduction's output (or its gradient) with the reduced axes kept as length 1."""
    if attrs["keepdims"]:
        return t
    if attrs["axis"] is None:
        return Reshape(t, (1,) * len(shape))
    axes = reduced_axes(attrs, len(shape))
    return Reshape(t, tuple(1 if i in axes else d for i, d in enumerate(shape)))


@RegisterGradient("Sum")
def _sum_grad(op, g):
    return _spread(op, g, partly_known_dims(op.inputs[0]))


def _spread(op, g, dims):
    """Gradient `g` of reduction `op` broadcast back over its input (whose partly known
    `dims` are given, None when fully known)."""
    x = op.inputs[0]
    if dims is None:
        shape = shape_of(x)
        if type(x) is np.ndarray and g.size == 1:  # raw arrays, one value (a loss's mean)
            return np.full(shape, g, g.dtype)
        return BroadcastTo(keep_reduced_dims(g, shape, op.attrs), shape)
    # Unknown dimensions: the reduced axes kept as 1 (-1 for the one unknown axis kept),
    # then a broadcast to the input's shape when the graph runs.
    axes = reduced_axes(op.attrs, len(dims))
    kept = tuple(1 if i in axes else -1 if d is None else d for i, d in enumerate(dims))
    if kept.count(-1) > 1:
        raise SymbolicValueError(f"Sum's gradient needs the shape of {x.name} when it runs")
    if not op.attrs["keepdims"]:
        g = Reshape(g, kept)
    return BroadcastTo(g, Shape(x, out_type=np.int64))


@RegisterGradient("Mean")
def _mean_grad(op, g):
    x = op.inputs[0]
    if type(x) is np.ndarray and g.size:  # raw arrays: the count is their sizes' ratio
        return _spread(op, g / (x.size // g.size), None)
    dims = partly_known_dims(x)
    if dims is None:
        shape = shape_of(x)
        count = math.prod([shape[a] for a in reduced_axes(op.attrs, len(shape))])
    else:
        axes = reduced_axes(op.attrs, len(dims))
        count = math.prod([dims[a] for a in axes if dims[a] is not None])
        unknown = [a for a in axes if dims[a] is None]
        if unknown:
            sizes = GatherV2(Shape(x, out_type=np.int64), np.asarray(unknown, np.int64),
                             axis=0, batch_dims=0)
            count = Cast(Prod(sizes, axis=(0,), keepdims=False), dtype=dtype_of(g)) * count
    return _spread(op, g / count, dims)


@RegisterGradient("Cast", takes_indexed_slices=True)
def _cast_grad(op, g):
    source = dtype_of(op.inputs[0])
    target = op.attrs["dtype"]
    if dtypes.kind(source) not in "fc" or dtypes.kind(target) not in "fc":
        return None
    if type(g) is IndexedSlices:
        return IndexedSlices(Cast(g.values, dtype=source), g.indices, g.dense_shape)
    return Cast(g, dtype=source)


for _op in ("Round", "Floor", "Ceil", "FloorDiv", "TruncateDiv"):
    no_gradient(_op)
