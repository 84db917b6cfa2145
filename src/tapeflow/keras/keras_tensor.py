"""Symbolic Keras tensors: what `keras.Input` returns and what layers called on them return.

A KerasTensor holds only a shape (None for unknown dimensions, the batch first) and a
dtype, plus the `Node` that produced it: the layer and the arguments of that call. Calling
a layer on KerasTensors records a new Node instead of computing anything, which is how a
functional `keras.Model(inputs, outputs)` learns its layer graph. The output shapes come
from running the layer once on small zero tensors (twice, with two sizes for each unknown
dimension, so the dimensions that follow them stay unknown), eagerly and unrecorded.
"""
from __future__ import annotations

import contextlib

import numpy as np

from ..framework import dtypes, nest
from ..framework.context import switched
from ..framework.tensor import Tensor
from ..framework.tensor_shape import TensorShape
from . import backend

__all__ = ["KerasTensor", "Node", "is_symbolic", "symbolic_call"]

# Sizes given to unknown dimensions in the two probe runs: (batch, other axes).
_PROBE_SIZES = ((2, 61), (3, 97))
_UNARY = object()


class KerasTensor:
    """A symbolic tensor of a functional model: a shape, a dtype and the layer call that
    produced it. It holds no value; pass it to layers, or to `keras.Model(inputs, outputs)`.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.keras.Input(shape=(3,), name="features")
        >>> x
        <KerasTensor: shape=(None, 3) dtype=float32 (created by layer 'features')>
        >>> tf.keras.layers.Dense(2)(x).shape
        TensorShape([None, 2])
    """

    __slots__ = ("shape", "dtype", "name", "node", "index")

    def __init__(self, shape, dtype, name: str | None = None, node: "Node | None" = None,
                 index: int = 0) -> None:
        self.shape = TensorShape(shape)
        self.dtype = dtypes.as_dtype(dtype)
        self.name = name
        self.node = node
        self.index = index

    @property
    def ndim(self) -> int:
        return self.shape.rank

    @property
    def _keras_history(self) -> tuple:
        """(layer, node index, tensor index): where this tensor was produced."""
        layer = self.node.layer
        return layer, layer._inbound_nodes.index(self.node), self.index

    def __repr__(self) -> str:
        source = f" (created by layer '{self.node.layer.name}')" if self.node else ""
        return f"<KerasTensor: shape={self.shape} dtype={self.dtype.name}{source}>"

    def __array__(self, dtype=None, copy=None):
        raise TypeError(f"{self!r} is a symbolic Keras tensor: it has no value until the "
                        "model runs. Pass it to Keras layers (wrap other functions in "
                        "keras.layers.Lambda), not to NumPy or tapeflow ops.")

    def __bool__(self) -> bool:
        raise TypeError(f"{self!r} has no truth value: it is a symbolic Keras tensor.")

    def __len__(self) -> int:
        if self.shape.rank is None or self.shape[0] is None:
            raise TypeError(f"{self!r} has no known length (its first dimension is unknown).")
        return self.shape[0]

    # Arithmetic records an anonymous Lambda layer, as TF users write `x + y` on inputs.
    def _operation(self, name: str, fn, other=_UNARY):
        from .layers.core import Lambda
        layer = Lambda(fn, name=backend.unique_object_name(f"tf.__operators__.{name}"))
        if isinstance(other, KerasTensor):
            layer.function = lambda pair: fn(pair[0], pair[1])
            return layer([self, other])
        if other is not _UNARY:
            layer.function = lambda x: fn(x, other)
        return layer(self)

    def __add__(self, other):
        return self._operation("add", lambda a, b: a + b, other)

    def __radd__(self, other):
        return self._operation("add", lambda a, b: b + a, other)

    def __sub__(self, other):
        return self._operation("subtract", lambda a, b: a - b, other)

    def __rsub__(self, other):
        return self._operation("subtract", lambda a, b: b - a, other)

    def __mul__(self, other):
        return self._operation("multiply", lambda a, b: a * b, other)

    def __rmul__(self, other):
        return self._operation("multiply", lambda a, b: b * a, other)

    def __truediv__(self, other):
        return self._operation("truediv", lambda a, b: a / b, other)

    def __rtruediv__(self, other):
        return self._operation("truediv", lambda a, b: b / a, other)

    def __matmul__(self, other):
        return self._operation("matmul", lambda a, b: a @ b, other)

    def __pow__(self, other):
        return self._operation("pow", lambda a, b: a ** b, other)

    def __neg__(self):
        return self._operation("negative", lambda a: -a)

    def __getitem__(self, key):
        return self._operation("getitem", lambda a: a[key])

    __hash__ = object.__hash__


class Node:
    """One call of a layer in a functional graph: its arguments (nested structures that
    may hold KerasTensors and constants) and its output KerasTensors."""

    __slots__ = ("layer", "args", "kwargs", "outputs", "inputs")

    def __init__(self, layer, args: tuple, kwargs: dict, outputs) -> None:
        self.layer = layer
        self.args = args
        self.kwargs = kwargs
        self.inputs = [x for x in nest.flatten((args, kwargs)) if isinstance(x, KerasTensor)]
        layer._inbound_nodes.append(self)
        self.outputs = outputs

    def run(self, values: dict, training) -> list:
        """The layer's outputs (flat) for the values of the input KerasTensors."""
        def concrete(x):
            return values[id(x)] if isinstance(x, KerasTensor) else x
        args, kwargs = nest.map_structure(concrete, (self.args, self.kwargs))
        kwargs = dict(kwargs)
        kwargs.setdefault("training", training)
        return nest.flatten(self.layer(*args, **kwargs))


def is_symbolic(structure) -> bool:
    """Whether a (nested) call argument holds a KerasTensor."""
    if isinstance(structure, KerasTensor):
        return True
    if isinstance(structure, (list, tuple, dict)):
        return any(isinstance(x, KerasTensor) for x in nest.flatten(structure))
    return False


@contextlib.contextmanager
def _probe_scope():
    """Runs eagerly, unseen by any tape or accumulator, silent about 0/0 in dummy data."""
    with switched(graph=None, recorders=[]), np.errstate(all="ignore"):
        yield


def _zeros(x: KerasTensor, sizes: tuple) -> Tensor:
    shape = [d if d is not None else sizes[0] if axis == 0 else sizes[1]
             for axis, d in enumerate(x.shape.as_list())]
    return Tensor(np.zeros(shape, x.dtype.as_numpy_dtype))


def _probe(layer, args: tuple, kwargs: dict) -> tuple:
    """(output structure, flat output shapes) of the layer on zero tensors; a dimension
    that differs between the two probe runs is unknown (None)."""
    runs = []
    for sizes in _PROBE_SIZES:
        concrete = nest.map_structure(
            lambda x: _zeros(x, sizes) if isinstance(x, KerasTensor) else x, (args, kwargs))
        call_args, call_kwargs = concrete
        with _probe_scope():
            outputs = layer(*call_args, **{**call_kwargs, "training": False})
        runs.append(outputs)
    for sublayer in layer._flatten_layers():       # losses of dummy data are no losses
        sublayer._call_losses = []
        sublayer._loss_graph = backend.building_graph()
    first, second = (nest.flatten(run) for run in runs)
    shapes = []
    for a, b in zip(first, second):
        if not isinstance(a, Tensor):
            raise TypeError(f'Layer "{layer.name}" returned {type(a).__name__} {a!r} when '
                            "called on symbolic inputs; a layer in a functional model must "
                            "return tensors (or nested lists, tuples, dicts of them).")
        dims = [d if d == e else None for d, e in zip(a.shape.as_list(), b.shape.as_list())]
        shapes.append((dims, a.dtype))
    return runs[0], shapes


def symbolic_call(layer, args: tuple, kwargs: dict):
    """Records `layer(*args, **kwargs)` on KerasTensors as a Node; returns the output
    KerasTensors, structured as the layer's outputs.

    Raises:
        ValueError: the inputs do not fit the layer (its InputSpec, or its own checks).
    """
    inputs = args[0]
    if not layer.built:
        layer._maybe_build(inputs)
    if layer.input_spec is not None and isinstance(inputs, KerasTensor):
        layer.input_spec.check(layer.name, tuple(inputs.shape.as_list()))
    structure, shapes = _probe(layer, args, kwargs)
    node = Node(layer, args, kwargs, None)
    node_index = len(layer._inbound_nodes) - 1
    outputs = [KerasTensor(dims, dtype, f"{layer.name}/{node_index}/{i}", node, i)
               for i, (dims, dtype) in enumerate(shapes)]
    node.outputs = outputs
    return nest.pack_sequence_as(structure, outputs)
