"""`tensorflow.python.framework.sparse_tensor`: TF's module of `SparseTensor` and
`SparseTensorSpec`, here tapeflow's own classes."""
from ...framework.sparse_tensor import SparseTensor, SparseTensorSpec

__all__ = ["SparseTensor", "SparseTensorSpec"]
