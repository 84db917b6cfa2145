"""The ragged versions of `tf.strings` ops, registered through the one dispatch mechanism
(`ops/dispatch.py`). The elementwise string ops (length, lower, regex_replace,
to_hash_bucket_fast, ...) are registered as unary elementwise APIs where they are defined
and act on the flat values; here are the others: `join` of ragged and dense operands,
`reduce_join` over ragged rows, `ngrams` over the innermost ragged rows, and the splitting
ops (`split`, `bytes_split`, `unicode_decode`, `unicode_split` and their `_with_offsets`
forms), whose results have one more ragged dimension than their input."""
from __future__ import annotations

import inspect
import typing

from ...framework.execute import execute
from ...framework.tensor import convert_to_tensor
from .. import array_ops, creation_ops, reduction_ops, string_ops, unicode_ops
from ..dispatch import NOT_SUPPORTED, dispatch_for_api
from ..string_util import string_input
from . import ragged_ops
from .ragged_dispatch import RaggedOrDense, _dense_against
from .ragged_tensor import RaggedTensor


@dispatch_for_api(string_ops.join, {"inputs": typing.List[RaggedOrDense]})
def ragged_join(inputs, separator="", name=None):
    """Elementwise join with RaggedTensor operands of one partition (dense ones broadcast to
    their rows)."""
    ragged = [v for v in inputs if isinstance(v, RaggedTensor)]
    if not ragged:
        return NOT_SUPPORTED
    first = ragged[0]
    for other in ragged[1:]:
        ragged_ops.same_partition("join", first, other)
    flat = []
    for v in inputs:
        if isinstance(v, RaggedTensor):
            flat.append(v.flat_values)
        else:
            t = convert_to_tensor(v)
            flat.append(t if t.shape.rank == 0 else _dense_against(first, t))
    return first.with_flat_values(string_ops.join(flat, separator=separator))


def _join_rows(rt, axis: int, separator):
    """`rt` joined over one `axis` (>= 0)."""
    if not isinstance(rt, RaggedTensor):
        return string_ops.reduce_join(rt, axis=axis, separator=separator)
    if axis == 0 and not isinstance(rt.values, RaggedTensor):
        lengths = rt.row_lengths()
        ncols = reduction_ops.reduce_max(array_ops.concat(
            [creation_ops.zeros([1], lengths.dtype), lengths], 0))
        return string_ops.unsorted_segment_join(rt.values, rt._positions_in_rows(), ncols,
                                                separator=separator)
    if axis == 1 and not isinstance(rt.values, RaggedTensor):
        return string_ops.unsorted_segment_join(rt.values, rt.value_rowids(), rt.nrows(),
                                                separator=separator)
    if axis == 0:
        raise ValueError("reduce_join of a RaggedTensor over axis 0 needs a rank-2 input")
    return rt.with_values(_join_rows(rt.values, axis - 1, separator))


@dispatch_for_api(string_ops.reduce_join, {"inputs": RaggedTensor})
def ragged_reduce_join(inputs, axis=None, keepdims=False, separator="", name=None):
    """The strings of ragged rows joined with `separator` over `axis` (None: all)."""
    rt = inputs
    if axis is None:
        return string_ops.reduce_join(rt.flat_values, separator=separator, keepdims=False)
    rank = rt.shape.rank
    axes = [axis] if isinstance(axis, int) else list(axis)
    for a in axes:
        if not -rank <= a < rank:
            raise ValueError(f"reduce_join: axis={a} out of bounds: expected {-rank}<=axis<"
                             f"{rank}")
    result = rt
    for a in sorted({int(a) % rank for a in axes}, reverse=True):
        result = _join_rows(result, a, separator)
        if keepdims:
            result = array_ops.expand_dims(result, a)
    return result


def _ngrams_of_rows(rt, attrs: dict):
    if isinstance(rt.values, RaggedTensor):
        return rt.with_values(_ngrams_of_rows(rt.values, attrs))
    values = string_input("StringNGrams", rt.values)
    if values.shape.rank != 1:
        return rt.with_values(string_ops.ngrams(values, **_public(attrs)))
    grams, splits = execute(string_ops.StringNGrams, (values, rt.row_splits), attrs)
    return RaggedTensor.from_row_splits(grams, splits, validate=False)


def _public(attrs: dict) -> dict:
    pad = None if attrs["pad_left"] is None else (attrs["pad_left"], attrs["pad_right"])
    return {"ngram_width": attrs["widths"], "separator": attrs["separator"],
            "pad_values": pad, "padding_width": attrs["padding_width"],
            "preserve_short_sequences": attrs["preserve_short_sequences"]}


@dispatch_for_api(string_ops.ngrams, {"data": RaggedTensor})
def ragged_ngrams(data, ngram_width, separator=" ", pad_values=None, padding_width=None,
                  preserve_short_sequences=False, name=None):
    """The n-grams of each innermost ragged row."""
    return _ngrams_of_rows(data, string_ops.ngram_attrs(
        ngram_width, separator, pad_values, padding_width, preserve_short_sequences))


def _splitting(api):
    """`api` (one string in, ragged rows out) applied to a RaggedTensor's flat values: one
    more ragged dimension; a tuple result (the `_with_offsets` forms) part by part."""
    def ragged_version(input, *args, **kwargs):  # noqa: A002 (TF's name)
        result = api(input.flat_values, *args, **kwargs)
        if isinstance(result, tuple):
            return tuple(input.with_flat_values(r) for r in result)
        return input.with_flat_values(result)
    ragged_version.__name__ = f"ragged_{api.__name__}"
    ragged_version.__signature__ = inspect.signature(api)  # the API's, as dispatch requires
    dispatch_for_api(api, {"input": RaggedTensor})(ragged_version)
    return ragged_version


for _api in (string_ops.split, string_ops.bytes_split, unicode_ops.unicode_decode,
             unicode_ops.unicode_decode_with_offsets, unicode_ops.unicode_split,
             unicode_ops.unicode_split_with_offsets):
    _splitting(_api)
