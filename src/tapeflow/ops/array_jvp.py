"""Forward-mode (JVP) rules of array ops that are not linear (the linear ones take their
family's rule)."""
from __future__ import annotations

from ..framework.registry import RegisterJVP
from .array_ops import PadV2


@RegisterJVP("ReadVariableOp")
def _read_variable_jvp(op, t):
    # The variable's tangent itself (a graph has no ReadVariableOp of a tensor).
    return t


@RegisterJVP("PadV2")
def _pad_jvp(op, t):
    # Affine, not linear: the padding constant has no tangent.
    return PadV2(t, paddings=op.attrs["paddings"], constant_values=0)
