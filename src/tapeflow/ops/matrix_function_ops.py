"""Primary matrix functions (tf.linalg.expm, logm, sqrtm): kernels and the public functions.

expm is TF's Padé approximation with scaling and squaring, in NumPy; logm and sqrtm run SciPy's
Schur-based kernels, imported on first use (`import tapeflow` does not need SciPy). The
gradient and JVP rules, in `matrix_function_grad.py`, are the Fréchet derivatives these
functions share.
"""
from __future__ import annotations

import warnings

import numpy as np

from ..framework import errors
from ..framework.errors import invalid_argument
from ..framework.execute import execute
from ..framework.graph_def import graph_def_form
from ..framework.numpy_warnings import silenced
from ..framework.registry import define_op
from ..framework.tensor import Tensor
from .linalg_ops import _matrices
from .op_util import NO_ATTRS, as_input

__all__ = ["expm", "logm", "sqrtm"]

_scipy_linalg_module = None


def scipy_linalg():
    """scipy.linalg, imported on first use."""
    global _scipy_linalg_module
    if _scipy_linalg_module is None:
        try:
            from scipy import linalg
        except ImportError:
            raise ImportError("tf.linalg.logm and sqrtm run SciPy's kernels: pip install scipy "
                              "(or tapeflow[test])") from None
        _scipy_linalg_module = linalg
    return _scipy_linalg_module


# Padé [m/m] coefficients of exp for m = 3, 5, 7, 9, 13 (Higham 2005), and the 1-norms up to
# which each is exact to the working precision, as TF chooses among them: orders 3, 5, 7 in
# single precision, 3 to 13 in double; above the last bound the matrix is scaled by a power
# of 2 and the approximant squared back.
_PADE = {3: (120.0, 60.0, 12.0, 1.0),
         5: (30240.0, 15120.0, 3360.0, 420.0, 30.0, 1.0),
         7: (17297280.0, 8648640.0, 1995840.0, 277200.0, 25200.0, 1512.0, 56.0, 1.0),
         9: (17643225600.0, 8821612800.0, 2075673600.0, 302702400.0, 30270240.0, 2162160.0,
             110880.0, 3960.0, 90.0, 1.0),
         13: (64764752532480000.0, 32382376266240000.0, 7771770303897600.0,
              1187353796428800.0, 129060195264000.0, 10559470521600.0, 670442572800.0,
              33522128640.0, 1323241920.0, 40840800.0, 960960.0, 16380.0, 182.0, 1.0)}
_BOUNDS = {"single": ((3, 4.258730016922831e-1), (5, 1.880152677804762), (7, 3.925724783138660)),
           "double": ((3, 1.495585217958292e-2), (5, 2.539398330063230e-1),
                      (7, 9.504178996162932e-1), (9, 2.097847961257068),
                      (13, 5.371920351148152))}


def _pade(a, order: int) -> tuple:
    """(U, V), the odd and even parts of the Padé approximant of exp(a) of `order`."""
    b = _PADE[order]
    ident = np.eye(a.shape[-1], dtype=a.dtype)
    a2 = a @ a
    if order == 13:
        a4 = a2 @ a2
        a6 = a4 @ a2
        u = a @ (a6 @ (b[13] * a6 + b[11] * a4 + b[9] * a2) + b[7] * a6 + b[5] * a4 +
                 b[3] * a2 + b[1] * ident)
        v = a6 @ (b[12] * a6 + b[10] * a4 + b[8] * a2) + b[6] * a6 + b[4] * a4 + b[2] * a2 + \
            b[0] * ident
        return u, v
    powers, odd, even = [ident], b[1] * ident, b[0] * ident
    for k in range(2, order, 2):
        powers.append(powers[-1] @ a2)
        odd = odd + b[k + 1] * powers[-1]
        even = even + b[k] * powers[-1]
    return a @ odd, even


@silenced
def _expm(x):
    """TF's algorithm: the lowest-order Padé approximant exact at each matrix's 1-norm, the
    highest one of the matrix scaled by 2^-s and squared s times."""
    bounds = _BOUNDS["single" if x.dtype in (np.float32, np.complex64) else "double"]
    norm = np.abs(x).sum(axis=-2).max(axis=-1, initial=0.0)[..., None, None]
    top, top_bound = bounds[-1]
    with np.errstate(divide="ignore"):
        squarings = np.floor(np.log2(norm / top_bound))
    squarings = np.where(np.isfinite(squarings), np.maximum(squarings, 0), 0).astype(np.int64)
    u, v = _pade(x / (2.0 ** squarings).astype(x.dtype), top)
    for order, bound in reversed(bounds[:-1]):
        if np.any(norm < bound):
            low_u, low_v = _pade(x, order)
            u, v = np.where(norm < bound, low_u, u), np.where(norm < bound, low_v, v)
    try:
        out = np.linalg.solve(v - u, v + u)
    except np.linalg.LinAlgError:  # nan or inf entries
        out = np.full_like(x, np.nan)
    for i in range(int(squarings.max(initial=0))):
        out = np.where(squarings > i, out @ out, out)
    return out


def _each_matrix(function):
    """A kernel applying SciPy's `function` to every matrix of a batch, without its warnings
    (TF's kernels return the inaccurate result of a singular matrix silently)."""
    @silenced
    def kernel(x):
        flat = x.reshape((-1,) + x.shape[-2:])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            results = [function(m) for m in flat]
        out = np.empty(flat.shape, np.result_type(x.dtype, *[r.dtype for r in results]))
        for i, r in enumerate(results):
            out[i] = r
        if out.dtype.kind == "c" and x.dtype.kind != "c":
            # A real matrix without a real square root (a negative eigenvalue): NaN, as TF.
            out = np.where(np.all(out.imag == 0, axis=(-2, -1), keepdims=True), out.real,
                           np.nan)
        return out.reshape(x.shape).astype(x.dtype)
    return kernel


MatrixExponential = define_op("MatrixExponential", _expm)


def _no_graph_def_op(op) -> str:
    raise errors.UnimplementedError(
        None, op.type, f"node {op.name!r}: TF's GraphDefs have no {op.type} op (removed at "
        "GraphDef version 27; TF composes it from other ops)")


graph_def_form("MatrixExponential", tf_type=_no_graph_def_op)
MatrixLogarithm = define_op("MatrixLogarithm", _each_matrix(lambda m: scipy_linalg().logm(m)))
MatrixSquareRoot = define_op("MatrixSquareRoot",
                             _each_matrix(lambda m: scipy_linalg().sqrtm(m)))


def expm(input, name=None) -> Tensor:  # noqa: A002  (TF's argument name)
    """The matrix exponential of each square matrix in the last two axes.

    Args:
        input: a float32/64 or complex64/128 tensor of shape [..., N, N].

    Returns:
        exp(input) = sum over k of input^k / k!, of the input's dtype and shape.

    Raises:
        ValueError: an integer or bool dtype.
        InvalidArgumentError: rank below 2 or non-square matrices.
        NotFoundError: float16 input (no kernel, as in TF).

    Example:
        >>> import tapeflow as tf
        >>> tf.linalg.expm(tf.constant([[0.0, 1.0], [0.0, 0.0]])).numpy()
        array([[1., 1.],
               [0., 1.]], dtype=float32)
    """
    x = as_input(input)
    if not (x.dtype.is_floating or x.dtype.is_complex):
        raise ValueError(f"tf.linalg.expm does not support matrices of type {x.dtype.name} "
                         f"(shape {list(x.shape)}).")
    return execute(MatrixExponential, (_matrices("MatrixExponential", x),), NO_ATTRS)


def logm(input, name=None) -> Tensor:  # noqa: A002
    """The principal matrix logarithm of each square complex matrix (the inverse of `expm`).

    Args:
        input: a complex64/128 tensor of shape [..., N, N] (TF's kernel takes complex only).

    Returns:
        log(input), of the input's dtype and shape.

    Raises:
        InvalidArgumentError: a real dtype, rank below 2 or non-square matrices.
        ImportError: SciPy is not installed.

    Example:
        >>> import tapeflow as tf
        >>> tf.linalg.logm(tf.constant([[1.0 + 0j, 1.0], [0.0, 1.0]])).numpy()
        array([[0.+0.j, 1.+0.j],
               [0.+0.j, 0.+0.j]])
    """
    x = _matrices("MatrixLogarithm", input)
    if not x.dtype.is_complex:
        raise _complex_only("MatrixLogarithm", x)
    return execute(MatrixLogarithm, (x,), NO_ATTRS)


def _complex_only(op_name: str, x):
    return invalid_argument(op_name, f"Value for attr 'T' of {x.dtype.name} is not in the list "
                                     f"of allowed values: complex64, complex128 (shape "
                                     f"{list(x.shape)}); cast to a complex dtype.")


def sqrtm(input, name=None) -> Tensor:  # noqa: A002
    """The principal square root of each square matrix: sqrtm(x) @ sqrtm(x) = x.

    A real matrix without a real square root (one with a negative eigenvalue) gives NaN,
    as in TF; give it as a complex matrix for its complex root.

    Args:
        input: a float32/64 or complex64/128 tensor of shape [..., N, N].

    Returns:
        The square roots, of the input's dtype and shape.

    Raises:
        InvalidArgumentError: rank below 2, non-square matrices or an unsupported dtype.
        ImportError: SciPy is not installed.

    Example:
        >>> import tapeflow as tf
        >>> tf.linalg.sqrtm(tf.constant([[4.0, 0.0], [0.0, 9.0]])).numpy()
        array([[2., 0.],
               [0., 3.]], dtype=float32)
    """
    return execute(MatrixSquareRoot, (_matrices("MatrixSquareRoot", input),), NO_ATTRS)
