"""`tf.__internal__.types`: `Tensor`, the abstract type of tensors and Variables
(`tensorflow.python.types.core.Tensor`)."""
from ..types.core import Tensor

__all__ = ["Tensor"]
