"""tf.train: object-based checkpoints, reading them, and moving averages."""
from .checkpoint import (Checkpoint, CheckpointManager, get_checkpoint_state, latest_checkpoint,
                         list_variables, load_variable)
from .checkpoint_utils import CheckpointOptions, checkpoints_iterator, load_checkpoint
from .cluster import ClusterSpec
from .coordinator import Coordinator
from .object_graph import CheckpointView, TrackableView

__all__ = ["Checkpoint", "CheckpointManager", "CheckpointOptions", "CheckpointView",
           "ClusterSpec", "Coordinator", "TrackableView",
           "ExponentialMovingAverage",
           "checkpoints_iterator", "get_checkpoint_state", "latest_checkpoint",
           "list_variables", "load_checkpoint", "load_variable"]


# tf.train.Example and its parts: protobuf messages, built on first use (tapeflow.protos)
_EXAMPLE_MESSAGES = ("BytesList", "Example", "Feature", "FeatureList", "FeatureLists",
                     "Features", "FloatList", "Int64List", "SequenceExample")
__all__ += list(_EXAMPLE_MESSAGES)


def __getattr__(name: str):
    if name in _EXAMPLE_MESSAGES:
        from ..protos import example
        return example.messages()[name]
    # TF1's moving average (tf.train's is the same class) loads with compat.v1, on first use.
    if name == "ExponentialMovingAverage":
        from ..compat.v1.schedules import ExponentialMovingAverage
        return ExponentialMovingAverage
    raise AttributeError(f"module 'tapeflow.train' has no attribute {name!r}")
