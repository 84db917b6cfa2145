"""The gradient-check table: one row per registered op, split by op family.

Every op in the registry has a row here (or an entry in EXEMPT saying where it is
checked). Differentiable rows are checked to second order against central differences in
float64; non-differentiable rows are checked to give None gradients.
"""
from __future__ import annotations

from ._table import CASES, EXEMPT, Case, case, ints, normal, positive, uniform
from . import (array_cases, bitwise_cases, comparison_cases, complex_cases,  # noqa: F401
               counting_cases,
               diag_cases, gather_cases, graph_cases, image_cases, indexing_cases, io_cases,
               linalg_cases,
               linalg_extra_cases,
               math_cases, nn_cases, random_cases, reduction_cases, segment_cases, signal_cases,
               space_cases, sparse_cases, string_cases,
               special_cases, toplevel_cases)  # (each adds its rows)

__all__ = ["CASES", "EXEMPT", "Case", "case", "ints", "normal", "positive", "uniform"]
