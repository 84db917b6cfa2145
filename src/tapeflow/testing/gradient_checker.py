"""Numerical gradient checks: TF's `compute_gradient` and the engine's `check_grads`."""
from __future__ import annotations

import numpy as np

from ..framework.tensor import Tensor, constant, convert_to_tensor

__all__ = ["compute_gradient", "check_grads", "GradientCheckError"]


class GradientCheckError(AssertionError):
    """A gradient rule disagrees with central finite differences."""


def _as_arrays(x) -> list:
    return [np.array(convert_to_tensor(a)) for a in x]


def compute_gradient(f, x, delta=None):
    """Theoretical and numerical Jacobians of `f` at the arguments `x`.

    Args:
        f: a function of `len(x)` tensors returning one tensor.
        x: a list or tuple of arguments.
        delta: the finite-difference step (default 1/1024, as TF).

    Returns:
        `(theoretical, numerical)`: tuples with one 2-D array per argument, of shape
        `(y_size, x_size)`.

    Example:
        >>> import tapeflow as tf
        >>> theory, numeric = tf.test.compute_gradient(tf.square, [tf.constant([1.0, 2.0])])
        >>> theory[0]
        array([[2., 0.],
               [0., 4.]], dtype=float32)
    """
    from ..eager.backprop import GradientTape
    if not isinstance(x, (list, tuple)):
        raise TypeError("compute_gradient: x must be a list or tuple of arguments")
    delta = 1.0 / 1024 if delta is None else delta
    values = _as_arrays(x)

    def run(*arrays):
        return np.asarray(f(*[constant(a) for a in arrays]))

    y = run(*values)
    theoretical, numerical = [], []
    for i, xi in enumerate(values):
        jac_t = np.zeros((y.size, xi.size), dtype=xi.dtype)
        jac_n = np.zeros((y.size, xi.size), dtype=xi.dtype)
        for row in range(y.size):
            upstream = np.zeros(y.size, dtype=y.dtype)
            upstream[row] = 1
            args = [constant(a) for a in values]
            with GradientTape() as tape:
                tape.watch(args[i])
                out = f(*args)
            g = tape.gradient(out, args[i], output_gradients=upstream.reshape(y.shape))
            if g is not None:
                jac_t[row] = np.ravel(convert_to_tensor(g))
        for col in range(xi.size):
            plus, minus = xi.copy().ravel(), xi.copy().ravel()
            plus[col] += delta
            minus[col] -= delta
            hi = run(*values[:i], plus.reshape(xi.shape), *values[i + 1:])
            lo = run(*values[:i], minus.reshape(xi.shape), *values[i + 1:])
            jac_n[:, col] = np.ravel(hi - lo) / (2 * delta)
        theoretical.append(jac_t)
        numerical.append(jac_n)
    return tuple(theoretical), tuple(numerical)


def _vjp_dot(f, args, wrt, upstream, direction):
    """<grad of <f(args), upstream> w.r.t. args[wrt], direction>, recorded if a tape is on."""
    from ..eager.backprop import GradientTape
    with GradientTape() as tape:
        tape.watch([args[i] for i in wrt])
        y = f(*args)
    grads = tape.gradient(y, [args[i] for i in wrt], output_gradients=upstream)
    total = 0.0
    for g, d in zip(grads, direction):
        if g is not None:
            total = total + _reduce_all(convert_to_tensor(g) * d)
    return total


def _jvp_dot(f, args, wrt, upstream, direction):
    """<JVP of f along `direction`, upstream>, by forward mode; outer recorders see it."""
    from ..eager.forwardprop import ForwardAccumulator
    with ForwardAccumulator([args[i] for i in wrt], [constant(d) for d in direction]) as acc:
        y = f(*args)
    tangent = acc.jvp(y) if isinstance(y, Tensor) else None
    return 0.0 if tangent is None else _reduce_all(tangent * upstream)


_DOTS = {"reverse": _vjp_dot, "forward": _jvp_dot}


def _reduce_all(t):
    from ..ops.math_ops import reduce_sum
    return reduce_sum(t)


def check_grads(f, args, order: int = 2, eps: float = 1e-6, rtol: float = 1e-5,
                atol: float = 1e-6, seed: int = 0, mode: str = "reverse") -> float:
    """Checks the gradients (or, with mode="forward", the JVPs) of `f` against central
    differences.

    Floating arguments are differentiated (in float64); others are held fixed. Each order
    checks the derivative in a random direction: order 1 compares <J v, u> with the
    finite difference of <f, u> along v; order 2 repeats that on the order-1 function,
    which differentiates the recorded backward pass (in forward mode: nests accumulators).

    Returns:
        The worst relative error seen.

    Raises:
        GradientCheckError: a derivative disagrees beyond `atol + rtol * |numeric|`.
    """
    rng = np.random.default_rng(seed)
    arrays = [np.asarray(a) for a in args]
    wrt = [i for i, a in enumerate(arrays) if a.dtype.kind == "f"]
    arrays = [a.astype(np.float64) if i in wrt else a for i, a in enumerate(arrays)]
    return _check(f, arrays, wrt, order, eps, rtol, atol, rng, level=1, dot=_DOTS[mode])


def _check(f, arrays, wrt, order, eps, rtol, atol, rng, level, dot=_vjp_dot) -> float:
    def value(*xs):
        out = f(*[x if isinstance(x, Tensor) else constant(np.asarray(x)) for x in xs])
        return np.asarray(convert_to_tensor(out), dtype=np.float64)

    y = value(*arrays)
    upstream = rng.standard_normal(y.shape)
    direction = [rng.standard_normal(arrays[i].shape) for i in wrt]

    def shifted(step):
        xs = list(arrays)
        for i, d in zip(wrt, direction):
            xs[i] = np.asarray(arrays[i] + step * d)
        return xs

    numeric = float(np.sum((value(*shifted(eps)) - value(*shifted(-eps))) * upstream) / (2 * eps))
    tensors = [constant(a) for a in arrays]
    analytic = float(np.asarray(convert_to_tensor(
        dot(f, tensors, wrt, constant(upstream), direction))))
    error = abs(analytic - numeric) / max(abs(numeric), 1.0)
    if not abs(analytic - numeric) <= atol + rtol * abs(numeric):
        raise GradientCheckError(f"gradient check failed at order {level}: "
                                 f"analytic {analytic!r} vs numeric {numeric!r}")
    if order > 1:
        def first_order(*xs):
            return dot(f, list(xs), wrt, constant(upstream), direction)
        error = max(error, _check(first_order, arrays, wrt, order - 1, eps, rtol, atol, rng,
                                  level + 1, dot))
    return error
