"""`tensorflow.python.distribute.input_lib`: TF's module of the dataset a strategy
distributes, here tapeflow's own `DistributedDataset` and its iterator."""
from ...distribute.input_lib import DistributedDataset, DistributedIterator

__all__ = ["DistributedDataset", "DistributedIterator"]
