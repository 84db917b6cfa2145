"""Comparisons, logical ops and the predicates is_nan, is_finite and is_inf: the bool-valued
elementwise ops, their kernels, public TF-named functions and Tensor operators.

Each op is one `define_op` row; none has a gradient (see `comparison_grad.py`).
"""
from __future__ import annotations

import numpy as np

from ..framework.execute import execute
from ..framework.registry import ELEMENTWISE, define_op
from ..framework.tensor import Tensor
from .math_ops import (ANY, BOOL, FLOAT, REAL, binary_function, install_operators,
                       require_dtype, unary_function)
from .op_util import NO_ATTRS, binary_inputs


# -- kernels ---------------------------------------------------------------------------------
def _shape_tolerant(compare, mismatch: bool):
    """A comparison kernel that, without `incompatible_shape_error`, answers `mismatch` for
    shapes that do not broadcast (what `==` and `!=` on tensors do in TF2)."""
    def kernel(x, y, incompatible_shape_error=True):
        try:
            return compare(x, y)
        except ValueError:
            if incompatible_shape_error:
                raise
            return np.full((), mismatch)
    return kernel


# -- ops -------------------------------------------------------------------------------------
IsNan = define_op("IsNan", np.isnan, family=ELEMENTWISE)
IsFinite = define_op("IsFinite", np.isfinite, family=ELEMENTWISE)
IsInf = define_op("IsInf", np.isinf, family=ELEMENTWISE)
Equal = define_op("Equal", _shape_tolerant(np.equal, False), family=ELEMENTWISE)
NotEqual = define_op("NotEqual", _shape_tolerant(np.not_equal, True), family=ELEMENTWISE)
Less = define_op("Less", np.less, family=ELEMENTWISE)
LessEqual = define_op("LessEqual", np.less_equal, family=ELEMENTWISE)
Greater = define_op("Greater", np.greater, family=ELEMENTWISE)
GreaterEqual = define_op("GreaterEqual", np.greater_equal, family=ELEMENTWISE)
LogicalAnd = define_op("LogicalAnd", np.logical_and, family=ELEMENTWISE)
LogicalOr = define_op("LogicalOr", np.logical_or, family=ELEMENTWISE)
LogicalNot = define_op("LogicalNot", np.logical_not, family=ELEMENTWISE)


# -- public functions ------------------------------------------------------------------------
_V = "tf.constant([1.0, 4.0]), tf.constant([2.0, 2.0])"
equal = binary_function(Equal, "equal", "x == y", ANY, _V, "array([False, False])",
                        "dtype bool", strings=True)
not_equal = binary_function(NotEqual, "not_equal", "x != y", ANY, _V, "array([ True, True])",
                            "dtype bool", strings=True)
less = binary_function(Less, "less", "x < y", REAL, _V, "array([ True, False])", "dtype bool")
less_equal = binary_function(LessEqual, "less_equal", "x <= y", REAL, _V,
                             "array([ True, False])", "dtype bool")
greater = binary_function(Greater, "greater", "x > y", REAL, _V, "array([False, True])",
                          "dtype bool")
greater_equal = binary_function(GreaterEqual, "greater_equal", "x >= y", REAL, _V,
                                "array([False, True])", "dtype bool")
_B = "tf.constant([True, True]), tf.constant([True, False])"
logical_and = binary_function(LogicalAnd, "logical_and", "x AND y", BOOL, _B,
                              "array([ True, False])")
logical_or = binary_function(LogicalOr, "logical_or", "x OR y", BOOL, _B,
                             "array([ True, True])")
is_nan = unary_function(IsNan, "is_nan", "Whether x is nan", FLOAT, "[1.0, float('nan')]",
                        "array([False, True])", "dtype bool")
is_finite = unary_function(IsFinite, "is_finite", "Whether x is neither inf nor nan", FLOAT,
                           "[1.0, float('inf')]", "array([ True, False])", "dtype bool")
is_inf = unary_function(IsInf, "is_inf", "Whether x is +inf or -inf", FLOAT, "[1.0, float('-inf')]",
                        "array([False, True])", "dtype bool")
logical_not = unary_function(LogicalNot, "logical_not", "NOT x", BOOL, "[True, False]",
                             "array([False, True])")


def logical_xor(x, y, name="LogicalXor") -> Tensor:
    """x XOR y for bool tensors, elementwise with broadcasting; no gradient.

    Raises:
        InvalidArgumentError: an input is not bool, or the shapes do not broadcast.

    Example:
        >>> import tapeflow as tf
        >>> tf.math.logical_xor(tf.constant([True, True]), tf.constant([True, False])).numpy()
        array([False,  True])
    """
    x, y = binary_inputs("LogicalXor", x, y)
    return execute(NotEqual, (require_dtype("LogicalXor", x, BOOL), y), NO_ATTRS)


# -- operators -------------------------------------------------------------------------------
def _equality(op, if_none: bool):
    """TF2's `==` / `!=`: elementwise, a Python bool against None, and a scalar answer
    (instead of an error) for shapes that do not broadcast; a value that does not convert to
    the tensor's dtype raises, as in TF."""
    attrs = {"incompatible_shape_error": False}

    def method(self, other):
        if other is None:
            return if_none
        return execute(op, binary_inputs(op.name, self, other), attrs)
    return method


# As TF's: `==` and `!=` elementwise (`&`, `|`, `^` and `~` are in bitwise_ops.py).
install_operators({}, {"lt": less, "le": less_equal, "gt": greater,
                   "ge": greater_equal, "eq": _equality(Equal, False),
                   "ne": _equality(NotEqual, True)})
