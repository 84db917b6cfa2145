"""Iterators over Python iterables (a `tf.data.Dataset`) made and read while a graph runs.

`AnonymousIterator` calls `iter(iterable)` each time it runs and outputs an int64 handle
naming the new iterator; `IteratorGetNextAsOptional` takes the handle and a flag saying
whether the next element is wanted, and outputs `(has_value, *flat element)`. Both are
stateful (they act on Python state outside the program), so a graph runs them even when
nothing reads them, in the order they were made. An iterator is dropped when it ends or when
its reader is told no more elements are wanted.
"""
from __future__ import annotations

import itertools

import numpy as np

from ..framework import errors, nest
from ..framework.execute import execute
from ..framework.registry import OUTPUT, define_op, no_gradient
from ..framework.tensor import convert_to_tensor
from .op_util import value_of

__all__ = ["make_iterator", "get_next_as_optional"]

# The live iterators by handle.
_ITERATORS: dict = {}
_HANDLES = itertools.count(1)
_END = object()


def _anonymous_iterator(*, iterable):
    handle = next(_HANDLES)
    _ITERATORS[handle] = iter(iterable)
    return np.array(handle, dtype=np.int64)


def _empty(dtype, dims) -> np.ndarray:
    return np.zeros([0 if d is None else d for d in dims], dtype)


def _get_next_as_optional(handle, wanted, *, Tout):
    handle = int(handle)
    if handle not in _ITERATORS:
        raise errors.FailedPreconditionError(
            None, None, "IteratorGetNextAsOptional: the iterator has ended or was never made")
    element = next(_ITERATORS[handle], _END) if wanted else _END
    if element is _END:
        del _ITERATORS[handle]
        return (np.array(False),) + tuple([_empty(dtype, dims) for dtype, dims in Tout])
    flat = [np.asarray(value_of(x)) for x in nest.flatten(element)]
    for value, (dtype, dims) in zip(flat, Tout):
        if value.dtype != dtype or len(value.shape) != len(dims) or any(
                d is not None and d != s for d, s in zip(dims, value.shape)):
            raise errors.InvalidArgumentError(
                None, None, f"IteratorGetNextAsOptional: an element of dtype {value.dtype} and "
                f"shape {value.shape} does not match the expected dtype {np.dtype(dtype)} and "
                f"shape {tuple(dims)}")
    return (np.array(True),) + tuple(flat)


AnonymousIterator = define_op("AnonymousIterator", _anonymous_iterator, family=OUTPUT)
AnonymousIterator.shape_fn = lambda inputs, attrs: [(np.dtype(np.int64), ())]
no_gradient("AnonymousIterator")

IteratorGetNextAsOptional = define_op("IteratorGetNextAsOptional", _get_next_as_optional,
                                      num_outputs=None, family=OUTPUT)
IteratorGetNextAsOptional.shape_fn = lambda inputs, attrs: [(np.dtype(bool), ())] + list(
    attrs["Tout"])
no_gradient("IteratorGetNextAsOptional")


def make_iterator(iterable):
    """An int64 handle to a fresh iterator over `iterable`, made each time the op runs."""
    return execute(AnonymousIterator, (), {"iterable": iterable})


def get_next_as_optional(handle, wanted, specs: list) -> tuple:
    """`(has_value, flat element)`: the iterator's next element, flattened, whose parts have
    the (numpy dtype, dims) of `specs` (None dims vary); `has_value` is False (and the parts
    empty) once the iterator has ended or when `wanted` is False, which drops the iterator.

    Raises (when the op runs):
        FailedPreconditionError: the iterator was dropped already.
        InvalidArgumentError: an element does not match `specs`.
    """
    outs = execute(IteratorGetNextAsOptional, (handle, convert_to_tensor(wanted)),
                   {"Tout": [(np.dtype(d), tuple(dims)) for d, dims in specs]})
    return outs[0], list(outs[1:])
