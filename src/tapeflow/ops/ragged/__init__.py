"""Ragged tensors: RaggedTensor and RaggedTensorSpec (`ragged_tensor.py`), their factories
and ops, and the ragged versions of TF's ops, registered for dispatch on import
(`ragged_dispatch.py`; the string ops' in `ragged_string_ops.py`, registered when the string
ops load)."""
from . import ragged_dispatch, ragged_tensor_spec  # noqa: F401
