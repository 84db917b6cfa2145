"""`tensorflow.python.types.core`: `Tensor`, the abstract type of every tensor-like value.

`isinstance(x, Tensor)` holds for tapeflow's tensors (eager and symbolic) and Variables, as
TF's holds for its tensors and resource variables. A library may subclass it to say its own
class is a tensor (Keras's TensorFlow-backend Variable does).

Example:
    >>> import tapeflow as tf
    >>> from tapeflow.python.types import core
    >>> isinstance(tf.constant(1.0), core.Tensor), isinstance(tf.Variable(1.0), core.Tensor)
    (True, True)
    >>> isinstance(1.0, core.Tensor)
    False
"""
from ...framework.core_types import TensorType as Tensor

__all__ = ["Tensor"]
