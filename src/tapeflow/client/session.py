"""Session: runs a graph's tensors and operations (TF1), holding its variables' values."""
from __future__ import annotations

import collections

import numpy as np

from ..framework import nest
from ..framework.context import push_default_session, remove_default_session
from ..framework.graph import Graph, Operation, get_default_graph
from ..framework.graph_tensor import SymbolicTensor
from ..framework.graph_variables import GraphVariable
from ..framework.indexed_slices import IndexedSlices
from ..framework.plan import Plan, VariableStore
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor import Tensor, array_from_python
from ..framework.variables import Variable

__all__ = ["Session", "InteractiveSession", "IndexedSlicesValue", "SparseTensorValue"]


class _ScalarTypes(dict):
    """NumPy scalar subclasses whose repr is their str (`4.0`, not `np.float32(4.0)`): a
    fetched scalar prints as TF1 code expects under every NumPy version."""

    def __missing__(self, np_type):
        cls = type(np_type.__name__, (np_type,), {"__slots__": (), "__repr__": np_type.__str__})
        self[np_type] = cls
        return cls


_SCALARS = _ScalarTypes()


def _fetched(value):
    if isinstance(value, np.ndarray):
        if value.ndim:
            return value.copy()
        value = value[()]
    if isinstance(value, np.generic) and not isinstance(value, np.bool_):
        return _SCALARS[type(value)](value)
    return value


IndexedSlicesValue = collections.namedtuple("IndexedSlicesValue",
                                            ["values", "indices", "dense_shape"])
IndexedSlicesValue.__doc__ = "The value of a fetched IndexedSlices: NumPy arrays."
SparseTensorValue = collections.namedtuple("SparseTensorValue",
                                           ["indices", "values", "dense_shape"])
SparseTensorValue.__doc__ = "The value of a fetched SparseTensor: NumPy arrays."


def _parts(fetch) -> list:
    """What to compute for one fetch: an IndexedSlices or SparseTensor is its components
    (those already arrays are returned as they are)."""
    if isinstance(fetch, SparseTensor):
        parts = [fetch.indices, fetch.values, fetch.dense_shape]
    elif isinstance(fetch, IndexedSlices):
        parts = [fetch.values, fetch.indices] + ([] if fetch.dense_shape is None
                                                 else [fetch.dense_shape])
    else:
        return [fetch]
    return [p if isinstance(p, SymbolicTensor) else np.asarray(p) for p in parts]


class Session:
    """Runs tensors and operations of a graph; variables have a value per session.

    Args:
        target: accepted for compatibility (only the local machine runs graphs).
        graph: the graph to run (the default graph when None).
        config: accepted for compatibility.

    Example:
        >>> import tapeflow as tf
        >>> with tf.Graph().as_default():
        ...     x = tf.compat.v1.placeholder(tf.float32, shape=[2])
        ...     y = x * 2.0
        ...     with tf.compat.v1.Session() as sess:
        ...         print(sess.run(y, feed_dict={x: [1.0, 2.0]}))
        [2. 4.]
    """

    def __init__(self, target: str = "", graph: Graph | None = None, config=None) -> None:
        self._graph = graph if graph is not None else get_default_graph()
        self._values = VariableStore()
        self._plans: dict = {}
        self._closed = False
        self._context = None

    @property
    def graph(self) -> Graph:
        return self._graph

    @property
    def sess_str(self) -> str:
        return ""

    def close(self) -> None:
        """Releases the variables' values; the session can no longer run."""
        self._closed = True
        self._values = VariableStore()
        self._plans = {}

    def as_default(self):
        """A context manager making this the default session (for eval() and run())."""
        return _AsDefault(self)

    def __enter__(self) -> "Session":
        self._context = [self.as_default(), self._graph.as_default()]
        self._context[0].__enter__()
        if self._graph is not get_default_graph():
            self._context[1].__enter__()
        else:
            self._context.pop()
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        for context in reversed(self._context or []):
            context.__exit__(exc_type, exc, tb)
        self._context = None
        self.close()

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """Computes `fetches` (nested lists, tuples, dicts of tensors, operations, variables,
        IndexedSlices or names) with `feed_dict` values for placeholders (or any tensors).

        Returns:
            The structure of `fetches` with arrays (None for operations, IndexedSlicesValue
            for IndexedSlices, SparseTensorValue for SparseTensors).

        Raises:
            RuntimeError: the session is closed.
            TypeError: a fetch is not a graph element (None, an eager tensor), a feed key
                names no tensor, or a fed value does not fit the tensor's dtype (1.5 as int).
            ValueError: a fetch or feed of another graph, or a fed value of the wrong shape
                or one that is no tensor at all (None, ragged lists).
            InvalidArgumentError: a placeholder the fetches need was not fed.
            FailedPreconditionError: an uninitialized variable was read.
        """
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        leaves = nest.flatten(fetches)
        flat = [part for leaf in leaves for part in _parts(leaf)]
        constants = {i: f for i, f in enumerate(flat) if isinstance(f, np.ndarray)}
        elements = [self._element(f) for f in flat if not isinstance(f, np.ndarray)]
        feeds, values = self._feeds(feed_dict)
        key = (tuple(id(e) for e in elements), tuple(id(t) for t in feeds))
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plans[key] = Plan(self._graph.get_operations(), feeds, [
                self._graph.variable_value(e) if isinstance(e, Variable) else e
                for e in elements], name="session")
        computed = iter(plan.run(values, self._values))
        results = iter([_fetched(constants[i] if i in constants else next(computed))
                        for i in range(len(flat))])
        return nest.pack_sequence_as(fetches, [_value(leaf, results) for leaf in leaves])

    def make_callable(self, fetches, feed_list=None, accept_options=False):
        """A function running `fetches` with positional values for the tensors of
        `feed_list`: `Session.run` without converting its arguments each time."""
        feed_list = list(feed_list or [])

        def call(*values):
            return self.run(fetches, feed_dict=dict(zip(feed_list, values)))
        return call

    def _element(self, fetch):
        if fetch is None:
            raise TypeError("Fetch argument None has invalid type <class 'NoneType'>: fetches "
                            "must be graph tensors, operations or variables (a gradient that "
                            "is None means the fetch does not depend on that variable).")
        if isinstance(fetch, (SymbolicTensor, Operation, str, GraphVariable)):
            try:
                return self._graph.as_graph_element(fetch)
            except ValueError as e:
                raise ValueError(f"Fetch argument {fetch!r} cannot be interpreted as a Tensor. "
                                 f"({e})") from None
        raise TypeError(f"Fetch argument {fetch!r} has invalid type {type(fetch).__name__}: it "
                        "must be a graph tensor, operation, variable or a name. (An eager "
                        "tensor is already a value and cannot be fetched from a graph.)")

    def _feeds(self, feed_dict) -> tuple:
        feeds, values = [], []
        for key, value in (feed_dict or {}).items():
            try:
                tensor = self._element(key)
            except KeyError as e:
                raise TypeError(f"Cannot interpret feed_dict key as Tensor: {e}") from None
            if not isinstance(tensor, SymbolicTensor):
                raise TypeError(f"Cannot feed {key!r}: only tensors can be fed.")
            feeds.append(tensor)
            values.append(_feed_value(tensor, value))
        return feeds, values

    def _load(self, variable, value) -> None:
        self._values.load(variable, _feed_value(variable, value))


def _value(fetch, results):
    """The fetched value of `fetch`, its components taken from the iterator `results`."""
    if isinstance(fetch, SparseTensor):
        return SparseTensorValue(next(results), next(results), next(results))
    if isinstance(fetch, IndexedSlices):
        return IndexedSlicesValue(next(results), next(results),
                                  next(results) if fetch.dense_shape is not None else None)
    return next(results)


def _feed_value(tensor, value) -> np.ndarray:
    dtype = tensor.dtype
    if isinstance(value, Tensor) and not isinstance(value, SymbolicTensor):
        value = value.numpy()
    try:
        array = array_from_python(value, dtype)
    except (TypeError, ValueError) as e:
        raise type(e)(f"Cannot feed value {value!r} to tensor {tensor.name!r} of dtype "
                      f"{dtype.name}: {e}") from None
    if not tensor.shape.is_compatible_with(array.shape):
        raise ValueError(f"Cannot feed value of shape {array.shape} for Tensor {tensor.name!r}, "
                         f"which has shape {tensor.shape}")
    return array


class _AsDefault:
    def __init__(self, session: Session) -> None:
        self._session = session

    def __enter__(self) -> Session:
        push_default_session(self._session)
        return self._session

    def __exit__(self, exc_type, exc, tb) -> None:
        remove_default_session(self._session)


class InteractiveSession(Session):
    """A Session that makes itself the default session when created (for shells).

    Example:
        >>> import tapeflow as tf
        >>> with tf.Graph().as_default():
        ...     sess = tf.compat.v1.InteractiveSession()
        ...     print(tf.constant(2.0).eval())
        ...     sess.close()
        2.0
    """

    def __init__(self, target: str = "", graph: Graph | None = None, config=None) -> None:
        super().__init__(target, graph, config)
        push_default_session(self)

    def close(self) -> None:
        remove_default_session(self)
        super().close()
