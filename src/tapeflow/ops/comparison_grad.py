"""Comparisons, logical ops and predicates have no gradient (bool outputs), as in TF."""
from __future__ import annotations

from ..framework.registry import no_gradient
from . import comparison_ops  # noqa: F401  (defines the ops declared below)

for _op in ("IsNan", "IsFinite", "IsInf", "Equal", "NotEqual", "Less", "LessEqual", "Greater",
            "GreaterEqual", "LogicalAnd", "LogicalOr", "LogicalNot"):
    no_gradient(_op)
