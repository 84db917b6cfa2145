"""tf.train.Checkpoint and CheckpointManager: object-based checkpoints in TF's format.

A checkpoint is a TensorBundle (`prefix.index` + `prefix.data-00000-of-00001`) holding
every tensor the trackables reachable from the root save, under the path of edge names
that first reaches each one, breadth first (`model/layer/kernel/.ATTRIBUTES/
VARIABLE_VALUE`; '.' and '/' in names escaped as '..' and '.S'), with TF's object graph
(a TrackableObjectGraph proto) under `_CHECKPOINTABLE_OBJECT_GRAPH`. Restoring walks that
graph from the root, matching children by edge name; what the objects do not have yet is
restored when they are created (`tapeflow.train.object_graph`).

Checkpoints tapeflow wrote before (one `prefix.npz`) still load: their keys give the
graph.

Writes are atomic: each file goes to a temporary file in the same directory, which then
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
from ..framework.string_values import from_storable
from ..framework.variables import Variable
from ..trackable.autotrackable import AutoTrackable
from ..trackable.base import Trackable, TrackableReference
from .object_graph import (CheckpointPosition, ObjectGraphView, Restoration, TrackableView,
                           serialize)

__all__ = ["Checkpoint", "CheckpointManager", "CheckpointLoadStatus", "latest_checkpoint",
           "list_variables", "load_variable", "get_checkpoint_state", "checkpoint_exists"]

_SUFFIX = "/.ATTRIBUTES/VARIABLE_VALUE"
_SLOT = "/.OPTIMIZER_SLOT/"
_METADATA = "_CHECKPOINTABLE_OBJECT_GRAPH"
_STATE_FILE = "checkpoint"


def data_path(prefix: str) -> str:
    """The file that held a checkpoint `prefix` in tapeflow's former format."""
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


# -- the files -------------------------------------------------------------------------------
def _bundle():
    from . import tensor_bundle          # TF's TensorBundle files (the tf-files extra)
    return tensor_bundle


def checkpoint_exists(prefix) -> bool:
    """Whether a checkpoint (TF's `.index`, or tapeflow's former `.npz`) is at `prefix`."""
    prefix = os.fspath(prefix)
    return os.path.exists(prefix + ".index") or os.path.exists(data_path(prefix))


def _not_found(prefix: str, restoring: bool = False):
    message = (f"Unsuccessful TensorSliceReader constructor: Failed to find any matching "
               f"files for {prefix}")
    if restoring:
        message = (f"Error when restoring from checkpoint or SavedModel at {prefix}: {message}"
                   f"\nPlease double-check that the path is correct. You may be missing the "
                   f"checkpoint suffix (e.g. the '-1' in 'path/to/ckpt-1').")
    return errors.NotFoundError(None, None, message)


class _LegacyReader:
    """A checkpoint tapeflow wrote before TF's format (one .npz), read as a bundle: its
    keys, and an object graph rebuilt from their paths."""

    def __init__(self, prefix: str) -> None:
        path = data_path(prefix)
        try:
            with np.load(path, allow_pickle=False) as data:  # never unpickles: no code runs
                arrays = {key: data[key] for key in data.files}
            metadata = json.loads(arrays.pop(_METADATA).tobytes().decode())
            if not isinstance(metadata, dict):
                raise ValueError("the object graph record is not a tapeflow checkpoint's")
            for key, value in arrays.items():
                if value.dtype.kind not in "biufc":
                    raise ValueError(f"{key} holds {value.dtype} data, not numbers")
        except Exception as e:  # noqa: BLE001  (any failure to parse a damaged file is data loss)
            raise errors.DataLossError(None, None, f"Unable to read the checkpoint {path}: "
                                                   f"{type(e).__name__}: {e}") from None
        self._arrays = arrays

    def keys(self) -> list:
        return sorted(self._arrays) + [_METADATA]

    def has(self, key: str) -> bool:
        return key in self._arrays or key == _METADATA

    def dtype(self, key: str):
        from ..framework import dtypes
        return dtypes.string if key == _METADATA else dtypes.as_dtype(self._get(key).dtype)

    def shape(self, key: str) -> list:
        return [] if key == _METADATA else list(self._get(key).shape)

    def _get(self, key: str):
        if key not in self._arrays:
            raise errors.NotFoundError(None, None, f"Key {key} not found in checkpoint")
        return self._arrays[key]

    def read(self, key: str):
        if key == _METADATA:
            return np.array(self.graph_bytes(), dtype=object)
        return self._get(key)

    def graph_bytes(self) -> bytes:
        """The object graph the keys' paths describe (slot keys left out)."""
        from .object_graph import _proto
        graph = _proto().TrackableObjectGraph()
        graph.nodes.add()
        index = {(): 0}

        def node_of(parts: tuple) -> int:
            for depth in range(1, len(parts) + 1):
                if parts[:depth] not in index:
                    index[parts[:depth]] = len(graph.nodes)
                    graph.nodes[index[parts[:depth - 1]]].children.add(
                        node_id=len(graph.nodes), local_name=parts[depth - 1])
                    graph.nodes.add()
            return index[parts]

        slots = []
        for key in self._arrays:            # the order written (a model's variables' order)
            if not key.endswith(_SUFFIX):
                continue
            if _SLOT in key:                # 'var/.OPTIMIZER_SLOT/optimizer/momentum'
                slots.append(key)
                continue
            graph.nodes[node_of(tuple(key[:-len(_SUFFIX)].split("/")))].attributes.add(
                name="VARIABLE_VALUE", checkpoint_key=key)
        for key in slots:
            variable_path, rest = key[:-len(_SUFFIX)].split(_SLOT, 1)
            optimizer_path, _, slot_name = rest.rpartition("/")
            slot_id = len(graph.nodes)
            graph.nodes.add().attributes.add(name="VARIABLE_VALUE", checkpoint_key=key)
            graph.nodes[node_of(tuple(optimizer_path.split("/")))].slot_variables.add(
                original_variable_node_id=node_of(tuple(variable_path.split("/"))),
                slot_name=slot_name, slot_variable_node_id=slot_id)
        return graph.SerializeToString()


def _open(prefix, restoring: bool = False):
    """A reader of the checkpoint at `prefix` (keys, has, dtype, shape, read).

    Raises:
        NotFoundError: no checkpoint there.
        DataLossError: damaged files.
    """
    prefix = os.fspath(prefix)
    if os.path.exists(prefix + ".index"):
        return _bundle().BundleReader(prefix)
    if os.path.exists(data_path(prefix)):
        return _LegacyReader(prefix)
    raise _not_found(prefix, restoring)


def _graph_bytes(reader) -> bytes:
    value = reader.read(_METADATA)
    if isinstance(value, np.ndarray):
        value = value.item() if value.dtype == object else value.tobytes()
    return value if isinstance(value, bytes) else bytes(value)


def write_values(prefix: str, values: dict) -> str:
    """Writes the checkpoint `prefix` (atomically) holding `values` ({key: array}) under
    exactly those keys (TF1's name-based checkpoints); returns `prefix`."""
    _bundle().write_bundle(os.fspath(prefix), {k: _as_array(v) for k, v in values.items()})
    return os.fspath(prefix)


def read_values(prefix: str) -> dict:
    """{key: array} of the checkpoint at `prefix`, the object graph left out.

    Raises:
        NotFoundError: no such checkpoint.
        DataLossError: the files are not a readable checkpoint.
    """
    reader = _open(prefix)
    return {key: reader.read(key) for key in reader.keys() if key != _METADATA}


def list_variables(ckpt_dir_or_file: str) -> list:
    """(key, shape) of every tensor stored in a checkpoint, sorted by key (the object
    graph `_CHECKPOINTABLE_OBJECT_GRAPH` included, as TF lists it).

    Args:
        ckpt_dir_or_file: a checkpoint prefix, or a directory (its latest checkpoint).

    Example:
        >>> import os, tempfile
        >>> import tapeflow as tf
        >>> path = tf.train.Checkpoint(v=tf.Variable([1.0, 2.0])).write(
        ...     os.path.join(tempfile.mkdtemp(), "ckpt"))
        >>> tf.train.list_variables(path)
        [('_CHECKPOINTABLE_OBJECT_GRAPH', []), ('v/.ATTRIBUTES/VARIABLE_VALUE', [2])]
    """
    reader = _open(_resolve(ckpt_dir_or_file))
    return sorted((key, list(reader.shape(key))) for key in reader.keys())


def load_variable(ckpt_dir_or_file: str, name: str) -> np.ndarray:
    """The tensor stored under `name` (a key as `list_variables` gives it).

    Raises:
        NotFoundError: no such key in the checkpoint.
    """
    reader = _open(_resolve(ckpt_dir_or_file))
    if not reader.has(name) and reader.has(name + _SUFFIX):
        name = name + _SUFFIX
    if not reader.has(name):
        raise errors.NotFoundError(None, None, f"Key {name} not found in checkpoint")
    return reader.read(name)


def _resolve(ckpt_dir_or_file: str) -> str:
    ckpt_dir_or_file = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(ckpt_dir_or_file):
        latest = latest_checkpoint(ckpt_dir_or_file)
        if latest is None:
            raise ValueError(f"Couldn't find 'checkpoint' file or checkpoints in given "
                             f"directory {ckpt_dir_or_file}")
        return latest
    return ckpt_dir_or_file


def _as_array(value):
    from .object_graph import _as_array as convert
    return convert(value)


# -- the load status -----------------------------------------------------------------------
def _pretty_names(graph) -> dict:
    """{node id: '(root).a.b'} by the first path reaching each node."""
    names = {0: "(root)"}
    queue = [0]
    while queue:
        node_id = queue.pop(0)
        for child in graph.nodes[node_id].children:
            if child.node_id not in names:
                names[child.node_id] = f"{names[node_id]}.{child.local_name}"
                queue.append(child.node_id)
        for slot in graph.nodes[node_id].slot_variables:
            if slot.slot_variable_node_id not in names:
                names[slot.slot_variable_node_id] = (
                    f"{names[node_id]}'s state '{slot.slot_name}' for "
                    f"{names.get(slot.original_variable_node_id, '(unknown)')}")
    return names


class CheckpointLoadStatus:
    """What `restore` returns: which saved nodes found their objects (values for objects
    made later are assigned when they appear) and which objects found no value.

    Every assertion returns the status, so they chain.
    """

    def __init__(self, restoration, view) -> None:
        self._restoration = restoration
        self._view = view

    @property
    def save_path(self):
        return self._restoration.save_path

    def _bound_ids(self) -> set:
        found = set()
        for ref in self._restoration.python_objects:
            obj = ref()
            if obj is not None:
                found.add(id(obj))
        return found

    def _unmatched_objects(self) -> list:
        bound = self._bound_ids()
        return [obj for obj in self._view.descendants()
                if id(obj) not in bound and obj._saves_tensors()]

    def assert_existing_objects_matched(self) -> "CheckpointLoadStatus":
        """Raises AssertionError unless every object reachable now that saves tensors took
        a value from the checkpoint."""
        restoration = self._restoration
        for node_id in sorted(restoration.matched_proto_ids):
            obj = restoration.bound(node_id)
            node = restoration.graph.nodes[node_id]
            if obj is not None and node.attributes and node_id not in restoration.assigned \
                    and getattr(obj, "_update_uid", -1) <= restoration.restore_uid:
                raise AssertionError(f"Object not assigned a value from checkpoint: {node}")
        unmatched = self._unmatched_objects()
        if unmatched:
            shown = unmatched[:10]
            raise AssertionError(
                f"Found {len(unmatched)} Python objects that were not bound to checkpointed "
                f"values, likely due to changes in the Python program. Showing {len(shown)} of "
                f"{len(unmatched)} unmatched objects: {shown}")
        return self

    def assert_consumed(self) -> "CheckpointLoadStatus":
        """Raises AssertionError unless every saved value found its object and every
        object its value (the first unmatched saved node is named)."""
        self.assert_existing_objects_matched()
        restoration = self._restoration
        names = None
        for node_id, node in enumerate(restoration.graph.nodes):
            if not node.attributes:
                continue
            if restoration.bound(node_id) is None:
                names = names or _pretty_names(restoration.graph)
                keys = [a.checkpoint_key for a in node.attributes]
                raise AssertionError(f"Unresolved object in checkpoint {names.get(node_id)}: "
                                     f"attributes {keys} (checkpoint {self.save_path})")
        return self

    def assert_nontrivial_match(self) -> "CheckpointLoadStatus":
        """Raises AssertionError unless something besides the root matched."""
        if any(node_id != 0 for node_id in self._restoration.matched_proto_ids):
            return self
        raise AssertionError(
            f"Nothing except the root object matched a checkpointed value. Typically this "
            f"means that the checkpoint does not match the Python program. The following "
            f"objects have no matching checkpointed value: {self._unmatched_objects()}")

    def expect_partial(self) -> "CheckpointLoadStatus":
        """Accepts a partial restore (tapeflow does not warn about one)."""
        self._restoration.expect_partial = True
        return self

    def run_restore_ops(self, session=None) -> None:
        """Nothing to run: the values were assigned when `restore` ran (eager)."""

    def initialize_or_restore(self, session=None) -> None:
        """Nothing to run: restored variables hold their values, others their initial
        ones (eager)."""


class InitializationOnlyStatus:
    """What `restore(None)` returns: nothing was restored; every assertion raises."""

    save_path = None
    _MESSAGE = "No checkpoint specified (save_path=None); nothing is being restored."

    def assert_consumed(self):
        raise AssertionError(self._MESSAGE)

    assert_existing_objects_matched = assert_consumed
    assert_nontrivial_match = assert_consumed

    def expect_partial(self) -> "InitializationOnlyStatus":
        return self

    def run_restore_ops(self, session=None) -> None:
        """Nothing to restore."""

    def initialize_or_restore(self, session=None) -> None:
        """Variables already hold their initial values (eager)."""


# -- the checkpoint --------------------------------------------------------------------------
def _is_trackable(value) -> bool:
    return isinstance(value, Trackable)


class Checkpoint(AutoTrackable):
    """Saves and restores the objects given as keyword arguments, in TF's format.

    Args:
        root: an object whose dependencies appear at the top level (the keyword
            arguments and `save_counter` are attached to it).
        **kwargs: named trackable objects: Variables, Modules, Layers, Models, optimizers,
            dataset iterators, other Checkpoints.

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
        >>> ckpt.restore(path).assert_consumed() is not None
        True
        >>> float(v)
        1.0
    """

    def __init__(self, root=None, **kwargs) -> None:
        for name, value in kwargs.items():
            if not _is_trackable(value):
                raise ValueError(f"`Checkpoint` was expecting a trackable object (an object "
                                 f"derived from `Trackable`), got {value!r} for {name!r}. If "
                                 f"you believe this object should be trackable (i.e. it is "
                                 f"part of the TensorFlow Python API and manages state), "
                                 f"please open an issue.")
        if root is not None and not _is_trackable(root):
            raise ValueError(f"`Checkpoint` was expecting root to be a trackable object (an "
                             f"object derived from `Trackable`), got {root!r}.")
        object.__setattr__(self, "_root", root)
        object.__setattr__(self, "_save_counter", None)
        object.__setattr__(self, "_attached", [])
        for name, value in sorted(kwargs.items()):       # TF tracks them by sorted name
            if root is not None:
                self._attached.append(TrackableReference(name, value))
                object.__setattr__(self, name, value)
            else:
                setattr(self, name, value)

    def _view(self) -> ObjectGraphView:
        if self._root is None:
            return ObjectGraphView(self)
        attached = list(self._attached)
        if self._save_counter is not None:
            attached.append(TrackableReference("save_counter", self._save_counter))
        return ObjectGraphView(self._root, attached)

    @property
    def save_counter(self) -> Variable:
        """How many times `save` has run (an int64 Variable, saved with the checkpoint)."""
        self._maybe_create_save_counter()
        return self._save_counter

    def _maybe_create_save_counter(self) -> None:
        if self._save_counter is not None:
            return
        with init_scope():
            counter = Variable(np.int64(0), name="save_counter", trainable=False)
        object.__setattr__(self, "_save_counter", counter)
        if self._root is None:
            self._track_trackable(counter, name="save_counter", overwrite=True)
        else:
            positions = self._root._deferred_dependencies.pop("save_counter", None) \
                if hasattr(self._root, "__dict__") else None
            for position in sorted(positions or (), key=lambda p: p.restore_uid):
                position.restore(counter)

    def write(self, file_prefix, options=None) -> str:
        """Writes the checkpoint at exactly `file_prefix` (atomically); returns it. As TF,
        `save_counter` is written only once it exists (`save` makes it)."""
        tensors, _ = serialize(self._view())
        prefix = os.fspath(file_prefix)
        _bundle().write_bundle(prefix, tensors)
        return prefix

    def save(self, file_prefix, options=None) -> str:
        """Writes `file_prefix-N` (N = the incremented save_counter) and records it in the
        directory's `checkpoint` state file as the latest; returns that path."""
        self.save_counter.assign_add(1)
        path = self.write(f"{os.fspath(file_prefix)}-{int(self.save_counter)}")
        directory = os.path.dirname(path) or "."
        state = get_checkpoint_state(directory)
        kept = [p for p in (state.all_model_checkpoint_paths if state else []) if p != path]
        write_state(directory, path, kept + [path])
        return path

    def read(self, save_path, options=None) -> CheckpointLoadStatus:
        """Restores what is saved at `save_path`, matching the saved object graph from
        the root by edge names (see `restore`).

        Raises:
            NotFoundError: no checkpoint at `save_path`.
            DataLossError: an unreadable checkpoint.
            ValueError: a saved shape that does not fit its variable (nothing assigned).
            InvalidArgumentError: a saved dtype that differs from its variable's.
        """
        return self._restore(save_path, restoring=False)

    def restore(self, save_path, options=None):
        """Restores the values saved at `save_path`; None restores nothing.

        Values reach the objects that exist now (all checked before any is assigned);
        values for objects made later wait in their parents' deferred dependencies and are
        assigned when the object is tracked under the saved name (restore on create). The
        status tells what is still unmatched.

        Returns:
            A CheckpointLoadStatus (`assert_consumed`, `assert_existing_objects_matched`,
            `assert_nontrivial_match`, `expect_partial`), or an InitializationOnlyStatus
            for None.

        Raises:
            NotFoundError: no checkpoint at `save_path` (TF's message).
            DataLossError: an unreadable checkpoint file.
            ValueError: a saved shape that does not fit its variable.
            InvalidArgumentError: a saved dtype that differs from its variable's.
        """
        if save_path is None:
            return InitializationOnlyStatus()
        return self._restore(save_path, restoring=True)

    def _restore(self, save_path, restoring: bool) -> CheckpointLoadStatus:
        save_path = os.fspath(save_path)
        reader = _open(save_path, restoring)
        if not reader.has(_METADATA):
            raise errors.NotFoundError(None, None, f"The checkpoint {save_path} holds no "
                                                   f"object graph ({_METADATA}): it is a "
                                                   f"name-based checkpoint (TF1's Saver).")
        restoration = Restoration(reader, save_path, _graph_bytes(reader),
                                  legacy=isinstance(reader, _LegacyReader))
        view = self._view()
        if self._root is None:
            restoration.restore(self)
        else:
            _restore_attached(restoration, view)
        if restoring:
            # As TF: `restore` makes the save counter afterwards (restored on creation);
            # `read` leaves it as it is.
            self._maybe_create_save_counter()
        return CheckpointLoadStatus(restoration, self._view())


def _restore_attached(restoration, view) -> None:
    """Restores into a root with attached dependencies: the root's node, and each saved
    child naming an attached object."""
    attached = {name: obj for name, obj in view.list_children(view.root).items()}
    root = view.root
    positions = []
    root_proto = restoration.graph.nodes[0]
    restoration.bind(0, root)
    own = TrackableView.children(root)
    for child in root_proto.children:
        position = CheckpointPosition(restoration, child.node_id)
        if child.local_name in attached:
            positions.append((position, attached[child.local_name]))
        elif hasattr(root, "__dict__") and child.local_name not in own:
            root._deferred_dependencies.setdefault(child.local_name, []).append(position)
    for position, obj in positions:
        position.restore(obj)


# -- the state file and the manager --------------------------------------------------------
class CheckpointState:
    """The `checkpoint` file of a directory: the latest checkpoint and those kept."""

    def __init__(self, model_checkpoint_path: str, all_model_checkpoint_paths: list,
                 all_model_checkpoint_timestamps=(), last_preserved_timestamp=0.0) -> None:
        self.model_checkpoint_path = model_checkpoint_path
        self.all_model_checkpoint_paths = all_model_checkpoint_paths
        self.all_model_checkpoint_timestamps = list(all_model_checkpoint_timestamps)
        self.last_preserved_timestamp = last_preserved_timestamp


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
    latest, kept, stamps, preserved = None, [], [], 0.0
    for line in text.splitlines():
        match = re.match(r'\s*(\w+):\s*"(.*)"\s*$', line)
        number = re.match(r'\s*(\w+):\s*([-+0-9.eE]+)\s*$', line)
        if match:
            value = _confined(path, directory, match.group(2))
            if match.group(1) == "model_checkpoint_path":
                latest = value
            elif match.group(1) == "all_model_checkpoint_paths":
                kept.append(value)
        elif number and number.group(1) == "all_model_checkpoint_timestamps":
            stamps.append(float(number.group(2)))
        elif number and number.group(1) == "last_preserved_timestamp":
            preserved = float(number.group(2))
    return CheckpointState(latest, kept, stamps, preserved) if latest else None


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


def write_state(directory: str, latest: str, kept: list, filename: str | None = None,
                timestamps=(), last_preserved=None) -> None:
    """Records `latest` and the `kept` checkpoints in the `checkpoint` file (or `filename`)
    of `directory` (atomically), in TF's text form of a CheckpointState."""
    lines = [f'model_checkpoint_path: "{os.path.relpath(latest, directory)}"']
    lines += [f'all_model_checkpoint_paths: "{os.path.relpath(p, directory)}"' for p in kept]
    lines += [f"all_model_checkpoint_timestamps: {t!r}" for t in timestamps]
    if last_preserved is not None:
        lines.append(f"last_preserved_timestamp: {last_preserved!r}")
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
    if state is None or not checkpoint_exists(state.model_checkpoint_path):
        return None
    return state.model_checkpoint_path


def remove_checkpoint_files(prefix: str) -> None:
    """Deletes the files of the checkpoint `prefix` (those missing are skipped)."""
    import glob
    for path in [prefix + ".index", data_path(prefix)] + glob.glob(glob.escape(prefix)
                                                                     + ".data-*-of-*"):
        with contextlib.suppress(FileNotFoundError):
            os.remove(path)


class CheckpointManager:
    """Numbered checkpoints in a directory, keeping the newest `max_to_keep`.

    Args:
        checkpoint: the Checkpoint to save.
        directory: where to write (created if needed).
        max_to_keep: how many to keep (None keeps all).
        keep_checkpoint_every_n_hours: besides those, keep one checkpoint per this many
            hours for good.
        checkpoint_name: the file prefix (default 'ckpt').
        step_counter: a Variable counting steps: with `checkpoint_interval`, decides when
            `save` writes (the checkpoints are numbered by the save counter, as TF does).
        checkpoint_interval: `save` writes only once the step counter has moved this many
            steps past the last checkpoint.
        init_fn: what `restore_or_initialize` runs when there is no checkpoint.

    Raises:
        ValueError: `max_to_keep` is not positive, or `checkpoint_interval` without
            `step_counter`.

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
        import time
        if max_to_keep is not None and max_to_keep <= 0:
            raise ValueError("Expected a positive integer or `None` for `max_to_keep`, got "
                             f"{max_to_keep}.")
        if checkpoint_interval is not None and step_counter is None:
            raise ValueError("`step_counter` should be passed if `checkpoint_interval` is not "
                             "None.")
        self._checkpoint = checkpoint
        self.directory = os.fspath(directory)
        self._max_to_keep = max_to_keep
        self._keep_every = keep_checkpoint_every_n_hours
        self._prefix = os.path.join(self.directory, checkpoint_name)
        self._step_counter = step_counter
        self._checkpoint_interval = checkpoint_interval
        self._init_fn = init_fn
        self._last_checkpoint_step = None
        state = get_checkpoint_state(self.directory)
        now = time.time()
        if state is None:
            self._latest_checkpoint = None
            self._maybe_delete: dict = {}
            self._last_preserved_timestamp = now
        else:
            # As TF: what the state file names, whether or not its files are there (a
            # restore of a missing one raises NotFoundError; nothing starts fresh silently).
            self._latest_checkpoint = state.model_checkpoint_path
            stamps = state.all_model_checkpoint_timestamps
            self._maybe_delete = {p: (stamps[i] if i < len(stamps) else now)
                                  for i, p in enumerate(state.all_model_checkpoint_paths)}
            self._last_preserved_timestamp = state.last_preserved_timestamp or now
        if self._latest_checkpoint is not None and self._latest_checkpoint not in \
                self._maybe_delete:
            self._maybe_delete[self._latest_checkpoint] = now

    @property
    def checkpoints(self) -> list:
        """The kept checkpoints (those still to be deleted by max_to_keep), oldest first."""
        return list(self._maybe_delete)

    @property
    def latest_checkpoint(self):
        """The newest checkpoint's path, or None."""
        return self._latest_checkpoint

    @property
    def checkpoint(self) -> Checkpoint:
        return self._checkpoint

    @property
    def directory_path(self) -> str:
        return self.directory

    @property
    def checkpoint_interval(self):
        return self._checkpoint_interval

    def _sweep(self) -> None:
        """Deletes the oldest checkpoints beyond max_to_keep, keeping one every
        keep_checkpoint_every_n_hours."""
        if not self._max_to_keep:
            return
        while len(self._maybe_delete) > self._max_to_keep:
            path, stamp = next(iter(self._maybe_delete.items()))
            del self._maybe_delete[path]
            if path == self._latest_checkpoint:
                continue
            if self._keep_every is not None and \
                    stamp - self._keep_every * 3600.0 >= self._last_preserved_timestamp:
                self._last_preserved_timestamp = stamp
                continue
            remove_checkpoint_files(path)

    def save(self, checkpoint_number=None, check_interval: bool = True, options=None):
        """Writes the next checkpoint, records it, then deletes those beyond max_to_keep;
        returns its path, or None when `checkpoint_interval` says it is not time yet.

        The data files, then the state file, are each replaced atomically, and old files
        are deleted last, so a crash at any point leaves a consistent directory.
        """
        import time
        if self._checkpoint_interval is not None and check_interval:
            step = int(self._step_counter)
            if self._last_checkpoint_step is not None and \
                    step < self._last_checkpoint_step + self._checkpoint_interval:
                return None
        counter = self._checkpoint.save_counter
        counter.assign_add(1)
        if checkpoint_number is None:       # as TF: the save counter, even with a step counter
            checkpoint_number = int(counter)
        path = self._checkpoint.write(f"{self._prefix}-{int(checkpoint_number)}")
        if self._step_counter is not None:
            self._last_checkpoint_step = int(self._step_counter)
        self._latest_checkpoint = path
        self._maybe_delete.pop(path, None)
        self._maybe_delete[path] = time.time()
        self._sweep()
        write_state(self.directory, path, list(self._maybe_delete),
                    timestamps=list(self._maybe_delete.values()),
                    last_preserved=self._last_preserved_timestamp)
        return path

    def restore_or_initialize(self):
        """Restores the latest checkpoint and returns its path; with none recorded, runs
        `init_fn` (if given) and returns None.

        Raises:
            NotFoundError: the state file names a checkpoint whose files are missing.
        """
        if self._latest_checkpoint is not None:
            self._checkpoint.restore(self._latest_checkpoint)
            if self._step_counter is not None:
                self._last_checkpoint_step = int(self._step_counter)
            return self._latest_checkpoint
        if self._init_fn is not None:
            self._init_fn()
        return None
