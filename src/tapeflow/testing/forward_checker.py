"""Numerical checks of forward mode: JVPs against central differences, like `check_grads`."""
from __future__ import annotations

import numpy as np

from ..eager.forwardprop import ForwardAccumulator
from ..framework.tensor import Tensor, constant, convert_to_tensor
from .gradient_checker import GradientCheckError

__all__ = ["check_jvps", "forward_jvp"]


def forward_jvp(f, args: list, wrt: list, direction: list):
    """The JVP of `f(*args)` along `direction` (one array per index in `wrt`), or None."""
    with ForwardAccumulator([args[i] for i in wrt], [constant(d) for d in direction]) as acc:
        y = f(*args)
    return acc.jvp(y)


def check_jvps(f, args, order: int = 2, eps: float = 1e-6, rtol: float = 1e-5,
               atol: float = 1e-6, seed: int = 0) -> float:
    """Checks the forward-mode JVPs of `f` against central differences.

    Floating arguments are perturbed (in float64) along a random direction; the JVP must
    equal the finite difference of `f` elementwise. Order 2 repeats the check on the
    function computing the order-1 JVP, under an outer accumulator (nested forward mode).

    Returns:
        The worst relative error seen.

    Raises:
        GradientCheckError: a JVP disagrees beyond `atol + rtol * |numeric|`.
    """
    rng = np.random.default_rng(seed)
    arrays = [np.asarray(a) for a in args]
    wrt = [i for i, a in enumerate(arrays) if a.dtype.kind == "f"]
    arrays = [a.astype(np.float64) if i in wrt else a for i, a in enumerate(arrays)]
    return _check(f, arrays, wrt, order, eps, rtol, atol, rng, level=1)


def _check(f, arrays, wrt, order, eps, rtol, atol, rng, level) -> float:
    def value(*xs):
        out = f(*[constant(np.asarray(x)) for x in xs])
        return np.asarray(convert_to_tensor(out)._value, dtype=np.float64)

    direction = [rng.standard_normal(arrays[i].shape) for i in wrt]

    def shifted(step):
        xs = list(arrays)
        for i, d in zip(wrt, direction):
            xs[i] = np.asarray(arrays[i] + step * d)
        return xs

    numeric = (value(*shifted(eps)) - value(*shifted(-eps))) / (2 * eps)
    tangent = forward_jvp(f, [constant(a) for a in arrays], wrt, direction)
    analytic = np.zeros_like(numeric) if tangent is None else \
        np.asarray(tangent._value, dtype=np.float64)
    if analytic.shape != numeric.shape:
        raise GradientCheckError(f"JVP at order {level} has shape {analytic.shape}, the "
                                 f"output {numeric.shape}")
    gap = np.abs(analytic - numeric)
    if not np.all(gap <= atol + rtol * np.abs(numeric)):
        raise GradientCheckError(f"JVP check failed at order {level}: analytic {analytic!r} vs "
                                 f"numeric {numeric!r}")
    error = float(np.max(gap / np.maximum(np.abs(numeric), 1.0), initial=0.0))
    if order > 1:
        def first_order(*xs):
            jvp = forward_jvp(f, list(xs), wrt, direction)
            return Tensor(np.zeros_like(f(*xs)._value)) if jvp is None else jvp
        error = max(error, _check(first_order, arrays, wrt, order - 1, eps, rtol, atol, rng,
                                  level + 1))
    return error
