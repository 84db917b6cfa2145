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
from __future__ import annotations

import abc

from ...framework.tensor import Tensor as _Tensor
from ...framework.variables import Variable as _Variable

__all__ = ["Tensor"]


class Tensor(abc.ABC):  # noqa: B024  (an abstract type with no abstract methods, as TF's)
    """The type of tensors: tapeflow's Tensor and Variable are registered as its kinds."""

    __slots__ = ()


Tensor.register(_Tensor)
Tensor.register(_Variable)
