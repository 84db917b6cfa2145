"""The object graph of a checkpoint: saving walks the trackables from a root, breadth
first, and writes each one's tensors under the path of edge names that first reaches it
(`<path>/.ATTRIBUTES/<name>`), with the graph itself as a TrackableObjectGraph proto under
`_CHECKPOINTABLE_OBJECT_GRAPH`; restoring walks the saved graph from its root, matching
children by edge name, and leaves what it cannot place yet in the objects'
`_deferred_dependencies` (restore on create).

Example:
    >>> import tapeflow as tf
    >>> from tapeflow.train.object_graph import escape_local_name
    >>> escape_local_name("a.x/y")
    'a..x.Sy'
"""
from __future__ import annotations

import itertools
import weakref

import numpy as np

from ..framework import errors
from ..trackable.base import Trackable

__all__ = ["escape_local_name", "ObjectGraphView", "TrackableView", "CheckpointView", "serialize",
           "Restoration", "CheckpointPosition", "OBJECT_GRAPH_KEY"]

OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"
_ATTRIBUTES = ".ATTRIBUTES"
_SLOTS = ".OPTIMIZER_SLOT"
_uids = itertools.count()


def _proto():
    try:
        from tensorboard.compat.proto import trackable_object_graph_pb2
    except ImportError as e:  # pragma: no cover
        raise ImportError("TF's checkpoints need the `protobuf` messages shipped by the "
                          "`tensorboard` package: pip install 'tapeflow[io]'") from e
    return trackable_object_graph_pb2


def escape_local_name(name: str) -> str:
    """An edge name as a checkpoint key writes it: '.' doubled, '/' as '.S'."""
    return name.replace(".", "..").replace("/", ".S")


def _slot_key(variable_path: str, optimizer_path: str, slot_name: str) -> str:
    return f"{variable_path}/{_SLOTS}/{optimizer_path}/{escape_local_name(slot_name)}"


class TrackableView:
    """The children of trackables, for walking an object graph.

    Args:
        root: the trackable the walk starts from.

    Example:
        >>> import tapeflow as tf
        >>> m = tf.Module()
        >>> m.v = tf.Variable(1.0)
        >>> view = tf.train.TrackableView(m)
        >>> list(view.children(m)), len(view.descendants())
        (['v'], 2)
    """

    def __init__(self, root) -> None:
        self._root_ref = root

    @property
    def root(self):
        return self._root_ref

    @classmethod
    def children(cls, obj, save_type: str = "checkpoint", **kwargs) -> dict:
        """{edge name: trackable} of `obj` (its non-trackable entries left out)."""
        obj._maybe_initialize_trackable() if hasattr(obj, "__dict__") else None
        return {name: child for name, child in obj._trackable_children(save_type, **kwargs).items()
                if isinstance(child, Trackable)}

    def descendants(self) -> list:
        """Every trackable reachable from the root, breadth first, the root first."""
        return self._breadth_first()[0]

    def _breadth_first(self) -> tuple:
        """(objects in BFS order, {id: path tuple of names}, {id: children}); each
        object's children are asked for once (a container made on the fly stays one)."""
        root = self.root
        objects, paths, children_of = [root], {id(root): ()}, {}
        index = 0
        while index < len(objects):
            obj = objects[index]
            index += 1
            children_of[id(obj)] = children = self.list_children(obj)
            for name, child in children.items():
                if id(child) not in paths:
                    paths[id(child)] = paths[id(obj)] + (name,)
                    objects.append(child)
        return objects, paths, children_of

    def list_children(self, obj) -> dict:
        return self.children(obj)


class ObjectGraphView(TrackableView):
    """A TrackableView whose root has extra edges (`attached_dependencies`: how a
    Checkpoint with a `root` adds its keyword arguments and `save_counter`)."""

    def __init__(self, root, attached_dependencies=None) -> None:
        super().__init__(root)
        self._attached = list(attached_dependencies or ())

    def list_children(self, obj) -> dict:
        children = self.children(obj)
        if obj is self.root:
            for reference in self._attached:
                children.setdefault(reference.name, reference.ref)
        return children


def _as_array(value):
    if callable(value) and not hasattr(value, "numpy"):
        value = value()
    if isinstance(value, (bytes, str)):
        return value.encode() if isinstance(value, str) else value
    if hasattr(value, "numpy"):
        value = value.numpy()
    return np.asarray(value)


def _saved_tensors(obj) -> list:
    """(attribute name, full name, tensor name suffix or None, value, restore handle) of
    what `obj` saves itself."""
    if type(obj)._serialize_to_tensors is not Trackable._serialize_to_tensors:
        try:
            tensors = obj._serialize_to_tensors()
        except NotImplementedError:
            tensors = {}
        full = getattr(obj, "_shared_name", "") if hasattr(obj, "_shared_name") else ""
        return [(name, full if isinstance(full, str) else "", value)
                for name, value in tensors.items()]
    found = []
    for name, factory in obj._gather_saveables_for_checkpoint().items():
        saveable = factory(name=name) if callable(factory) else factory
        for spec in getattr(saveable, "specs", ()):
            found.append((name, getattr(saveable, "name", ""), spec.tensor))
    return found


def serialize(view: TrackableView) -> tuple:
    """({checkpoint key: array or bytes} with the object graph, [objects]) of `view`."""
    pb = _proto()
    objects, paths, children_of = view._breadth_first()
    node_ids = {id(obj): i for i, obj in enumerate(objects)}
    graph = pb.TrackableObjectGraph()
    nodes = [graph.nodes.add() for _ in objects]
    path_text = {i: "/".join(escape_local_name(n) for n in paths[id(obj)])
                 for i, obj in enumerate(objects)}
    for i, obj in enumerate(objects):
        for name, child in children_of[id(obj)].items():
            nodes[i].children.add(node_id=node_ids[id(child)], local_name=name)
    # Slot variables of optimizers that keep them per variable (TF1's protocol).
    originals = list(objects)
    for i, obj in enumerate(originals):
        if not (hasattr(obj, "get_slot_names") and hasattr(obj, "get_slot")):
            continue
        for slot_name in obj.get_slot_names():
            for original_id, original in enumerate(originals):
                slot = _get_slot(obj, original, slot_name)
                if slot is None:
                    continue
                if id(slot) not in node_ids:
                    node_ids[id(slot)] = len(objects)
                    objects.append(slot)
                    nodes.append(graph.nodes.add())
                    path_text[node_ids[id(slot)]] = _slot_key(path_text[original_id],
                                                             path_text[i], slot_name)
                nodes[i].slot_variables.add(original_variable_node_id=original_id,
                                            slot_name=slot_name,
                                            slot_variable_node_id=node_ids[id(slot)])
    tensors = {}
    for i, obj in enumerate(objects):
        for name, full_name, value in _saved_tensors(obj):
            key = f"{path_text[i]}/{_ATTRIBUTES}/{escape_local_name(name)}"
            nodes[i].attributes.add(name=name, full_name=full_name, checkpoint_key=key)
            if isinstance(value, dict):  # one attribute, several tensors at key + suffix
                for suffix, part in value.items():
                    tensors[key + suffix] = _as_array(part)
            else:
                tensors[key] = _as_array(value)
    has_values = [bool(n.attributes) or bool(n.slot_variables) for n in nodes]
    changed = True
    while changed:
        changed = False
        for i, node in enumerate(nodes):
            if not has_values[i] and any(has_values[c.node_id] for c in node.children):
                has_values[i] = changed = True
    for node, value in zip(nodes, has_values):
        node.has_checkpoint_values.value = value
    tensors[OBJECT_GRAPH_KEY] = graph.SerializeToString()
    return tensors, objects


def _get_slot(optimizer, variable, slot_name):
    from ..framework.variables import Variable
    if not isinstance(variable, Variable):
        return None
    try:
        return optimizer.get_slot(variable, slot_name)
    except (KeyError, ValueError):
        return None


# -- restoring -------------------------------------------------------------------------------
class Restoration:
    """One restore: the reader, the saved graph, and which saved nodes are bound to which
    Python objects (what the load status reports on)."""

    def __init__(self, reader, save_path: str, graph_bytes: bytes, legacy: bool = False) -> None:
        pb = _proto()
        self.reader = reader
        self.legacy = legacy        # tapeflow's former format: its former edge names too
        self.save_path = save_path
        self.graph = pb.TrackableObjectGraph()
        try:
            self.graph.ParseFromString(graph_bytes)
        except Exception as e:  # noqa: BLE001  (a damaged proto)
            raise errors.DataLossError(None, None, f"Unable to parse the object graph of the "
                                                   f"checkpoint {save_path}: {e}") from None
        self.restore_uid = next(_uids)
        self.object_by_proto_id = weakref.WeakValueDictionary()
        self._strong = {}      # node id -> object with no weak reference support
        self.matched_proto_ids: set = set()
        self.python_objects: list = []      # weak references to every object the walk met
        self.deferred_slots: dict = {}       # original node id -> [(optimizer node, slot ref)]
        self.expect_partial = False
        self.assigned: set = set()           # node ids whose values were assigned

    def bound(self, node_id: int):
        obj = self.object_by_proto_id.get(node_id)
        return obj if obj is not None else self._strong.get(node_id)

    def bind(self, node_id: int, obj) -> None:
        try:
            self.object_by_proto_id[node_id] = obj
        except TypeError:
            self._strong[node_id] = obj
        self.matched_proto_ids.add(node_id)
        try:
            self.python_objects.append(weakref.ref(obj))
        except TypeError:
            self.python_objects.append(lambda obj=obj: obj)

    def restore(self, root) -> None:
        """Binds the saved root to `root` and restores everything reachable now."""
        CheckpointPosition(self, 0).restore(root)


class CheckpointPosition:
    """A node of a saved object graph within one restore (what deferred dependencies
    hold)."""

    def __init__(self, checkpoint: Restoration, proto_id: int) -> None:
        self._checkpoint = checkpoint
        self._proto_id = proto_id

    @property
    def checkpoint(self) -> Restoration:
        return self._checkpoint

    @property
    def proto_id(self) -> int:
        return self._proto_id

    @property
    def restore_uid(self) -> int:
        return self._checkpoint.restore_uid

    @property
    def object_proto(self):
        return self._checkpoint.graph.nodes[self._proto_id]

    def is_simple_variable(self) -> bool:
        proto = self.object_proto
        return len(proto.attributes) == 1 and proto.attributes[0].name == "VARIABLE_VALUE" \
            and not proto.children

    def value_tensors(self) -> dict:
        """{attribute name: saved value} of this node."""
        return {a.name: self._checkpoint.reader.read(a.checkpoint_key)
                for a in self.object_proto.attributes}

    def restore(self, trackable) -> None:
        """Binds this node (and what hangs below it) to `trackable` and assigns the values;
        children the object does not have yet wait in its `_deferred_dependencies`.

        Raises:
            ValueError: a saved shape that does not fit its variable.
            InvalidArgumentError: a saved dtype that differs from its variable's.
        """
        queue = [(self, trackable)]
        assignments = []
        while queue:
            position, obj = queue.pop(0)
            if not position._bind(obj):
                continue
            if position.object_proto.attributes:
                assignments.append((position, obj))
            position._restore_slots(obj, queue)
            children = TrackableView.children(obj) if isinstance(obj, Trackable) else {}
            legacy = getattr(obj, "_legacy_checkpoint_children", None)
            if legacy is not None and self._checkpoint.legacy:
                children = {**legacy(), **children}
            for child in position.object_proto.children:
                child_position = CheckpointPosition(self._checkpoint, child.node_id)
                if child.local_name in children:
                    queue.append((child_position, children[child.local_name]))
                elif hasattr(obj, "__dict__"):
                    obj._deferred_dependencies.setdefault(child.local_name, []).append(
                        child_position)
        values = [(position, obj, position._checked_values(obj)) for position, obj in assignments]
        for position, obj, tensors in values:
            position._assign(obj, tensors)

    def _bind(self, obj) -> bool:
        """Whether `obj` takes this node now (not when another object has it, or a newer
        restore already wrote into it)."""
        checkpoint = self._checkpoint
        current = checkpoint.bound(self._proto_id)
        if current is not None:
            return False
        checkpoint.bind(self._proto_id, obj)
        if getattr(obj, "_update_uid", -1) > checkpoint.restore_uid:
            return False
        for optimizer_id, slot in checkpoint.deferred_slots.pop(self._proto_id, []):
            optimizer = checkpoint.bound(optimizer_id)
            if optimizer is not None:
                _restore_slot(checkpoint, optimizer, slot, obj)
        return True

    def _restore_slots(self, optimizer, queue) -> None:
        checkpoint = self._checkpoint
        for slot in self.object_proto.slot_variables:
            original = checkpoint.bound(slot.original_variable_node_id)
            if original is None:
                checkpoint.deferred_slots.setdefault(slot.original_variable_node_id, []).append(
                    (self._proto_id, slot))
            else:
                _restore_slot(checkpoint, optimizer, slot, original)

    def _checked_values(self, obj) -> dict:
        reader = self._checkpoint.reader
        tensors = {}
        for attribute in self.object_proto.attributes:
            key = attribute.checkpoint_key
            parts = _attribute_parts(obj, attribute.name)
            if parts is not None:  # one attribute saved as several tensors (a table's)
                tensors[attribute.name] = {suffix: reader.read(key + suffix) for suffix in parts}
                continue
            value = reader.read(key)
            dtype = getattr(obj, "dtype", None)
            if attribute.name == "VARIABLE_VALUE" and dtype is not None \
                    and hasattr(dtype, "as_numpy_dtype") and isinstance(value, np.ndarray) \
                    and value.dtype != np.dtype(dtype.as_numpy_dtype):
                raise errors.InvalidArgumentError(
                    None, None, f"tensor_name = {key}; expected dtype {dtype.name} does not "
                                f"equal original dtype {_dtype_name(value.dtype)} (restoring "
                                f"from {self._checkpoint.save_path})")
            shape = getattr(obj, "shape", None)
            if attribute.name == "VARIABLE_VALUE" and hasattr(shape, "is_compatible_with") \
                    and isinstance(value, np.ndarray) \
                    and not shape.is_compatible_with(value.shape):
                raise ValueError(f"Received incompatible tensor with shape {value.shape} when "
                                 f"attempting to restore variable with shape "
                                 f"{tuple(shape.as_list())} and name "
                                 f"{getattr(obj, 'name', key)} (checkpoint key {key}).")
            tensors[attribute.name] = value
        return tensors

    def _assign(self, obj, tensors: dict) -> None:
        if type(obj)._restore_from_tensors is not Trackable._restore_from_tensors:
            obj._restore_from_tensors(tensors)
        else:
            for name, factory in obj._gather_saveables_for_checkpoint().items():
                saveable = factory(name=name) if callable(factory) else factory
                if name in tensors:
                    saveable.restore([tensors[name]], None)
        obj._update_uid = self._checkpoint.restore_uid
        self._checkpoint.assigned.add(self._proto_id)


def _attribute_parts(obj, name: str):
    """The tensor-name suffixes of attribute `name` when `obj` saves it as several tensors
    (`_serialize_to_tensors` giving {name: {suffix: tensor}}), else None."""
    if type(obj)._serialize_to_tensors is Trackable._serialize_to_tensors:
        return None
    try:
        value = obj._serialize_to_tensors().get(name)
    except NotImplementedError:
        return None
    return list(value) if isinstance(value, dict) else None


def _dtype_name(dtype) -> str:
    return {"float32": "float", "float64": "double"}.get(np.dtype(dtype).name,
                                                          np.dtype(dtype).name)


def _restore_slot(checkpoint, optimizer, slot, variable) -> None:
    position = CheckpointPosition(checkpoint, slot.slot_variable_node_id)
    make = getattr(optimizer, "_create_or_restore_slot_variable", None)
    if make is not None:
        make(slot_variable_position=position, slot_name=slot.slot_name, variable=variable)


class CheckpointView:
    """The object graph a checkpoint holds, read without restoring anything.

    Args:
        save_path: the checkpoint's prefix.

    Raises:
        NotFoundError: no checkpoint there.

    Example:
        >>> import os, tempfile
        >>> import tapeflow as tf
        >>> m = tf.Module()
        >>> m.v = tf.Variable(1.0)
        >>> path = tf.train.Checkpoint(m=m).write(os.path.join(tempfile.mkdtemp(), "c"))
        >>> view = tf.train.CheckpointView(path)
        >>> view.children(0), view.descendants()
        ({'m': 1}, [0, 1, 2])
        >>> sorted(view.match(tf.train.Checkpoint(m=m)))
        [0, 1, 2]
    """

    def __init__(self, save_path) -> None:
        from .checkpoint import _graph_bytes, _open
        reader = _open(save_path)
        self._graph = _proto().TrackableObjectGraph()
        self._graph.ParseFromString(_graph_bytes(reader))

    def children(self, node_id: int) -> dict:
        """{edge name: node id} of the saved node `node_id`."""
        return {c.local_name: c.node_id for c in self._graph.nodes[node_id].children}

    def descendants(self) -> list:
        """Every node id reachable from the root (0), breadth first."""
        seen, queue = [0], [0]
        while queue:
            for child in self._graph.nodes[queue.pop(0)].children:
                if child.node_id not in seen:
                    seen.append(child.node_id)
                    queue.append(child.node_id)
        return seen

    def match(self, obj) -> dict:
        """{node id: trackable} of the saved nodes `obj`'s graph has under the same edge
        names, from the root."""
        matched = {0: obj}
        queue = [(0, obj)]
        while queue:
            node_id, current = queue.pop(0)
            children = TrackableView.children(current)
            for child in self._graph.nodes[node_id].children:
                if child.local_name in children and child.node_id not in matched:
                    matched[child.node_id] = children[child.local_name]
                    queue.append((child.node_id, children[child.local_name]))
        return matched

    def diff(self, obj) -> tuple:
        """(the matched {node id: trackable}, saved node ids not matched, trackables of
        `obj` not matched)."""
        matched = self.match(obj)
        unmatched_nodes = [n for n in self.descendants() if n not in matched]
        bound = {id(o) for o in matched.values()}
        unmatched_objects = [o for o in TrackableView(obj).descendants() if id(o) not in bound]
        return matched, unmatched_nodes, unmatched_objects
