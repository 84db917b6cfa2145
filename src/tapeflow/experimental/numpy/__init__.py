"""tf.experimental.numpy: NumPy's API on tapeflow tensors.

`ndarray` is `tf.Tensor`; every function is composed of tapeflow ops, so it differentiates
under `GradientTape` and traces in `tf.function`. Dtypes promote as NumPy's
(`result_type`); `experimental_enable_numpy_behavior` gives Tensors NumPy's methods.

Example:
    >>> import tapeflow as tf
    >>> tnp = tf.experimental.numpy
    >>> tnp.add(tf.constant([1, 2]), 0.5).numpy()
    array([1.5, 2.5])
"""
from . import random  # noqa: F401
from .np_array_ops import (append, argsort, atleast_1d, atleast_2d, atleast_3d,  # noqa: F401
                           broadcast_arrays, broadcast_to, compress, concatenate, cross, diag,
                           diag_indices, diagflat, diagonal, diff, dot, dsplit, dstack, einsum,
                           expand_dims, flatten, flip, fliplr, flipud, hsplit, hstack, inner,
                           iscomplexobj, isrealobj, isscalar, ix_, kron, matmul, meshgrid,
                           ndim, nonzero, outer, pad, polyval, ravel, repeat, reshape, roll,
                           rot90, select, shape, size, sort, split, squeeze, stack, swapaxes,
                           take, take_along_axis, tensordot, tile, trace, transpose, tril,
                           triu, vander, vdot, vsplit, vstack, where)
from .np_arrays import (arange, array, asanyarray, asarray, ascontiguousarray,  # noqa: F401
                        copy, e, empty, empty_like, eye, full, full_like, geomspace, identity,
                        inf, linspace, logspace, moveaxis, ndarray, newaxis, ones, ones_like,
                        pi, tri, zeros, zeros_like)
from .np_config import experimental_enable_numpy_behavior  # noqa: F401
from .np_dtypes import (bool_, complex64, complex128, complex_, finfo, float16,  # noqa: F401
                        float32, float64, float_, iinfo, inexact, int8, int16, int32, int64,
                        int_, issubdtype, object_, promote_types, result_type, string_,
                        uint8, uint16, uint32, uint64, unicode_)
from .np_math import (FUNCTIONS, all, allclose, any, argmax, argmin, around,  # noqa: F401
                      array_equal, average, clip, count_nonzero, divmod, isclose, nanmean,
                      ptp, round, std, var)

globals().update(FUNCTIONS)
__all__ = sorted({name for name in globals() if not name.startswith("_")} -
                 {"np_array_ops", "np_arrays", "np_config", "np_dtypes", "np_math", "FUNCTIONS"})
del FUNCTIONS
