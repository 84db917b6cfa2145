"""Bitwise ops have no gradient (integer inputs and outputs), as in TF."""
from __future__ import annotations

from ..framework.registry import no_gradient
from . import bitwise_ops  # noqa: F401  (defines the ops declared below)

for _op in ("BitwiseAnd", "BitwiseOr", "BitwiseXor", "Invert", "LeftShift", "RightShift"):
    no_gradient(_op)
