"""Graphs: operations, symbolic tensors, and the switch between eager and graph mode.

While a Graph is the default (`Graph.as_default()`, `tf.function` tracing, compat.v1 with
eager execution disabled), `execute` calls `Graph._create_op` instead of running a kernel:
the op becomes an `Operation` whose outputs are `SymbolicTensor`s with a static dtype and
shape (unknown dimensions are None). The registry is the same in both modes; no op is
implemented here. Graphs run through compiled plans (framework/plan.py).
"""
from __future__ import annotations

import contextlib
import threading

import numpy as np

from . import errors
from . import execute as _execute_module
from . import registry as _registry_module
from .context import default_session, state, switched
from .device import device_of_new_op
from .registry import define_op, get_op, no_gradient
from .graph_tensor import SymbolicTensor
from .shape_inference import infer_outputs
from .tensor import Tensor, _next_id
from .tensor_shape import TensorShape
from .variables import FUNCTION_PRIORITY, Variable, _default_creator, creator_scope

__all__ = ["Graph", "FuncGraph", "Operation", "get_default_graph",
           "reset_default_graph", "init_scope", "name_scope", "GraphKeys",
           "get_current_name_scope", "inside_function", "is_symbolic_tensor"]


def _const_kernel(value, dtype):
    return value


def _placeholder_kernel(dtype, shape):
    raise errors.InvalidArgumentError(None, "Placeholder", "a Placeholder was not fed")


# The graph's own node types: a constant and a value fed at run time; NoOp groups
# control dependencies (initializers, train ops).
Const = define_op("Const", _const_kernel)
Placeholder = define_op("Placeholder", _placeholder_kernel)
NoOp = define_op("NoOp", lambda: None, num_outputs=0)


def _is_initialized_kernel(variable):
    return np.bool_(True)  # an eager variable has its value from the start


# Whether a graph variable has a value in the session (a Session's plan reads its store).
VarIsInitializedOp = define_op("VarIsInitializedOp", _is_initialized_kernel)
for _name in ("Const", "Placeholder", "NoOp", "VarIsInitializedOp"):
    no_gradient(_name)


class GraphKeys:
    """Names of the standard collections (TF's values)."""

    GLOBAL_VARIABLES = "variables"
    TRAINABLE_VARIABLES = "trainable_variables"
    LOCAL_VARIABLES = "local_variables"
    TRAIN_OP = "train_op"
    GLOBAL_STEP = "global_step"
    UPDATE_OPS = "update_ops"
    LOSSES = "losses"
    REGULARIZATION_LOSSES = "regularization_losses"
    MOVING_AVERAGE_VARIABLES = "moving_average_variables"
    METRIC_VARIABLES = "metric_variables"
    SUMMARIES = "summaries"
    TABLE_INITIALIZERS = "table_initializer"


class Operation:
    """A node of a Graph: an op type, its inputs and attributes, and its output tensors.

    Example:
        >>> import tapeflow as tf
        >>> with tf.Graph().as_default() as g:
        ...     y = tf.square(tf.constant(2.0))
        >>> y.op.type, [x.name for x in y.op.inputs]
        ('Square', ['Const:0'])
    """

    __slots__ = ("_op_def", "_name", "_inputs", "_outputs", "_attrs", "_graph",
                 "_control_inputs", "_index", "_stateful", "_device", "__weakref__")

    def __init__(self, graph: "Graph", op_def, inputs: tuple, attrs: dict, name: str,
                 control_inputs: tuple, index: int) -> None:
        self._graph = graph
        self._op_def = op_def
        self._inputs = inputs
        self._attrs = attrs
        self._name = name
        self._control_inputs = control_inputs
        self._index = index
        self._outputs: tuple = ()
        self._stateful = op_def.family.stateful or any(
            getattr(v, "_stateful", False) for v in attrs.values())

    @property
    def type(self) -> str:
        return self._op_def.name

    @property
    def name(self) -> str:
        return self._name

    @property
    def graph(self) -> "Graph":
        return self._graph

    @property
    def device(self) -> str:
        """The device its `tf.device` scope requested ("" for none)."""
        return self._device

    @property
    def op_def(self):
        return self._op_def

    @property
    def inputs(self) -> tuple:
        return self._inputs

    @property
    def outputs(self) -> tuple:
        return self._outputs

    @property
    def attrs(self) -> dict:
        return self._attrs

    @property
    def control_inputs(self) -> tuple:
        return self._control_inputs

    def values(self) -> tuple:
        return self._outputs

    def get_attr(self, name: str):
        try:
            return self._attrs[name]
        except KeyError:
            raise ValueError(f"Operation {self._name!r} has no attr named {name!r}.") from None

    def run(self, feed_dict=None, session=None) -> None:
        """Runs this operation in `session` (default: the default session)."""
        (session or default_session("run()")).run(self, feed_dict=feed_dict)

    def __repr__(self) -> str:
        return f"<tf.Operation '{self._name}' type={self.type}>"


class Graph:
    """A dataflow graph: operations added by ops called while it is the default graph.

    Example:
        >>> import tapeflow as tf
        >>> g = tf.Graph()
        >>> with g.as_default():
        ...     c = tf.constant(3.0) * 2.0
        >>> [op.type for op in g.get_operations()]
        ['Const', 'Const', 'Mul']
        >>> tf.compat.v1.Session(graph=g).run(c)
        6.0
    """

    building_function = False

    def __init__(self) -> None:
        self._ops: list[Operation] = []
        self._by_name: dict[str, Operation] = {}
        self._names: dict[str, int] = {}
        self._scope = ""
        self._control_stack: list = []
        self._collections: dict[str, list] = {}
        self._constants: dict[int, SymbolicTensor] = {}
        self._variable_reads: dict[int, SymbolicTensor] = {}
        self._variables_by_name: dict = {}
        self._last_named = None  # (caller frame, name, operation) of the last named node
        # The device of the `tf.device` scopes in force, and a TF 1 device function.
        self._device = ""
        self._device_function = None
        self._functions: dict = {}  # name -> the ConcreteFunctions added to this graph

    # -- the default-graph switch ----------------------------------------------------------
    @contextlib.contextmanager
    def as_default(self):
        """Makes this the graph ops are added to, on this thread; tapes outside are paused."""
        with switched(graph=self, recorders=[]):
            yield self

    # -- names, scopes, control dependencies, collections ----------------------------------
    def unique_name(self, name: str, mark_as_used: bool = True) -> str:
        """`name` under the current name scope, made unique with a `_N` suffix (names that
        differ only in case count as one: "add" then "Add" gives "Add_1")."""
        full = self._scope + name
        key = full.lower()
        count = self._names.get(key, 0)
        unique = full if count == 0 else f"{full}_{count}"
        while count and unique.lower() in self._names:
            count += 1
            unique = f"{full}_{count}"
        if mark_as_used:
            self._names[key] = count + 1
            self._names.setdefault(unique.lower(), 1)
        return unique

    @contextlib.contextmanager
    def name_scope(self, name: str):
        """Prefixes the names of ops created inside with `name/` (made unique); a name
        ending in "/" is used as it is, and "" returns to the top level."""
        saved = self._scope
        if name:
            self._scope = (name if name.endswith("/") else self.unique_name(name) + "/")
        elif name == "":
            self._scope = ""
        try:
            yield self._scope
        finally:
            self._scope = saved

    @contextlib.contextmanager
    def control_dependencies(self, control_inputs):
        """Ops created inside run after `control_inputs` (None clears the dependencies)."""
        saved = self._control_stack
        if control_inputs is None:
            self._control_stack = []
        else:
            self._control_stack = saved + [self.as_graph_element(c).op
                                           if isinstance(c, Tensor) else self.as_graph_element(c)
                                           for c in control_inputs]
        try:
            yield
        finally:
            self._control_stack = saved

    def add_to_collection(self, name: str, value) -> None:
        self._collections.setdefault(name, []).append(value)

    def get_collection(self, name: str, scope=None) -> list:
        items = list(self._collections.get(name, []))
        if scope is None:
            return items
        return [v for v in items if getattr(v, "name", "").startswith(scope)]

    def get_operations(self) -> list:
        return list(self._ops)

    @property
    def graph_def_versions(self):
        """The VersionDef of the GraphDefs this graph writes (TF 2.21's producer)."""
        return self.as_graph_def().versions

    def as_graph_def(self, from_version=None, add_shapes: bool = False):
        """This graph as TF's GraphDef proto: one NodeDef per operation, with TF's op types,
        attribute names and types and tensor names (`op`, `op:1`, `^op`), variables as
        VarHandleOp nodes, and the functions its ops call in `library`.

        Args:
            from_version: write only the nodes added after the graph had this many
                (TF's `version` counts nodes the same way); None for all.
            add_shapes: give each node an `_output_shapes` attribute.

        Returns:
            A `GraphDef` (the tensorboard package's class of TF's schema).

        Raises:
            UnimplementedError: an op or attribute with no counterpart in TF's op.
            ImportError: the `tensorboard` package (the protos) is not installed.

        Example:
            >>> import tapeflow as tf
            >>> g = tf.Graph()
            >>> with g.as_default():
            ...     y = tf.add(tf.constant(1.0), 2.0, name="total")
            >>> [(n.name, n.op, list(n.input)) for n in g.as_graph_def().node][-1]
            ('total', 'AddV2', ['Const', 'Const_1'])
        """
        from .graph_def import graph_to_graph_def
        return graph_to_graph_def(self, add_shapes=add_shapes, from_version=from_version)

    @property
    def graph_def(self):
        return self.as_graph_def()

    @property
    def version(self) -> int:
        """How many operations the graph holds (grows as ops are added)."""
        return len(self._ops)

    def _set_operation_name(self, op: Operation, name: str) -> None:
        """Gives `op` the name `name` (a GraphDef's node name, when a graph is imported).

        Raises:
            ValueError: another operation of the graph has that name.
        """
        if name == op._name:
            return
        if name in self._by_name:
            raise ValueError(f"Duplicate node name in graph: {name!r}")
        del self._by_name[op._name]
        op._name = name
        self._by_name[name] = op
        self._names.setdefault(name.lower(), 1)

    def _add_function(self, function) -> None:
        """Makes `function` (a ConcreteFunction) one of this graph's functions, by name."""
        self._functions[function.name] = function

    def _is_function(self, name: str) -> bool:
        return name in self._functions

    def _get_function(self, name: str):
        return self._functions.get(name)

    def get_operation_by_name(self, name: str) -> Operation:
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"The name {name!r} refers to an Operation not in the graph.") from None

    def get_tensor_by_name(self, name: str) -> SymbolicTensor:
        """The tensor called `name` ('op_name:index'); ops take the `name=` given to the
        public function that made them, and 'v:0' of a variable named v is its value.

        Raises:
            ValueError: `name` is not of the form 'op_name:index'.
            KeyError: no such operation, or it has fewer outputs.

        Example:
            >>> import tapeflow as tf
            >>> g = tf.Graph()
            >>> with g.as_default():
            ...     y = tf.add(tf.constant(1.0), 2.0, name="total")
            >>> g.get_tensor_by_name("total:0") is y
            True
            >>> tf.compat.v1.Session(graph=g).run("total:0")
            3.0
        """
        op_name, sep, index = name.rpartition(":")
        if not sep or not index.isdigit():
            raise ValueError(f"The name {name!r} is not a tensor name: use 'op_name:index'.")
        variable = self._variables_by_name.get(op_name)
        if variable is not None and op_name not in self._by_name and index == "0":
            return self.variable_value(variable)  # "w:0": the value of variable w
        op = self.get_operation_by_name(op_name)
        if int(index) >= len(op._outputs):
            raise KeyError(f"The name {name!r} refers to a Tensor which does not exist: "
                           f"operation {op_name!r} has {len(op._outputs)} outputs.")
        return op._outputs[int(index)]

    def as_graph_element(self, obj):
        """A fetchable element of this graph for `obj`: a tensor, an operation or a name.

        Raises:
            TypeError: `obj` is no graph element (e.g. an eager tensor or None).
            ValueError: `obj` belongs to another graph.
        """
        if isinstance(obj, str):
            return self.get_tensor_by_name(obj) if ":" in obj else self.get_operation_by_name(obj)
        if isinstance(obj, SymbolicTensor) or isinstance(obj, Operation):
            if obj.graph is not self:
                raise ValueError(f"{obj!r} is not an element of this graph.")
            return obj
        if isinstance(obj, Variable) and getattr(obj, "_graph", None) is self:
            return obj
        raise TypeError(f"Can not convert a {type(obj).__name__} into a Tensor or Operation of "
                        f"this graph: {obj!r}")

    # -- adding operations -----------------------------------------------------------------
    def _add_operation(self, op_def, inputs: tuple, attrs: dict, specs, name=None,
                       unique: bool = True) -> Operation:
        op = Operation(self, op_def, inputs, attrs,
                       self.unique_name(name or op_def.name) if unique else name,
                       tuple(self._control_stack), len(self._ops))
        op._device = device_of_new_op(self, op)
        op._outputs = tuple([SymbolicTensor(op, i, dtype, dims)
                             for i, (dtype, dims) in enumerate(specs)])
        self._ops.append(op)
        self._by_name[op._name] = op
        return op

    def _create_op(self, op_def, inputs: tuple, attrs: dict, caller=None):
        """Adds a node for `op_def` (the graph-mode half of `execute`).

        `caller` is the frame that called `execute`: when it is a public tapeflow function
        given `name=`, the node takes that name (see `_name_from_caller`).
        """
        inputs = tuple([self._graph_input(x) for x in inputs])
        specs, values, known = infer_outputs(op_def, inputs, attrs)
        frame, name = _name_from_caller(caller)
        if name is None:
            op = self._add_operation(op_def, inputs, attrs, specs)
        else:
            op = self._add_operation(op_def, inputs, attrs, specs,
                                     name=self._name_given(frame, name), unique=False)
            self._last_named = (frame, name, op)
        outputs = op._outputs
        if values is not None:
            for out, value in zip(outputs, values):
                out._set_constant(value)
        elif known is not None:
            for out, value in zip(outputs, known):
                out._known = value
        recorders = state.recorders
        if recorders:
            for recorder in tuple(recorders):
                recorder._record_operation(op_def, inputs, outputs, attrs)
        return outputs[0] if op_def.num_outputs == 1 else outputs

    def _name_given(self, frame, name: str) -> str:
        """The node name for `name=name` given to the public function running in `frame`
        (made unique). A public function that adds several nodes names the last one, which
        gives its result: a node named from the same call before takes its default name
        back, and gives its name to the new one."""
        last = self._last_named
        if last is not None and last[0] is frame and last[1] == name:
            previous = last[2]
            unique = previous._name
            del self._by_name[unique]
            previous._name = self.unique_name(previous._op_def.name)
            self._by_name[previous._name] = previous
            return unique
        return self.unique_name(name)

    def _graph_input(self, x):
        """`x` as a tensor of this graph: eager tensors become constants, variables reads.

        A tape that watches a captured tensor sees an identity from it to its stand-in, so
        gradients reach what the user watched.
        """
        if isinstance(x, SymbolicTensor):
            if x._op._graph is self:
                return x
            inner = self._capture(x)
        elif isinstance(x, Variable):
            return self._read_variable(x)
        elif isinstance(x, Tensor):
            inner = self._constant_for(x)
        else:
            raise TypeError(f"{x!r} of type {type(x).__name__} cannot be an input of a graph op")
        recorders = state.recorders
        if recorders:
            identity = get_op("Identity")
            for recorder in tuple(recorders):
                recorder._record_operation(identity, (x,), (inner,), {})
        return inner

    def _capture(self, tensor: SymbolicTensor) -> SymbolicTensor:
        raise errors.InaccessibleTensorError(
            f"Tensor {tensor.name!r} belongs to another graph: an op of this graph cannot use "
            "it (a tensor made inside a tf.function or a loop body, kept in a Python list or "
            "attribute, is out of scope outside it). Return it, carry it as a loop variable "
            "or write it to a TensorArray, or build both in the same graph.")

    def _owns_graph(self, graph) -> bool:
        return graph is self

    def _constant_for(self, tensor: Tensor) -> SymbolicTensor:
        out = self._constants.get(tensor._id)
        if out is None:
            out = self._constants[tensor._id] = self.constant(tensor._value)
        return out

    def constant(self, value, name=None) -> SymbolicTensor:
        """A Const node holding the array `value`."""
        value = value if isinstance(value, (np.ndarray, np.generic)) else np.asarray(value)
        op = self._add_operation(Const, (), {"value": value, "dtype": value.dtype},
                                 [(value.dtype, value.shape)], name=name)
        out = op._outputs[0]
        out._set_constant(value)
        return out

    def placeholder(self, dtype: np.dtype, shape: TensorShape, name=None) -> SymbolicTensor:
        """A Placeholder node: a value fed at run time."""
        dims = None if shape.rank is None else tuple(shape.dims)
        op = self._add_operation(Placeholder, (), {"dtype": np.dtype(dtype), "shape": shape},
                                 [(dtype, dims)], name=name or "Placeholder")
        return op._outputs[0]

    # -- variables -------------------------------------------------------------------------
    def _check_variable(self, variable) -> None:
        owner = getattr(variable, "_graph", None)
        if owner is not None and not self._owns_graph(owner):
            raise ValueError(f"Variable {variable.name!r} belongs to another graph; it cannot "
                             "be used in this one.")

    def _read_variable(self, variable) -> SymbolicTensor:
        """A ReadVariableOp node: the variable's value when the node runs."""
        read = get_op("ReadVariableOp")
        self._check_variable(variable)
        dims = tuple(variable.shape.dims) if variable.shape.rank is not None else None
        op = self._add_operation(read, (variable,), {}, [(variable._value.dtype, dims)])
        out = op._outputs[0]
        recorders = state.recorders
        if recorders:
            for recorder in tuple(recorders):
                recorder._variable_accessed(variable)
                recorder._record_operation(read, (variable,), (out,), {})
        return out

    def variable_is_initialized(self, variable) -> SymbolicTensor:
        """A VarIsInitializedOp node: whether `variable` has a value when the node runs."""
        self._check_variable(variable)
        return self._add_operation(VarIsInitializedOp, (variable,), {},
                                   [(np.dtype(bool), ())])._outputs[0]

    def variable_value(self, variable) -> SymbolicTensor:
        """The tensor a Session computes when `variable` itself is fetched: one read of
        the variable, made the first time and reused after.

        Raises:
            ValueError: `variable` belongs to another graph.
        """
        out = self._variable_reads.get(variable._id)
        if out is None:
            self._check_variable(variable)
            dims = tuple(variable.shape.dims) if variable.shape.rank is not None else None
            out = self._add_operation(get_op("ReadVariableOp"), (variable,), {},
                                      [(variable._value.dtype, dims)])._outputs[0]
            self._variable_reads[variable._id] = out
        return out

    def _assign_variable(self, variable, op_def, value, read_value: bool = True, name=None):
        """An assign node for `variable`; returns the value after the assignment (or the op)."""
        from .tensor import convert_to_tensor
        self._check_variable(variable)
        with self.as_default():
            value = self._graph_input(convert_to_tensor(value, dtype=variable.dtype))
        if not variable.shape.is_compatible_with(value.shape):
            raise ValueError(f"Cannot assign to variable {variable.name!r}: the variable shape "
                             f"{variable.shape} and the value shape {value.shape} are "
                             "incompatible.")
        dims = tuple(variable.shape.dims) if variable.shape.rank is not None else None
        op = self._add_operation(op_def, (variable, value), {}, [(variable._value.dtype, dims)],
                                 name=name)
        return op._outputs[0] if read_value else op

    def _make_variable(self, kwargs: dict):
        from .graph_variables import GraphVariable
        return GraphVariable(self, **kwargs)


class FuncGraph(Graph):
    """The graph a `tf.function` (or a `cond`/`while_loop` branch) is traced into.

    Tensors of enclosing graphs it uses are captured as placeholders fed at call time;
    eager variables are read by reference; eager tensors become constants.
    """

    building_function = True

    def __init__(self, name: str, outer_graph=None) -> None:
        super().__init__()
        self.name = name
        self.outer_graph = outer_graph
        self.captures: dict[int, tuple] = {}
        # Eager tensors made before the trace are inputs fed at each call (their values are
        # not folded into the graph); those made while tracing are constants.
        self._first_id = _next_id()
        # What the function's input placeholders stand for while it is traced for a call:
        # {placeholder id: the argument}, for lifting initial values (framework/lifting.py).
        self.lift_sources: dict = {}
        self.created_variables: list = []
        self._variable_refusal = None

    def _capture(self, tensor: SymbolicTensor) -> SymbolicTensor:
        entry = self.captures.get(tensor._id)
        if entry is None:
            if self.outer_graph is None:
                return super()._capture(tensor)
            outer = self.outer_graph._graph_input(tensor)
            inner = self.placeholder(tensor._value.dtype, tensor.shape, name="capture")
            entry = self.captures[tensor._id] = (outer, inner)
        return entry[1]

    def _constant_for(self, tensor: Tensor) -> SymbolicTensor:
        if tensor._id > self._first_id or np.size(tensor._value) <= 1:
            return super()._constant_for(tensor)
        entry = self.captures.get(tensor._id)
        if entry is None:
            inner = self.placeholder(tensor._value.dtype, TensorShape(np.shape(tensor._value)),
                                     name="capture")
            entry = self.captures[tensor._id] = (tensor, inner)
        return entry[1]

    def _owns_graph(self, graph) -> bool:
        return graph is self or (self.outer_graph is not None
                                 and self.outer_graph._owns_graph(graph))

    def placeholder_source(self, placeholder: SymbolicTensor):
        """What an input placeholder of this graph stands for: the outer tensor of a
        capture, or the argument of the call being traced (`lift_sources`); else None."""
        for outer, inner in self.captures.values():
            if inner is placeholder:
                return outer
        return self.lift_sources.get(placeholder._id)

    @contextlib.contextmanager
    def creating_variables(self, refusal=None):
        """While tracing, `tf.Variable(...)` (in this graph, its branches, or an init_scope
        inside) reaches this function's own creator after the user's creators.

        With `refusal=None` (a tf.function's first trace) each variable is made outside the
        function, as an ordinary eager Variable the function captures: a callable initial
        value is called here, in the graph, and an initial value the graph computes is
        lifted (its producing ops run again in the init_scope context, the function's
        inputs replaced by the arguments of the call being traced; `lifting.lift`). The
        variables are listed in `created_variables`. Otherwise `refusal` is the message
        of the ValueError that creating a variable raises (a later trace).
        `experimental_enable_variable_lifting=False` passes the variable on unlifted.
        """
        from .lifting import lift
        self._variable_refusal = refusal

        def create(next_creator, **kwargs):
            if kwargs.get("experimental_enable_variable_lifting") is False:
                return next_creator(**kwargs)
            if self._variable_refusal is not None:
                raise ValueError(self._variable_refusal)
            initial_value = kwargs["initial_value"]
            if callable(initial_value):
                initial_value = initial_value()
            with init_scope():
                kwargs["initial_value"] = lift(initial_value)
                variable = _default_creator(**kwargs)
            self.created_variables.append(variable)
            return variable

        with creator_scope(create, FUNCTION_PRIORITY):
            yield

    def _make_variable(self, kwargs: dict):
        """A variable made in this graph without lifting: outside, under init_scope (a
        callable initial value is called there); an initial value of a function graph
        cannot be used.

        Raises:
            ValueError: the initial value is a tensor of a function graph.
        """
        initial_value = kwargs["initial_value"]
        if isinstance(initial_value, SymbolicTensor) and initial_value.graph.building_function:
            raise ValueError(
                f"The initial value {initial_value!r} of variable {kwargs.get('name')!r} could "
                f"not be lifted out of {self.name!r}: compute it inside tf.init_scope(), or "
                "pass a callable initial_value (tf.Variable(lambda: tf.zeros([3]))).")
        with init_scope():
            return _default_creator(**kwargs)


# Frames of these files are the engine's own, between a public function and `execute`.
_ENGINE_FILES = frozenset([_execute_module.__file__, _registry_module.__file__])


def _name_from_caller(frame):
    """(frame, name) of the public tapeflow function that called `execute` with a
    `name=` argument, else (None, None).

    The search skips the engine's frames and tapeflow's private helpers (`_like`), and
    stops at the first public function: ops that a public function reaches through other
    public functions called without `name` (or through gradient rules, which `gradients`
    calls) keep their default names.
    """
    while frame is not None:
        code = frame.f_code
        if code.co_filename in _ENGINE_FILES:
            frame = frame.f_back
            continue
        if not str(frame.f_globals.get("__name__", "")).startswith("tapeflow."):
            return None, None
        if "name" in code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]:
            name = frame.f_locals.get("name")
            return (frame, name) if isinstance(name, str) and name else (None, None)
        if not code.co_name.startswith("_") or code.co_name.startswith("__"):
            return None, None
        frame = frame.f_back
    return None, None


_global_graph: list = [None]


def _default_global_graph() -> Graph:
    if _global_graph[0] is None:
        _global_graph[0] = Graph()
    return _global_graph[0]


def get_default_graph() -> Graph:
    """The graph ops go to on this thread: the innermost `as_default()` one, else a global one.

    Example:
        >>> import tapeflow as tf
        >>> g = tf.Graph()
        >>> with g.as_default():
        ...     tf.compat.v1.get_default_graph() is g
        True
    """
    return state.graph if state.graph is not None else _default_global_graph()


def reset_default_graph() -> None:
    """Replaces the global default graph with a new, empty one.

    Raises:
        AssertionError: called inside another graph's `as_default()` block.

    Example:
        >>> import tapeflow as tf
        >>> before = tf.compat.v1.get_default_graph()
        >>> tf.compat.v1.reset_default_graph()
        >>> tf.compat.v1.get_default_graph() is before
        False
    """
    current = state.graph
    if current is not None and current is not _global_graph[0]:
        raise AssertionError("Do not use tf.reset_default_graph() inside a graph's "
                             "as_default() block or a tf.function.")
    _global_graph[0] = Graph()
    if current is not None:
        state.graph = _global_graph[0]


def disable_eager_execution() -> None:
    """Makes this thread build the global default graph instead of running ops (TF1 style).

    Example:
        >>> import tapeflow as tf
        >>> tf.compat.v1.disable_eager_execution()
        >>> tf.executing_eagerly()
        False
        >>> tf.compat.v1.enable_eager_execution()
        >>> tf.executing_eagerly()
        True
    """
    state.graph = _default_global_graph()


def enable_eager_execution(config=None, device_policy=None, execution_mode=None) -> None:
    """Returns this thread to eager execution after `disable_eager_execution` (see there)."""
    if state.graph is _global_graph[0]:
        state.graph = None


@contextlib.contextmanager
def init_scope():
    """Leaves any function being traced: ops run in the outermost context (eager, or the
    TF1 default graph) under the current name scope, with no control dependencies, and
    tapes are paused. Variables of a tf.function are made here.

    Example:
        >>> import tapeflow as tf
        >>> @tf.function
        ... def f():
        ...     with tf.init_scope():
        ...         return tf.executing_eagerly()
        >>> bool(f())
        True
    """
    inner = state.graph
    graph = inner
    while isinstance(graph, FuncGraph):
        graph = graph.outer_graph
    scope = get_current_name_scope()
    with switched(graph=graph, recorders=[]):
        if graph is None:
            saved = _eager_scopes.current
            _eager_scopes.current = scope + "/" if scope else ""
            try:
                yield
            finally:
                _eager_scopes.current = saved
        elif graph is inner:
            yield
        else:
            with graph.name_scope(scope + "/" if scope else ""), graph.control_dependencies(None):
                yield


class _EagerScopes(threading.local):
    def __init__(self) -> None:
        self.current = ""


_eager_scopes = _EagerScopes()


class name_scope:
    """TF2's name scope: ops created inside a graph (a tf.function, a Graph) are named
    `name/...`; eagerly it only keeps the scope's name. Entering gives the scope string.

    Raises:
        ValueError: `name` is not a string.

    Example:
        >>> import tapeflow as tf
        >>> with tf.name_scope("layer") as scope:
        ...     with tf.name_scope("dense") as inner:
        ...         pass
        >>> scope, inner
        ('layer/', 'layer/dense/')
        >>> g = tf.Graph()
        >>> with g.as_default(), tf.name_scope("block"):
        ...     tf.constant(1.0, name="c").name
        'block/c:0'
    """

    __slots__ = ("_name", "_exits")

    def __init__(self, name: str) -> None:
        if not isinstance(name, str):
            raise ValueError(f"name_scope: name must be a string, got {name!r}")
        self._name = name
        self._exits = []  # one per entry not yet left: a scope object may be re-entered

    @property
    def name(self) -> str:
        return self._name

    def __enter__(self) -> str:
        graph = state.graph
        if graph is not None:
            scope = graph.name_scope(self._name)
            self._exits.append(scope.__exit__)
            return scope.__enter__()
        saved = _eager_scopes.current
        name = self._name
        _eager_scopes.current = name if name.endswith("/") or not name else \
            saved + name + "/"
        self._exits.append(lambda *exc: setattr(_eager_scopes, "current", saved))
        return _eager_scopes.current

    def __exit__(self, *exc) -> None:
        self._exits.pop()(*exc)


def get_current_name_scope() -> str:
    """The name scope ops created now would get, without the trailing "/" ("" at the top).

    Example:
        >>> import tapeflow as tf
        >>> with tf.name_scope("outer"), tf.name_scope("inner"):
        ...     tf.get_current_name_scope()
        'outer/inner'
    """
    graph = state.graph
    scope = graph._scope if graph is not None else _eager_scopes.current
    return scope[:-1] if scope.endswith("/") else scope


def inside_function() -> bool:
    """Whether code runs while a tf.function (or a cond/while_loop branch) is traced.

    Example:
        >>> import tapeflow as tf
        >>> tf.inside_function(), bool(tf.function(lambda: tf.inside_function())())
        (False, True)
    """
    graph = state.graph
    return graph is not None and graph.building_function


def is_symbolic_tensor(tensor) -> bool:
    """Whether `tensor` is a graph tensor (of a Graph or a function being traced), whose
    value is known only when the graph runs.

    Example:
        >>> import tapeflow as tf
        >>> tf.is_symbolic_tensor(tf.constant(1.0))
        False
    """
    return isinstance(tensor, SymbolicTensor)

