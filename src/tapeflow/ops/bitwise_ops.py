"""Bitwise ops on integer tensors (tf.bitwise), and the `&`, `|`, `^`, `~` operators, which
are bitwise on integers and logical on bools, as in TF. None has a gradient
(see `bitwise_grad.py`).
"""
from __future__ import annotations

import numpy as np

from ..framework.execute import execute
from ..framework.registry import define_op
from ..framework.tensor import Tensor
from .comparison_ops import logical_and, logical_not, logical_or, logical_xor
from .math_ops import dtype_error, install_operators
from .op_util import NO_ATTRS, as_input, binary_inputs

INTEGER = "iu"


def _shift(ufunc):
    def kernel(x, y):
        # TF clamps the shift to [0, bits - 1] where C++ would leave it undefined.
        return ufunc(x, np.clip(y, 0, x.dtype.itemsize * 8 - 1).astype(y.dtype, copy=False))
    return kernel


BitwiseAnd = define_op("BitwiseAnd", np.bitwise_and)
BitwiseOr = define_op("BitwiseOr", np.bitwise_or)
BitwiseXor = define_op("BitwiseXor", np.bitwise_xor)
Invert = define_op("Invert", np.invert)
LeftShift = define_op("LeftShift", _shift(np.left_shift))
RightShift = define_op("RightShift", _shift(np.right_shift))


def _doc(op, summary: str, call: str, result: str) -> str:
    operands = "x" if op is Invert else "x, y"
    return (f"{summary}, elementwise{'' if op is Invert else ' with broadcasting'} (op "
            f"`{op.name}`); no gradient.\n\n    Args:\n        {operands}: integer tensors"
            f"{'' if op is Invert else ' of one dtype (a Python int takes the other dtype)'}."
            f"\n\n    Returns:\n        A tensor of the inputs' dtype.\n\n    Raises:\n"
            f"        InvalidArgumentError: a non-integer dtype, dtypes that differ, or shapes "
            f"that do not broadcast.\n\n    Example:\n        >>> import tapeflow as tf\n"
            f"        >>> tf.bitwise.{call}.numpy()\n        {result}\n")


def _binary(op, public_name: str, summary: str, result: str):
    def fn(x, y, name=None) -> Tensor:
        x, y = binary_inputs(op.name, x, y)
        if x._value.dtype.kind not in INTEGER:
            raise dtype_error(op.name, x, INTEGER)
        return execute(op, (x, y), NO_ATTRS)
    fn.__name__ = fn.__qualname__ = public_name
    fn.__doc__ = _doc(op, summary, f"{public_name}(tf.constant([12, -7]), tf.constant([10, 2]))",
                      result)
    return fn


bitwise_and = _binary(BitwiseAnd, "bitwise_and", "x AND y, bit by bit",
                      "array([8, 0], dtype=int32)")
bitwise_or = _binary(BitwiseOr, "bitwise_or", "x OR y, bit by bit",
                     "array([14, -5], dtype=int32)")
bitwise_xor = _binary(BitwiseXor, "bitwise_xor", "x XOR y, bit by bit",
                      "array([ 6, -5], dtype=int32)")
left_shift = _binary(LeftShift, "left_shift", "x shifted left by y bits (y clamped to "
                     "[0, bits - 1], as in TF)", "array([12288,   -28], dtype=int32)")
right_shift = _binary(RightShift, "right_shift", "x shifted right by y bits, keeping the sign "
                      "(y clamped to [0, bits - 1], as in TF)", "array([ 0, -2], dtype=int32)")


def invert(x, name=None) -> Tensor:
    x = as_input(x)
    if x._value.dtype.kind not in INTEGER:
        raise dtype_error("Invert", x, INTEGER)
    return execute(Invert, (x,), NO_ATTRS)


invert.__doc__ = _doc(Invert, "NOT x, bit by bit (-x - 1 for signed integers)",
                      "invert(tf.constant([12, -7]))", "array([-13,   6], dtype=int32)")


def _logical_or_bitwise(logical, bitwise, op):
    """TF's binary operator: logical on bools, bitwise on anything else."""
    def operator(x, y):
        x, y = binary_inputs(op.name, x, y)
        return logical(x, y) if x.dtype.is_bool else bitwise(x, y)
    return operator


def _invert_operator(x):
    return logical_not(x) if x.dtype.is_bool else invert(x)


install_operators({"and": _logical_or_bitwise(logical_and, bitwise_and, BitwiseAnd),
                   "or": _logical_or_bitwise(logical_or, bitwise_or, BitwiseOr),
                   "xor": _logical_or_bitwise(logical_xor, bitwise_xor, BitwiseXor)},
                  {"invert": _invert_operator})
