"""The gradient rule of CheckNumerics: the gradient passes through, checked the same way."""
from __future__ import annotations

from ..framework.registry import RegisterGradient
from .numerics_ops import check_numerics


@RegisterGradient("CheckNumerics")
def _check_numerics_grad(op, g):
    return check_numerics(g, "Not a number (NaN) or infinity (Inf) values detected in "
                             f"gradient. {op.attrs['message'].encode()!r}")
