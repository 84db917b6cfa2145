"""tapeflow: TensorFlow's gradient machinery on NumPy.

Change `import tensorflow as tf` to `import tapeflow as tf`. This module only re-exports.
"""
from . import framework  # noqa: F401
from .framework import dtypes, errors
from .framework.context import executing_eagerly
from .framework.dtypes import (DType, as_dtype, bool, complex64, complex128, double, float16,
                               float32, float64, half, int8, int16, int32, int64, uint8)
from .framework.indexed_slices import IndexedSlices
from .framework.registry import RegisterGradient, no_gradient
from .framework.tensor import Tensor, constant, convert_to_tensor, is_tensor
from .framework.tensor_shape import TensorShape
from .framework.variables import Variable
from .ops import array_grad, math_grad, nn_grad  # noqa: F401  (registers the rules)
from .ops.array_ops import broadcast_to, identity, reshape, transpose
from .ops.math_ops import (add, cast, divide, exp, log, matmul, multiply, negative, pow,
                           reduce_mean, reduce_sum, round, sigmoid, sqrt, square, subtract,
                           tanh, truediv)
from .eager.backprop import GradientTape, UnconnectedGradients
from .custom_gradient import custom_gradient, grad_pass_through, recompute_grad, stop_gradient
from . import math, nn, test  # noqa: E402
from .module import Module  # noqa: E402
from . import keras, train  # noqa: E402

NoGradient = no_gradient
__version__ = "0.1.0"
