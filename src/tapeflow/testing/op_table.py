"""Runs the gradient-check table: used by the tests and by `tapeflow check`."""
from __future__ import annotations

import numpy as np

from ..eager.backprop import GradientTape
from ..framework.registry import all_ops
from ..framework.tensor import constant
from .gradient_checker import check_grads
from .op_cases import CASES, EXEMPT, Case


def recorded_ops(case: Case) -> set:
    """The op names `case.fn` records when its float arguments are watched."""
    args = [constant(a) for a in case.args]
    with GradientTape(persistent=True) as tape:
        tape.watch([a for a in args if a.dtype.is_floating])
        case.fn(*args)
    return {rec[0].name for rec in tape._tape.entries}


def run_case(case: Case) -> float:
    """Checks one row; returns its worst relative error (0.0 for non-differentiable rows).

    Raises:
        AssertionError: the row does not exercise its op, a gradient disagrees with finite
            differences, or a non-differentiable op yields a gradient.
    """
    if case.op not in recorded_ops(case):
        raise AssertionError(f"{case.id}: the row's function never records op {case.op}")
    if case.differentiable:
        return check_grads(case.fn, case.args, order=case.order, eps=case.eps, rtol=case.rtol)
    args = [constant(a) for a in case.args]
    floats = [a for a in args if a.dtype.is_floating]
    with GradientTape() as tape:
        tape.watch(floats)
        out = case.fn(*args)
    grads = tape.gradient(out, floats)
    if any(g is not None for g in grads):
        raise AssertionError(f"{case.id}: a non-differentiable op gave a gradient")
    return 0.0


def uncovered_ops() -> list:
    """Registered ops with neither a row nor an exemption."""
    covered = {c.op for c in CASES} | set(EXEMPT)
    return sorted(set(all_ops()) - covered)


def run_all(report=print) -> int:
    """Runs every row, reporting one line per op; returns the number of failures."""
    worst: dict = {}
    failures = 0
    for case in CASES:
        try:
            error = run_case(case)
            worst[case.op] = max(worst.get(case.op, 0.0), error)
        except AssertionError as e:
            failures += 1
            worst[case.op] = np.inf
            report(f"FAIL {case.id}: {e}")
    for op in sorted(worst):
        report(f"{'ok  ' if np.isfinite(worst[op]) else 'FAIL'} {op:<45} worst rel. error "
               f"{worst[op]:.2e}")
    for op in uncovered_ops():
        failures += 1
        report(f"FAIL {op}: no row in the gradient-check table")
    report(f"{len(CASES)} rows, {len(worst)} ops, {failures} failures")
    return failures
