"""keras.callbacks.BackupAndRestore: `fit` that survives being stopped and restarted."""
from __future__ import annotations

import os
import shutil

import numpy as np

from ..framework.variables import Variable
from . import distribution
from .callbacks import Callback

__all__ = ["BackupAndRestore"]


class BackupAndRestore(Callback):
    """Backs the model, its optimizer and the epoch up after every epoch, and restores them
    when a `fit` starts with a backup present: a job restarted after a crash goes on from
    the last completed epoch. Under a multi-worker strategy the chief writes the backup and
    every worker restores it.

    Args:
        backup_dir: the directory of the backup (shared by the workers).
        save_freq: "epoch" (Keras also takes a number of batches; tapeflow does not yet).
        double_checkpoint: keep the previous backup too.
        delete_checkpoint: remove the backup when `fit` ends normally.

    Raises:
        ValueError: an empty `backup_dir` or another `save_freq`.

    Example:
        >>> import tempfile
        >>> import numpy as np
        >>> import tapeflow as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        >>> model.compile(optimizer="sgd", loss="mse")
        >>> backup = tf.keras.callbacks.BackupAndRestore(tempfile.mkdtemp())
        >>> x = np.ones((4, 2), "float32")
        >>> len(model.fit(x, x[:, :1], epochs=2, callbacks=[backup], verbose=0).epoch)
        2
    """

    def __init__(self, backup_dir, save_freq="epoch", double_checkpoint: bool = False,
                 delete_checkpoint: bool = True) -> None:
        super().__init__()
        if not backup_dir:
            raise ValueError("Empty `backup_dir` argument passed")
        if save_freq != "epoch":
            raise ValueError("Invalid value for argument `save_freq`. Received: "
                             f"save_freq={save_freq}. Expected 'epoch' (tapeflow does not "
                             "back up every N batches yet).")
        self.backup_dir = os.fspath(backup_dir)
        self.save_freq = save_freq
        self.double_checkpoint = double_checkpoint
        self.delete_checkpoint = delete_checkpoint
        self._epoch = None
        self._manager = None

    def on_train_begin(self, logs=None) -> None:
        from ..train.checkpoint import Checkpoint, CheckpointManager
        self._epoch = Variable(np.int64(0), name="backup_epoch", trainable=False)
        checkpoint = Checkpoint(model=self.model, optimizer=self.model.optimizer,
                                epoch=self._epoch)
        # Made now on every worker: under a strategy, a variable the chief alone made while
        # saving would wait for the others' copies.
        checkpoint.save_counter
        self._manager = CheckpointManager(checkpoint, self.backup_dir,
                                          max_to_keep=2 if self.double_checkpoint else 1)
        if self._manager.latest_checkpoint:
            checkpoint.restore(self._manager.latest_checkpoint)
            self.model._initial_epoch = int(self._epoch.numpy())

    def on_epoch_end(self, epoch, logs=None) -> None:
        self._epoch.assign(epoch + 1)
        if distribution.writes_files(self.model):
            self._manager.save()

    def on_train_end(self, logs=None) -> None:
        if self.delete_checkpoint and distribution.writes_files(self.model):
            shutil.rmtree(self.backup_dir, ignore_errors=True)
