"""The Trackable base: an object that names the objects it depends on, so checkpoints
and SavedModels can walk from a root to every Variable (TF's object-based saving).

Every tapeflow object a checkpoint saves is one: Variables (leaves holding a value),
tf.Modules and Keras objects (`AutoTrackable`: attribute assignment tracks), the list and
dict wrappers, dataset iterators, random generators. A trackable says

- which objects it depends on, by edge name (`_trackable_children`; recorded with
  `_track_trackable`, looked up with `_lookup_dependency`);
- which tensors it saves itself (`_serialize_to_tensors` / `_restore_from_tensors`, or the
  legacy `_gather_saveables_for_checkpoint`).

A restore that reaches an object without a dependency it has values for leaves them in the
object's `_deferred_dependencies`; the dependency restores when it is tracked under that
name (`_handle_deferred_dependencies`), so values restored before their variables exist
take effect on creation.

Example:
    >>> from tapeflow.trackable.base import Trackable
    >>> import tapeflow as tf
    >>> parent = Trackable()
    >>> v = parent._track_trackable(tf.Variable(1.0), name="v")
    >>> list(parent._trackable_children())
    ['v']
    >>> parent._lookup_dependency("v") is v
    True
"""
from __future__ import annotations

import functools
import threading

__all__ = ["Trackable", "TrackableReference", "no_automatic_dependency_tracking",
           "CheckpointInitialValue", "CheckpointInitialValueCallable"]


# Held while a dependency is tracked and a held restore assigned to it, so a thread that
# tracks the same object (a replica of a strategy) does not go on before its value is in.
_TRACKING_LOCK = threading.RLock()


class TrackableReference:
    """A named edge of the object graph: `name` and the trackable it leads to (`ref`)."""

    __slots__ = ("_name", "_ref")

    def __init__(self, name: str, ref) -> None:
        self._name = name
        self._ref = ref

    @property
    def name(self) -> str:
        return self._name

    @property
    def ref(self):
        return self._ref

    def __iter__(self):
        return iter((self._name, self._ref))

    def __eq__(self, other) -> bool:
        return isinstance(other, TrackableReference) and self._name == other._name \
            and self._ref is other._ref

    def __hash__(self) -> int:
        return hash((self._name, id(self._ref)))

    def __repr__(self) -> str:
        return f"TrackableReference(name={self._name!r}, ref={self._ref!r})"


def no_automatic_dependency_tracking(method):
    """Decorator: attribute assignments inside `method` do not add dependencies.

    Example:
        >>> import tapeflow as tf
        >>> from tapeflow.trackable.base import no_automatic_dependency_tracking
        >>> class Holder(tf.Module):
        ...     @no_automatic_dependency_tracking
        ...     def keep(self, v):
        ...         self.untracked = v
        >>> h = Holder()
        >>> h.keep(tf.Variable(1.0))
        >>> list(h._trackable_children())
        []
    """
    @functools.wraps(method)
    def wrapped(self, *args, **kwargs):
        previous = getattr(self, "_self_setattr_tracking", True)
        object.__setattr__(self, "_self_setattr_tracking", False)
        try:
            return method(self, *args, **kwargs)
        finally:
            object.__setattr__(self, "_self_setattr_tracking", previous)
    return wrapped


class CheckpointInitialValue:
    """The value a restore holds for a variable being created (its initial value): the
    tensor, with the checkpoint position it came from (`checkpoint_position`)."""

    def __init__(self, checkpoint_position, shape=None) -> None:
        self._position = checkpoint_position
        self.wrapped_value = checkpoint_position.value_tensors()["VARIABLE_VALUE"]

    @property
    def checkpoint_position(self):
        return self._position

    def __array__(self, dtype=None, copy=None):
        import numpy as np
        return np.asarray(self.wrapped_value, dtype=dtype)


class CheckpointInitialValueCallable:
    """An initializer that returns the value a checkpoint holds for the variable being
    created, whatever shape and dtype it is asked for (they are checked when assigned)."""

    def __init__(self, checkpoint_position) -> None:
        self._position = checkpoint_position

    @property
    def checkpoint_position(self):
        return self._position

    def __call__(self, shape=None, dtype=None, **kwargs):
        return self._position.value_tensors()["VARIABLE_VALUE"]


class Trackable:
    """The base of every object a checkpoint can save (see the module docstring).

    Its state lives in attributes named `_self_*` made on first use
    (`_maybe_initialize_trackable`), so subclasses need not call `__init__`; a class with
    `__slots__` and no dependencies of its own (a Variable) never makes them.
    """

    __slots__ = ()

    def __new__(cls, *args, **kwargs):
        # `Trackable()` itself is an object with room for dependencies; subclasses decide
        # (a Variable's slots leave none).
        if cls is Trackable:
            return object.__new__(_PlainTrackable)
        # A `__new__` later in the MRO (a mixin's) gets the constructor's arguments, as it
        # would without Trackable in between; `object.__new__` takes none.
        following = super().__new__
        if following is object.__new__:
            return following(cls)
        return following(cls, *args, **kwargs)

    # -- the state ------------------------------------------------------------------------
    def _maybe_initialize_trackable(self) -> None:
        """Makes the dependency records on first use (idempotent)."""
        if "_self_unconditional_checkpoint_dependencies" in getattr(self, "__dict__", ()):
            return
        if not hasattr(self, "__dict__"):
            raise TypeError(f"{type(self).__name__} objects have no dependencies of their "
                            f"own (a leaf of the object graph).")
        setter = object.__setattr__
        setter(self, "_self_unconditional_checkpoint_dependencies", [])
        setter(self, "_self_unconditional_dependency_names", {})
        setter(self, "_self_unconditional_deferred_dependencies", {})
        setter(self, "_self_update_uid", -1)
        setter(self, "_self_name_based_restores", set())
        setter(self, "_self_saveable_object_factories", {})

    @property
    def _setattr_tracking(self) -> bool:
        return getattr(self, "_self_setattr_tracking", True)

    @_setattr_tracking.setter
    def _setattr_tracking(self, value: bool) -> None:
        object.__setattr__(self, "_self_setattr_tracking", value)

    @property
    def _update_uid(self) -> int:
        """The uid of the restore that last assigned to this object (-1 if none)."""
        return getattr(self, "_self_update_uid", -1)

    @_update_uid.setter
    def _update_uid(self, value: int) -> None:
        if hasattr(self, "__dict__"):
            object.__setattr__(self, "_self_update_uid", value)

    @property
    def _unconditional_checkpoint_dependencies(self) -> list:
        """The tracked edges, as TrackableReferences in the order they were added."""
        if not hasattr(self, "__dict__"):
            return []
        self._maybe_initialize_trackable()
        return self._self_unconditional_checkpoint_dependencies

    @property
    def _unconditional_dependency_names(self) -> dict:
        """{edge name: trackable} of the tracked edges."""
        if not hasattr(self, "__dict__"):
            return {}
        self._maybe_initialize_trackable()
        return self._self_unconditional_dependency_names

    @property
    def _deferred_dependencies(self) -> dict:
        """{edge name: [checkpoint positions]} a restore holds for dependencies this
        object does not have yet."""
        if not hasattr(self, "__dict__"):
            return {}
        self._maybe_initialize_trackable()
        return self._self_unconditional_deferred_dependencies

    @property
    def _checkpoint_dependencies(self) -> list:
        """The edges a checkpoint saves, as TrackableReferences."""
        return [TrackableReference(name, ref) for name, ref in self._trackable_children().items()]

    # -- edges ----------------------------------------------------------------------------
    def _trackable_children(self, save_type: str = "checkpoint", **kwargs) -> dict:
        """{edge name: trackable} this object depends on, in a stable order."""
        return {ref.name: ref.ref for ref in self._unconditional_checkpoint_dependencies}

    def _lookup_dependency(self, name: str, cached_dependencies=None):
        """The trackable under edge `name`, or None."""
        if cached_dependencies:
            return cached_dependencies.get(name)
        return self._unconditional_dependency_names.get(name)

    def _track_trackable(self, trackable, name: str, overwrite: bool = False):
        """Adds `trackable` as the dependency `name` and restores what a restore holds for
        that name; returns `trackable`.

        Raises:
            TypeError: `trackable` is not a Trackable.
            ValueError: another trackable has that name and `overwrite` is False.
        """
        self._maybe_initialize_trackable()
        if not isinstance(trackable, Trackable):
            raise TypeError(f"Trackable._track_trackable() can only be used to track objects "
                            f"of type Trackable. Got type {type(trackable)}.")
        with _TRACKING_LOCK:
            return self._track_locked(trackable, name, overwrite)

    def _track_locked(self, trackable, name: str, overwrite: bool):
        new_reference = TrackableReference(name, trackable)
        current = self._lookup_dependency(name)
        if current is not None and current is not trackable:
            if not overwrite:
                raise ValueError(f"Called Trackable._track_trackable() with name='{name}', "
                                 f"but a Trackable with this name is already declared as a "
                                 f"dependency. Names must be unique (or overwrite=True).")
            references = self._self_unconditional_checkpoint_dependencies
            for index, reference in enumerate(references):
                if reference.name == name:
                    references[index] = new_reference
        elif current is None:
            self._self_unconditional_checkpoint_dependencies.append(new_reference)
        self._self_unconditional_dependency_names[name] = trackable
        self._handle_deferred_dependencies(name=name, trackable=trackable)
        return trackable

    def _untrack(self, name: str) -> None:
        """Removes the dependency `name` (nothing when there is none)."""
        if name not in self._unconditional_dependency_names:
            return
        del self._self_unconditional_dependency_names[name]
        self._self_unconditional_checkpoint_dependencies[:] = [
            r for r in self._self_unconditional_checkpoint_dependencies if r.name != name]

    def _handle_deferred_dependencies(self, name: str, trackable) -> None:
        """Restores into `trackable` (now the dependency `name`) what restores held for
        that name, oldest restore first so the newest value wins."""
        if not self._deferred_dependencies:
            return
        with _TRACKING_LOCK:
            positions = self._deferred_dependencies.pop(name, None)
            for position in sorted(positions or (), key=lambda p: p.restore_uid):
                position.restore(trackable)

    def _add_variable_with_custom_getter(self, name: str, shape=None, dtype=None,
                                         initializer=None, getter=None, overwrite=False,
                                         **kwargs_for_getter):
        """Makes a variable with `getter(name=, shape=, dtype=, initializer=, ...)` and
        tracks it as `name`; a value a restore holds for it becomes its initial value.

        Raises:
            ValueError: a dependency `name` exists and `overwrite` is False.
        """
        self._maybe_initialize_trackable()
        if not overwrite and self._lookup_dependency(name) is not None:
            raise ValueError(f"A variable named '{name}' already exists. Use a different name "
                             f"or pass overwrite=True.")
        positions = self._deferred_dependencies.get(name)
        if positions and initializer is not None:
            newest = max(positions, key=lambda p: p.restore_uid)
            if newest.is_simple_variable():
                initializer = CheckpointInitialValueCallable(newest)
        variable = getter(name=name, shape=shape, dtype=dtype, initializer=initializer,
                          **kwargs_for_getter)
        if not overwrite or isinstance(variable, Trackable):
            return self._track_trackable(variable, name=name, overwrite=overwrite)
        return variable

    def _preload_simple_restoration(self, name: str):
        """The initializer a deferred restore holds for the dependency `name`, or None."""
        positions = self._deferred_dependencies.get(name)
        if not positions:
            return None
        newest = max(positions, key=lambda p: p.restore_uid)
        return CheckpointInitialValueCallable(newest) if newest.is_simple_variable() else None

    # -- saving ---------------------------------------------------------------------------
    def _serialize_to_tensors(self) -> dict:
        """{name: tensor} this object saves itself (keys `<path>/.ATTRIBUTES/<name>`); a
        value {suffix: tensor} saves one attribute as several tensors, at the attribute's key
        plus each suffix (a table's `table` as `table-keys` and `table-values`).

        Raises:
            NotImplementedError: the object saves no tensors of its own.
        """
        raise NotImplementedError

    def _restore_from_tensors(self, restored_tensors: dict):
        """Takes back what `_serialize_to_tensors` saved.

        Raises:
            NotImplementedError: the object saves no tensors of its own.
        """
        raise NotImplementedError

    def _gather_saveables_for_checkpoint(self) -> dict:
        """Legacy saving: {attribute name: saveable factory}; none by default."""
        return getattr(self, "_self_saveable_object_factories", {})

    def _saves_tensors(self) -> bool:
        """Whether this class saves tensors itself (`_serialize_to_tensors` overridden or
        legacy saveables)."""
        return type(self)._serialize_to_tensors is not Trackable._serialize_to_tensors \
            or bool(self._gather_saveables_for_checkpoint())

    def _copy_trackable_to_cpu(self, object_map: dict) -> None:
        """Puts a copy of this object, on the host, into `object_map[self]`.

        Raises:
            NotImplementedError: the class cannot be copied.
        """
        raise NotImplementedError(f"Need to implement _copy_trackable_to_cpu() if the "
                                  f"Trackable requires AsyncCheckpoint support (got "
                                  f"{type(self).__name__}).")

    def _default_save_signature(self):
        return None

    def _list_extra_dependencies_for_serialization(self, serialization_cache):
        return {}

    def _list_functions_for_serialization(self, serialization_cache):
        return {}


class _PlainTrackable(Trackable):
    """What `Trackable()` makes: a Trackable with an attribute dict."""


_PlainTrackable.__name__ = _PlainTrackable.__qualname__ = "Trackable"
