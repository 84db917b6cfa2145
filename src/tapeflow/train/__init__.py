"""tf.train: object-based checkpoints."""
from .checkpoint import (Checkpoint, CheckpointManager, get_checkpoint_state, latest_checkpoint,
                         list_variables, load_variable)

__all__ = ["Checkpoint", "CheckpointManager", "get_checkpoint_state", "latest_checkpoint",
           "list_variables", "load_variable"]
