"""tf.Module: a named container that finds the variables and modules in its attributes."""
from __future__ import annotations

import functools
import re

from .framework.graph import name_scope
from .framework.variables import Variable
from .trackable.autotrackable import AutoTrackable

__all__ = ["Module", "camel_to_snake", "tracked_leaves"]


def camel_to_snake(value: str) -> str:
    """'MyDenseLayer' -> 'my_dense_layer', as TF names modules and layers."""
    return re.sub(r"((?<=[a-z0-9])[A-Z]|(?!^)[A-Z](?=[a-z]))", r"_\1", value).lower()


def tracked_leaves(value, path: tuple = ()):
    """(path, leaf) pairs of a nested structure of lists, tuples and dicts (keys sorted)."""
    if isinstance(value, dict):
        for key in sorted(value, key=str):
            yield from tracked_leaves(value[key], path + (str(key),))
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            yield from tracked_leaves(item, path + (str(index),))
    else:
        yield path, value


class Module(AutoTrackable):
    """Base class for objects that own variables and other modules.

    Variables and modules stored as attributes, directly or inside lists, tuples and
    dicts, are found by `variables`, `trainable_variables` and `submodules` (the module's
    own attributes in sorted order first, then those of its submodules, each object once).
    A Module is an AutoTrackable: what is assigned to its attributes (lists and dicts
    becoming ListWrapper and _DictWrapper) are its checkpoint dependencies, and a variable
    assigned after `tf.train.Checkpoint.restore` held a value for it (restore before
    create) takes that value at once.

    Args:
        name: a valid Python identifier; defaults to the class name in snake case.

    Raises:
        ValueError: `name` is not a valid identifier.

    Example:
        >>> import tapeflow as tf
        >>> class Dense(tf.Module):
        ...     def __init__(self, n_in, n_out, name=None):
        ...         super().__init__(name=name)
        ...         self.w = tf.Variable(tf.ones([n_in, n_out]), name="w")
        ...         self.b = tf.Variable(tf.zeros([n_out]), name="b")
        ...     def __call__(self, x):
        ...         return tf.matmul(x, self.w) + self.b
        >>> class Net(tf.Module):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.layers = [Dense(3, 2), Dense(2, 1)]
        >>> net = Net()
        >>> net.name, len(net.trainable_variables), len(net.submodules)
        ('net', 4, 2)
    """

    # Attributes the traversal skips (subclasses extend the set, as TF's Keras does).
    _TF_MODULE_IGNORED_PROPERTIES = frozenset(("_self_unconditional_checkpoint_dependencies",
                                               "_self_unconditional_dependency_names"))

    def __init__(self, name: str | None = None) -> None:
        if name is None:
            name = camel_to_snake(type(self).__name__)
        elif not str(name).isidentifier():
            raise ValueError(f"{name!r} is not a valid module name. Module names must be valid "
                             "Python 3 identifiers.")
        self._name = str(name)
        # The scope opened now, made unique in a graph, under the scope around the module;
        # its full name ("outer/name/") is what every later entry of `name_scope` opens.
        with name_scope(self._name) as scope_name:
            self._name_scope = name_scope(scope_name)

    def __setattr__(self, name: str, value) -> None:
        # The attributes traversals skip are not dependencies either.
        if name in self._TF_MODULE_IGNORED_PROPERTIES:
            object.__setattr__(self, name, value)
        else:
            super().__setattr__(name, value)

    @property
    def name(self) -> str:
        """The module's name."""
        return self._name

    @property
    def name_scope(self) -> name_scope:
        """The module's name scope, a `tf.name_scope` that may be entered again and again
        (nested too); its `.name` is the full scope with a trailing '/' ('outer/name/')."""
        return self._name_scope

    @property
    def variables(self) -> tuple:
        """Every Variable owned by this module and its submodules."""
        return tuple(self._flatten(predicate=_is_variable))

    @property
    def trainable_variables(self) -> tuple:
        """The trainable Variables owned by this module and its submodules."""
        return tuple(self._flatten(predicate=lambda v: _is_variable(v) and v.trainable))

    @property
    def non_trainable_variables(self) -> tuple:
        """The non-trainable Variables owned by this module and its submodules."""
        return tuple(self._flatten(predicate=lambda v: _is_variable(v) and not v.trainable))

    @property
    def submodules(self) -> tuple:
        """Every module reachable from this one's attributes, this one excluded."""
        return tuple(self._flatten(predicate=_is_module))

    def _tracked_attributes(self) -> list:
        """(name, value) of the attributes traversals look at, in assignment order."""
        ignored = self._TF_MODULE_IGNORED_PROPERTIES
        return [(k, v) for k, v in vars(self).items()
                if k not in ignored and not k.startswith("_self_")]

    def _flatten(self, recursive: bool = True, predicate=None, with_path: bool = False):
        """Yields the leaves of this module's attributes that satisfy `predicate`.

        A module's own attributes (sorted by name) come before those of its submodules.
        With `with_path`, yields `(path, leaf)` where path is a tuple of attribute names
        and indices.
        """
        return _flatten_module(self, recursive, predicate or (lambda _: True), with_path,
                               (), {id(self)})

    @classmethod
    def with_name_scope(cls, method):
        """Decorator running `method` inside the module's name scope.

        Example:
            >>> import tapeflow as tf
            >>> class Scale(tf.Module):
            ...     @tf.Module.with_name_scope
            ...     def __call__(self, x):
            ...         return 2.0 * x
            >>> float(Scale()(tf.constant(1.5)))
            3.0
        """
        @functools.wraps(method)
        def wrapped(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)
        return wrapped

    def __repr__(self) -> str:
        return f"<{type(self).__module__}.{type(self).__name__} object named {self._name!r}>"


def _flatten_module(module, recursive, predicate, with_path, module_path, seen):
    submodules = []
    for key, value in sorted(module._tracked_attributes(), key=lambda kv: kv[0]):
        for leaf_path, leaf in tracked_leaves(value, (key,)):
            if id(leaf) in seen:
                continue
            seen.add(id(leaf))
            if predicate(leaf):
                yield (module_path + leaf_path, leaf) if with_path else leaf
            if recursive and _is_module(leaf):
                submodules.append((module_path + leaf_path, leaf))
    for path, submodule in submodules:
        yield from _flatten_module(submodule, recursive, predicate, with_path, path, seen)


def _is_variable(x) -> bool:
    return isinstance(x, Variable)


def _is_module(x) -> bool:
    return isinstance(x, Module)
