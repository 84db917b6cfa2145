"""tf.compat.v1.train: TF1's optimizers, learning-rate schedules, global step, Saver,
moving averages and monitored sessions with hooks (graph mode and eager)."""
from .optimizers import (AdadeltaOptimizer, AdagradOptimizer, AdamOptimizer, FtrlOptimizer,
                         GradientDescentOptimizer, MomentumOptimizer, Optimizer,
                         RMSPropOptimizer)

__all__ = ["Optimizer", "GradientDescentOptimizer", "MomentumOptimizer", "AdamOptimizer",
           "RMSPropOptimizer", "AdagradOptimizer", "AdadeltaOptimizer", "FtrlOptimizer"]
