"""`tf.__internal__`: the names TF exports for its own libraries (Keras, tf-keras, TF
Probability), each the tapeflow mechanism it names in TF.

`CompositeTensor` and `FuncGraph` are tapeflow's own classes; `EagerTensor` and
`SymbolicTensor` are the two kinds of `tf.Tensor` (tapeflow has one Tensor class whose graph
tensors are `SymbolicTensor`s; `isinstance` tells them apart as TF's classes do). The
submodules: `types` (the abstract `Tensor`), `smart_cond`, `distribute` (merge calls),
`eager_context`, `tf2`, and `tracking`, the trackable machinery's names
(`tapeflow.trackable.tracking`, loaded on first use).

Example:
    >>> import tapeflow as tf
    >>> isinstance(tf.constant(1.0), tf.__internal__.EagerTensor)
    True
    >>> @tf.function
    ... def f(x):
    ...     print(isinstance(x, tf.__internal__.EagerTensor),
    ...           isinstance(tf.compat.v1.get_default_graph(), tf.__internal__.FuncGraph))
    ...     return x
    >>> _ = f(tf.constant(1.0))
    False True
"""
from __future__ import annotations

from ...framework.composite_tensor import CompositeTensor
from ...framework.graph import FuncGraph
from ...framework.graph_tensor import SymbolicTensor
from ...framework.tensor import Tensor as _Tensor
from . import distribute, eager_context, smart_cond, tf2, types  # noqa: F401

__all__ = ["CompositeTensor", "EagerTensor", "FuncGraph", "SymbolicTensor", "distribute",
           "eager_context", "smart_cond", "tf2", "types"]


class _EagerKind(type):
    def __instancecheck__(cls, value) -> bool:
        return isinstance(value, _Tensor) and not isinstance(value, SymbolicTensor)

    def __subclasscheck__(cls, kind) -> bool:
        return issubclass(kind, _Tensor) and not issubclass(kind, SymbolicTensor)


class EagerTensor(metaclass=_EagerKind):
    """The tensors that hold their value now (a `tf.Tensor` that is not a graph tensor)."""

    __slots__ = ()


def __getattr__(name: str):
    if name == "tracking":
        import importlib
        try:
            return importlib.import_module("tapeflow.trackable.tracking")
        except ModuleNotFoundError as error:
            if error.name not in ("tapeflow.trackable", "tapeflow.trackable.tracking"):
                raise
    raise AttributeError(f"module 'tf.__internal__' has no attribute {name!r}")
