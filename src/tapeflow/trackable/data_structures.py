"""Trackable lists and dicts: what a list or dict assigned to an attribute of an
AutoTrackable (a tf.Module, a Keras object) becomes, so the trackables inside it are
dependencies under edge names "0", "1", ... (a list's indices) or the dict's keys.

Example:
    >>> import tapeflow as tf
    >>> from tapeflow.trackable import data_structures
    >>> m = tf.Module()
    >>> m.layers = [tf.Variable(1.0)]
    >>> type(m.layers).__name__, list(m.layers._trackable_children())
    ('ListWrapper', ['0'])
    >>> m.layers.append(tf.Variable(2.0))
    >>> list(m.layers._trackable_children())
    ['0', '1']
"""
from __future__ import annotations

import collections

from .base import Trackable

__all__ = ["NoDependency", "TrackableDataStructure", "ListWrapper", "_DictWrapper",
           "_TupleWrapper", "wrap_or_unwrap", "sticky_attribute_assignment", "List",
           "Mapping"]


class NoDependency:
    """Wraps a value assigned to an attribute so it is stored without being tracked.

    Example:
        >>> import tapeflow as tf
        >>> from tapeflow.trackable.data_structures import NoDependency
        >>> m = tf.Module()
        >>> m.plain = NoDependency([tf.Variable(1.0)])
        >>> type(m.plain).__name__, list(m._trackable_children())
        ('list', [])
    """

    __slots__ = ("value",)

    def __init__(self, value) -> None:
        self.value = value


def wrap_or_unwrap(value):
    """`value` as an attribute stores it: a plain list, dict or tuple (exactly those
    types) becomes its trackable wrapper, a NoDependency gives its value, anything else is
    itself."""
    if isinstance(value, NoDependency):
        return value.value
    if isinstance(value, Trackable):
        return value
    kind = type(value)
    if kind is dict or kind is collections.OrderedDict:
        return _DictWrapper(value)
    if kind is list:
        return ListWrapper(value)
    if isinstance(value, tuple) and _should_wrap_tuple(value):
        return _TupleWrapper(value)
    return value


def _should_wrap_tuple(value) -> bool:
    """A tuple is wrapped when something inside it is (or becomes) trackable."""
    for item in value:
        if isinstance(item, (Trackable, NoDependency)) or type(item) in (list, dict,
                                                                           collections.OrderedDict):
            return True
        if isinstance(item, tuple) and _should_wrap_tuple(item):
            return True
    return False


def sticky_attribute_assignment(trackable, name: str, value):
    """What `trackable.<name> = value` stores: `value` wrapped (lists, dicts, tuples),
    tracked as the dependency `name` when it is trackable (replacing an older one)."""
    add_dependency = not isinstance(value, NoDependency)
    value = wrap_or_unwrap(value)
    if add_dependency and isinstance(value, Trackable):
        trackable._track_trackable(value, name=name, overwrite=True)
    return value


class TrackableDataStructure(Trackable):
    """The base of the wrappers: a container whose trackable items are its dependencies."""

    __slots__ = ()

    def _track_value(self, value, name: str):
        """`value` wrapped for storing; a trackable one restores what a restore held for
        the edge `name`."""
        value = wrap_or_unwrap(value)
        if isinstance(value, Trackable) and hasattr(self, "__dict__"):
            self._handle_deferred_dependencies(name=name, trackable=value)
        return value

    def _trackable_children(self, save_type: str = "checkpoint", **kwargs) -> dict:
        return {name: value for name, value in self._items()
                if isinstance(value, Trackable)}

    def _lookup_dependency(self, name: str, cached_dependencies=None):
        if cached_dependencies:
            return cached_dependencies.get(name)
        return self._trackable_children().get(name)

    @property
    def trainable_weights(self) -> list:
        return [w for w in self._leaves() if getattr(w, "trainable", False)]

    @property
    def non_trainable_weights(self) -> list:
        return [w for w in self._leaves() if not getattr(w, "trainable", True)]

    @property
    def weights(self) -> list:
        return self.trainable_weights + self.non_trainable_weights

    variables = weights
    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights

    def _leaves(self):
        from ..framework.variables import Variable
        for _, value in self._items():
            if isinstance(value, Variable):
                yield value
            elif isinstance(value, TrackableDataStructure):
                yield from value._leaves()


class ListWrapper(TrackableDataStructure, list):
    """A list whose trackable items are dependencies named by their index.

    Args:
        wrapped_list: the items (copied; trackable lists and dicts inside are wrapped).
    """

    def __init__(self, wrapped_list=()) -> None:
        list.__init__(self, [wrap_or_unwrap(v) for v in wrapped_list])

    def _items(self):
        return ((str(i), v) for i, v in enumerate(list.__iter__(self)))

    def append(self, value) -> None:
        list.append(self, self._track_value(value, str(len(self))))

    def extend(self, values) -> None:
        for value in values:
            self.append(value)

    def __iadd__(self, values):
        self.extend(values)
        return self

    def insert(self, index, value) -> None:
        list.insert(self, index, wrap_or_unwrap(value))
        self._restore_all()

    def __setitem__(self, index, value) -> None:
        if isinstance(index, slice):
            list.__setitem__(self, index, [wrap_or_unwrap(v) for v in value])
            self._restore_all()
        else:
            position = index if index >= 0 else len(self) + index
            list.__setitem__(self, index, self._track_value(value, str(position)))

    def _restore_all(self) -> None:
        if getattr(self, "_self_unconditional_deferred_dependencies", None):
            for name, value in list(self._items()):
                if isinstance(value, Trackable):
                    self._handle_deferred_dependencies(name=name, trackable=value)

    def __copy__(self):
        return ListWrapper(list(self))

    def __deepcopy__(self, memo):
        import copy
        return ListWrapper(copy.deepcopy(list(self), memo))

    def __reduce_ex__(self, protocol):
        return (ListWrapper, (list(self),))

    def __eq__(self, other) -> bool:
        return list.__eq__(self, list(other) if isinstance(other, ListWrapper) else other)

    __hash__ = None

    def __repr__(self) -> str:
        return f"ListWrapper({list.__repr__(self)})"


List = ListWrapper


class _DictWrapper(TrackableDataStructure, dict):
    """A dict whose trackable values are dependencies named by their keys (str(key)).

    Args:
        wrapped_dict: the items (copied; lists and dicts inside are wrapped).
    """

    def __init__(self, wrapped_dict=None) -> None:
        dict.__init__(self, {k: wrap_or_unwrap(v) for k, v in dict(wrapped_dict or {}).items()})

    def _items(self):
        return ((str(k), v) for k, v in dict.items(self))

    def _trackable_children(self, save_type: str = "checkpoint", **kwargs) -> dict:
        """{key: trackable value}.

        Raises:
            ValueError: a key that is not a string maps to a trackable or a container.
        """
        for key, value in dict.items(self):
            if not isinstance(key, str) and isinstance(value, (Trackable, list, dict)):
                raise ValueError(
                    f"Unable to save the object {dict(self)!r} (a dictionary wrapper "
                    f"constructed automatically on attribute assignment). The wrapped "
                    f"dictionary contains a non-string key which maps to a trackable object "
                    f"or mutable data structure.\n\nIf you don't need this dictionary "
                    f"checkpointed, wrap it in a non-trackable object; it will be "
                    f"subsequently ignored.")
        return super()._trackable_children(save_type, **kwargs)

    def __setitem__(self, key, value) -> None:
        dict.__setitem__(self, key, self._track_value(value, str(key)))

    def update(self, *args, **kwargs) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def __copy__(self):
        return _DictWrapper(dict(self))

    def __deepcopy__(self, memo):
        import copy
        return _DictWrapper(copy.deepcopy(dict(self), memo))

    def __reduce_ex__(self, protocol):
        return (_DictWrapper, (dict(self),))

    __hash__ = None

    def __repr__(self) -> str:
        return f"DictWrapper({dict.__repr__(self)})"


Mapping = _DictWrapper


class _TupleWrapper(TrackableDataStructure, tuple):
    """A tuple holding trackables: they are dependencies named by index. It is a tuple
    (of the items, lists and dicts among them wrapped), and a wrapped namedtuple is an
    instance of its class too (a subclass made once per namedtuple class), so tf.nest and
    dm-tree take it as the (named) tuple it wraps and rebuild it the same way.

    Args:
        original_wrapped_tuple: the tuple (or namedtuple) wrapped.
    """

    def __new__(cls, original_wrapped_tuple=()):
        if not isinstance(original_wrapped_tuple, tuple):
            original_wrapped_tuple = tuple(original_wrapped_tuple)
        kind = type(original_wrapped_tuple)
        if hasattr(kind, "_fields") and not issubclass(kind, _TupleWrapper):
            cls = _namedtuple_wrapper(kind)
        items = (wrap_or_unwrap(v) for v in original_wrapped_tuple)
        return tuple.__new__(cls, items)

    def __init__(self, *args, **kwargs) -> None:
        pass

    def _items(self):
        return ((str(i), v) for i, v in enumerate(tuple.__iter__(self)))

    def __getnewargs__(self):
        return (tuple(self),)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        import copy
        return _TupleWrapper(copy.deepcopy(self.__wrapped__, memo))

    @property
    def __wrapped__(self):
        """The wrapped (named) tuple, of the items held."""
        kind = next(c for c in type(self).__mro__ if not issubclass(c, _TupleWrapper))
        return kind(*self) if hasattr(kind, "_fields") else tuple(self)

    def __reduce_ex__(self, protocol):
        original = self.__wrapped__
        return (_TupleWrapper, (original,)) if type(original) is not tuple \
            else (tuple, (tuple(self),))

    def __repr__(self) -> str:
        return f"_TupleWrapper({tuple(self)!r})"


_NAMEDTUPLE_WRAPPERS: dict = {}


def _namedtuple_wrapper(kind: type) -> type:
    """The _TupleWrapper subclass for namedtuples of class `kind` (made once): built from
    `kind`'s fields, as the namedtuple is, so rebuilding it field by field wraps again."""
    wrapper = _NAMEDTUPLE_WRAPPERS.get(kind)
    if wrapper is None:
        def __new__(cls, *args, **kwargs):
            return tuple.__new__(cls, (wrap_or_unwrap(v) for v in kind(*args, **kwargs)))
        wrapper = type("_TupleWrapper", (_TupleWrapper, kind),
                       {"__new__": __new__, "__slots__": (), "__module__": __name__,
                        "__qualname__": "_TupleWrapper", "__repr__": _TupleWrapper.__repr__})
        _NAMEDTUPLE_WRAPPERS[kind] = wrapper
    return wrapper
