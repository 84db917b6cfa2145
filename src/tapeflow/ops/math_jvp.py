"""Forward-mode (JVP) rules of math_ops, complex_ops, reductions and special functions: by
family (see jvp_util), and by hand where the family rule would do more work."""
from __future__ import annotations

from ..framework.registry import RegisterJVP
# The modules that define the ops whose rules are registered below:
from . import complex_ops, reduction_ops, special_math_ops, special_ops  # noqa: F401
from .jvp_util import elementwise_jvp, linear_jvp, multilinear_jvp, plus, register_jvps

register_jvps(linear_jvp, "Neg", "AddN", "Sum", "Mean", "Cumsum", "Cast", "Real", "Imag", "Conj")
register_jvps(multilinear_jvp, "Mul", "BatchMatMulV2", "Einsum")
# Holomorphic (or real) elementwise functions; Angle, ComplexAbs, Complex and
# SquaredDifference are not, on complex values, and take the rule derived from the gradient.
register_jvps(elementwise_jvp, "Pow", "Square", "Sqrt", "Exp", "Log", "Tanh", "Sigmoid", "Abs",
              "Sign", "Reciprocal", "Rsqrt", "Expm1", "Log1p", "Sin", "Cos", "Tan", "Asin",
              "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh", "Atan2", "Maximum",
              "Minimum", "DivNoNan", "FloorMod", "Erf", "Erfc", "Lgamma", "Digamma", "Polygamma")


@RegisterJVP("AddV2")
def _add_jvp(op, tx, ty):
    return plus(tx, ty)


@RegisterJVP("Sub")
def _sub_jvp(op, tx, ty):
    return plus(tx, None if ty is None else -ty)


@RegisterJVP("RealDiv")
def _div_jvp(op, tx, ty):
    y = op.inputs[1]
    return plus(tx, None if ty is None else -ty * op.outputs[0]) / y
