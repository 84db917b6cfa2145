"""tf.math: elementwise math and reductions."""
from .ops.gather_ops import unsorted_segment_sum
from .ops.sort_ops import top_k
from .ops.math_ops import (add, divide, exp, log, multiply, negative, pow, reduce_mean,
                           reduce_sum, round, sigmoid, sqrt, square, subtract, tanh, truediv)
from .ops.math_ops import (abs, acos, acosh, add_n, asin, asinh, atan, atan2, atanh, ceil, cos,
                           cosh, divide_no_nan, expm1, floor, floordiv, floormod, log1p,
                           maximum, minimum, mod, reciprocal, rsqrt, sign, sin, sinh,
                           squared_difference, tan)
from .ops.comparison_ops import (equal, greater, greater_equal, is_finite, is_inf, is_nan, less,
                                 less_equal, logical_and, logical_not, logical_or, logical_xor,
                                 not_equal)
from .ops.complex_ops import angle, conj, imag, real
from .ops.norm_ops import l2_normalize
from .ops.reduction_ops import (argmax, argmin, count_nonzero, cumprod, cumsum, reduce_all,
                                reduce_any, reduce_logsumexp, reduce_max, reduce_min,
                                reduce_prod, reduce_std, reduce_variance)
from .ops.special_ops import digamma, erf, erfc, lgamma, polygamma

__all__ = ["add", "divide", "exp", "log", "multiply", "negative", "pow", "reduce_mean",
           "reduce_sum", "round", "sigmoid", "sqrt", "square", "subtract", "tanh", "truediv",
           "top_k", "unsorted_segment_sum"]
__all__ += ["abs", "acos", "acosh", "add_n", "angle", "argmax", "argmin", "asin", "asinh",
            "atan", "atan2", "atanh", "ceil", "conj", "cos", "cosh", "count_nonzero", "cumprod",
            "cumsum", "digamma", "divide_no_nan", "equal", "erf", "erfc", "expm1", "floor",
            "floordiv", "floormod", "greater", "greater_equal", "imag", "is_finite", "is_inf",
            "is_nan", "l2_normalize", "less", "less_equal", "lgamma", "log1p", "logical_and",
            "logical_not", "logical_or", "logical_xor", "maximum", "minimum", "mod",
            "not_equal", "polygamma", "real", "reciprocal", "reduce_all", "reduce_any",
            "reduce_logsumexp", "reduce_max", "reduce_min", "reduce_prod", "reduce_std",
            "reduce_variance", "rsqrt", "sign", "sin", "sinh", "squared_difference", "tan"]
from .ops.nn_ops import log_sigmoid, log_softmax, softmax, softplus, softsign  # noqa: E402

__all__ += ["log_sigmoid", "log_softmax", "softmax", "softplus", "softsign"]
from .ops.math_ops import scalar_mul  # noqa: E402
from .ops.reduction_ops import reduce_euclidean_norm  # noqa: E402

__all__ += ["reduce_euclidean_norm", "scalar_mul"]
from .ops.segment_ops import (segment_max, segment_mean, segment_min, segment_prod,  # noqa: E402
                              segment_sum, unsorted_segment_max, unsorted_segment_mean,
                              unsorted_segment_min, unsorted_segment_prod,
                              unsorted_segment_sqrt_n)

__all__ += ["segment_max", "segment_mean", "segment_min", "segment_prod", "segment_sum",
            "unsorted_segment_max", "unsorted_segment_mean", "unsorted_segment_min",
            "unsorted_segment_prod", "unsorted_segment_sqrt_n"]
from .ops.counting_ops import bincount, confusion_matrix, in_top_k  # noqa: E402

__all__ += ["bincount", "confusion_matrix", "in_top_k"]
from . import math_special as special  # noqa: E402
from .ops.math_utility_ops import (accumulate_n, approx_max_k, approx_min_k,  # noqa: E402
                                   invert_permutation, is_non_decreasing,
                                   is_strictly_increasing, polyval, sobol_sample, zero_fraction)
from .ops.reduction_ops import cumulative_logsumexp  # noqa: E402
from .ops.special_fn_ops import (bessel_i0, bessel_i0e, bessel_i1, bessel_i1e,  # noqa: E402
                                 betainc, erfcinv, erfinv, igamma, igammac, lbeta,
                                 multiply_no_nan, ndtri, nextafter, reciprocal_no_nan, rint,
                                 xdivy, xlog1py, xlogy, zeta)

__all__ += ["accumulate_n", "approx_max_k", "approx_min_k", "bessel_i0", "bessel_i0e",
            "bessel_i1", "bessel_i1e", "betainc", "cumulative_logsumexp", "erfcinv", "erfinv",
            "igamma", "igammac", "invert_permutation", "is_non_decreasing",
            "is_strictly_increasing", "lbeta", "multiply_no_nan", "ndtri", "nextafter",
            "polyval", "reciprocal_no_nan", "rint", "sobol_sample", "special", "xdivy",
            "xlog1py", "xlogy", "zero_fraction", "zeta"]
