"""tf.data: input pipelines. `Dataset` builds a lazy, streaming sequence of elements from
tensors, generators or ranges and transforms it (map, filter, batch, shuffle, repeat...)."""
from . import experimental
from .batching import DatasetSpec
from .dataset_ops import (AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, Dataset,
                          OwnedIterator as Iterator)
from .options import Options, ThreadingOptions
from .readers import FixedLengthRecordDataset, TextLineDataset, TFRecordDataset

__all__ = ["AUTOTUNE", "Dataset", "DatasetSpec", "FixedLengthRecordDataset",
           "INFINITE_CARDINALITY", "Iterator", "Options", "TFRecordDataset", "TextLineDataset",
           "ThreadingOptions", "UNKNOWN_CARDINALITY", "experimental"]
