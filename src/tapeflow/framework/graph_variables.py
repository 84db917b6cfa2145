"""Graph variables: the `tf.Variable` of a TF1 graph, whose value lives in each Session."""
from __future__ import annotations

from .context import default_session
from .graph import GraphKeys
from .graph_tensor import SymbolicValue
from .registry import get_op
from .tensor import Tensor, _next_id, convert_to_tensor
from .tensor_shape import TensorShape
from .variables import Variable

__all__ = ["GraphVariable"]


class GraphVariable(Variable):
    """A variable of a Graph. It has no value until a Session runs its `initializer`;
    reading it before raises FailedPreconditionError. Reads and assignments are graph ops.

    Created by `tf.Variable(...)` while a (non-function) graph is the default graph.

    Example:
        >>> import tapeflow as tf
        >>> with tf.Graph().as_default() as g:
        ...     v = tf.Variable(2.0)
        ...     double = v.assign(v * 2.0)
        ...     init = tf.compat.v1.global_variables_initializer()
        >>> sess = tf.compat.v1.Session(graph=g)
        >>> _ = sess.run(init)
        >>> sess.run(double), sess.run(v)
        (4.0, 4.0)
    """

    __slots__ = ("_graph", "_initial_value", "_initializer")

    def __init__(self, graph, initial_value=None, trainable=None, validate_shape=True,
                 caching_device=None, name=None, variable_def=None, dtype=None,
                 import_scope=None, constraint=None, synchronization=None, aggregation=None,
                 shape=None, collections=None, **kwargs) -> None:
        if initial_value is None:
            raise ValueError("initial_value must be specified.")
        self._set_modes(trainable, synchronization, aggregation, name)
        self._graph = graph
        self._id = _next_id()
        self._name = graph.unique_name("Variable" if name is None else str(name))
        graph._variables_by_name[self._name] = self
        with graph.as_default(), graph.name_scope(self._name + "/"):
            if callable(initial_value):
                initial_value = initial_value()
            value = graph._graph_input(convert_to_tensor(initial_value, dtype=dtype))
        self._initial_value = value
        self._shape = value.shape if shape is None else TensorShape(shape)
        if validate_shape and not self._shape.is_compatible_with(value.shape):
            raise ValueError(f"The initial value's shape {value.shape} is not compatible with "
                             f"the explicitly supplied `shape` argument {self._shape}.")
        self._value = SymbolicValue(value._value.dtype, None if self._shape.rank is None
                                    else tuple(self._shape.dims), None)
        self.constraint = constraint
        with graph.name_scope(self._name + "/"):
            self._initializer = graph._assign_variable(
                self, get_op("AssignVariableOp"), value, read_value=False, name="Assign")
        keys = [GraphKeys.GLOBAL_VARIABLES] if collections is None else list(collections)
        if self._trainable and GraphKeys.TRAINABLE_VARIABLES not in keys:
            keys.append(GraphKeys.TRAINABLE_VARIABLES)
        for key in keys:
            graph.add_to_collection(key, self)

    @classmethod
    def from_handle(cls, graph, name: str, dtype, shape, trainable: bool = True):
        """The variable of a VarHandleOp node read from a GraphDef: named `name`, with no
        initializer until an assignment node of the GraphDef gives it one
        (`set_initializer`), and in no collection (as TF imports it).

        Raises:
            ValueError: the graph has a variable of that name already.
        """
        from .dtypes import as_dtype
        if name in graph._variables_by_name:
            raise ValueError(f"Duplicate node name in graph: {name!r}")
        variable = cls.__new__(cls)
        variable._set_modes(trainable, None, None, name)
        variable._graph, variable._id, variable._name = graph, _next_id(), name
        graph.unique_name(name)
        graph._variables_by_name[name] = variable
        variable._initial_value = variable._initializer = None
        variable._shape = TensorShape(shape)
        variable._value = SymbolicValue(as_dtype(dtype)._np, None if variable._shape.rank is None
                                        else tuple(variable._shape.dims), None)
        variable.constraint = None
        return variable

    def set_initializer(self, assign_op, initial_value) -> None:
        """Makes `assign_op` (of this variable) its initializer, if it has none yet."""
        if self._initializer is None:
            self._initializer, self._initial_value = assign_op, initial_value

    @property
    def graph(self):
        return self._graph

    @property
    def initializer(self):
        """The operation that assigns the initial value."""
        return self._initializer

    @property
    def initial_value(self):
        return self._initial_value

    @property
    def op(self):
        return self._initializer

    @property
    def device(self) -> str:
        """The device the scope it was made in requested ("" for none)."""
        return self._initializer.device

    def read_value(self):
        """A ReadVariableOp tensor: the value when the node runs."""
        return self._graph._read_variable(self)

    value = read_value
    _as_tensor = read_value

    def assign(self, value, use_locking=None, name=None, read_value=True):
        """An assignment node; returns the value after it runs (or the op)."""
        return self._assign_in_graph(self._graph, "AssignVariableOp", value, read_value)

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        return self._assign_in_graph(self._graph, "AssignAddVariableOp", delta, read_value)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        return self._assign_in_graph(self._graph, "AssignSubVariableOp", delta, read_value)

    def _read_for_recorders(self, recorders):
        from .plan import current_value
        for recorder in recorders:
            recorder._variable_accessed(self)
        return Tensor(current_value(self), self._id)

    def eval(self, session=None):
        """The value in `session` (default: the default session)."""
        return (session or default_session("eval()")).run(self)

    def load(self, value, session=None) -> None:
        """Sets the value in `session` directly, without adding ops."""
        (session or default_session("load()"))._load(self, value)

    def numpy(self):
        raise NotImplementedError(f"Graph variable {self.name!r} has no numpy(): its value lives "
                                  "in a Session; use sess.run(variable).")

    def __array__(self, dtype=None, copy=None):
        self.numpy()

    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other) -> bool:
        return self is other

    def __repr__(self) -> str:
        return f"<tf.Variable '{self.name}' shape={self._shape} dtype={self.dtype.name}>"

    def __deepcopy__(self, memo):
        return self
