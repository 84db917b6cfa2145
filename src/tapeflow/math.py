"""tf.math: elementwise math and reductions."""
from .ops.array_ops import unsorted_segment_sum
from .ops.sort_ops import top_k
from .ops.math_ops import (add, divide, exp, log, multiply, negative, pow, reduce_mean,
                           reduce_sum, round, sigmoid, sqrt, square, subtract, tanh, truediv)

__all__ = ["add", "divide", "exp", "log", "multiply", "negative", "pow", "reduce_mean",
           "reduce_sum", "round", "sigmoid", "sqrt", "square", "subtract", "tanh", "truediv",
           "top_k", "unsorted_segment_sum"]
