"""Callbacks that save training state: ModelCheckpoint and BackupAndRestore.

Both write Keras 3 files (`.keras`, `.weights.h5`) through `Model.save` and
`Model.save_weights`, which replace files atomically.
"""
from __future__ import annotations

import json
import os
import shutil
import warnings

from ...train.checkpoint import atomic_write
from .. import distribution
from .base import Callback
from .monitoring import MonitorCallback

__all__ = ["ModelCheckpoint", "BackupAndRestore"]


def _check_save_freq(save_freq) -> None:
    if save_freq != "epoch" and not (isinstance(save_freq, int) and save_freq > 0):
        raise ValueError(f"Unrecognized save_freq: {save_freq}. Expected save_freq are "
                         "'epoch' or integer values")


class _BatchCounter:
    """Counts training batches across epochs; `due()` is true every `every` batches."""

    def __init__(self, every) -> None:
        self.every = every
        self.seen = 0

    def due(self) -> bool:
        if self.every == "epoch":
            return False
        self.seen += 1
        if self.seen >= self.every:
            self.seen = 0
            return True
        return False


class ModelCheckpoint(MonitorCallback):
    """Saves the model (or its weights) during training, every epoch or every `save_freq`
    batches, optionally only when the monitored quantity improves.

    Args:
        filepath: where to save; formatted with `epoch` (counting from 1), `batch` and the
            logs, e.g. 'ckpt/{epoch:02d}-{val_loss:.2f}.keras'. Must end in '.keras', or in
            '.weights.h5' with `save_weights_only`.
        monitor: the log key `save_best_only` and `mode` look at (default 'val_loss').
        verbose: 1 prints a line per save.
        save_best_only: save only when `monitor` improves on the best so far.
        save_weights_only: `model.save_weights` instead of `model.save`.
        mode: 'auto', 'min' or 'max'.
        save_freq: 'epoch' or a number of batches.
        initial_value_threshold: the value `monitor` must beat for the first save.

    Raises:
        ValueError: a filepath with the wrong extension, or a bad `save_freq`.

    Example:
        >>> import os, tempfile
        >>> import numpy as np
        >>> import tapeflow as tf
        >>> directory = tempfile.mkdtemp()
        >>> model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
        >>> model.compile(optimizer="sgd", loss="mse")
        >>> save = tf.keras.callbacks.ModelCheckpoint(
        ...     os.path.join(directory, "{epoch:02d}-{loss:.1f}.weights.h5"),
        ...     save_weights_only=True)
        >>> _ = model.fit(np.zeros((4, 2)), np.zeros((4, 1)), epochs=2, verbose=0,
        ...               callbacks=[save])
        >>> sorted(os.listdir(directory))
        ['01-0.0.weights.h5', '02-0.0.weights.h5']
    """

    def __init__(self, filepath, monitor: str = "val_loss", verbose: int = 0,
                 save_best_only: bool = False, save_weights_only: bool = False,
                 mode: str = "auto", save_freq="epoch", initial_value_threshold=None) -> None:
        super().__init__(monitor, mode)
        self.filepath = os.fspath(filepath)
        if save_weights_only and not self.filepath.endswith(".weights.h5"):
            raise ValueError("When using `save_weights_only=True` in `ModelCheckpoint`, the "
                             "filepath provided must end in `.weights.h5` (Keras weights "
                             f"format). Received: filepath={self.filepath}")
        if not save_weights_only and not self.filepath.endswith(".keras"):
            raise ValueError("The filepath provided must end in `.keras` (Keras model "
                             f"format). Received: filepath={self.filepath}")
        _check_save_freq(save_freq)
        self.verbose = verbose
        self.save_best_only = save_best_only
        self.save_weights_only = save_weights_only
        self.save_freq = save_freq
        self.best = initial_value_threshold
        self._batches = _BatchCounter(save_freq)
        self._current_epoch = 0

    def on_epoch_begin(self, epoch, logs=None) -> None:
        self._current_epoch = epoch

    def on_train_batch_end(self, batch, logs=None) -> None:
        if self._batches.due():
            self._save(self._current_epoch, batch, logs or {})

    def on_epoch_end(self, epoch, logs=None) -> None:
        if self.save_freq == "epoch":
            self._save(epoch, None, logs or {})

    def _file_path(self, epoch: int, batch, logs: dict) -> str:
        try:
            if batch is None or "batch" in logs:
                return self.filepath.format(epoch=epoch + 1, **logs)
            return self.filepath.format(epoch=epoch + 1, batch=batch + 1, **logs)
        except KeyError as error:
            raise KeyError(f'Failed to format this callback filepath: "{self.filepath}". '
                           f"Reason: {error}") from error

    def _save(self, epoch: int, batch, logs: dict) -> None:
        filepath = self._file_path(epoch, batch, logs)
        if self.save_best_only:
            current = logs.get(self.monitor)
            if current is None:
                warnings.warn(f"Can save best model only with {self.monitor} available, "
                              "skipping.", stacklevel=2)
                return
            if not self._is_improvement(current, self.best):
                if self.verbose > 0:
                    print(f"\nEpoch {epoch + 1}: {self.monitor} did not improve from "
                          f"{self.best:.5f}")
                return
            if self.verbose > 0:
                previous = "inf" if self.best is None else f"{self.best:.5f}"
                print(f"\nEpoch {epoch + 1}: {self.monitor} improved from {previous} to "
                      f"{current:.5f}, saving model to {filepath}")
            self.best = current
        elif self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: saving model to {filepath}")
        if not distribution.writes_files(self.model):  # under a strategy the chief writes
            return
        if self.save_weights_only:
            self.model.save_weights(filepath, overwrite=True)
        else:
            self.model.save(filepath, overwrite=True)


class BackupAndRestore(Callback):
    """Backs training up to `backup_dir` (the weights with the optimizer's state, and the
    epoch reached) so that `fit` run again after an interruption resumes from the last
    completed epoch instead of starting over. The backup is deleted when training ends
    (unless `delete_checkpoint=False`).

    Args:
        backup_dir: a directory for this training run only.
        save_freq: 'epoch', or a number of batches between backups.
        double_checkpoint: keep the previous backup too, and fall back to it when the last
            one cannot be read.
        delete_checkpoint: remove `backup_dir` at the end of training.

    Raises:
        ValueError: no `backup_dir`, a bad `save_freq`, or (when training starts from a
            backup) a model that is not built.

    Example:
        >>> import tempfile
        >>> import numpy as np
        >>> import tapeflow as tf
        >>> class Interrupt(tf.keras.callbacks.Callback):
        ...     def on_epoch_begin(self, epoch, logs=None):
        ...         if epoch == 2:
        ...             raise RuntimeError("interrupted")
        >>> model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
        >>> model.compile(optimizer="sgd", loss="mse")
        >>> backup = tf.keras.callbacks.BackupAndRestore(tempfile.mkdtemp())
        >>> x, y = np.zeros((4, 2)), np.zeros((4, 1))
        >>> try:
        ...     model.fit(x, y, epochs=4, verbose=0, callbacks=[backup, Interrupt()])
        ... except RuntimeError:
        ...     pass
        >>> model.fit(x, y, epochs=4, verbose=0, callbacks=[backup]).epoch
        [2, 3]
    """

    def __init__(self, backup_dir, save_freq="epoch", double_checkpoint: bool = False,
                 delete_checkpoint: bool = True) -> None:
        super().__init__()
        if not backup_dir:
            raise ValueError("Empty `backup_dir` argument passed")
        _check_save_freq(save_freq)
        self.backup_dir = os.fspath(backup_dir)
        self.save_freq = save_freq
        self.double_checkpoint = double_checkpoint
        self.delete_checkpoint = delete_checkpoint
        self._weights_path = os.path.join(self.backup_dir, "latest.weights.h5")
        self._metadata_path = os.path.join(self.backup_dir, "training_metadata.json")
        self._batches = _BatchCounter(save_freq)
        self._current_epoch = 0
        self._last_batch = 0

    def _paths(self) -> list:
        return [self._weights_path, self._metadata_path]

    def on_train_begin(self, logs=None) -> None:
        try:
            self._restore()
        except OSError:
            previous = [f"{path}.bkp" for path in self._paths()]
            if not (self.double_checkpoint and all(map(os.path.exists, previous))):
                raise
            for backup, path in zip(previous, self._paths()):
                shutil.copyfile(backup, path)
            self._restore()

    def _restore(self) -> None:
        if not os.path.exists(self._weights_path):
            return
        if not self.model.built:
            raise ValueError("To use the BackupAndRestore callback, your model must be built "
                             f"before you call `fit()`. Model {self.model.name} is unbuilt. "
                             "You can build it beforehand by calling it on a batch of data.")
        self.model.load_weights(self._weights_path)
        if os.path.exists(self._metadata_path):
            with open(self._metadata_path) as f:
                self._current_epoch = json.load(f)["epoch"]
            self.model._initial_epoch = self._current_epoch

    def on_epoch_end(self, epoch, logs=None) -> None:
        self._current_epoch = epoch + 1
        self._last_batch = 0
        if self.save_freq == "epoch":
            self._save()

    def on_train_batch_end(self, batch, logs=None) -> None:
        self._last_batch = batch
        if self._batches.due():
            self._save()

    def _save(self) -> None:
        if not distribution.writes_files(self.model):  # under a strategy the chief writes
            return
        if self.double_checkpoint:
            for path in self._paths():
                if os.path.exists(path):
                    shutil.copyfile(path, f"{path}.bkp")
        self.model.save_weights(self._weights_path, overwrite=True)
        metadata = json.dumps({"epoch": self._current_epoch, "batch": self._last_batch})
        atomic_write(self._metadata_path, lambda f: f.write(metadata.encode()))

    def on_train_end(self, logs=None) -> None:
        if self.delete_checkpoint and distribution.writes_files(self.model) and \
                os.path.exists(self.backup_dir):
            shutil.rmtree(self.backup_dir)
