"""Distributed input: each worker's share of a dataset, and the InputContext."""
from __future__ import annotations

from ..framework import errors, nest
from ..framework.tensor import convert_to_tensor

__all__ = ["DistributedDataset", "DistributedIterator", "InputContext", "InputOptions",
           "ValueContext"]


class InputContext:
    """What an input function needs to know to read this worker's share.

    Args:
        num_input_pipelines: how many input pipelines (workers) there are.
        input_pipeline_id: this pipeline's index, in [0, num_input_pipelines).
        num_replicas_in_sync: how many replicas consume a global batch.

    Example:
        >>> import tapeflow as tf
        >>> context = tf.distribute.InputContext(num_input_pipelines=2, input_pipeline_id=1,
        ...                                      num_replicas_in_sync=2)
        >>> context.get_per_replica_batch_size(64)
        32
    """

    def __init__(self, num_input_pipelines=1, input_pipeline_id=0,
                 num_replicas_in_sync=1) -> None:
        self._num_input_pipelines = num_input_pipelines
        self._input_pipeline_id = input_pipeline_id
        self._num_replicas_in_sync = num_replicas_in_sync

    @property
    def num_input_pipelines(self) -> int:
        return self._num_input_pipelines

    @property
    def input_pipeline_id(self) -> int:
        return self._input_pipeline_id

    @property
    def num_replicas_in_sync(self) -> int:
        return self._num_replicas_in_sync

    def get_per_replica_batch_size(self, global_batch_size: int) -> int:
        """`global_batch_size` divided by the number of replicas.

        Raises:
            ValueError: it does not divide evenly.
        """
        if global_batch_size % self._num_replicas_in_sync:
            raise ValueError(f"The `global_batch_size` {global_batch_size} is not divisible "
                             f"by `num_replicas_in_sync` {self._num_replicas_in_sync}")
        return global_batch_size // self._num_replicas_in_sync

    def __repr__(self) -> str:
        return (f"tf.distribute.InputContext(input pipeline id {self._input_pipeline_id}, "
                f"total: {self._num_input_pipelines})")


class ValueContext:
    """What `experimental_distribute_values_from_function` tells its function: which
    replica the value is for.

    Example:
        >>> import tapeflow as tf
        >>> tf.distribute.experimental.ValueContext(1, 2).replica_id_in_sync_group
        1
    """

    def __init__(self, replica_id_in_sync_group=0, num_replicas_in_sync=1) -> None:
        self._replica_id_in_sync_group = replica_id_in_sync_group
        self._num_replicas_in_sync = num_replicas_in_sync

    @property
    def replica_id_in_sync_group(self) -> int:
        return self._replica_id_in_sync_group

    @property
    def num_replicas_in_sync(self) -> int:
        return self._num_replicas_in_sync


class InputOptions:
    """Options of the distributed datasets; accepted for compatibility (CPU only)."""

    def __init__(self, experimental_fetch_to_device=None,
                 experimental_replication_mode=None,
                 experimental_place_dataset_on_device=False,
                 experimental_per_replica_buffer_size=1) -> None:
        self.experimental_fetch_to_device = experimental_fetch_to_device
        self.experimental_replication_mode = experimental_replication_mode
        self.experimental_place_dataset_on_device = experimental_place_dataset_on_device
        self.experimental_per_replica_buffer_size = experimental_per_replica_buffer_size


def _part(length: int, rank: int, parts: int) -> slice:
    """Rows of part `rank` when `length` rows are cut into `parts` contiguous parts, the
    first `length % parts` parts one row longer (TF's rebatching)."""
    base, extra = divmod(length, parts)
    start = rank * base + min(rank, extra)
    return slice(start, start + base + (rank < extra))


class DistributedDataset:
    """This worker's batches: part `rank` of `parts` of each batch of `dataset`.

    Iterating gives tensors (the structure of each batch kept); iterating again restarts
    `dataset` when it can be iterated more than once.
    """

    def __init__(self, dataset, rank: int, parts: int, replicas: int = 1) -> None:
        self._dataset = dataset
        self._rank = rank
        self._parts = parts
        # Replicas of this process (threads): a batch gives a PerReplica of their parts.
        self._replicas = replicas

    def _share(self, batch):
        if self._replicas > 1:
            from .values import PerReplica
            return PerReplica([self._part_of(batch, self._rank + i)
                               for i in range(self._replicas)])
        return self._part_of(batch, self._rank)

    def _part_of(self, batch, rank: int):
        leaves = [leaf for leaf in nest.flatten(batch) if leaf is not None]
        rows = len(leaves[0]) if leaves else 0
        for leaf in leaves:
            if len(leaf) != rows:
                raise ValueError("experimental_distribute_dataset: every tensor of a batch "
                                 f"needs the same batch size, got {[len(x) for x in leaves]}")
        rows = _part(rows, rank, self._parts)
        return nest.map_structure(lambda x: None if x is None else convert_to_tensor(x[rows]),
                                  batch)

    def __iter__(self) -> "DistributedIterator":
        return DistributedIterator(self._share(batch) for batch in self._dataset)

    def __len__(self) -> int:
        return len(self._dataset)


class DistributedIterator:
    """An iterator over this worker's batches: `next(iterator)` or `iterator.get_next()`.

    Example:
        >>> import numpy as np
        >>> import tapeflow as tf
        >>> strategy = tf.distribute.MirroredStrategy()
        >>> iterator = iter(strategy.experimental_distribute_dataset([np.ones(2)]))
        >>> iterator.get_next().numpy()
        array([1., 1.])
    """

    def __init__(self, batches) -> None:
        self._batches = batches

    def __iter__(self) -> "DistributedIterator":
        return self

    def __next__(self):
        return next(self._batches)

    def get_next(self):
        """The next batch.

        Raises:
            OutOfRangeError: the dataset is exhausted (as TF's iterators raise).
        """
        try:
            return next(self._batches)
        except StopIteration:
            raise errors.OutOfRangeError(None, None, "End of sequence") from None
