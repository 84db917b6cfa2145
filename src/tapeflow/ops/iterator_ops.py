"""Iterators over Python iterables (a `tf.data.Dataset`) made and read while a graph runs.

`AnonymousIterator` calls `iter(iterable)` each time it runs and outputs an int64 handle
naming the new iterator; `IteratorGetNext` takes the handle and outputs the next element,
flattened; `IteratorGetNextAsOptional` also takes a flag saying whether the next element is
wanted, and outputs `(has_value, *flat element)`. All are stateful (they act on Python state
outside the program), so a graph runs them even when nothing reads them, in the order they
were made.

An iterator is dropped when it ends, when the node that made it runs again, or when that
node's graph is freed (one `register`ed from outside: when its owner is freed); a dropped
iterator reads as ended.
"""
from __future__ import annotations

import itertools
import weakref

import numpy as np

from ..framework import errors
from ..framework.execute import execute
from ..framework.registry import OUTPUT, define_op, no_gradient
from ..framework.tensor import convert_to_tensor
from .op_util import value_of
from .type_spec import component_specs, element_components, element_from_components

__all__ = ["register", "make_iterator", "get_next", "get_next_as_optional"]

# The live iterators by handle.
_ITERATORS: dict = {}
_HANDLES = itertools.count(1)
_END = object()


class _Made:
    """The handle of the iterator one AnonymousIterator node made last (an attribute of
    the node, so each node holds at most one live iterator)."""

    __slots__ = ("last", "__weakref__")

    def __init__(self) -> None:
        self.last = [0]
        weakref.finalize(self, _drop_last, self.last)


def _drop_last(last: list) -> None:
    _ITERATORS.pop(last[0], None)


def _anonymous_iterator(*, iterable, made):
    _drop_last(made.last)
    handle = next(_HANDLES)
    _ITERATORS[handle] = iter(iterable)
    made.last[0] = handle
    return np.array(handle, dtype=np.int64)


class ElementError:
    """What a dataset yields in place of an element it failed to produce (a CSV record that
    does not parse, a map function that raised an op error): the iterator raises `error`
    for that element and goes on with the next one, as TF's do; `ignore_errors` drops it."""

    __slots__ = ("error",)

    def __init__(self, error: Exception) -> None:
        self.error = error


def raise_if_error(element):
    """`element`, or its error raised when it is an ElementError."""
    if type(element) is ElementError:
        raise element.error
    return element


def _next_flat(op_name: str, handle, Tout):
    """The iterator's next element as a list of arrays matching `Tout`, or None (and the
    iterator dropped) at its end."""
    handle = int(handle)
    element = next(_ITERATORS[handle], _END) if handle in _ITERATORS else _END
    if element is _END:
        _ITERATORS.pop(handle, None)
        return None
    raise_if_error(element)
    flat = [np.asarray(value_of(x)) for x in element_components(element)]
    if len(flat) != len(Tout):
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: an element of {len(flat)} component tensors does not "
            f"match the expected {len(Tout)}")
    for value, (dtype, dims) in zip(flat, Tout):
        if value.dtype != dtype or dims is not None and (len(value.shape) != len(dims) or any(
                d is not None and d != s for d, s in zip(dims, value.shape))):
            raise errors.InvalidArgumentError(
                None, op_name, f"{op_name}: an element of dtype {value.dtype} and shape "
                f"{value.shape} does not match the expected dtype {np.dtype(dtype)} and shape "
                f"{'<unknown>' if dims is None else tuple(dims)}")
    return flat


def _iterator_get_next(handle, *, Tout):
    flat = _next_flat("IteratorGetNext", handle, Tout)
    if flat is None:
        raise errors.OutOfRangeError(None, "IteratorGetNext", "End of sequence")
    return tuple(flat)


def _get_next_as_optional(handle, wanted, *, Tout):
    flat = _next_flat("IteratorGetNextAsOptional", handle, Tout) if wanted else None
    if flat is None:
        return (np.array(False),) + tuple(
            [np.zeros([0 if d is None else d for d in dims or ()], dtype) for dtype, dims in Tout])
    return (np.array(True),) + tuple(flat)


AnonymousIterator = define_op("AnonymousIterator", _anonymous_iterator, family=OUTPUT)
AnonymousIterator.shape_fn = lambda inputs, attrs: [(np.dtype(np.int64), ())]
no_gradient("AnonymousIterator")

IteratorGetNext = define_op("IteratorGetNext", _iterator_get_next, num_outputs=None,
                            family=OUTPUT)
IteratorGetNext.shape_fn = lambda inputs, attrs: list(attrs["Tout"])
no_gradient("IteratorGetNext")

IteratorGetNextAsOptional = define_op("IteratorGetNextAsOptional", _get_next_as_optional,
                                      num_outputs=None, family=OUTPUT)
IteratorGetNextAsOptional.shape_fn = lambda inputs, attrs: [(np.dtype(bool), ())] + list(
    attrs["Tout"])
no_gradient("IteratorGetNextAsOptional")


def _specs(element_spec) -> list:
    """(numpy dtype, dims or None) of each component tensor of an element of
    `element_spec` (composites stand for their components, None parts have none)."""
    return [(s.dtype.as_numpy_dtype, None if s.shape.rank is None else tuple(s.shape.as_list()))
            for s in component_specs(element_spec)]


def register(iterator, owner) -> int:
    """A handle naming the Python `iterator` (read by the ops), for as long as `owner`
    lives."""
    handle = next(_HANDLES)
    _ITERATORS[handle] = iterator
    weakref.finalize(owner, _ITERATORS.pop, handle, None)
    return handle


def make_iterator(iterable):
    """An int64 handle to a fresh iterator over `iterable`, made each time the op runs."""
    return execute(AnonymousIterator, (), {"iterable": iterable, "made": _Made()})


def get_next(handle, element_spec):
    """The iterator's next element, structured and shaped as `element_spec` (a structure of
    TypeSpecs: composites such as RaggedTensors and SparseTensors pass as their component
    tensors, None parts as nothing; None dims vary).

    Raises (when the op runs):
        OutOfRangeError: the iterator has ended.
        InvalidArgumentError: an element does not match `element_spec`.
    """
    flat = execute(IteratorGetNext, (handle,), {"Tout": _specs(element_spec)})
    return element_from_components(element_spec, list(flat))


def get_next_as_optional(handle, wanted, element_spec) -> tuple:
    """`(has_value, flat element)`: the iterator's next element as its component tensors
    (`element_from_components` rebuilds it), shaped by `element_spec`; `has_value` is False (and the parts empty) once the iterator has
    ended, or when `wanted` is False (then nothing is read).

    Raises (when the op runs):
        InvalidArgumentError: an element does not match `element_spec`.
    """
    outs = execute(IteratorGetNextAsOptional, (handle, convert_to_tensor(wanted)),
                   {"Tout": _specs(element_spec)})
    return outs[0], list(outs[1:])
