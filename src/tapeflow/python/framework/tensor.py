"""`tensorflow.python.framework.tensor`: TF's module of `Tensor` and `TensorSpec`, here
tapeflow's own classes (`tapeflow.python.class_names` names them so under the stand-in)."""
from ...framework.tensor import Tensor
from ...framework.tensor_spec import TensorSpec

__all__ = ["Tensor", "TensorSpec"]
