"""Bitwise ops: integer in, integer out, so a tape never records them and no row can."""
from ._table import EXEMPT

EXEMPT.update({
    op: "tests/ops/test_bitwise_ops.py (integer inputs are never recorded; no gradient)"
    for op in ("BitwiseAnd", "BitwiseOr", "BitwiseXor", "Invert", "LeftShift", "RightShift")})
