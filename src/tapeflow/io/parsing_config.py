"""The feature configurations of `tf.io.parse_example` and its relatives, TF's named
tuples: FixedLenFeature, FixedLenSequenceFeature, VarLenFeature, SparseFeature and
RaggedFeature (with its partitions RowSplits, RowLengths, RowStarts, RowLimits,
ValueRowIds, UniformRowLength).

Example:
    >>> import tapeflow as tf
    >>> tf.io.FixedLenFeature([2], tf.float32)
    FixedLenFeature(shape=[2], dtype=tf.float32, default_value=None)
"""
from __future__ import annotations

import collections

from ..framework import dtypes

__all__ = ["FixedLenFeature", "FixedLenSequenceFeature", "RaggedFeature", "SparseFeature",
           "VarLenFeature"]


class VarLenFeature(collections.namedtuple("VarLenFeature", ["dtype"])):
    """A feature of any number of values, parsed as a SparseTensor.

    Args:
        dtype: tf.float32, tf.int64 or tf.string.
    """


class FixedLenFeature(collections.namedtuple("FixedLenFeature",
                                             ["shape", "dtype", "default_value"])):
    """A feature of exactly `prod(shape)` values, parsed as a dense tensor of `shape`.

    Args:
        shape: the value's shape.
        dtype: tf.float32, tf.int64 or tf.string.
        default_value: used where the feature is missing (reshaped to `shape`); None makes
            the feature required.
    """

    def __new__(cls, shape, dtype, default_value=None):
        return super().__new__(cls, shape, dtype, default_value)


class FixedLenSequenceFeature(collections.namedtuple(
        "FixedLenSequenceFeature", ["shape", "dtype", "allow_missing", "default_value"])):
    """A feature of any number of rows of `shape`, parsed as a dense tensor padded to the
    longest (with `default_value`, else zeros or empty strings).

    Args:
        shape: one row's shape.
        dtype: tf.float32, tf.int64 or tf.string.
        allow_missing: whether a missing feature means no rows (required in Examples).
        default_value: the padding value, a scalar.
    """

    def __new__(cls, shape, dtype, allow_missing=False, default_value=None):
        return super().__new__(cls, shape, dtype, allow_missing, default_value)


class SparseFeature(collections.namedtuple(
        "SparseFeature", ["index_key", "value_key", "dtype", "size", "already_sorted"])):
    """A SparseTensor made of an index feature (or one per dimension) and a value feature.

    Args:
        index_key: the int64 feature(s) holding each value's index (a list for several
            dimensions).
        value_key: the feature holding the values.
        dtype: the values' dtype.
        size: the dense shape (an int, or a list for several dimensions).
        already_sorted: the indices are sorted (else they are sorted when parsed).
    """

    def __new__(cls, index_key, value_key, dtype, size, already_sorted=False):
        return super().__new__(cls, index_key, value_key, dtype, size, already_sorted)


class RaggedFeature(collections.namedtuple(
        "RaggedFeature", ["dtype", "value_key", "partitions", "row_splits_dtype",
                          "validate"])):
    """A feature parsed as a RaggedTensor: one row per example, partitioned further by the
    `partitions` (outermost first), each read from a feature of the example.

    Args:
        dtype: tf.float32, tf.int64 or tf.string.
        value_key: the feature holding the values (default: the key it is given under).
        partitions: RowSplits, RowLengths, RowStarts, RowLimits, ValueRowIds or
            UniformRowLength partitions.
        row_splits_dtype: tf.int32 or tf.int64.
        validate: check the partitions (they are always checked here).
    """

    RowSplits = collections.namedtuple("RowSplits", ["key"])
    RowLengths = collections.namedtuple("RowLengths", ["key"])
    RowStarts = collections.namedtuple("RowStarts", ["key"])
    RowLimits = collections.namedtuple("RowLimits", ["key"])
    ValueRowIds = collections.namedtuple("ValueRowIds", ["key"])
    UniformRowLength = collections.namedtuple("UniformRowLength", ["length"])

    def __new__(cls, dtype, value_key=None, partitions=(), row_splits_dtype=dtypes.int32,
                validate=False):
        return super().__new__(cls, dtype, value_key, tuple(partitions), row_splits_dtype,
                               validate)
