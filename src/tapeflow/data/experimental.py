"""tf.data.experimental: the names TF kept there (`cardinality`, the constants, the CSV
readers, `ignore_errors`, the option groups and policies of `tf.data.Options`)."""
from __future__ import annotations

from ..framework.tensor import Tensor
from .dataset_ops import AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, Dataset
from .options import (AutoShardPolicy, AutotuneOptions, DistributeOptions, ExternalStatePolicy,
                      OptimizationOptions, ThreadingOptions)
from .text_readers import CsvDataset, make_csv_dataset

__all__ = ["AUTOTUNE", "AutoShardPolicy", "AutotuneOptions", "CsvDataset", "DistributeOptions",
           "ExternalStatePolicy", "INFINITE_CARDINALITY", "OptimizationOptions",
           "ThreadingOptions", "UNKNOWN_CARDINALITY", "cardinality", "ignore_errors",
           "make_csv_dataset"]


def cardinality(dataset: Dataset) -> Tensor:
    """`dataset.cardinality()`: its number of elements as an int64 scalar, -1 when infinite,
    -2 when unknown.

    Example:
        >>> import tapeflow as tf
        >>> int(tf.data.experimental.cardinality(tf.data.Dataset.range(4)))
        4
    """
    return dataset.cardinality()


def ignore_errors(log_warning=False):
    """A transformation for `Dataset.apply`: `dataset.ignore_errors(log_warning)`.

    Example:
        >>> import tapeflow as tf
        >>> ds = tf.data.Dataset.from_tensor_slices(["1", "x"]).map(tf.strings.to_number)
        >>> [float(x) for x in ds.apply(tf.data.experimental.ignore_errors())]
        [1.0]
    """
    return lambda dataset: dataset.ignore_errors(log_warning)
