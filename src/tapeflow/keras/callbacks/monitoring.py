"""Callbacks that watch the logs and act on training: EarlyStopping, ReduceLROnPlateau,
LearningRateScheduler and TerminateOnNaN."""
from __future__ import annotations

import math
import warnings

import numpy as np

from .base import Callback

__all__ = ["MonitorCallback", "EarlyStopping", "ReduceLROnPlateau", "LearningRateScheduler",
           "TerminateOnNaN"]

# Metrics that improve upwards; in 'auto' mode every other quantity is minimized.
_MAXIMIZED = ("acc", "accuracy", "auc", "precision", "recall")


class MonitorCallback(Callback):
    """Base of the callbacks that watch one log entry: which direction is better and by how
    much a value must beat the best to count as an improvement.

    Args:
        monitor: the log key to watch.
        mode: 'min', 'max', or 'auto' (max for accuracy, AUC, precision and recall, else
            min); another value warns and falls back to 'auto'.
        min_delta: the smallest change that counts as an improvement.
    """

    def __init__(self, monitor: str = "val_loss", mode: str = "auto",
                 min_delta: float = 0.0) -> None:
        super().__init__()
        if mode not in ("auto", "min", "max"):
            warnings.warn(f"{type(self).__name__} mode '{mode}' is unknown, fallback to auto "
                          "mode.", stacklevel=3)
            mode = "auto"
        self.monitor = monitor
        self.mode = mode
        maximize = mode == "max" or mode == "auto" \
            and monitor.removeprefix("val_").endswith(_MAXIMIZED)
        self.monitor_op = np.greater if maximize else np.less
        self.min_delta = abs(min_delta) if maximize else -abs(min_delta)
        self.best = None

    def _is_improvement(self, value, reference) -> bool:
        if reference is None:
            return True
        return bool(self.monitor_op(value - self.min_delta, reference))

    def _monitored(self, logs, what: str):
        """The monitored value in `logs`, or None with a warning naming what is skipped."""
        current = (logs or {}).get(self.monitor)
        if current is None:
            warnings.warn(f"{what} conditioned on metric `{self.monitor}` which is not "
                          f"available. Available metrics are: {','.join(logs or {})}",
                          stacklevel=3)
        return current


class EarlyStopping(MonitorCallback):
    """Stops training when a monitored quantity has stopped improving.

    Args:
        monitor: the log key to watch (default 'val_loss').
        min_delta: the smallest change that counts as an improvement.
        patience: epochs without improvement before stopping.
        mode: 'min', 'max', or 'auto' (max for accuracy and auc, else min).
        baseline: a value the quantity must beat for the patience count to reset.
        restore_best_weights: put back the weights of the best epoch when stopping.
        start_from_epoch: epochs to wait before watching.

    Example:
        >>> import tapeflow as tf
        >>> stop = tf.keras.callbacks.EarlyStopping(monitor="loss", patience=1)
        >>> stop.set_model(type("M", (), {"stop_training": False})())
        >>> stop.on_train_begin()
        >>> for epoch, loss in enumerate([1.0, 0.5, 0.6, 0.7]):
        ...     stop.on_epoch_end(epoch, {"loss": loss})
        ...     if stop.model.stop_training:
        ...         break
        >>> epoch
        2
    """

    def __init__(self, monitor: str = "val_loss", min_delta: float = 0.0, patience: int = 0,
                 verbose: int = 0, mode: str = "auto", baseline=None,
                 restore_best_weights: bool = False, start_from_epoch: int = 0) -> None:
        super().__init__(monitor, mode, min_delta)
        self.patience = patience
        self.verbose = verbose
        self.baseline = baseline
        self.restore_best_weights = restore_best_weights
        self.start_from_epoch = start_from_epoch
        self.wait = 0
        self.stopped_epoch = 0
        self.best_weights = None
        self.best_epoch = 0

    def on_train_begin(self, logs=None) -> None:
        self.wait = 0
        self.stopped_epoch = 0
        self.best = None
        self.best_weights = None
        self.best_epoch = 0

    def on_epoch_end(self, epoch, logs=None) -> None:
        current = self._monitored(logs, "Early stopping")
        if current is None or epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights = self.model.get_weights()
        self.wait += 1
        if self._is_improvement(current, self.best):
            self.best = current
            self.best_epoch = epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._is_improvement(current, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True
            if self.restore_best_weights and self.best_weights is not None:
                if self.verbose > 0:
                    print("Restoring model weights from the end of the best epoch: "
                          f"{self.best_epoch + 1}.")
                self.model.set_weights(self.best_weights)

    def on_train_end(self, logs=None) -> None:
        if self.stopped_epoch > 0 and self.verbose > 0:
            print(f"Epoch {self.stopped_epoch + 1}: early stopping")


class ReduceLROnPlateau(MonitorCallback):
    """Multiplies the learning rate by `factor` when the monitored quantity has not
    improved for `patience` epochs, then waits `cooldown` epochs before watching again;
    adds 'learning_rate' to each epoch's logs.

    Args:
        monitor: the log key to watch (default 'val_loss').
        factor: the multiplier, below 1.
        patience: epochs without improvement before a reduction.
        mode: 'min', 'max' or 'auto'.
        min_delta: the smallest change that counts as an improvement (1e-4).
        cooldown: epochs after a reduction during which nothing is counted.
        min_lr: the learning rate never goes below this.

    Raises:
        ValueError: `factor` >= 1.

    Example:
        >>> import tapeflow as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        >>> model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
        >>> reduce = tf.keras.callbacks.ReduceLROnPlateau("loss", factor=0.5, patience=1)
        >>> reduce.set_model(model)
        >>> reduce.on_train_begin()
        >>> for epoch, loss in enumerate([1.0, 1.0, 1.0]):
        ...     reduce.on_epoch_end(epoch, {"loss": loss})
        >>> round(float(model.optimizer.learning_rate), 4)
        0.025
    """

    def __init__(self, monitor: str = "val_loss", factor: float = 0.1, patience: int = 10,
                 verbose: int = 0, mode: str = "auto", min_delta: float = 1e-4,
                 cooldown: int = 0, min_lr: float = 0.0, **kwargs) -> None:
        super().__init__(monitor, mode, min_delta)
        if factor >= 1.0:
            raise ValueError("ReduceLROnPlateau does not support a factor >= 1.0. Received "
                             f"factor={factor}")
        self.factor = factor
        self.min_lr = min_lr
        self.patience = patience
        self.verbose = verbose
        self.cooldown = cooldown
        self.cooldown_counter = 0
        self.wait = 0

    def on_train_begin(self, logs=None) -> None:
        self.best = None
        self.cooldown_counter = 0
        self.wait = 0

    def in_cooldown(self) -> bool:
        return self.cooldown_counter > 0

    def on_epoch_end(self, epoch, logs=None) -> None:
        logs = logs if logs is not None else {}
        optimizer = self.model.optimizer
        logs["learning_rate"] = float(optimizer.learning_rate)
        current = self._monitored(logs, "Learning rate reduction")
        if current is None:
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self._is_improvement(current, self.best):
            self.best = current
            self.wait = 0
            return
        if self.in_cooldown():
            return
        self.wait += 1
        old_lr = float(optimizer.learning_rate)
        if self.wait >= self.patience and old_lr > np.float32(self.min_lr):
            new_lr = max(old_lr * self.factor, self.min_lr)
            optimizer.learning_rate = new_lr
            if self.verbose > 0:
                print(f"\nEpoch {epoch + 1}: ReduceLROnPlateau reducing learning rate to "
                      f"{new_lr}.")
            self.cooldown_counter = self.cooldown
            self.wait = 0


class LearningRateScheduler(Callback):
    """Sets the optimizer's learning rate at the start of each epoch to
    `schedule(epoch, current_rate)` (or `schedule(epoch)`); adds 'learning_rate' to each
    epoch's logs.

    Raises:
        ValueError: (at an epoch's start) the schedule returned something other than a float.

    Example:
        >>> import tapeflow as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        >>> model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
        >>> scheduler = tf.keras.callbacks.LearningRateScheduler(lambda epoch, lr: lr / 2)
        >>> scheduler.set_model(model)
        >>> scheduler.on_epoch_begin(0)
        >>> round(float(model.optimizer.learning_rate), 4)
        0.05
    """

    def __init__(self, schedule, verbose: int = 0) -> None:
        super().__init__()
        self.schedule = schedule
        self.verbose = verbose

    def on_epoch_begin(self, epoch, logs=None) -> None:
        optimizer = self.model.optimizer
        try:
            rate = self.schedule(epoch, float(optimizer.learning_rate))
        except TypeError:                     # a schedule of the epoch alone
            rate = self.schedule(epoch)
        if hasattr(rate, "numpy") and not isinstance(rate, (float, np.floating)):
            rate = rate.numpy()
        if not isinstance(rate, (float, np.floating)) and not (
                isinstance(rate, np.ndarray) and rate.ndim == 0 and rate.dtype.kind == "f"):
            raise ValueError(f"The output of the `schedule` function should be a float. Got: "
                             f"{rate}")
        optimizer.learning_rate = float(rate)
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate to "
                  f"{float(rate)}.")

    def on_epoch_end(self, epoch, logs=None) -> None:
        if logs is not None:
            logs["learning_rate"] = float(self.model.optimizer.learning_rate)


class TerminateOnNaN(Callback):
    """Stops training at the first batch whose loss is NaN or infinite.

    Example:
        >>> import tapeflow as tf
        >>> stop = tf.keras.callbacks.TerminateOnNaN()
        >>> stop.set_model(type("M", (), {"stop_training": False})())
        >>> stop.on_batch_end(3, {"loss": float("nan")})
        Batch 3: Invalid loss, terminating training
        >>> stop.model.stop_training
        True
    """

    def on_train_batch_end(self, batch, logs=None) -> None:
        loss = (logs or {}).get("loss")
        if loss is not None and not math.isfinite(float(loss)):
            print(f"Batch {batch}: Invalid loss, terminating training")
            self.model.stop_training = True
