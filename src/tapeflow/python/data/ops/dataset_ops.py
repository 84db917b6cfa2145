"""`tensorflow.python.data.ops.dataset_ops`: TF's module of `tf.data.Dataset`, which TF's
class calls `DatasetV2` (and `Dataset`); here tapeflow's own Dataset and its iterator."""
from ....data.dataset_ops import Dataset, OwnedIterator

DatasetV2 = Dataset

__all__ = ["Dataset", "DatasetV2", "OwnedIterator"]
