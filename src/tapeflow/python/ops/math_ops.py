"""`tensorflow.python.ops.math_ops`: the math functions under the names TF's private module
gives them (`is_nan` is `tf.math.is_nan`).

Example:
    >>> import tapeflow as tf
    >>> from tapeflow.python.ops.math_ops import is_nan
    >>> is_nan(tf.constant([1.0, float("nan")])).numpy().tolist()
    [False, True]
"""
from ...math import is_nan

__all__ = ["is_nan"]
