"""Drives the gradient-check table: every op, first and second order, in float64."""
import pytest

from tapeflow.testing.op_cases import CASES
from tapeflow.testing.op_table import recorded_ops, run_case, uncovered_ops


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_gradient_matches_finite_differences(case):
    assert run_case(case) < 1e-3


def test_every_registered_op_has_a_row():
    assert uncovered_ops() == []


def test_rows_exercise_their_op():
    assert all(c.op in recorded_ops(c) for c in CASES)
