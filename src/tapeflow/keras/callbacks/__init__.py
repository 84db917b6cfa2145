"""keras.callbacks: hooks `fit`, `evaluate` and `predict` call at each stage."""
from .base import Callback, CallbackList, History, LambdaCallback, ProgbarLogger, format_logs
from .checkpointing import BackupAndRestore, ModelCheckpoint
from .loggers import CSVLogger, TensorBoard
from .monitoring import EarlyStopping, LearningRateScheduler, ReduceLROnPlateau, TerminateOnNaN

__all__ = ["BackupAndRestore", "CSVLogger", "Callback", "CallbackList", "EarlyStopping",
           "History", "LambdaCallback", "LearningRateScheduler", "ModelCheckpoint",
           "ProgbarLogger", "ReduceLROnPlateau", "TensorBoard",
           "TerminateOnNaN"]
