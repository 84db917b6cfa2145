"""Reading checkpoints without building anything (`load_checkpoint`, a `CheckpointReader`),
following a directory as checkpoints appear (`checkpoints_iterator`), and the options the
save and restore calls accept (`CheckpointOptions`).

A reader names the values as `list_variables` does (an object-based checkpoint's
`.../.ATTRIBUTES/VARIABLE_VALUE` keys; a TF1 `Saver`'s variable names are read the same way).
"""
from __future__ import annotations

import time

import numpy as np

from ..framework import dtypes
from .checkpoint import _resolve, latest_checkpoint, list_variables, load_variable

__all__ = ["CheckpointReader", "load_checkpoint", "NewCheckpointReader", "checkpoints_iterator",
           "CheckpointOptions"]

def _log(message: str) -> None:
    import logging  # loaded on the first message
    logging.getLogger("tapeflow").info(message)


class CheckpointReader:
    """The values stored in one checkpoint, by name.

    Raises (on creation):
        NotFoundError: no checkpoint at the prefix.
        DataLossError: the file is not a readable checkpoint.
    """

    def __init__(self, prefix: str) -> None:
        self._prefix = prefix
        self._shapes = dict(list_variables(prefix))

    def has_tensor(self, name: str) -> bool:
        return name in self._shapes

    def get_tensor(self, name: str) -> np.ndarray:
        """The value stored under `name` (NotFoundError when there is none)."""
        return load_variable(self._prefix, name)

    def get_variable_to_shape_map(self) -> dict:
        return {name: list(shape) for name, shape in self._shapes.items()}

    def get_variable_to_dtype_map(self) -> dict:
        return {name: dtypes.as_dtype(self.get_tensor(name).dtype) for name in self._shapes}

    def debug_string(self) -> bytes:
        """One line per value: its name, dtype and shape."""
        dtype_of = self.get_variable_to_dtype_map()
        return "".join(f"{name} ({dtype_of[name].name}) {shape}\n"
                       for name, shape in sorted(self._shapes.items())).encode()


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
