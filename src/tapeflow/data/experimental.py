"""tf.data.experimental: the names TF kept there (`cardinality`, the constants, the option
groups and policies of `tf.data.Options`)."""
from __future__ import annotations

from ..framework.tensor import Tensor
from .dataset_ops import AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, Dataset
from .options import (AutoShardPolicy, AutotuneOptions, DistributeOptions, ExternalStatePolicy,
                      OptimizationOptions, ThreadingOptions)

__all__ = ["AUTOTUNE", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "AutoShardPolicy",
           "AutotuneOptions", "DistributeOptions", "ExternalStatePolicy", "OptimizationOptions",
           "ThreadingOptions", "cardinality"]


def cardinality(dataset: Dataset) -> Tensor:
    """`dataset.cardinality()`: its number of elements as an int64 scalar, -1 when infinite,
    -2 when unknown.

    Example:
        >>> import tapeflow as tf
        >>> int(tf.data.experimental.cardinality(tf.data.Dataset.range(4)))
        4
    """
    return dataset.cardinality()
