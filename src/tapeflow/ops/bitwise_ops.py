"""Bitwise ops on integer tensors (tf.bitwise), and the `&`, `|`, `^`, `~` operators, which
are bitwise on integers and logical on bools, as in TF. None has a gradient
(see `bitwise_grad.py`).
"""
from __future__ import annotations

import numpy as np

from ..framework.registry import ELEMENTWISE, define_op
from .comparison_ops import logical_and, logical_not, logical_or, logical_xor
from .math_ops import binary_function, install_operators, unary_function
from .op_util import binary_inputs

INTEGER = "iu"


def _shift(ufunc):
    def kernel(x, y):
        # TF clamps the shift to [0, bits - 1] where C++ would leave it undefined.
        return ufunc(x, np.clip(y, 0, x.dtype.itemsize * 8 - 1).astype(y.dtype, copy=False))
    return kernel


BitwiseAnd = define_op("BitwiseAnd", np.bitwise_and, family=ELEMENTWISE)
BitwiseOr = define_op("BitwiseOr", np.bitwise_or, family=ELEMENTWISE)
BitwiseXor = define_op("BitwiseXor", np.bitwise_xor, family=ELEMENTWISE)
Invert = define_op("Invert", np.invert, family=ELEMENTWISE)
LeftShift = define_op("LeftShift", _shift(np.left_shift), family=ELEMENTWISE)
RightShift = define_op("RightShift", _shift(np.right_shift), family=ELEMENTWISE)


_V = "tf.constant([12, -7]), tf.constant([10, 2])"
bitwise_and = binary_function(BitwiseAnd, "bitwise_and", "x AND y, bit by bit; no gradient",
                              INTEGER, _V, "array([8, 0], dtype=int32)", namespace="bitwise")
bitwise_or = binary_function(BitwiseOr, "bitwise_or", "x OR y, bit by bit; no gradient", INTEGER,
                             _V, "array([14, -5], dtype=int32)", namespace="bitwise")
bitwise_xor = binary_function(BitwiseXor, "bitwise_xor", "x XOR y, bit by bit; no gradient",
                              INTEGER, _V, "array([ 6, -5], dtype=int32)", namespace="bitwise")
left_shift = binary_function(LeftShift, "left_shift", "x shifted left by y bits (y clamped to "
                             "[0, bits - 1], as in TF); no gradient", INTEGER, _V,
                             "array([12288,   -28], dtype=int32)", namespace="bitwise")
right_shift = binary_function(RightShift, "right_shift", "x shifted right by y bits, keeping "
                              "the sign (y clamped to [0, bits - 1], as in TF); no gradient",
                              INTEGER, _V, "array([ 0, -2], dtype=int32)", namespace="bitwise")
invert = unary_function(Invert, "invert", "NOT x, bit by bit (-x - 1 for signed integers); no "
                        "gradient", INTEGER, "[12, -7]", "array([-13,   6], dtype=int32)",
                        namespace="bitwise")


def _logical_or_bitwise(logical, bitwise, op):
    """TF's binary operator: logical on bools, bitwise on anything else."""
    def operator(x, y, name=None):
        x, y = binary_inputs(op.name, x, y)
        return logical(x, y, name=name) if x.dtype.is_bool else bitwise(x, y, name=name)
    return operator


def _invert_operator(x):
    return logical_not(x) if x.dtype.is_bool else invert(x)


install_operators({"and": _logical_or_bitwise(logical_and, bitwise_and, BitwiseAnd),
                   "or": _logical_or_bitwise(logical_or, bitwise_or, BitwiseOr),
                   "xor": _logical_or_bitwise(logical_xor, bitwise_xor, BitwiseXor)},
                  {"invert": _invert_operator})
