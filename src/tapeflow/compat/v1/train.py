"""tf.compat.v1.train: TF1's optimizers, learning-rate schedules, global step, Saver,
moving averages and monitored sessions with hooks (graph mode and eager)."""
from .optimizers import (AdadeltaOptimizer, AdagradOptimizer, AdamOptimizer, FtrlOptimizer,
                         GradientDescentOptimizer, MomentumOptimizer, Optimizer,
                         RMSPropOptimizer)
from .monitored import (CheckpointSaverHook, ChiefSessionCreator, LoggingTensorHook,
                        MonitoredSession, MonitoredTrainingSession, NanLossDuringTrainingError,
                        NanTensorHook, Scaffold, SecondOrStepTimer,
                        SessionRunArgs, SessionRunContext, SessionRunHook, SessionRunValues,
                        StopAtStepHook)
from .saver import Saver, checkpoint_exists, get_checkpoint_state, latest_checkpoint
from .schedules import (ExponentialMovingAverage, cosine_decay, cosine_decay_restarts,
                        create_global_step, exponential_decay, get_global_step,
                        get_or_create_global_step, inverse_time_decay, linear_cosine_decay,
                        natural_exp_decay, noisy_linear_cosine_decay, piecewise_constant,
                        piecewise_constant_decay, polynomial_decay)

__all__ = ["Optimizer", "GradientDescentOptimizer", "MomentumOptimizer", "AdamOptimizer",
           "RMSPropOptimizer", "AdagradOptimizer", "AdadeltaOptimizer", "FtrlOptimizer",
           "ExponentialMovingAverage", "cosine_decay", "cosine_decay_restarts",
           "create_global_step", "exponential_decay", "get_global_step",
           "get_or_create_global_step", "inverse_time_decay", "linear_cosine_decay",
           "natural_exp_decay", "noisy_linear_cosine_decay", "piecewise_constant",
           "piecewise_constant_decay", "polynomial_decay", "CheckpointSaverHook",
           "ChiefSessionCreator", "LoggingTensorHook", "MonitoredSession",
           "MonitoredTrainingSession", "NanLossDuringTrainingError", "NanTensorHook", "Scaffold",
           "SecondOrStepTimer", "SessionRunArgs", "SessionRunContext", "SessionRunHook",
           "SessionRunValues", "StopAtStepHook", "Saver", "checkpoint_exists",
           "get_checkpoint_state", "latest_checkpoint"]
