"""tf.compat.v1.train: TF1's optimizers, learning-rate schedules, global step, Saver,
moving averages and monitored sessions with hooks (graph mode and eager)."""
from .optimizers import (AdadeltaOptimizer, AdagradOptimizer, AdamOptimizer, FtrlOptimizer,
                         GradientDescentOptimizer, MomentumOptimizer, Optimizer,
                         ProximalAdagradOptimizer, ProximalGradientDescentOptimizer,
                         RMSPropOptimizer)
from ...train.checkpoint import (Checkpoint, CheckpointManager, list_variables,
                                 load_variable)
from ...train.checkpoint_utils import (CheckpointOptions, NewCheckpointReader,
                                       checkpoints_iterator, load_checkpoint)
from ...train.cluster import ClusterSpec
from ...train.coordinator import Coordinator
from .monitored import (CheckpointSaverHook, ChiefSessionCreator, FeedFnHook, FinalOpsHook,
                        LoggingTensorHook, MonitoredSession, MonitoredTrainingSession,
                        NanLossDuringTrainingError, NanTensorHook, Scaffold, SecondOrStepTimer,
                        SingularMonitoredSession,
                        SessionRunArgs, SessionRunContext, SessionRunHook, SessionRunValues,
                        StopAtStepHook)
from .saver import (Saver, checkpoint_exists, generate_checkpoint_state_proto,
                    get_checkpoint_mtimes, get_checkpoint_state, latest_checkpoint,
                    remove_checkpoint, update_checkpoint_state)
from .schedules import (ExponentialMovingAverage, assert_global_step, cosine_decay,
                        cosine_decay_restarts, create_global_step, exponential_decay,
                        get_global_step, get_or_create_global_step, global_step,
                        inverse_time_decay, linear_cosine_decay,
                        natural_exp_decay, noisy_linear_cosine_decay, piecewise_constant,
                        piecewise_constant_decay, polynomial_decay)

from ...io import write_graph
from ...io.meta_graph import export_meta_graph, import_meta_graph

__all__ = ["export_meta_graph", "import_meta_graph", "write_graph",
           "Optimizer", "GradientDescentOptimizer", "MomentumOptimizer", "AdamOptimizer",
           "RMSPropOptimizer", "AdagradOptimizer", "AdadeltaOptimizer", "FtrlOptimizer",
           "ProximalGradientDescentOptimizer", "ProximalAdagradOptimizer",
           "ExponentialMovingAverage", "cosine_decay", "cosine_decay_restarts",
           "create_global_step", "exponential_decay", "get_global_step",
           "get_or_create_global_step", "inverse_time_decay", "linear_cosine_decay",
           "natural_exp_decay", "noisy_linear_cosine_decay", "piecewise_constant",
           "piecewise_constant_decay", "polynomial_decay", "CheckpointSaverHook",
           "ChiefSessionCreator", "LoggingTensorHook", "MonitoredSession",
           "MonitoredTrainingSession", "NanLossDuringTrainingError", "NanTensorHook", "Scaffold",
           "SecondOrStepTimer", "SessionRunArgs", "SessionRunContext", "SessionRunHook",
           "SessionRunValues", "StopAtStepHook", "Saver", "checkpoint_exists",
           "get_checkpoint_state", "latest_checkpoint", "Checkpoint", "CheckpointManager",
           "CheckpointOptions", "NewCheckpointReader", "checkpoints_iterator", "list_variables",
           "load_checkpoint", "load_variable", "FeedFnHook", "FinalOpsHook", "global_step",
           "assert_global_step", "ClusterSpec", "Coordinator", "get_checkpoint_mtimes",
           "remove_checkpoint", "generate_checkpoint_state_proto", "update_checkpoint_state",
           "SingularMonitoredSession"]


def __getattr__(name: str):
    # tf.train.Example and its parts (protobuf messages, built on first use)
    from ... import train
    if name in train._EXAMPLE_MESSAGES:
        return getattr(train, name)
    raise AttributeError(f"module 'tapeflow.compat.v1.train' has no attribute {name!r}")
