"""`tensorflow.python.ops.ragged.ragged_tensor`: TF's module of `RaggedTensor` and
`RaggedTensorSpec`, here tapeflow's own classes."""
from ....ops.ragged.ragged_tensor import RaggedTensor
from ....ops.ragged.ragged_tensor_spec import RaggedTensorSpec

__all__ = ["RaggedTensor", "RaggedTensorSpec"]
