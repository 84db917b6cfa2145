"""`TensorType`, the abstract type of every tensor-like value (TF's `types.core.Tensor`).

`isinstance(x, TensorType)` holds for tapeflow's tensors (eager and symbolic) and
Variables; a library subclasses it to say its own class is a tensor (Keras's
TensorFlow-backend Variable does), and `tf.is_tensor` then says so too.
"""
from __future__ import annotations

import abc

from .tensor import Tensor
from .variables import Variable

__all__ = ["TensorType"]


class TensorType(abc.ABC):  # noqa: B024  (an abstract type with no abstract methods, as TF's)
    """The type of tensors: tapeflow's Tensor and Variable are registered as its kinds."""

    __slots__ = ()


TensorType.register(Tensor)
TensorType.register(Variable)
