"""Variable: mutable state that tapes watch automatically when it is read."""
from __future__ import annotations

import contextlib
import enum
import threading

import numpy as np

from . import dtypes, errors, promotion
from .allocator import references
from .context import state
from .devices import eager_device
from .tensor import (Tensor, TensorShape, WeakTensor, _next_id, _numpy_repr, constant,
                     convert_to_tensor)
from ..trackable.base import Trackable

__all__ = ["Variable", "VariableAggregation", "VariableSynchronization",
           "variable_creator_scope"]


class VariableSynchronization(enum.Enum):
    """When a distributed variable's replicas are made to agree (tapeflow keeps one copy,
    so the mode is recorded only). With ON_READ a variable is not trainable by default."""

    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3


class VariableAggregation(enum.Enum):
    """How the updates of a distributed variable's replicas combine: NONE, SUM, MEAN or
    ONLY_FIRST_REPLICA (recorded on the variable; tapeflow keeps one copy).

    Example:
        >>> import tapeflow as tf
        >>> tf.Variable(1.0, aggregation=tf.VariableAggregation.MEAN).aggregation
        <VariableAggregation.MEAN: 2>
    """

    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3


def _scoped_name(name: str) -> str:
    """`name` under the current name scope ("layer/w"), as eager variables are named."""
    from .graph import get_current_name_scope
    scope = get_current_name_scope()
    return f"{scope}/{name}" if scope else name


def _variable_mode(enum_type, value, what: str, name):
    if value is None:
        return enum_type(0)
    if not isinstance(value, enum_type):
        raise ValueError(f"Invalid variable {what} mode: {value} for variable: {name}")
    return value

# Where TF places an eager variable's value.
EAGER_DEVICE = "/job:localhost/replica:0/task:0/device:CPU:0"

# assign_add and assign_sub read, then write: one at a time, so no thread's update is lost.
_READ_MODIFY_WRITE = threading.Lock()


# Where a variable creator runs in the chain: the user's scopes first (innermost first),
# then a tf.function's own creator, which makes the variable (see FuncGraph).
USER_PRIORITY = 100
FUNCTION_PRIORITY = 50


def _applied_to_value(operator):
    """A Variable subclass's `operator`, applied to its `value()` (see Variable._operators)."""
    def on_value(self, *args):
        return operator(self.value(), *args)
    on_value.__name__ = operator.__name__
    return on_value


class _VariableMeta(type):
    """`tf.Variable(...)` passes through the active variable creators (innermost first) and
    then the default creator of the current context (`_default_creator`)."""

    def __call__(cls, *args, **kwargs):
        if cls is Variable:
            st = state
            if st.variable_creators or st.graph is not None:
                return _create_through(st.variable_creators, _creator_arguments(args, kwargs))
        return super().__call__(*args, **kwargs)


# The keyword arguments creators receive, with the values they get when not given.
_CREATOR_DEFAULTS = {
    "initial_value": None, "trainable": None, "validate_shape": True, "caching_device": None,
    "name": None, "variable_def": None, "dtype": None, "import_scope": None,
    "constraint": None, "synchronization": VariableSynchronization.AUTO,
    "aggregation": VariableAggregation.NONE, "shape": None,
    "experimental_enable_variable_lifting": None}
_CREATOR_ORDER = tuple(_CREATOR_DEFAULTS)


def _creator_arguments(args: tuple, kwargs: dict) -> dict:
    """The constructor's arguments by name: TF's full keyword set, then any others."""
    if len(args) > len(_CREATOR_ORDER):
        raise TypeError(f"Variable() takes at most {len(_CREATOR_ORDER)} positional arguments "
                        f"({len(args)} given)")
    arguments = dict(_CREATOR_DEFAULTS)
    for key, value in zip(_CREATOR_ORDER, args):
        arguments[key] = value
    for key, value in kwargs.items():
        if key in _CREATOR_ORDER[:len(args)]:
            raise TypeError(f"Variable() got multiple values for argument {key!r}")
        arguments[key] = value
    return arguments


def _default_creator(**kwargs):
    """The end of every creator chain: a graph variable while a graph is built (the graph
    decides), else an eager Variable."""
    graph = state.graph
    if graph is not None:
        return graph._make_variable(kwargs)
    return type.__call__(Variable, **kwargs)


def _create_through(entries: list, kwargs: dict):
    """Calls the first creator with `kwargs` and, as its `next_creator`, the next one; the
    last one's `next_creator` is `_default_creator`. Creators run by priority (higher
    first), and among equal priorities the innermost scope first."""
    ordered = sorted(reversed(entries), key=lambda entry: -entry[0])

    def creator_at(index: int):
        if index == len(ordered):
            return _default_creator
        creator = ordered[index][1]
        return lambda **kw: creator(creator_at(index + 1), **kw)

    return creator_at(0)(**kwargs)


@contextlib.contextmanager
def creator_scope(creator, priority: int):
    """Installs `creator` on this thread's chain at `priority` (the engine's form of
    `variable_creator_scope`; a tf.function installs its own at FUNCTION_PRIORITY)."""
    creators = state.variable_creators
    entry = (priority, creator)
    creators.append(entry)
    try:
        yield
    finally:
        creators.remove(entry)


def active_creators() -> list:
    """This thread's creator chain, `(priority, creator)` pairs outermost first: what
    another thread installs with `creator_scope` to create variables as this one does
    (a strategy's replica threads)."""
    return list(state.variable_creators)


def variable_creator_scope(variable_creator):
    """Routes every `tf.Variable(...)` made inside through `variable_creator`.

    Args:
        variable_creator: `creator(next_creator, **kwargs)`, where kwargs are the Variable's
            constructor arguments by name: `initial_value`, `trainable`, `validate_shape`,
            `caching_device`, `name`, `variable_def`, `dtype`, `import_scope`, `constraint`,
            `synchronization` (AUTO when not given), `aggregation` (NONE when not given),
            `shape` and `experimental_enable_variable_lifting`. It returns a Variable,
            usually `next_creator(**kwargs)` after changing them. Scopes nest: the innermost
            creator runs first; inside a tf.function the function's own creator runs last.

    Returns:
        A context manager.

    Example:
        >>> import tapeflow as tf
        >>> def frozen(next_creator, **kwargs):
        ...     kwargs["trainable"] = False
        ...     return next_creator(**kwargs)
        >>> with tf.variable_creator_scope(frozen):
        ...     v = tf.Variable(1.0)
        >>> v.trainable
        False
    """
    return creator_scope(variable_creator, USER_PRIORITY)


class Variable(Trackable, metaclass=_VariableMeta):
    """A mutable tensor-like value; reading a trainable one inside a tape watches it.

    Made while a tf.function is traced (its first trace), a Variable is made outside the
    function and its initial value lifted out of the graph (FuncGraph.creating_variables);
    every `tf.Variable(...)` passes through the active `variable_creator_scope`s first.

    Args:
        initial_value: a value or a zero-argument callable returning one.
        trainable: whether tapes watch it automatically (default True, False with
            `synchronization=ON_READ`).
        validate_shape: whether the initial value must fit `shape`.
        caching_device, variable_def, import_scope: accepted as TF's (one device; no
            VariableDef to import).
        name: the name, under the current name scope; `.name` appends ":0" as TF does.
        dtype: converts the initial value to this dtype.
        constraint: an optional projection applied by optimizers after updates.
        synchronization, aggregation: a `VariableSynchronization` (default AUTO) and a
            `VariableAggregation` (default NONE), recorded (tapeflow's variables have one
            copy).
        shape: the static shape; defaults to the initial value's (`tf.TensorShape(None)`
            lets assignments change it).
        experimental_enable_variable_lifting: False makes a variable created in a
            tf.function from a graph tensor an error instead of lifting its value.

    Raises:
        ValueError: no initial value, a shape that does not fit it, or a synchronization or
            aggregation that is not of its enum.

    Example:
        >>> import tapeflow as tf
        >>> v = tf.Variable(2.0)
        >>> with tf.GradientTape() as tape:
        ...     y = v * v
        >>> float(tape.gradient(y, v))
        4.0
        >>> float(v.assign_add(1.0))
        3.0
    """

    __slots__ = ("_value", "_id", "_trainable", "_name", "_shape", "constraint",
                 "_synchronization", "_aggregation", "__weakref__")
    __array_priority__ = 100

    # The Python operators the ops layer installs (name -> function). A subclass with a
    # `value` of its own (Sonnet's TensorVariable) has them applied to that value, as TF's
    # variables do; the engine's read them as they are, at no cost on the hot path.
    _operators: dict = {}

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if "value" in cls.__dict__:
            for name, operator in Variable._operators.items():
                if name not in cls.__dict__:  # (the subclass's own operators stay)
                    setattr(cls, name, _applied_to_value(operator))

    def __init__(self, initial_value=None, trainable=None, validate_shape=True,
                 caching_device=None, name=None, variable_def=None, dtype=None,
                 import_scope=None, constraint=None,
                 synchronization=VariableSynchronization.AUTO,
                 aggregation=VariableAggregation.NONE, shape=None,
                 experimental_enable_variable_lifting=True, **kwargs) -> None:
        if initial_value is None:
            raise ValueError("initial_value must be specified.")
        self._set_modes(trainable, synchronization, aggregation, name)
        if callable(initial_value):
            initial_value = initial_value()
        value = convert_to_tensor(initial_value, dtype=dtype) if isinstance(initial_value, Tensor) \
            else constant(initial_value, dtype=dtype)
        self._value = np.array(value._value)
        self._id = _next_id()
        self._name = _scoped_name("Variable" if name is None else str(name))
        self._shape = TensorShape(self._value.shape if shape is None else shape)
        if validate_shape and not self._shape.is_compatible_with(self._value.shape):
            raise ValueError(f"The initial value's shape {self._value.shape} is not compatible "
                             f"with the explicitly supplied `shape` argument {self._shape}.")
        self.constraint = constraint

    def _set_modes(self, trainable, synchronization, aggregation, name) -> None:
        """Checks and records the distribution modes, and `trainable` (which defaults to
        False when ON_READ)."""
        self._synchronization = _variable_mode(VariableSynchronization, synchronization,
                                               "synchronization", name)
        self._aggregation = _variable_mode(VariableAggregation, aggregation, "aggregation", name)
        if trainable is None:
            trainable = self._synchronization is not VariableSynchronization.ON_READ
        self._trainable = bool(trainable)

    # -- reading -------------------------------------------------------------------------
    @property
    def dtype(self) -> dtypes.DType:
        return dtypes.from_numpy(self._value.dtype)

    @property
    def shape(self) -> TensorShape:
        return self._shape

    @property
    def synchronization(self) -> VariableSynchronization:
        return self._synchronization

    @property
    def aggregation(self) -> VariableAggregation:
        return self._aggregation

    @property
    def _unique_id(self) -> str:
        """A name no other variable of this process has (its name and its id)."""
        return f"{self._name}_{self._id}"

    @property
    def _shared_name(self) -> str:
        """The variable's name without the output suffix, as TF names its resource."""
        return self._name

    @property
    def handle(self) -> "Variable":
        """The resource holding the value: in tapeflow the Variable is its own resource
        (what TF's ops and tapes reach through a variable's handle, tapeflow's reach
        through the Variable)."""
        return self

    @property
    def name(self) -> str:
        return self._name + ":0"

    # -- the object graph: a Variable is a leaf saving its value -----------------------------
    @property
    def _shared_name(self) -> str:
        """The name without the ':0' output suffix."""
        return self._name

    def _trackable_children(self, save_type: str = "checkpoint", **kwargs) -> dict:
        return {}

    def _serialize_to_tensors(self) -> dict:
        """{'VARIABLE_VALUE': the variable}: what a checkpoint saves of it."""
        return {"VARIABLE_VALUE": self}

    def _restore_from_tensors(self, restored_tensors: dict):
        """Assigns the saved 'VARIABLE_VALUE' (outside any function being traced).

        Raises:
            ValueError: its shape does not fit the variable's.
        """
        from .graph import init_scope
        value = restored_tensors["VARIABLE_VALUE"]
        shape = tuple(np.shape(value))
        if not self._shape.is_compatible_with(shape):
            raise ValueError(f"Received incompatible tensor with shape {shape} when attempting "
                             f"to restore variable with shape {tuple(self._shape.as_list())} "
                             f"and name {self.name}.")
        with init_scope():
            for component in self._components_to_restore():
                component.assign(value)
        return self

    def _components_to_restore(self) -> tuple:
        return (self,)

    def _copy_trackable_to_cpu(self, object_map) -> None:
        """Puts a host copy of this variable into `object_map[self]` (or refreshes it)."""
        if self in object_map:
            object_map[self].assign(self.read_value())
        else:
            object_map[self] = Variable(self.read_value(), trainable=self.trainable,
                                        name=self._name)

    @property
    def trainable(self) -> bool:
        return self._trainable

    @property
    def device(self) -> str:
        """The device holding the value: '/job:localhost/replica:0/task:0/device:CPU:0'."""
        return eager_device()

    @property
    def ndim(self) -> int:
        return self._value.ndim

    def get_shape(self) -> TensorShape:
        return self._shape

    def set_shape(self, shape) -> None:
        """Narrows the static shape to `shape`.

        Raises:
            ValueError: `shape` is not compatible with the variable's shape.
        """
        shape = TensorShape(shape)
        if not self._shape.is_compatible_with(shape):
            raise ValueError(f"Shapes {self._shape} and {shape} are not compatible")
        self._shape = self._shape.merge_with(shape)

    # -- TF1 graph members, which an eager variable has not (GraphVariable has them) ---------
    @property
    def device(self) -> str:
        """The device holding the value: eager variables live on the host's CPU."""
        return EAGER_DEVICE

    @property
    def initializer(self):
        """None: an eager variable is initialized when it is made."""
        return None

    @property
    def initial_value(self):
        """Raises RuntimeError: eager variables do not keep their initial value."""
        raise RuntimeError("Variable.initial_value is not supported when eager execution is "
                           f"enabled (variable {self.name!r}); read the value instead.")

    def initialized_value(self):
        """Raises NotImplementedError for eager variables (they are always initialized);
        use `read_value()`."""
        raise NotImplementedError(f"Variable.initialized_value of eager variable {self.name!r}:"
                                  " eager variables are initialized when made; use "
                                  "read_value().")

    @property
    def op(self):
        raise AttributeError("Variable.op is undefined when eager execution is enabled.")

    @property
    def graph(self):
        raise AttributeError("Variable.graph is undefined when eager execution is enabled.")

    def eval(self, session=None):
        """Raises RuntimeError: an eager variable has no Session; use `numpy()`."""
        raise RuntimeError(f"Variable.eval of {self.name!r} is not supported when eager "
                           "execution is enabled; use numpy().")

    def load(self, value, session=None) -> None:
        """Assigns `value` (the TF1 form of `assign`)."""
        self.assign(value, read_value=False)

    def to_proto(self, export_scope=None):
        """Raises RuntimeError: eager variables have no VariableDef."""
        raise RuntimeError(f"Variable.to_proto of {self.name!r} is not supported when eager "
                           "execution is enabled.")

    def count_up_to(self, limit):
        """Adds 1 to an integer variable and returns the value before.

        Raises:
            OutOfRangeError: the value has reached `limit` (the variable is unchanged).
            NotImplementedError: called while a graph is built.

        Example:
            >>> import tapeflow as tf
            >>> c = tf.Variable(0)
            >>> int(c.count_up_to(2)), int(c.count_up_to(2)), int(c)
            (0, 1, 2)
        """
        if state.graph is not None:
            raise NotImplementedError(f"Variable.count_up_to of {self.name!r} runs eagerly "
                                      "only; in a graph use assign_add.")
        with _READ_MODIFY_WRITE:
            before = self._value
            if int(before) >= limit:
                raise errors.OutOfRangeError(None, "ResourceCountUpTo",
                                             f"Reached limit of {limit} (variable {self.name!r})")
            self._value = np.add(before, np.asarray(1, before.dtype))
        return Tensor(np.array(before))

    def numpy(self):
        v = self._value
        return v.copy() if v.ndim else v[()]

    def read_value(self) -> Tensor:
        """The current value as a Tensor; recorded as a read by any active tape."""
        st = state
        if st.graph is not None:
            return st.graph._read_variable(self)
        recorders = st.recorders
        if not recorders:
            return Tensor(self._value)
        from .registry import get_op
        from .execute import record_operation
        out = Tensor(self._value)
        record_operation(get_op("ReadVariableOp"), (self,), (out,), {})
        return out

    value = read_value
    _as_tensor = read_value

    def _read_for_recorders(self, recorders) -> Tensor:
        """A snapshot of the value carrying this variable's identity, for a tape record."""
        for recorder in recorders:
            recorder._variable_accessed(self)
        return Tensor(self._value, self._id)

    def __array__(self, dtype=None, copy=None):
        v = np.asarray(self._value)
        return v if dtype is None else v.astype(dtype)

    # -- writing -------------------------------------------------------------------------
    def _checked_value(self, value, what: str) -> np.ndarray:
        """`value` as an array of this variable's dtype and a compatible shape.

        Raises:
            ValueError: another dtype or a value that does not convert; for `assign`, a
                shape that does not fit.
            InvalidArgumentError: for `assign_add` and `assign_sub`, a shape that differs
                (as TF's update ops raise).
        """
        if type(value) is Tensor:
            new = value._value
            if new.dtype == self._value.dtype and new.shape == self._value.shape:
                return new
        if promotion.mode in promotion.LATTICE_MODES:
            value = self._promoted(value, what)
        new = convert_to_tensor(value, dtype=self.dtype)._value
        if not self._shape.is_compatible_with(new.shape):
            message = (f"Cannot {what} variable '{self.name}': the variable shape "
                       f"{self._shape} and the value shape {TensorShape(new.shape)} are "
                       "incompatible.")
            if what == "assign to":
                raise ValueError(message)
            raise errors.InvalidArgumentError(None, None, message)
        return new

    def _promoted(self, value, what: str):
        """`value` converted to this variable's dtype where the "all"/"safe" lattice
        promotes the two to that dtype (a Variable's dtype cannot change).

        Raises:
            TypeError: the promotion leads to another dtype.
        """
        if isinstance(value, (Tensor, Variable)):
            operand = (value.dtype.name, type(value) is WeakTensor)
        else:
            operand = promotion.python_type(value)
        if operand is None or operand[0] == self.dtype.name:
            return value
        mine = (self.dtype.name, False)
        result = promotion.result_type(mine, operand)
        if result[0] != self.dtype.name or promotion.mode == "safe" and not \
                promotion.is_safe(mine, operand, result):
            raise TypeError(f"Cannot {what} variable '{self.name}' of dtype {self.dtype.name} "
                            f"a value of dtype {operand[0]}{' (weak)' if operand[1] else ''}: "
                            f"they promote to {result[0]}, and a variable's dtype is fixed.")
        if isinstance(value, (Tensor, Variable)):
            return Tensor(np.asarray(value._value).astype(self._value.dtype))
        return value

    def assign(self, value, use_locking=None, name=None, read_value=True):
        """Replaces the value; ValueError (and no change) if the shape does not fit."""
        if state.graph is not None:
            return self._assign_in_graph(state.graph, "AssignVariableOp", value, read_value)
        self._value = np.array(self._checked_value(value, "assign to"))
        return self if read_value else None

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        """Adds `delta` (same shape) to the value, atomically among threads."""
        if state.graph is not None:
            return self._assign_in_graph(state.graph, "AssignAddVariableOp", delta, read_value)
        delta = self._checked_value(delta, "assign_add to")
        with _READ_MODIFY_WRITE:
            self._value = self._updated(np.add, delta)
        return self if read_value else None

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        """Subtracts `delta` (same shape) from the value, atomically among threads."""
        if state.graph is not None:
            return self._assign_in_graph(state.graph, "AssignSubVariableOp", delta, read_value)
        delta = self._checked_value(delta, "assign_sub to")
        with _READ_MODIFY_WRITE:
            self._value = self._updated(np.subtract, delta)
        return self if read_value else None

    def _updated(self, ufunc, delta):
        """ufunc(value, delta), written into the value's own array when nothing else holds
        it (a step's update allocates nothing), else into a new one (copy-on-write: a
        tensor read earlier keeps its value)."""
        value = self._value
        # References: the slot, `value` and getrefcount's argument.
        if type(value) is np.ndarray and references(value) == 3 and value.base is None \
                and value.flags.writeable and type(delta) is np.ndarray \
                and delta.dtype == value.dtype and delta.shape == value.shape:
            return ufunc(value, delta, out=value)
        return ufunc(value, delta)

    def _assign_in_graph(self, graph, op_name: str, value, read_value: bool):
        from .registry import get_op
        return graph._assign_variable(self, get_op(op_name), value, read_value)

    def mutable_array(self) -> np.ndarray:
        """The variable's own NumPy array, to update in place (tapeflow's engine API, not TF's).

        Optimizers write their steps into it (`np.copyto`, `+=`) instead of allocating a new
        array per `assign`. Copy-on-write, as TF's resource variables: while anything else
        (a tensor read earlier) references the array, the variable first takes a private
        copy, so that reader keeps its value. No tape sees an in-place write: use it for
        updates, not for computations to differentiate, and only while executing eagerly.

        Returns:
            The array now holding the value (rank 0 included), with the variable's dtype
            and shape; keep neither its shape nor its dtype from changing.

        Example:
            >>> import tapeflow as tf
            >>> v = tf.Variable([1.0, 2.0])
            >>> before = v.read_value()
            >>> v.mutable_array()[...] -= 0.5
            >>> v.numpy(), before.numpy()
            (array([0.5, 1.5], dtype=float32), array([1., 2.], dtype=float32))
        """
        # Two references: the slot and the count's argument. Without exact counts, copy.
        # (A rank-0 result of NumPy arithmetic is a scalar, not an array: copy that too; so
        # is a view, whose memory another array or process may hold, or a read-only array.)
        if not isinstance(self._value, np.ndarray) or references(self._value) != 2 or \
                self._value.base is not None or not self._value.flags.writeable:
            self._value = np.array(self._value)
        return self._value

    def adopt_array(self, array: np.ndarray) -> None:
        """Takes `array` as the value without a copy (tapeflow's engine API, not TF's).

        For an array nobody writes afterwards, such as a read-only view of memory other
        processes share (`tf.distribute`'s optimizer steps in parts). Writes through the
        variable then take a private copy first (see `mutable_array`).

        Raises:
            ValueError: another dtype or shape than the variable's, naming both.
        """
        if not isinstance(array, np.ndarray) or array.dtype != self._value.dtype or \
                array.shape != self._value.shape:
            raise ValueError(f"adopt_array of variable {self.name!r}: expected a "
                             f"{self._value.dtype} array of shape {self._value.shape}, got "
                             f"{getattr(array, 'dtype', type(array).__name__)} "
                             f"{getattr(array, 'shape', '')}")
        self._value = array

    # -- identity ------------------------------------------------------------------------
    def ref(self):
        from .tensor import Reference
        return Reference(self)

    experimental_ref = ref

    def __hash__(self):
        raise TypeError("Variable is unhashable. Instead, use variable.ref() as the key. "
                        f"(Variable: {self})")

    def __repr__(self) -> str:
        return (f"<tf.Variable '{self.name}' shape={self._shape} dtype={self.dtype.name}, "
                f"numpy={_numpy_repr(self._value)}>")

    def __bool__(self) -> bool:
        return bool(self._value)

    def __float__(self) -> float:
        return float(self._value)

    def __int__(self) -> int:
        return int(self._value)

    # As TF's: no __index__ and no __len__ (a Variable is iterated through its value), and
    # formatted as its str with the empty spec only.
    def __iter__(self):
        return iter(self.read_value())

    def __format__(self, spec: str) -> str:
        if spec:
            raise TypeError(f"unsupported format string passed to {type(self).__name__}"
                            ".__format__")
        return str(self)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        copy = Variable(self._value.copy(), trainable=self._trainable, name=self._name)
        copy._name = self._name
        return copy
