"""tf.debugging: run-time checks of values, shapes and dtypes, and the NaN/Inf check and
placement log that watch every op."""
from ..ops.check_ops import (Assert, assert_equal, assert_greater, assert_greater_equal,
                             assert_integer, assert_less, assert_less_equal, assert_near,
                             assert_negative, assert_non_negative, assert_non_positive,
                             assert_none_equal, assert_positive, assert_proper_iterable,
                             assert_rank, assert_rank_at_least, assert_rank_in,
                             assert_same_float_dtype, assert_scalar, assert_type,
                             is_numeric_tensor)
from ..ops.numerics_ops import assert_all_finite, check_numerics
from ..ops.shape_check_ops import assert_shapes
from .modes import (disable_check_numerics, enable_check_numerics, get_log_device_placement,
                    set_log_device_placement)

__all__ = ["Assert", "assert_all_finite", "assert_equal", "assert_greater",
           "assert_greater_equal", "assert_integer", "assert_less", "assert_less_equal",
           "assert_near", "assert_negative", "assert_non_negative", "assert_non_positive",
           "assert_none_equal", "assert_positive", "assert_proper_iterable", "assert_rank",
           "assert_rank_at_least", "assert_rank_in", "assert_same_float_dtype",
           "assert_scalar", "assert_shapes", "assert_type", "check_numerics",
           "disable_check_numerics", "enable_check_numerics", "get_log_device_placement",
           "is_numeric_tensor", "set_log_device_placement"]
