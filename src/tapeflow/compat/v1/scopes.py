"""TF1's variable scopes: `variable_scope`, `get_variable` and the v1 initializers.

`get_variable(name, shape)` creates the variable `<scope>/<name>` of the default graph (or
returns it again when its scope reuses variables). Initializers are objects called with
`(shape, dtype, partition_info)` that build random or constant tensors, so the graph-level
seed (`set_random_seed`) makes them deterministic.
"""
from __future__ import annotations

import contextlib
import math

from ...framework import dtypes as _dtypes
from ...framework.context import executing_eagerly
from ...framework.graph import GraphKeys, get_default_graph
from ...framework.variables import Variable
from ...keras.initializers import compute_fans
from ...ops import random_ops
from ...ops.creation_ops import ones, zeros

__all__ = ["AUTO_REUSE", "VariableScope", "variable_scope", "get_variable",
           "get_variable_scope", "zeros_initializer", "ones_initializer",
           "constant_initializer", "random_normal_initializer", "truncated_normal_initializer",
           "random_uniform_initializer", "variance_scaling_initializer",
           "glorot_uniform_initializer", "glorot_normal_initializer"]


class _AutoReuse:
    def __repr__(self) -> str:
        return "AUTO_REUSE"


AUTO_REUSE = _AutoReuse()


# -- initializers ------------------------------------------------------------------------
class _Initializer:
    def __init__(self, dtype=_dtypes.float32) -> None:
        self.dtype = _dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        return self._make(tuple(int(d) for d in shape), _dtypes.as_dtype(dtype or self.dtype))


class zeros_initializer(_Initializer):
    """Initializes to zeros.

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> tf1.zeros_initializer()([2]).numpy()
        array([0., 0.], dtype=float32)
    """

    def _make(self, shape, dtype):
        return zeros(shape, dtype)


class ones_initializer(_Initializer):
    """Initializes to ones."""

    def _make(self, shape, dtype):
        return ones(shape, dtype)


class constant_initializer(_Initializer):
    """Initializes to `value` (a scalar, filled in, or a list of the variable's size).

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> tf1.constant_initializer([1.0, 2.0])([2]).numpy()
        array([1., 2.], dtype=float32)
    """

    def __init__(self, value=0, dtype=_dtypes.float32, verify_shape=False) -> None:
        super().__init__(dtype)
        self.value = value

    def _make(self, shape, dtype):
        import numpy as np
        value = np.asarray(self.value, dtype=dtype.as_numpy_dtype)
        if value.size == 1:
            value = np.full(shape, value.reshape(()))
        elif value.size == math.prod(shape):
            value = value.reshape(shape)
        else:
            raise TypeError(f"constant_initializer: {value.size} values cannot fill the shape "
                            f"{list(shape)}.")
        from ...framework.tensor import convert_to_tensor
        return convert_to_tensor(value)


class random_normal_initializer(_Initializer):
    """Samples of a normal distribution (TF1 defaults: mean 0, stddev 1)."""

    def __init__(self, mean=0.0, stddev=1.0, seed=None, dtype=_dtypes.float32) -> None:
        super().__init__(dtype)
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def _make(self, shape, dtype):
        return random_ops.normal(shape, self.mean, self.stddev, dtype, seed=self.seed)


class truncated_normal_initializer(random_normal_initializer):
    """Normal samples within two standard deviations (TF1 defaults: mean 0, stddev 1)."""

    def _make(self, shape, dtype):
        return random_ops.truncated_normal(shape, self.mean, self.stddev, dtype, seed=self.seed)


class random_uniform_initializer(_Initializer):
    """Uniform samples in [minval, maxval) (TF1 defaults: 0 and 1)."""

    def __init__(self, minval=0.0, maxval=None, seed=None, dtype=_dtypes.float32) -> None:
        super().__init__(dtype)
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def _make(self, shape, dtype):
        return random_ops.uniform(shape, self.minval, self.maxval, dtype, seed=self.seed)


class variance_scaling_initializer(_Initializer):
    """Samples scaled by the fans of the shape (TF1 defaults: scale 1, fan_in, truncated
    normal).

    Raises:
        ValueError: a non-positive scale, or an unknown mode or distribution.
    """

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None,
                 dtype=_dtypes.float32) -> None:
        if scale <= 0.0:
            raise ValueError("`scale` must be positive float.")
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError(f"Invalid `mode` argument: {mode}")
        distribution = distribution.lower()
        if distribution not in ("normal", "uniform", "truncated_normal", "untruncated_normal"):
            raise ValueError(f"Invalid `distribution` argument: {distribution}")
        super().__init__(dtype)
        self.scale, self.mode, self.distribution, self.seed = scale, mode, distribution, seed

    def _make(self, shape, dtype):
        fan_in, fan_out = compute_fans(shape)
        fan = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}
        scale = self.scale / max(1.0, fan[self.mode])
        if self.distribution in ("normal", "truncated_normal"):
            stddev = math.sqrt(scale) / 0.87962566103423978
            return random_ops.truncated_normal(shape, 0.0, stddev, dtype, seed=self.seed)
        if self.distribution == "untruncated_normal":
            return random_ops.normal(shape, 0.0, math.sqrt(scale), dtype, seed=self.seed)
        limit = math.sqrt(3.0 * scale)
        return random_ops.uniform(shape, -limit, limit, dtype, seed=self.seed)


def glorot_uniform_initializer(seed=None, dtype=_dtypes.float32):
    """Uniform samples in ±sqrt(6 / (fan_in + fan_out)).

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> w = tf1.glorot_uniform_initializer(seed=1)([3, 5]).numpy()
        >>> bool(abs(w).max() <= (6 / 8) ** 0.5)
        True
    """
    return variance_scaling_initializer(1.0, "fan_avg", "uniform", seed, dtype)


def glorot_normal_initializer(seed=None, dtype=_dtypes.float32):
    """Truncated normal samples of stddev sqrt(2 / (fan_in + fan_out))."""
    return variance_scaling_initializer(1.0, "fan_avg", "truncated_normal", seed, dtype)


# -- scopes ------------------------------------------------------------------------------
class VariableScope:
    """A variable scope: its name, whether it reuses variables, and the defaults
    (initializer, regularizer, dtype) its `get_variable` calls take."""

    def __init__(self, reuse, name: str = "", initializer=None, regularizer=None,
                 dtype=_dtypes.float32, partitioner=None) -> None:
        self.name = name
        self.reuse = reuse
        self.initializer = initializer
        self.regularizer = regularizer
        self.dtype = _dtypes.as_dtype(dtype)
        self.partitioner = partitioner

    @property
    def original_name_scope(self) -> str:
        return self.name + "/" if self.name else ""

    def reuse_variables(self) -> None:
        """Makes this scope (and those opened inside later) reuse variables."""
        self.reuse = True

    def set_initializer(self, initializer) -> None:
        self.initializer = initializer

    def get_variable(self, name, shape=None, dtype=None, initializer=None, regularizer=None,
                     trainable=None, collections=None, partitioner=None, **kwargs):
        """`get_variable` in this scope."""
        full = f"{self.name}/{name}" if self.name else name
        graph = get_default_graph()
        store = _store(graph)
        if self.reuse is True or (self.reuse is AUTO_REUSE and full in store):
            if full not in store:
                raise ValueError(f"Variable {full} does not exist, or was not created with "
                                 "tf.get_variable(). Did you mean to set reuse=tf.AUTO_REUSE "
                                 "in VarScope?")
            found = store[full]
            if shape is not None and not found.shape.is_compatible_with(shape):
                raise ValueError(f"Trying to share variable {full}, but specified shape "
                                 f"{list(shape)} and found shape {found.shape}.")
            return found
        if full in store:
            raise ValueError(f"Variable {full} already exists, disallowed. Did you mean to set "
                             "reuse=True or reuse=tf.AUTO_REUSE in VarScope?")
        dtype = _dtypes.as_dtype(dtype or self.dtype)
        initializer = initializer if initializer is not None else self.initializer
        if isinstance(initializer, type):  # a class such as tf.zeros_initializer
            initializer = initializer()
        if initializer is None:
            initializer = (glorot_uniform_initializer() if dtype.is_floating
                           else zeros_initializer())
        if callable(initializer):
            if shape is None:
                raise ValueError(f"Shape of a new variable ({full}) must be fully defined, but "
                                 "instead was None.")
            value = lambda: initializer(shape, dtype=dtype)  # noqa: E731
        else:
            value = initializer
        with absolute_name_scope(graph, self.name):
            variable = Variable(value, trainable=trainable, name=name, dtype=dtype,
                                shape=shape, collections=collections)
        store[full] = variable
        regularizer = regularizer if regularizer is not None else self.regularizer
        if regularizer is not None:
            with absolute_name_scope(graph, full + "/Regularizer"):
                loss = regularizer(variable)
            if loss is not None:
                graph.add_to_collection(GraphKeys.REGULARIZATION_LOSSES, loss)
        return variable


def _graph_state(graph, key: str, make):
    """One mutable object per graph, kept in a private collection `key`."""
    found = graph.get_collection(key)
    if not found:
        found = [make()]
        graph.add_to_collection(key, found[0])
    return found[0]


def _store(graph) -> dict:
    """The variables made by get_variable in `graph`, by full name."""
    return _graph_state(graph, "__variable_store", dict)


def _scope_stack(graph) -> list:
    return _graph_state(graph, "__variable_scope", lambda: [VariableScope(False)])


def _scope_names(graph) -> set:
    return _graph_state(graph, "__variable_scope_names", set)


@contextlib.contextmanager
def absolute_name_scope(graph, name: str):
    """Ops and variables made inside are named `name/...` from the top level of `graph`
    (nothing changes when eager)."""
    if executing_eagerly():
        yield
        return
    with graph.name_scope(name + "/" if name else ""):
        yield


def get_variable_scope() -> VariableScope:
    """The current variable scope of the default graph.

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> with tf1.Graph().as_default():
        ...     with tf1.variable_scope("model"):
        ...         print(tf1.get_variable_scope().name)
        model
    """
    return _scope_stack(get_default_graph())[-1]


@contextlib.contextmanager
def variable_scope(name_or_scope, default_name=None, values=None, initializer=None,
                   regularizer=None, caching_device=None, partitioner=None,
                   custom_getter=None, reuse=None, dtype=None, use_resource=None,
                   constraint=None, auxiliary_name_scope=True):
    """Opens a variable scope (and a name scope): `get_variable` inside creates or reuses
    `<scope>/<name>`.

    Args:
        name_or_scope: a name or a VariableScope; None uses `default_name` made unique.
        reuse: True reuses existing variables, AUTO_REUSE creates them if missing, None
            inherits the enclosing scope's reuse.
        initializer, regularizer, dtype, partitioner: defaults for `get_variable` inside
            (the partitioner is accepted; variables are not split).

    Raises:
        ValueError: neither a name nor a default name.

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> with tf1.Graph().as_default():
        ...     with tf1.variable_scope("dense"):
        ...         w = tf1.get_variable("w", [2, 3])
        ...     with tf1.variable_scope("dense", reuse=True):
        ...         print(w.name, tf1.get_variable("w") is w)
        dense/w:0 True
    """
    graph = get_default_graph()
    stack = _scope_stack(graph)
    outer = stack[-1]
    if isinstance(name_or_scope, VariableScope):
        full = name_or_scope.name
        base = name_or_scope
    elif name_or_scope is not None:
        full = f"{outer.name}/{name_or_scope}" if outer.name else str(name_or_scope)
        base = outer
    elif default_name is not None:
        taken = _scope_names(graph)
        prefix = f"{outer.name}/{default_name}" if outer.name else default_name
        full, count = prefix, 0
        while full in taken:
            count += 1
            full = f"{prefix}_{count}"
        base = outer
    else:
        raise ValueError("If default_name is None then name_or_scope is required")
    _scope_names(graph).add(full)
    if not reuse:  # None and False inherit: a reusing scope's children reuse too
        reuse = outer.reuse
    scope = VariableScope(reuse, full,
                          initializer if initializer is not None else base.initializer,
                          regularizer if regularizer is not None else base.regularizer,
                          dtype if dtype is not None else base.dtype,
                          partitioner if partitioner is not None else base.partitioner)
    stack.append(scope)
    try:
        if executing_eagerly() or not auxiliary_name_scope:
            yield scope
        elif isinstance(name_or_scope, VariableScope):
            with graph.name_scope(scope.original_name_scope or ""):
                yield scope
        else:
            with graph.name_scope(full.rsplit("/", 1)[-1]):
                yield scope
    finally:
        stack.pop()


def get_variable(name, shape=None, dtype=None, initializer=None, regularizer=None,
                 trainable=None, collections=None, caching_device=None, partitioner=None,
                 validate_shape=True, use_resource=None, custom_getter=None, constraint=None,
                 synchronization=None, aggregation=None):
    """The variable `<current variable scope>/<name>`: created (with `initializer`, default
    the scope's, else glorot_uniform for floats and zeros otherwise), or returned again
    when the scope reuses variables.

    Raises:
        ValueError: the variable exists and the scope does not reuse, or it does not exist
            and the scope reuses (reuse=True), or a new variable has no shape.

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> with tf1.Graph().as_default():
        ...     v = tf1.get_variable("v", [2], initializer=tf1.constant_initializer(3.0))
        ...     sess = tf1.Session()
        ...     _ = sess.run(tf1.global_variables_initializer())
        ...     print(sess.run(v))
        [3. 3.]
    """
    return get_variable_scope().get_variable(
        name, shape=shape, dtype=dtype, initializer=initializer, regularizer=regularizer,
        trainable=trainable, collections=collections, partitioner=partitioner)
