"""TF1's name-based `Saver`: variables saved under their names ('dense/kernel') in TF's
TensorBundle files (`prefix.index` + `prefix.data-00000-of-00001`, no object graph, as TF1
writes them) and the directory's `checkpoint` state file, so TF's `Saver`,
`tf.train.list_variables` and `latest_checkpoint` read them and tapeflow reads TF's.
(No `.meta` MetaGraphDef is written.)
"""
from __future__ import annotations

import os

from ...framework import errors
from ...framework.context import executing_eagerly
from ...framework.graph import GraphKeys, get_default_graph
from ...train.checkpoint import (CheckpointState, remove_checkpoint_files, checkpoint_exists,
                                 data_path, get_checkpoint_state, latest_checkpoint,
                                 read_values, write_values)
from ...train.checkpoint import write_state as record_state

__all__ = ["Saver", "latest_checkpoint", "checkpoint_exists", "get_checkpoint_state",
           "get_checkpoint_mtimes", "remove_checkpoint", "generate_checkpoint_state_proto",
           "update_checkpoint_state"]


def _names(var_list) -> dict:
    """{checkpoint name: variable} of a Saver's var_list (a list, or a dict of names).

    Raises:
        ValueError: no variables, or two variables with the same name.
    """
    if var_list is None:
        var_list = get_default_graph().get_collection(GraphKeys.GLOBAL_VARIABLES)
        if not var_list:
            raise ValueError("No variables to save")
    if isinstance(var_list, dict):
        return dict(var_list)
    names = {}
    for var in var_list:
        name = var.name.split(":")[0]
        if name in names:
            raise ValueError(f"At least two variables have the same name: {name}")
        names[name] = var
    return names


class Saver:
    """Saves and restores variables by name.

    Args:
        var_list: the variables (default: all global variables), or {name: variable}.
        max_to_keep: how many recent checkpoints to keep (None or 0: all).
        Other TF1 arguments are accepted and have no effect.

    Example:
        >>> import os, tempfile
        >>> import tapeflow.compat.v1 as tf1
        >>> directory = tempfile.mkdtemp()
        >>> with tf1.Graph().as_default():
        ...     v = tf1.Variable([1.0, 2.0], name="v")
        ...     saver = tf1.train.Saver()
        ...     with tf1.Session() as sess:
        ...         _ = sess.run(tf1.global_variables_initializer())
        ...         path = saver.save(sess, os.path.join(directory, "model"), global_step=3)
        ...         _ = sess.run(v.assign([0.0, 0.0]))
        ...         saver.restore(sess, tf1.train.latest_checkpoint(directory))
        ...         print(os.path.basename(path), sess.run(v))
        model-3 [1. 2.]
    """

    def __init__(self, var_list=None, reshape=False, sharded=False, max_to_keep=5,
                 keep_checkpoint_every_n_hours=10000.0, name=None, restore_sequentially=False,
                 saver_def=None, builder=None, defer_build=False, allow_empty=False,
                 write_version=2, pad_step_number=False, save_relative_paths=False,
                 filename=None) -> None:
        if var_list is None and executing_eagerly():
            raise RuntimeError("When eager execution is enabled, `var_list` must specify a "
                               "list or dict of variables to save")
        self._var_list = var_list
        self._allow_empty = allow_empty
        self._names = None if var_list is None else _names(var_list)
        self._max_to_keep = max_to_keep
        self._pad_step_number = pad_step_number
        self._last_checkpoints: list = []

    def _variables(self) -> dict:
        if self._names is None:
            self._names = _names(None)
        return self._names

    @property
    def last_checkpoints(self) -> list:
        """The checkpoints this Saver keeps, oldest first."""
        return list(self._last_checkpoints)

    def save(self, sess, save_path, global_step=None, latest_filename=None,
             meta_graph_suffix="meta", write_meta_graph=True, write_state=True,
             strip_default_attrs=False, save_debug_info=False) -> str:
        """Writes the variables' values in `sess` to `save_path` (`-<global_step>` appended
        when given) and records it in the directory's `checkpoint` file.

        Returns:
            The checkpoint's path prefix.
        """
        variables = self._variables()
        if executing_eagerly():
            values = {name: v.numpy() for name, v in variables.items()}
        else:
            values = sess.run(variables)
        prefix = os.fspath(save_path)
        if global_step is not None:
            if not isinstance(global_step, int):
                global_step = int(sess.run(global_step) if sess is not None
                                  else global_step.numpy())
            prefix = (f"{prefix}-{global_step:08d}" if self._pad_step_number
                      else f"{prefix}-{global_step}")
        write_values(prefix, values)
        if write_state:
            self._record(prefix, latest_filename)
        return prefix

    def _record(self, prefix: str, latest_filename) -> None:
        self._last_checkpoints = [p for p in self._last_checkpoints if p != prefix] + [prefix]
        if self._max_to_keep:
            while len(self._last_checkpoints) > self._max_to_keep:
                remove_checkpoint_files(self._last_checkpoints.pop(0))
        directory = os.path.dirname(prefix) or "."
        record_state(directory, prefix, self._last_checkpoints)

    def restore(self, sess, save_path) -> None:
        """Sets each variable in `sess` to its value in the checkpoint `save_path`.

        Raises:
            ValueError: `save_path` is None.
            NotFoundError: no such checkpoint, or a variable missing from it.
            InvalidArgumentError: a saved value whose shape is not the variable's.
        """
        if save_path is None:
            raise ValueError("Can't load save_path when it is None.")
        values = read_values(save_path)
        variables = self._variables()
        for name, var in variables.items():
            if name not in values:
                raise errors.NotFoundError(
                    None, None, f"Restoring from checkpoint failed. This is most likely due to "
                                f"a Variable name or other graph key that is missing from the "
                                f"checkpoint. Please ensure that you have not altered the graph "
                                f"expected based on the checkpoint. Original error:\n\nKey "
                                f"{name} not found in checkpoint {save_path}")
            if not var.shape.is_compatible_with(values[name].shape):
                raise errors.InvalidArgumentError(
                    None, None, f"Restoring {name} from {save_path}: the saved shape "
                                f"{list(values[name].shape)} is not the variable's "
                                f"{var.shape}.")
        for name, var in variables.items():
            if executing_eagerly():
                var.assign(values[name])
            else:
                var.load(values[name], sess)

    def recover_last_checkpoints(self, checkpoint_paths) -> None:
        """Takes `checkpoint_paths` (those that exist) as the checkpoints kept so far."""
        self._last_checkpoints = [p for p in checkpoint_paths if checkpoint_exists(p)]

    def set_last_checkpoints_with_time(self, last_checkpoints_with_time) -> None:
        self.recover_last_checkpoints([p for p, _ in last_checkpoints_with_time])




def get_checkpoint_mtimes(checkpoint_prefixes) -> list:
    """The modification times (seconds since the epoch) of the checkpoints among
    `checkpoint_prefixes` that exist, in their order."""
    def stamp(prefix):
        index = os.fspath(prefix) + ".index"
        return os.path.getmtime(index if os.path.exists(index) else data_path(prefix))
    return [stamp(p) for p in checkpoint_prefixes if checkpoint_exists(p)]


def remove_checkpoint(checkpoint_prefix, checkpoint_format_version=2, meta_graph_suffix="meta"):
    """Deletes the checkpoint `checkpoint_prefix` (and its `.meta` file, if any); a file
    already gone is no error."""
    remove_checkpoint_files(os.fspath(checkpoint_prefix))
    meta = f"{os.fspath(checkpoint_prefix)}.{meta_graph_suffix}"
    if os.path.exists(meta):
        os.remove(meta)


def _ending_with(paths, latest: str) -> list:
    """The kept checkpoints `paths` (oldest first), `latest` added last if it is not."""
    kept = list(paths or [])
    if not kept or kept[-1] != latest:
        kept.append(latest)
    return kept


def generate_checkpoint_state_proto(save_dir, model_checkpoint_path,
                                    all_model_checkpoint_paths=None,
                                    all_model_checkpoint_timestamps=None,
                                    last_preserved_timestamp=None) -> CheckpointState:
    """The CheckpointState naming `model_checkpoint_path` the latest and
    `all_model_checkpoint_paths` (oldest first) those kept; the latest ends that list (it
    is added when missing). Within a relative `save_dir`, relative paths are made relative
    to it, as TF does (tapeflow has no protocol buffers: the state is that object)."""
    kept = _ending_with(all_model_checkpoint_paths, model_checkpoint_path)
    if not os.path.isabs(save_dir):
        def relative(path):
            return path if os.path.isabs(path) else os.path.relpath(path, save_dir)
        model_checkpoint_path, kept = relative(model_checkpoint_path), [relative(p) for p in kept]
    return CheckpointState(model_checkpoint_path, kept)


def update_checkpoint_state(save_dir, model_checkpoint_path, all_model_checkpoint_paths=None,
                            latest_filename=None, all_model_checkpoint_timestamps=None,
                            last_preserved_timestamp=None) -> None:
    """Writes the `checkpoint` state file (or `latest_filename`) of `save_dir`: the latest
    checkpoint and those kept (see `generate_checkpoint_state_proto`).

    Raises:
        RuntimeError: the checkpoint path is the state file's own path.
    """
    state_file = os.path.join(save_dir, latest_filename or "checkpoint")
    if os.fspath(model_checkpoint_path) == state_file:
        raise RuntimeError(f"Save path '{model_checkpoint_path}' conflicts with path used for "
                           "checkpoint state.  Please use a different save path.")
    kept = _ending_with(all_model_checkpoint_paths, model_checkpoint_path)

    def absolute(path):
        return path if os.path.isabs(path) else os.path.join(save_dir, path)
    record_state(save_dir, absolute(model_checkpoint_path), [absolute(p) for p in kept],
                 latest_filename)
