"""Forward-mode (JVP) rules of math_ops written by hand, where the rule the op's family
derives (see jvp_util) would do more work."""
from __future__ import annotations

from ..framework.registry import RegisterJVP
from . import math_ops  # noqa: F401  (defines the ops whose rules are registered below)
from .jvp_util import plus


@RegisterJVP("AddV2")
def _add_jvp(op, tx, ty):
    return plus(tx, ty)


@RegisterJVP("Sub")
def _sub_jvp(op, tx, ty):
    return plus(tx, None if ty is None else -ty)


@RegisterJVP("RealDiv")
def _div_jvp(op, tx, ty):
    y = op.inputs[1]
    return plus(tx, None if ty is None else -ty * op.outputs[0]) / y
