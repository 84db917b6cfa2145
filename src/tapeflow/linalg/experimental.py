"""tf.linalg.experimental: the conjugate gradient method."""
from __future__ import annotations

import collections

from ..eager.control_flow import while_loop
from ..framework import dtypes
from ..framework.tensor import constant, convert_to_tensor
from ..ops.complex_ops import conj
from ..ops.creation_ops import zeros_like
from ..ops.math_ops import cast, reduce_sum
from ..ops.norm_ops import norm
from ..ops.reduction_ops import reduce_any

__all__ = ["conjugate_gradient"]

CGState = collections.namedtuple("CGState", ["i", "x", "r", "p", "gamma"])


def _dot(x, y):
    """<x, y> = sum(conj(x) y) over the last axis."""
    return reduce_sum(conj(x) * y, axis=-1)


def conjugate_gradient(operator, rhs, preconditioner=None, x=None, tol=1e-5, max_iter=20,
                       name="conjugate_gradient") -> CGState:
    """Solves operator @ x = rhs for a self-adjoint positive definite operator by conjugate
    gradients, stopping once every residual norm is below tol * its initial norm, or after
    max_iter steps.

    Args:
        operator: a self-adjoint positive definite LinearOperator [..., N, N].
        rhs: a tensor [..., N].
        preconditioner: a LinearOperator approximating the operator's inverse, or None.
        x: the starting point (zeros when None).
        tol: the relative tolerance on the residual norm.
        max_iter: the most steps taken.

    Returns:
        A named tuple `(i, x, r, p, gamma)`: the steps taken, the solution, the residual
        rhs - operator @ x, the last search direction and the last <r, preconditioned r>.

    Raises:
        ValueError: an operator not hinted self-adjoint and positive definite.

    Example:
        >>> import tapeflow as tf
        >>> operator = tf.linalg.LinearOperatorFullMatrix(
        ...     [[4.0, 1.0], [1.0, 3.0]], is_self_adjoint=True, is_positive_definite=True)
        >>> state = tf.linalg.experimental.conjugate_gradient(operator, tf.constant([1.0, 2.0]))
        >>> int(state.i), state.x.numpy().round(4)
        (2, array([0.0909, 0.6364], dtype=float32))
    """
    if not (operator.is_self_adjoint and operator.is_positive_definite):
        raise ValueError(f"conjugate_gradient: the operator must be hinted self-adjoint and "
                         f"positive definite ({operator.name}).")
    rhs = convert_to_tensor(rhs)
    if x is None:
        x, residual = zeros_like(rhs), rhs
    else:
        x = convert_to_tensor(x)
        residual = rhs - operator.matvec(x)
    direction = residual if preconditioner is None else preconditioner.matvec(residual)
    gamma = _dot(residual, direction)
    threshold = cast(tol, residual.dtype.real_dtype) * norm(residual, axis=-1)

    def not_done(i, x, r, p, gamma):
        return (i < max_iter) & reduce_any(norm(r, axis=-1) > threshold)

    def step(i, x, r, p, gamma):
        z = operator.matvec(p)
        alpha = gamma / _dot(p, z)
        x = x + alpha[..., None] * p
        r = r - alpha[..., None] * z
        q = r if preconditioner is None else preconditioner.matvec(r)
        new_gamma = _dot(r, q)
        return i + 1, x, r, q + (new_gamma / gamma)[..., None] * p, new_gamma

    return CGState(*while_loop(not_done, step, (constant(0, dtypes.int32), x, residual,
                                                direction, gamma)))
