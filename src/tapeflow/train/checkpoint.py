"""tf.train.Checkpoint and CheckpointManager: object-based checkpoints on NumPy's .npz.

A checkpoint saves every Variable reachable from its root objects under the path of
attribute names that leads to it, as TF does ('model/layer-0/kernel/.ATTRIBUTES/
VARIABLE_VALUE'); optimizer slots hang off their variable ('.../.OPTIMIZER_SLOT/optimizer/m').
Layers also record the input shape they were built for, so restoring into a fresh model
builds it first and then matches every variable.

Writes are atomic: the data go to a temporary file in the same directory, which then
replaces the target with `os.replace`, so a crash mid-save leaves the previous checkpoint
(and the `checkpoint` state file naming it) intact.
"""
from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile

import numpy as np

from ..framework import errors
from ..framework.graph import init_scope
from ..framework.replicated_variable import ReplicatedVariable
from ..framework.string_values import from_storable, to_storable
from ..framework.variables import Variable

__all__ = ["Checkpoint", "CheckpointManager", "CheckpointLoadStatus", "latest_checkpoint",
           "list_variables", "load_variable", "get_checkpoint_state"]

_SUFFIX = "/.ATTRIBUTES/VARIABLE_VALUE"
_SLOT = "/.OPTIMIZER_SLOT/"
_METADATA = "_CHECKPOINTABLE_OBJECT_GRAPH"
_DEFERRED = "_deferred_restorations"   # see _DeferredRestorations
_STATE_FILE = "checkpoint"


def data_path(prefix: str) -> str:
    """The file holding the checkpoint `prefix`."""
    return os.fspath(prefix) + ".npz"


def _file_mode(path: str) -> int:
    """The permissions a replaced file keeps, or those a new file gets under the umask
    (the temporary file is created private)."""
    if os.path.exists(path):
        return os.stat(path).st_mode & 0o777
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def atomic_write(path: str, write) -> None:
    """Calls `write(file)` on a temporary file, then moves it onto `path` in one step."""
    directory = os.path.dirname(path) or "."
    os.makedirs(directory, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=os.path.basename(path) + ".", suffix=".tmp",
                                         dir=directory)
    try:
        with os.fdopen(handle, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(temporary, _file_mode(path))
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


# -- the object graph --------------------------------------------------------------------
def _is_trackable(value) -> bool:
    return isinstance(value, Variable) or hasattr(value, "_checkpoint_dependencies")


def _walk(root) -> tuple:
    """({path: Variable}, {path: object}) reachable from `root`, each object under the
    first path that reaches it (breadth first), optimizer slots included."""
    variables: dict = {}
    objects: dict = {}
    seen = {id(root)}
    pending = [("", root)]
    while pending:
        prefix, obj = pending.pop(0)
        for name, child in obj._checkpoint_dependencies():
            if id(child) in seen:
                continue
            seen.add(id(child))
            path = f"{prefix}/{name}" if prefix else name
            if isinstance(child, Variable):
                variables[path] = child
            else:
                objects[path] = child
                pending.append((path, child))
    by_id = {id(v): path for path, v in variables.items()}
    for opt_path, obj in objects.items():
        for variable, slot_name, slot in getattr(obj, "_slot_items", list)():
            if id(variable) in by_id:
                variables[f"{by_id[id(variable)]}{_SLOT}{opt_path}/{slot_name}"] = slot
    return variables, objects


def _split_slot(key: str) -> tuple:
    """'var/.OPTIMIZER_SLOT/opt/m' -> ('var', 'opt', 'm')."""
    var_path, rest = key.split(_SLOT, 1)
    opt_path, _, slot_name = rest.rpartition("/")
    return var_path, opt_path, slot_name


def _first(path: str) -> str:
    return path.split("/", 1)[0]


# -- reading and writing -------------------------------------------------------------------
def _write(root, prefix: str) -> str:
    variables, objects = _walk(root)
    builds = {path: config for path, obj in objects.items()
              if callable(getattr(obj, "get_build_config", None))
              and (config := obj.get_build_config()) is not None}
    return write_values(prefix, {path: v.numpy() for path, v in variables.items()}, builds)


def write_values(prefix: str, values: dict, builds: dict | None = None) -> str:
    """Writes the checkpoint `prefix` (atomically) holding `values` ({name: array}), in the
    format `list_variables`, `load_variable` and `read_values` read; returns `prefix`."""
    arrays = {path + _SUFFIX: to_storable(np.asarray(v)) for path, v in values.items()}
    metadata = json.dumps({"format": "tapeflow-checkpoint", "version": 1,
                           "builds": builds or {}})
    arrays[_METADATA] = np.frombuffer(metadata.encode(), dtype=np.uint8)
    atomic_write(data_path(prefix), lambda f: np.savez(f, **arrays))
    return os.fspath(prefix)


def _read(prefix: str) -> tuple:
    """({path: array}, metadata) of the checkpoint at `prefix`.

    Raises:
        NotFoundError: no such checkpoint.
        DataLossError: the file is not a readable checkpoint.
    """
    path = data_path(prefix)
    if not os.path.exists(path):
        raise errors.NotFoundError(None, None, f"Failed to find any matching files for "
                                               f"{prefix} (looked for {path}).")
    try:
        with np.load(path, allow_pickle=False) as data:  # never unpickles: no code runs
            arrays = {key: data[key] for key in data.files}
        metadata = json.loads(arrays.pop(_METADATA).tobytes().decode())
        if not isinstance(metadata, dict) or not isinstance(metadata.get("builds"), dict):
            raise ValueError("the object graph record is not a tapeflow checkpoint's")
        for key, value in arrays.items():
            if value.dtype.kind not in "biufcS":
                raise ValueError(f"{key} holds {value.dtype} data, not numbers or strings")
    except Exception as e:  # noqa: BLE001  (any failure to parse a damaged file is data loss)
        raise errors.DataLossError(None, None, f"Unable to read the checkpoint {path}: "
                                               f"{type(e).__name__}: {e}") from None
    values = {key[:-len(_SUFFIX)]: from_storable(value) for key, value in arrays.items()
              if key.endswith(_SUFFIX)}
    return values, metadata


def read_values(prefix: str) -> dict:
    """{name: array} of the checkpoint at `prefix` (see `write_values`).

    Raises:
        NotFoundError: no such checkpoint.
        DataLossError: the file is not a readable checkpoint.
    """
    return _read(prefix)[0]


def list_variables(ckpt_dir_or_file: str) -> list:
    """(name, shape) of every value stored in a checkpoint, sorted by name.

    Args:
        ckpt_dir_or_file: a checkpoint prefix, or a directory (its latest checkpoint).
    """
    values, _ = _read(_resolve(ckpt_dir_or_file))
    return sorted((key + _SUFFIX, list(value.shape)) for key, value in values.items())


def load_variable(ckpt_dir_or_file: str, name: str) -> np.ndarray:
    """The value stored under `name` (as `list_variables` gives it).

    Raises:
        NotFoundError: no such name in the checkpoint.
    """
    values, _ = _read(_resolve(ckpt_dir_or_file))
    key = name[:-len(_SUFFIX)] if name.endswith(_SUFFIX) else name
    if key not in values:
        raise errors.NotFoundError(None, None, f"Key {name} not found in checkpoint")
    return values[key]


def _resolve(ckpt_dir_or_file: str) -> str:
    if os.path.isdir(ckpt_dir_or_file):
        latest = latest_checkpoint(ckpt_dir_or_file)
        if latest is None:
            raise errors.NotFoundError(None, None, f"No checkpoint in {ckpt_dir_or_file}")
        return latest
    return ckpt_dir_or_file


# -- restoring -----------------------------------------------------------------------------
class _Snapshot:
    """The attributes of objects a restore may build, to put back if it fails."""

    def __init__(self, objects) -> None:
        self._saved = [(obj, {k: list(v) if isinstance(v, list) else
                              dict(v) if isinstance(v, dict) else v
                              for k, v in vars(obj).items()}) for obj in objects]

    def rollback(self) -> None:
        for obj, saved in self._saved:
            vars(obj).clear()
            vars(obj).update(saved)


def _build_recorded(root, metadata: dict) -> None:
    """Builds each unbuilt layer the checkpoint recorded a build shape for, outermost
    first (a model's build builds the layers inside it)."""
    builds = metadata.get("builds", {})
    done: set = set()
    while True:
        _, objects = _walk(root)
        todo = [(path, obj) for path, obj in objects.items()
                if path in builds and path not in done and not getattr(obj, "built", True)]
        if not todo:
            return
        path, obj = min(todo, key=lambda item: item[0].count("/"))
        done.add(path)
        obj.build_from_config(builds[path])


def _create_slots(root, values: dict) -> None:
    """Creates the optimizer slots the checkpoint holds for variables that exist now."""
    variables, objects = _walk(root)
    for key in values:
        if _SLOT in key:
            var_path, opt_path, _ = _split_slot(key)
            optimizer = objects.get(opt_path)
            if optimizer is not None and var_path in variables:
                optimizer.build([variables[var_path]])


def _mismatch(key: str, variable, value) -> str | None:
    """Why the saved `value` cannot go into `variable` (None when it can)."""
    if tuple(variable.shape.as_list()) == value.shape \
            and value.dtype == variable.dtype.as_numpy_dtype:
        return None
    return (f"'{key}': the checkpoint holds shape {list(value.shape)} {value.dtype}, the "
            f"variable {variable.name} has shape {variable.shape.as_list()} "
            f"{variable.dtype.name}")


def _assign_saved(variable, value) -> None:
    """Writes a saved value into `variable` outside any function being traced; a
    replicated variable gets it in every component."""
    components = variable.values if isinstance(variable, ReplicatedVariable) else (variable,)
    with init_scope():
        for component in components:
            component.assign(value)


class _Pending:
    """The values of one restore that no variable has taken yet, and the variables that
    took theirs (what the status reports on)."""

    def __init__(self, save_path: str, values: dict) -> None:
        self.save_path = save_path
        self.values = dict(values)
        self.restored: dict = {}            # id(variable) -> variable

    def restore(self, key: str, variable) -> None:
        """Assigns the value saved under `key` to `variable`.

        Raises:
            ValueError: its shape or dtype differs from the variable's.
        """
        value = self.values[key]
        problem = _mismatch(key, variable, value)
        if problem is not None:
            raise ValueError(f"Received an incompatible value from the checkpoint "
                             f"{self.save_path} when restoring {problem}.")
        _assign_saved(variable, value)
        del self.values[key]
        self.restored[id(variable)] = variable


class _DeferredRestorations:
    """Saved values held by a trackable object for dependencies it does not have yet
    (TF's delayed restoration): kept in the object's `_deferred_restorations` attribute,
    they are assigned when the variable appears under the saved name (a tf.Module calls
    `dependency_added` on each attribute assignment), and handed down to a new child
    object for the names under it.
    """

    def __init__(self) -> None:
        self.entries: dict = {}             # name relative to the holder -> (_Pending, key)

    def dependency_added(self, owner) -> None:
        """Matches the held names against `owner`'s dependencies now.

        Raises:
            ValueError: a matching variable whose shape or dtype differs from the value's.
        """
        _apply_deferred(owner)


def _defer(owner, relative: str, pending: _Pending, key: str) -> None:
    """Holds `key` of `pending` on `owner`, under the name `relative` to it."""
    holder = vars(owner).get(_DEFERRED) if hasattr(owner, "__dict__") else None
    if holder is None:
        if not hasattr(owner, "__dict__"):
            return
        holder = _DeferredRestorations()
        object.__setattr__(owner, _DEFERRED, holder)
    holder.entries[relative] = (pending, key)


def _apply_deferred(owner) -> None:
    """Restores the held values whose variables `owner` has now, and hands the names
    under a child object down to it (recursively)."""
    holder = vars(owner).get(_DEFERRED) if hasattr(owner, "__dict__") else None
    if holder is None or not holder.entries:
        return
    handed = []
    for name, child in owner._checkpoint_dependencies():
        for relative in list(holder.entries):
            pending, key = holder.entries[relative]
            if key not in pending.values:             # taken by another path meanwhile
                del holder.entries[relative]
            elif relative == name and isinstance(child, Variable):
                pending.restore(key, child)
                del holder.entries[relative]
            elif relative.startswith(name + "/") and not isinstance(child, Variable):
                del holder.entries[relative]
                _defer(child, relative[len(name) + 1:], pending, key)
                handed.append(child)
    for child in {id(c): c for c in handed}.values():
        _apply_deferred(child)


def _holder_of(root, objects: dict, key: str) -> tuple:
    """(object, name relative to it) of the deepest existing object on `key`'s path."""
    best = ""
    for path in objects:
        if key.startswith(path + "/") and len(path) > len(best):
            best = path
    if best:
        return objects[best], key[len(best) + 1:]
    inner = getattr(root, "_root", None)       # a Checkpoint's root: its names are top level
    if inner is not None and _first(key) not in getattr(root, "_kwargs", {}) \
            and hasattr(inner, "_checkpoint_dependencies"):
        return inner, key
    return root, key


def _restore(root, save_path: str) -> "CheckpointLoadStatus":
    values, metadata = _read(save_path)
    _, objects = _walk(root)
    snapshot = _Snapshot(objects.values())
    try:
        _build_recorded(root, metadata)
        _create_slots(root, values)
        variables, objects = _walk(root)
        problems = [problem for key in sorted(values) if key in variables
                    and (problem := _mismatch(key, variables[key], values[key]))]
        if problems:
            listed = "\n  ".join(problems[:20])
            more = f"\n  ... and {len(problems) - 20} more" if len(problems) > 20 else ""
            raise ValueError(f"The checkpoint {save_path} does not match the objects being "
                             f"restored; nothing was changed:\n  {listed}{more}")
    except BaseException:
        snapshot.rollback()
        raise
    pending = _Pending(save_path, values)
    for key in values:
        if key in variables:
            pending.restore(key, variables[key])
    for key in list(pending.values):
        if _SLOT not in key:    # a slot waits for its optimizer to make it, unmatched
            owner, relative = _holder_of(root, objects, key)
            _defer(owner, relative, pending, key)
    return CheckpointLoadStatus(save_path, pending, root)


class CheckpointLoadStatus:
    """What `restore` returns: which saved values are still waiting for their variables
    (values of objects made later are assigned when they appear) and which variables of
    the objects given have not received one."""

    def __init__(self, save_path, pending: "_Pending | None", root) -> None:
        self.save_path = save_path
        self._pending = pending
        self._root = root

    @property
    def unused(self) -> set:
        """The saved names no variable has taken yet."""
        return set(self._pending.values) if self._pending is not None else set()

    @property
    def unrestored(self) -> set:
        """The paths of the variables reachable now that no saved value reached."""
        if self._pending is None:
            return set()
        variables, _ = _walk(self._root)
        return {path for path, variable in variables.items()
                if id(variable) not in self._pending.restored}

    def assert_consumed(self) -> "CheckpointLoadStatus":
        """Raises AssertionError unless every saved value and every variable matched."""
        unused, unrestored = self.unused, self.unrestored
        if unused or unrestored:
            raise AssertionError(f"Unresolved objects in checkpoint {self.save_path}: unused "
                                 f"values {sorted(unused)}, unrestored variables "
                                 f"{sorted(unrestored)}")
        return self

    def assert_existing_objects_matched(self) -> "CheckpointLoadStatus":
        """Raises AssertionError unless every variable reachable now was restored."""
        unrestored = self.unrestored
        if unrestored:
            raise AssertionError(f"Variables not restored from {self.save_path}: "
                                 f"{sorted(unrestored)}")
        return self

    def assert_nontrivial_match(self) -> "CheckpointLoadStatus":
        """Raises AssertionError unless some saved value was restored."""
        if self._pending is not None and not self._pending.restored:
            raise AssertionError(f"Nothing of the checkpoint {self.save_path} matched the "
                                 f"objects being restored.")
        return self

    def expect_partial(self) -> "CheckpointLoadStatus":
        """Accepts a partial restore (nothing to silence: partial restores do not warn)."""
        return self


class InitializationOnlyStatus(CheckpointLoadStatus):
    """What `restore(None)` returns: nothing was restored."""

    def __init__(self) -> None:
        super().__init__(None, None, None)


class Checkpoint:
    """Saves and restores the Variables of the objects given as keyword arguments.

    Args:
        root: an object whose dependencies appear at the top level.
        **kwargs: named trackable objects: Variables, Modules, Layers, Models, optimizers,
            other Checkpoints.

    Raises:
        ValueError: a keyword argument that is not trackable.

    Example:
        >>> import os, tempfile
        >>> import tapeflow as tf
        >>> v = tf.Variable(1.0)
        >>> ckpt = tf.train.Checkpoint(v=v)
        >>> path = ckpt.save(os.path.join(tempfile.mkdtemp(), "ckpt"))
        >>> os.path.basename(path)
        'ckpt-1'
        >>> _ = v.assign(5.0)
        >>> _ = ckpt.restore(path)
        >>> float(v)
        1.0
    """

    def __init__(self, root=None, **kwargs) -> None:
        for name, value in kwargs.items():
            if not _is_trackable(value):
                raise ValueError(f"`Checkpoint` was expecting a trackable object (an object "
                                 f"with variables, such as a Variable, Module, Layer, Model or "
                                 f"optimizer), got {value!r} for {name!r}.")
        if root is not None and not _is_trackable(root):
            raise ValueError(f"`Checkpoint` was expecting root to be a trackable object, got "
                             f"{root!r}.")
        self._root = root
        self._kwargs = dict(kwargs)
        self._save_counter = None
        for name, value in kwargs.items():
            setattr(self, name, value)

    def __setattr__(self, name: str, value) -> None:
        # A trackable public attribute is a dependency like a keyword argument, and
        # takes the values a restore held for its name.
        object.__setattr__(self, name, value)
        if not name.startswith("_") and _is_trackable(value) and "_kwargs" in vars(self):
            self._kwargs[name] = value
            _apply_deferred(self)

    @property
    def save_counter(self) -> Variable:
        """How many times `save` has run (an int64 Variable, saved with the checkpoint)."""
        if self._save_counter is None:
            self._save_counter = Variable(np.int64(0), name="save_counter", trainable=False)
        return self._save_counter

    def _checkpoint_dependencies(self) -> list:
        found = []
        if self._root is not None:
            found += self._root._checkpoint_dependencies() \
                if hasattr(self._root, "_checkpoint_dependencies") else []
        found += list(self._kwargs.items())
        if self._save_counter is not None:
            found.append(("save_counter", self._save_counter))
        return found

    def write(self, file_prefix, options=None) -> str:
        """Writes the checkpoint at exactly `file_prefix` (atomically); returns it."""
        _ = self.save_counter
        return _write(self, file_prefix)

    def save(self, file_prefix, options=None) -> str:
        """Writes `file_prefix-N` (N = the incremented save_counter) and records it in the
        directory's `checkpoint` state file as the latest; returns that path."""
        self.save_counter.assign_add(1)
        path = self.write(f"{os.fspath(file_prefix)}-{int(self.save_counter)}")
        write_state(os.path.dirname(path) or ".", path, [path])
        return path

    def restore(self, save_path, options=None) -> CheckpointLoadStatus:
        """Restores the values saved at `save_path`; None restores nothing.

        Unbuilt layers are first built for the input shapes the checkpoint recorded, and
        missing optimizer slots created. Everything is checked before anything is assigned.
        Values for variables that do not exist yet are held and assigned when the variable
        is assigned to an attribute under the saved name (restore before create); the
        status tells what is still unmatched.

        Returns:
            A status with `assert_consumed()` and `expect_partial()`.

        Raises:
            ValueError: a saved shape or dtype that does not match its variable's;
                nothing is changed.
            NotFoundError: no checkpoint at `save_path`.
            DataLossError: an unreadable checkpoint file.
        """
        if save_path is None:
            return InitializationOnlyStatus()
        _ = self.save_counter
        return _restore(self, os.fspath(save_path))

    read = restore


# -- the state file and the manager --------------------------------------------------------
class CheckpointState:
    """The `checkpoint` file of a directory: the latest checkpoint and those kept."""

    def __init__(self, model_checkpoint_path: str, all_model_checkpoint_paths: list) -> None:
        self.model_checkpoint_path = model_checkpoint_path
        self.all_model_checkpoint_paths = all_model_checkpoint_paths


def get_checkpoint_state(checkpoint_dir, latest_filename=None):
    """The CheckpointState recorded in `checkpoint_dir`, or None.

    Raises:
        DataLossError: the index file is unreadable, or names a path outside the directory.
    """
    directory = os.fspath(checkpoint_dir)
    path = os.path.join(directory, latest_filename or _STATE_FILE)
    if not os.path.exists(path):
        return None
    try:
        with open(path, "rb") as f:
            text = f.read().decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise errors.DataLossError(None, None, f"Unable to read the checkpoint index {path}: "
                                               f"{e}") from None
    latest, kept = None, []
    for line in text.splitlines():
        match = re.match(r'\s*(\w+):\s*"(.*)"\s*$', line)
        if match:
            value = _confined(path, directory, match.group(2))
            if match.group(1) == "model_checkpoint_path":
                latest = value
            elif match.group(1) == "all_model_checkpoint_paths":
                kept.append(value)
    return CheckpointState(latest, kept) if latest else None


def _confined(index: str, directory: str, entry: str) -> str:
    """`entry` of index file `index` as a path inside `directory`.

    Raises:
        DataLossError: the entry leads outside the directory (`..`, another absolute path).
    """
    value = entry if os.path.isabs(entry) else os.path.join(directory, entry)
    inside = os.path.realpath(directory)
    if os.path.commonpath([inside, os.path.realpath(value)]) != inside:
        raise errors.DataLossError(None, None, f"The checkpoint index {index} names {entry!r}, "
                                               f"outside its directory {directory}")
    return value


def write_state(directory: str, latest: str, kept: list, filename: str | None = None) -> None:
    """Records `latest` and the `kept` checkpoints in the `checkpoint` file (or `filename`)
    of `directory` (atomically)."""
    lines = [f'model_checkpoint_path: "{os.path.relpath(latest, directory)}"']
    lines += [f'all_model_checkpoint_paths: "{os.path.relpath(p, directory)}"' for p in kept]
    text = "\n".join(lines) + "\n"
    atomic_write(os.path.join(directory, filename or _STATE_FILE),
                 lambda f: f.write(text.encode()))


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """The path of the newest checkpoint recorded in `checkpoint_dir`, or None.

    Raises:
        DataLossError: the index file is unreadable, or names a path outside the directory.

    Example:
        >>> import tempfile
        >>> import tapeflow as tf
        >>> tf.train.latest_checkpoint(tempfile.mkdtemp()) is None
        True
    """
    state = get_checkpoint_state(checkpoint_dir, latest_filename)
    if state is None or not os.path.exists(data_path(state.model_checkpoint_path)):
        return None
    return state.model_checkpoint_path


class CheckpointManager:
    """Numbered checkpoints in a directory, keeping the newest `max_to_keep`.

    Args:
        checkpoint: the Checkpoint to save.
        directory: where to write (created if needed).
        max_to_keep: how many to keep (None keeps all).
        checkpoint_name: the file prefix (default 'ckpt').

    Raises:
        ValueError: `max_to_keep` is not positive.

    Example:
        >>> import tempfile
        >>> import tapeflow as tf
        >>> ckpt = tf.train.Checkpoint(step=tf.Variable(0))
        >>> manager = tf.train.CheckpointManager(ckpt, tempfile.mkdtemp(), max_to_keep=2)
        >>> for _ in range(3):
        ...     _ = ckpt.step.assign_add(1)
        ...     _ = manager.save()
        >>> [p.rsplit("/", 1)[-1] for p in manager.checkpoints]
        ['ckpt-2', 'ckpt-3']
    """

    def __init__(self, checkpoint: Checkpoint, directory, max_to_keep,
                 keep_checkpoint_every_n_hours=None, checkpoint_name: str = "ckpt",
                 step_counter=None, checkpoint_interval=None, init_fn=None) -> None:
        if max_to_keep is not None and max_to_keep <= 0:
            raise ValueError("Expected a positive integer or `None` for `max_to_keep`, got "
                             f"{max_to_keep}.")
        if keep_checkpoint_every_n_hours is not None or checkpoint_interval is not None:
            raise NotImplementedError("keep_checkpoint_every_n_hours and checkpoint_interval "
                                      "are not supported.")
        self._checkpoint = checkpoint
        self.directory = os.fspath(directory)
        self._max_to_keep = max_to_keep
        self._prefix = os.path.join(self.directory, checkpoint_name)
        self._step_counter = step_counter
        self._init_fn = init_fn
        state = get_checkpoint_state(self.directory)
        self._checkpoints = [p for p in state.all_model_checkpoint_paths
                             if os.path.exists(data_path(p))] if state else []

    @property
    def checkpoints(self) -> list:
        """The kept checkpoints, oldest first."""
        return list(self._checkpoints)

    @property
    def latest_checkpoint(self):
        """The newest checkpoint's path, or None."""
        return self._checkpoints[-1] if self._checkpoints else None

    @property
    def checkpoint(self) -> Checkpoint:
        return self._checkpoint

    def save(self, checkpoint_number=None, check_interval: bool = True, options=None) -> str:
        """Writes the next checkpoint, records it, then deletes those beyond max_to_keep.

        The data file, then the state file, are each replaced atomically, and old files
        are deleted last, so a crash at any point leaves a consistent directory.
        """
        counter = self._checkpoint.save_counter
        counter.assign_add(1)
        if checkpoint_number is None:
            checkpoint_number = int(self._step_counter if self._step_counter is not None
                                    else counter)
        path = self._checkpoint.write(f"{self._prefix}-{int(checkpoint_number)}")
        kept = [p for p in self._checkpoints if p != path] + [path]
        removed = kept[:-self._max_to_keep] if self._max_to_keep else []
        self._checkpoints = kept[len(removed):]
        write_state(self.directory, path, self._checkpoints)
        for old in removed:
            with contextlib.suppress(FileNotFoundError):
                os.remove(data_path(old))
        return path

    def restore_or_initialize(self):
        """Restores the latest checkpoint and returns its path; otherwise runs `init_fn`
        (if given) and returns None."""
        latest = self.latest_checkpoint
        if latest is not None:
            self._checkpoint.restore(latest)
            return latest
        if self._init_fn is not None:
            self._init_fn()
        return None
