"""Special functions backed by scipy.special: erf, erfc, lgamma, digamma, polygamma.

SciPy is imported on first use, so `import tapeflow` does not need it. Each op is one
`define_op` row; the gradient rules are in `special_grad.py`.
"""
from __future__ import annotations

import importlib

import numpy as np

from ..framework.numpy_warnings import silenced
from ..framework.registry import ELEMENTWISE, define_op
from ..framework.tensor import Tensor
from .math_ops import FLOAT, dtype_error, execute_binary, unary_function
from .op_util import binary_inputs

_special_module = None


def scipy_module(name: str):
    """scipy.<name>, imported on first use.

    Raises:
        ImportError: SciPy is missing, naming the extras that install it.
    """
    try:
        return importlib.import_module(f"scipy.{name}")
    except ImportError as e:
        raise ImportError(f"this function needs SciPy (scipy.{name}): pip install "
                          "'tapeflow[test]' or 'tapeflow[demo]'") from e


def scipy_special():
    """scipy.special, imported on first use."""
    global _special_module
    if _special_module is None:
        _special_module = scipy_module("special")
    return _special_module


# SciPy computes half precision in float32 or float64: results are cast back to x's dtype.
def _erf(x):
    return scipy_special().erf(x).astype(x.dtype, copy=False)


def _erfc(x):
    return scipy_special().erfc(x).astype(x.dtype, copy=False)


def _lgamma(x):
    return scipy_special().gammaln(x).astype(x.dtype, copy=False)


def _digamma(x):
    return scipy_special().psi(x).astype(x.dtype, copy=False)


@silenced
def _polygamma(a, x):
    # TF's polygamma is nan unless the order `a` is a non-negative integer.
    valid = (a >= 0) & (np.floor(a) == a)
    values = scipy_special().polygamma(np.where(valid, a, 0), x)
    return np.where(valid, values, np.nan).astype(x.dtype, copy=False)


Erf = define_op("Erf", _erf, family=ELEMENTWISE)
Erfc = define_op("Erfc", _erfc, family=ELEMENTWISE)
Lgamma = define_op("Lgamma", _lgamma, family=ELEMENTWISE)
Digamma = define_op("Digamma", _digamma, family=ELEMENTWISE)
Polygamma = define_op("Polygamma", _polygamma, family=ELEMENTWISE)

erf = unary_function(Erf, "erf", "The error function of x", FLOAT, "[0.0, 1.0]",
                     "array([0. , 0.8427], dtype=float32)")
erfc = unary_function(Erfc, "erfc", "1 - erf(x), accurate for large x", FLOAT, "[0.0, 1.0]",
                      "array([1. , 0.1573], dtype=float32)")
lgamma = unary_function(Lgamma, "lgamma", "log |Gamma(x)|", FLOAT, "[1.0, 3.0]",
                        "array([0. , 0.6931], dtype=float32)")
digamma = unary_function(Digamma, "digamma", "The derivative of lgamma, psi(x)", FLOAT,
                         "[1.0]", "array([-0.5772], dtype=float32)")


def polygamma(a, x, name=None) -> Tensor:
    """The a-th derivative of digamma at x; nan unless `a` is a non-negative integer.

    Args:
        a: the order, a floating tensor of x's dtype (no gradient flows to it).
        x: a floating tensor.

    Returns:
        A tensor of the broadcast shape.

    Raises:
        InvalidArgumentError: the dtypes differ or are not float32 or float64.

    Example:
        >>> import tapeflow as tf
        >>> tf.math.polygamma(tf.constant([0.0, 1.0]), tf.constant([1.0, 1.0])).numpy()
        array([-0.5772,  1.6449 ], dtype=float32)
    """
    a, x = binary_inputs("Polygamma", a, x)
    if a.dtype.name == "float16":  # TF's kernel has no half precision
        raise dtype_error("Polygamma", a, "f")
    return execute_binary(Polygamma, FLOAT, a, x)
