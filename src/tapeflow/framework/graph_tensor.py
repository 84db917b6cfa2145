"""Symbolic tensors: the outputs of a graph's operations.

A SymbolicTensor holds a SymbolicValue instead of an array: its dtype and static shape are
known (unknown dimensions are None) and code that reads `x._value.dtype` works unchanged;
anything that needs the data while the graph is built raises SymbolicValueError. Constants
keep their value.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import errors
from .context import default_session, state
from .tensor import Tensor
from .tensor_shape import TensorShape

if TYPE_CHECKING:
    from .graph import Graph, Operation

__all__ = ["SymbolicTensor", "SymbolicValue"]


class SymbolicValue:
    """What a symbolic tensor holds instead of an array: its dtype and static dims.

    Engine code that reads `x._value.dtype` works unchanged; anything that needs the data
    (NumPy calls, arithmetic, indexing, an unknown dimension) raises SymbolicValueError.
    """

    __slots__ = ("dtype", "dims", "tensor")

    def __init__(self, dtype: np.dtype, dims, tensor=None) -> None:
        self.dtype = dtype
        self.dims = dims
        self.tensor = tensor

    @property
    def shape(self) -> tuple:
        dims = self.dims
        if dims is None or None in dims:
            raise errors.SymbolicValueError(
                f"the shape of graph tensor {self._name()} is {TensorShape(dims)}: not fully "
                "known while the graph is built")
        return dims

    @property
    def ndim(self):
        return None if self.dims is None else len(self.dims)

    def _name(self) -> str:
        return repr(self.tensor.name) if self.tensor is not None else "(unnamed)"

    def _unavailable(self, *args, **kwargs):
        if state.graph is None:
            raise errors.SymbolicValueError(
                f"graph tensor {self._name()} was used outside its graph. A graph tensor (from "
                "tf.function tracing or Graph.as_default()) has no value; return it from the "
                "function, or run it with Session.run.")
        raise errors.SymbolicValueError(f"the value of graph tensor {self._name()} is not known "
                                        "while the graph is built")

    __array__ = __array_ufunc__ = __array_function__ = _unavailable
    __bool__ = __float__ = __int__ = __index__ = __complex__ = _unavailable
    __len__ = __iter__ = __getitem__ = __setitem__ = __abs__ = __neg__ = __invert__ = _unavailable
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _unavailable
    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = _unavailable
    __pow__ = __rpow__ = __matmul__ = __rmatmul__ = __lt__ = __le__ = __gt__ = __ge__ = _unavailable
    __and__ = __rand__ = __or__ = __ror__ = __xor__ = __rxor__ = _unavailable

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        self._unavailable()


class _SymbolicArrayError(errors.SymbolicValueError, NotImplementedError):
    """np.asarray of a graph tensor (TF raises NotImplementedError)."""


class SymbolicTensor(Tensor):
    """A tensor of a Graph: the output `value_index` of operation `op`.

    Its dtype is known and its shape partly (unknown dimensions are None); its value exists
    only when the graph runs (`Session.run`, or a call of a `tf.function`), except for
    constants, whose value code building the graph may read. What shape inference knows
    of its value is `_known` (see `shape_inference.known_value`).

    Example:
        >>> import tapeflow as tf
        >>> with tf.Graph().as_default():
        ...     x = tf.compat.v1.placeholder(tf.float32, [None, 3], name="x")
        ...     y = tf.square(x)
        >>> y
        <tf.Tensor 'Square:0' shape=(None, 3) dtype=float32>
    """

    __slots__ = ("_op", "_index", "_shape", "_const", "_known")

    def __init__(self, op: "Operation", index: int, dtype: np.dtype, dims, const=None) -> None:
        Tensor.__init__(self, SymbolicValue(np.dtype(dtype), None if dims is None else tuple(
            None if d is None else int(d) for d in dims), self))
        self._op = op
        self._index = index
        self._shape = TensorShape(self._value.dims)
        self._const = self._known = const

    def _set_constant(self, value) -> None:
        """Marks the tensor as constant: its value is known while the graph is built."""
        self._const = self._known = value
        self._value = value

    @property
    def _dims(self):
        return None if self._shape.rank is None else tuple(self._shape.dims)

    @property
    def op(self) -> "Operation":
        return self._op

    @property
    def graph(self) -> "Graph":
        return self._op._graph

    @property
    def name(self) -> str:
        return f"{self._op._name}:{self._index}"

    @property
    def value_index(self) -> int:
        return self._index

    @property
    def device(self) -> str:
        """The device its operation's scope requested ("" for none), as TF's graphs show."""
        return self._op._device

    @property
    def shape(self) -> TensorShape:
        return self._shape

    @property
    def ndim(self):
        return self._shape.rank

    def set_shape(self, shape) -> None:
        """Refines the static shape; ValueError if incompatible with what is known."""
        self._shape = self._shape.merge_with(shape)
        if isinstance(self._value, SymbolicValue):
            self._value.dims = self._dims

    def consumers(self) -> list:
        """The operations of the graph that take this tensor as an input."""
        return [op for op in self.graph._ops if any(x is self for x in op._inputs)]

    def eval(self, feed_dict=None, session=None):
        """The value in `session` (default: the default session), as Session.run gives it."""
        return (session or default_session("eval()")).run(self, feed_dict=feed_dict)

    @property
    def numpy(self):
        raise AttributeError(f"Graph tensor {self.name!r} has no numpy(): its value exists only "
                             "when the graph runs (Session.run, or calling the tf.function).")

    def __array__(self, dtype=None, copy=None):
        if self._const is not None:
            return np.asarray(self._const, dtype)
        raise _SymbolicArrayError(
            f"Cannot convert the graph tensor {self.name!r} to a NumPy array: it has no value "
            "while the graph is built. Pass it to tapeflow ops instead of NumPy functions.")

    def __bool__(self) -> bool:
        raise errors.OperatorNotAllowedInGraphError(
            f"Using the graph tensor {self.name!r} as a Python bool is not allowed: its value is "
            "not known while the graph is built. Use tf.cond(pred, true_fn, false_fn) for an "
            "`if` and tf.while_loop(cond, body, loop_vars) for a `while`.")

    def __iter__(self):
        raise errors.OperatorNotAllowedInGraphError(
            f"Iterating over the graph tensor {self.name!r} is not allowed while the graph is "
            "built. Use tf.while_loop, or index it with known positions.")

    def __len__(self) -> int:
        raise TypeError(f"len is not defined for the graph tensor {self.name!r}; use "
                        "`x.shape` for its static shape.")

    def __index__(self) -> int:
        raise TypeError(f"The graph tensor {self.name!r} cannot be used as an index: its "
                        "value is not known while the graph is built.")

    def __int__(self) -> int:
        return int(self._value)

    def __float__(self) -> float:
        return float(self._value)

    def __hash__(self) -> int:
        if self.graph.building_function:
            raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")
        return id(self)

    def __eq__(self, other):
        if self.graph.building_function:
            return super().__eq__(other)
        return self is other

    def __ne__(self, other):
        if self.graph.building_function:
            return super().__ne__(other)
        return self is not other

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        raise TypeError(f"graph tensor {self.name!r} cannot be pickled")

    def __format__(self, spec: str) -> str:
        if spec:
            raise TypeError(f"unsupported format string passed to {type(self).__name__}"
                            ".__format__")
        return str(self)

    def __repr__(self) -> str:
        return f"<tf.Tensor '{self.name}' shape={self._shape} dtype={self.dtype.name}>"

    def __str__(self) -> str:
        return f'Tensor("{self.name}", shape={self._shape}, dtype={self.dtype.name})'
