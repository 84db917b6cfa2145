"""Reading checkpoints without building anything (`load_checkpoint`, a `CheckpointReader`),
following a directory as checkpoints appear (`checkpoints_iterator`), and the options the
save and restore calls accept (`CheckpointOptions`).

A reader names the values as `list_variables` does (an object-based checkpoint's
`.../.ATTRIBUTES/VARIABLE_VALUE` keys; a TF1 `Saver`'s variable names are read the same way).
"""
from __future__ import annotations

import time

import numpy as np

from ..framework import dtypes, errors
from .checkpoint import _open, _resolve, latest_checkpoint

__all__ = ["CheckpointReader", "load_checkpoint", "NewCheckpointReader", "checkpoints_iterator",
           "CheckpointOptions"]

def _log(message: str) -> None:
    import logging  # loaded on the first message
    logging.getLogger("tapeflow").info(message)


class CheckpointReader:
    """The tensors stored in one checkpoint, by key (TF's `CheckpointReader`).

    Raises (on creation):
        NotFoundError: no checkpoint at the prefix.
        DataLossError: the files are not a readable checkpoint.
    """

    def __init__(self, prefix: str) -> None:
        self._prefix = prefix
        self._reader = _open(prefix)

    def has_tensor(self, name: str) -> bool:
        return self._reader.has(name)

    def get_tensor(self, name: str):
        """The value stored under `name` (bytes for a string scalar, as TF gives the
        object graph).

        Raises:
            NotFoundError: no such key.
        """
        if not self._reader.has(name):
            raise errors.NotFoundError(None, None, f"Key {name} not found in checkpoint")
        value = self._reader.read(name)
        if isinstance(value, np.ndarray) and value.dtype == object and value.ndim == 0:
            return value.item()
        return value

    def get_variable_to_shape_map(self) -> dict:
        return {name: list(self._reader.shape(name)) for name in self._reader.keys()}

    def get_variable_to_dtype_map(self) -> dict:
        return {name: dtypes.as_dtype(self._reader.dtype(name)) for name in self._reader.keys()}

    def debug_string(self) -> bytes:
        """One line per tensor: its key, dtype and shape."""
        shapes, dtype_of = self.get_variable_to_shape_map(), self.get_variable_to_dtype_map()
        return "".join(f"{name} ({dtype_of[name].name}) {shapes[name]}\n"
                       for name in sorted(shapes)).encode()


def load_checkpoint(ckpt_dir_or_file: str) -> CheckpointReader:
    """A `CheckpointReader` of a checkpoint prefix, or of a directory's latest checkpoint.

    Raises:
        ValueError: a directory holding no checkpoint.
        NotFoundError: no checkpoint at the prefix.

    Example:
        >>> import os, tempfile
        >>> import tapeflow as tf
        >>> prefix = tf.train.Checkpoint(w=tf.Variable([1.0, 2.0])).save(
        ...     os.path.join(tempfile.mkdtemp(), "ckpt"))
        >>> reader = tf.train.load_checkpoint(prefix)
        >>> reader.get_tensor("w/.ATTRIBUTES/VARIABLE_VALUE")
        array([1., 2.], dtype=float32)
    """
    try:
        prefix = _resolve(ckpt_dir_or_file)
    except Exception:  # noqa: BLE001  (TF's wording for an empty directory)
        raise ValueError("Couldn't find 'checkpoint' file or checkpoints in given directory "
                         f"{ckpt_dir_or_file}") from None
    return CheckpointReader(prefix)


def NewCheckpointReader(filepattern: str) -> CheckpointReader:  # noqa: N802  (TF1's name)
    """A `CheckpointReader` of the checkpoint at prefix `filepattern` (TF1's name).

    Raises:
        NotFoundError: no checkpoint there.
    """
    return CheckpointReader(filepattern)


def _wait_for_new_checkpoint(checkpoint_dir, last, seconds_to_sleep, timeout):
    """The directory's latest checkpoint once it is not `last`; None past `timeout`."""
    stop_time = None if timeout is None else time.time() + timeout
    while True:
        path = latest_checkpoint(checkpoint_dir)
        if path is not None and path != last:
            return path
        if stop_time is not None and time.time() + seconds_to_sleep > stop_time:
            return None
        time.sleep(seconds_to_sleep)


def checkpoints_iterator(checkpoint_dir, min_interval_secs=0, timeout=None, timeout_fn=None):
    """Yields each new latest checkpoint of `checkpoint_dir` as it appears (looking once a
    second), at most one per `min_interval_secs`. Past `timeout` seconds without a new one
    it stops, unless `timeout_fn()` says to wait again (it returns False).

    Example:
        >>> import os, tempfile
        >>> import tapeflow as tf
        >>> directory = tempfile.mkdtemp()
        >>> manager = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0)),
        ...                                      directory, max_to_keep=2)
        >>> _ = manager.save()
        >>> [os.path.basename(p) for p in tf.train.checkpoints_iterator(directory, timeout=0)]
        ['ckpt-1']
    """
    last = None
    while True:
        path = _wait_for_new_checkpoint(checkpoint_dir, last, 1.0, timeout)
        if path is not None:
            start = time.time()
            last = path
            yield path
            remaining = start + min_interval_secs - time.time()
            if remaining > 0:
                time.sleep(remaining)
        elif timeout_fn is None:
            _log("Timed-out waiting for a checkpoint (without timeout_fn).")
            return
        if timeout_fn is not None and timeout_fn():
            _log("Done. No new checkpoints will be generated.")
            return


class CheckpointOptions:
    """Options of `Checkpoint.save`/`write`/`restore` (TF's fields). Checkpoints are one
    local file written in one step, so they change nothing: an I/O device, asynchronous
    writes, write callbacks, sharding and skipping slots are accepted and kept."""

    def __init__(self, experimental_io_device=None, experimental_enable_async_checkpoint=False,
                 experimental_write_callbacks=None, enable_async=False,
                 experimental_skip_slot_variables=False,
                 experimental_sharding_callback=None) -> None:
        self.experimental_io_device = experimental_io_device
        self.enable_async = bool(experimental_enable_async_checkpoint or enable_async)
        self.experimental_enable_async_checkpoint = self.enable_async
        self.experimental_write_callbacks = experimental_write_callbacks
        self.experimental_skip_slot_variables = experimental_skip_slot_variables
        self.experimental_sharding_callback = experimental_sharding_callback
