"""The gradient-check table: one row per registered op, split by op family.

Every op in the registry has a row here (or an entry in EXEMPT saying where it is
checked). Differentiable rows are checked to second order against central differences in
float64; non-differentiable rows are checked to give None gradients.
"""
from __future__ import annotations

from ._table import (CASES, EXEMPT, NO_SECOND_DERIVATIVE, Case, case, ints, normal, positive,
                     uniform)
from . import (array_cases, bitwise_cases, comparison_cases, complex_cases,  # noqa: F401
               counting_cases,
               diag_cases, gather_cases, graph_cases, indexing_cases, linalg_cases,
               math_cases, nn_cases, reduction_cases, segment_cases, signal_cases, space_cases,
               special_cases)  # (each adds its rows)
from . import toplevel_cases  # noqa: F401,E402

__all__ = ["CASES", "EXEMPT", "NO_SECOND_DERIVATIVE", "Case", "case", "ints", "normal",
           "positive", "uniform"]
