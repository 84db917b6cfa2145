"""Functional models: `keras.Model(inputs, outputs)` over the layer calls recorded on
KerasTensors.

The model walks back from its outputs through the recorded Nodes to its `keras.Input`s,
orders the nodes so that each comes after those it reads, and on each call runs them in
that order on real tensors (eagerly, or while `tf.function` traces the step). Layers
called more than once (shared layers) run once per call site with the same weights, so
their gradients add up over the uses.
"""
from __future__ import annotations

from ..framework import nest
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.variables import Variable
from ..ops.math_ops import cast
from ..trackable.data_structures import ListWrapper
from . import backend
from .keras_tensor import KerasTensor
from .layers.input_layer import InputLayer
from .models import Model
from .naming import snake_case
from .saving.serialization import deserialize_keras_object, serialize_keras_object

__all__ = ["Functional"]


def _operations_list(model, operations: list):
    """The model's one `_operations` list wrapper, kept up to date with `operations`."""
    wrapper = model.__dict__.get("_operations_wrapper")
    if wrapper is None:
        wrapper = ListWrapper()
        model.__dict__["_operations_wrapper"] = wrapper
    if len(wrapper) != len(operations) or any(a is not b for a, b in zip(wrapper, operations)):
        wrapper[:] = operations
    return wrapper


def _unwrap_single(structure):
    """A one-element list or tuple of KerasTensors stands for its element, as in Keras."""
    if isinstance(structure, (list, tuple)) and len(structure) == 1:
        return structure[0]
    return structure


def _sorted_nodes(inputs: list, outputs: list) -> list:
    """The non-input nodes the outputs depend on, each after the nodes it reads.

    Raises:
        ValueError: an output depends on a keras.Input that is not among `inputs`.
    """
    wanted = {id(x) for x in inputs}
    order, finished = [], set()
    for output in outputs:
        stack = [output.node]
        while stack:
            node = stack[-1]
            if id(node) in finished:
                stack.pop()
                continue
            if isinstance(node.layer, InputLayer):
                if id(node.outputs[0]) not in wanted:
                    raise ValueError(
                        f"Graph disconnected: cannot obtain the value of {node.outputs[0]!r} "
                        f"at layer '{node.layer.name}': it is not one of the model's inputs "
                        f"{[x.node.layer.name for x in inputs]}. Pass it in `inputs`.")
                finished.add(id(node))
                stack.pop()
                continue
            pending = [x.node for x in node.inputs if id(x.node) not in finished]
            if pending:
                stack.extend(reversed(pending))
            else:
                finished.add(id(node))
                order.append(node)
                stack.pop()
    return order


def _layers_by_depth(inputs: list, outputs: list) -> list:
    """The graph's layers in Keras's order: deepest first (a layer's depth is the longest
    path from its calls to an output), layers of equal depth in the order a depth-first
    walk from the outputs first meets them. Keras names a model's weights in files by
    this order."""
    first_seen: dict = {}
    post_order: list = []
    finished: set = set()
    stack = [(x.node, False) for x in reversed(outputs)]
    while stack:
        node, expanded = stack.pop()
        if id(node) in finished:
            continue
        if expanded:
            finished.add(id(node))
            post_order.append(node)
            continue
        first_seen.setdefault(id(node.layer), (len(first_seen), node.layer))
        stack.append((node, True))
        stack.extend((x.node, False) for x in reversed(node.inputs))
    node_depth: dict = {}
    layer_depth: dict = {}
    for node in reversed(post_order):
        depth = max(node_depth.get(id(node), 0), layer_depth.get(id(node.layer), 0))
        layer_depth[id(node.layer)] = node_depth[id(node)] = depth
        for x in node.inputs:
            node_depth[id(x.node)] = max(depth + 1, node_depth.get(id(x.node), 0))
    for x in inputs:                          # inputs no output depends on come first
        if id(x.node.layer) not in layer_depth:
            layer_depth[id(x.node.layer)] = 0
            first_seen[id(x.node.layer)] = (-1, x.node.layer)
    ordered = sorted(first_seen.items(), key=lambda item: (-layer_depth[item[0]], item[1][0]))
    return [layer for _, (_, layer) in ordered]


def _check_inputs(inputs: list) -> None:
    for x in inputs:
        if not isinstance(x, KerasTensor) or not isinstance(x.node.layer, InputLayer):
            raise ValueError("Input tensors of a functional model must come from "
                             f"`tf.keras.Input`. Received: {x!r}")


def _check_outputs(outputs: list) -> None:
    for x in outputs:
        if not isinstance(x, KerasTensor):
            raise ValueError("Output tensors of a functional model must be outputs of Keras "
                             f"layers called on `tf.keras.Input`s. Received: {x!r}")


def _shape_text(shapes: list) -> str:
    return str(shapes[0]) if len(shapes) == 1 else "[" + ", ".join(map(str, shapes)) + "]"


class Functional(Model):
    """A model defined by its inputs and outputs: `tf.keras.Model(inputs, outputs)`.

    Build the graph by calling layers on `tf.keras.Input` tensors (and on the results);
    the model then runs those calls, in order, on real data. Inputs and outputs may be one
    KerasTensor, a list, or a dict; a model whose inputs are a list also accepts a dict
    keyed by input names. The model is built at once: `summary()`, `weights` and
    `count_params()` work before it sees data.

    Args:
        inputs: the model's `tf.keras.Input` tensors.
        outputs: KerasTensors computed from them.
        name: default 'model', 'model_1', ...
        trainable: whether `fit` updates the weights.

    Raises:
        ValueError: inputs that are not `tf.keras.Input` tensors, outputs that are not
            layer outputs, or outputs that depend on other inputs ("Graph disconnected").

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.backend.clear_session()
        >>> a = tf.keras.Input(shape=(3,), name="a")
        >>> b = tf.keras.Input(shape=(2,), name="b")
        >>> merged = tf.keras.layers.Concatenate()([a, b])
        >>> out = tf.keras.layers.Dense(1, kernel_initializer="ones")(merged)
        >>> model = tf.keras.Model(inputs=[a, b], outputs=out)
        >>> [layer.name for layer in model.layers]
        ['a', 'b', 'concatenate', 'dense']
        >>> model([tf.ones([1, 3]), tf.ones([1, 2])]).numpy()
        array([[5.]], dtype=float32)
    """

    _TF_MODULE_IGNORED_PROPERTIES = Model._TF_MODULE_IGNORED_PROPERTIES | frozenset((
        "_nested_inputs", "_nested_outputs", "inputs", "outputs", "_nodes", "_graph_layers",
        "output_names", "input_names"))

    def __init__(self, inputs, outputs, name: str | None = None, trainable: bool = True,
                 **kwargs) -> None:
        if name is None:
            base = type(self).__name__
            name = backend.unique_object_name(
                "model" if base == "Functional" else snake_case(base))
        Model.__init__(self, name=name, trainable=trainable, **kwargs)
        self._nested_inputs = _unwrap_single(inputs)
        self._nested_outputs = _unwrap_single(outputs)
        self.inputs = nest.flatten(self._nested_inputs)
        self.outputs = nest.flatten(self._nested_outputs)
        _check_inputs(self.inputs)
        _check_outputs(self.outputs)
        self._nodes = _sorted_nodes(self.inputs, self.outputs)
        self._graph_layers = _layers_by_depth(self.inputs, self.outputs)
        self.input_names = [x.node.layer.name for x in self.inputs]
        if isinstance(self._nested_outputs, dict):
            self.output_names = sorted(self._nested_outputs)
        else:
            self.output_names = [x.node.layer.name for x in self.outputs]
        shapes = [x.shape for x in self.inputs]
        self._build_input_shape = shapes[0] if len(shapes) == 1 else shapes
        self.built = True

    # -- structure ------------------------------------------------------------------------
    @property
    def layers(self) -> list:
        """Every layer of the graph, inputs first, each once, in the order they run."""
        return list(self._graph_layers)

    def _sublayers(self) -> list:
        return list(self._graph_layers)

    @property
    def input(self):
        """The input KerasTensor (a list or dict of them for several inputs)."""
        return self._nested_inputs

    @property
    def output(self):
        """The output KerasTensor (a list or dict of them for several outputs)."""
        return self._nested_outputs

    @property
    def input_shape(self):
        shapes = [tuple(x.shape.as_list()) for x in self.inputs]
        return shapes[0] if len(shapes) == 1 else shapes

    @property
    def output_shape(self):
        shapes = [tuple(x.shape.as_list()) for x in self.outputs]
        return shapes[0] if len(shapes) == 1 else shapes

    def build(self, input_shape) -> None:
        """Nothing to do: a functional model is built when it is created."""

    # -- running --------------------------------------------------------------------------
    def _flat_inputs(self, inputs) -> list:
        if isinstance(inputs, dict) and not isinstance(self._nested_inputs, dict):
            missing = [name for name in self.input_names if name not in inputs]
            if missing:
                raise ValueError(f'Layer "{self.name}": missing data for input(s) {missing}; '
                                 f"the dict has keys {sorted(inputs)} and the model's inputs "
                                 f"are {self.input_names}.")
            return [inputs[name] for name in self.input_names]
        flat = nest.flatten(inputs)
        if len(flat) != len(self.inputs):
            raise ValueError(f'Layer "{self.name}" expects {len(self.inputs)} input(s), but it '
                             f"received {len(flat)} input tensors. Input shapes received: "
                             f"{[tuple(getattr(x, 'shape', ())) for x in flat]}")
        return flat

    def _conform(self, index: int, reference: KerasTensor, x) -> Tensor:
        """`x` as a tensor of the input's dtype, checked against the input's shape.

        Raises:
            ValueError: another rank, or a known dimension that differs.
        """
        if not isinstance(x, (Tensor, Variable)):
            x = convert_to_tensor(x)
        expected, found = reference.shape.as_list(), x.shape.as_list()
        if len(expected) != len(found) or any(
                e is not None and f is not None and e != f for e, f in zip(expected, found)):
            raise ValueError(f'Input {index} of layer "{self.name}" is incompatible with the '
                             f"layer: expected shape={tuple(expected)}, found shape="
                             f"{tuple(found)} (input '{reference.node.layer.name}').")
        if x.dtype is not reference.dtype:
            x = cast(x, reference.dtype)
        return x

    def call(self, inputs, training=None, mask=None):
        """Runs the recorded layer calls on `inputs`; returns the outputs' structure."""
        values = {id(ref): self._conform(i, ref, x)
                  for i, (ref, x) in enumerate(zip(self.inputs, self._flat_inputs(inputs)))}
        for node in self._nodes:
            for output, value in zip(node.outputs, node.run(values, training)):
                values[id(output)] = value
        return nest.pack_sequence_as(self._nested_outputs,
                                     [values[id(x)] for x in self.outputs])

    # -- summary and checkpoints ----------------------------------------------------------
    def _nodes_of(self, layer) -> list:
        return [node for node in self._nodes if node.layer is layer]

    def _is_chain(self) -> bool:
        """Whether the graph is a plain stack: one input, each layer called once on one
        tensor (then summary needs no 'Connected to' column)."""
        if len(self.inputs) != 1 or len(self.outputs) != 1:
            return False
        return all(len(node.inputs) == 1 and len(node.outputs) == 1 for node in self._nodes) \
            and len({id(node.layer) for node in self._nodes}) == len(self._nodes)

    def _summary_rows(self) -> tuple:
        chain = self._is_chain()
        rows = []
        for layer in self._graph_layers:
            if isinstance(layer, InputLayer):
                shape, sources = f"[{layer.output.shape}]", []
            else:
                nodes = self._nodes_of(layer)
                shapes = {_shape_text([x.shape for x in node.outputs]) for node in nodes}
                shape = shapes.pop() if len(shapes) == 1 else "multiple"
                sources = [f"'{x.node.layer.name}[{x.node.layer._inbound_nodes.index(x.node)}]"
                           f"[{x.index}]'" for node in nodes for x in node.inputs]
            row = [f"{layer.name} ({type(layer).__name__})", shape, _param_count(layer)]
            rows.append(row if chain else row + [sources])
        return rows, not chain

    def _trackable_children(self, save_type: str = "checkpoint", **kwargs) -> dict:
        """Keras 3's edges: the operations (input layers included) as `_operations/<i>`."""
        return {"_operations": _operations_list(self, self._graph_layers),
                **super()._trackable_children(save_type, **kwargs)}

    def get_build_config(self):
        """{'input_shape': None}, as Keras 3 records a model built from its Inputs (the
        graph builds it on loading)."""
        return {"input_shape": None}

    def _legacy_checkpoint_children(self) -> dict:
        """The edges tapeflow's former checkpoints used ('layer-<i>')."""
        return {**super()._legacy_checkpoint_children(),
                **{f"layer-{i}": layer for i, layer in enumerate(self._graph_layers)}}

    # -- configuration --------------------------------------------------------------------
    def get_config(self) -> dict:
        """Keras 3's functional config: each layer's config with the calls made of it
        ('inbound_nodes', their tensors named [layer, call, output]), and the layer outputs
        that are the model's inputs and outputs."""
        node_index = {}
        for layer in self._graph_layers:
            own = [node for node in layer._inbound_nodes
                   if node in self._nodes or isinstance(layer, InputLayer)]
            node_index.update((id(node), i) for i, node in enumerate(own))

        def history(x: KerasTensor) -> list:
            return [x.node.layer.name, node_index[id(x.node)], x.index]

        def tensor_config(x):
            if not isinstance(x, KerasTensor):
                return x
            return {"class_name": "__keras_tensor__",
                    "config": {"shape": x.shape.as_list(), "dtype": x.dtype.name,
                               "keras_history": history(x)}}

        layers = []
        for layer in self._graph_layers:
            entry = serialize_keras_object(layer)
            entry["name"] = layer.name
            entry["inbound_nodes"] = [
                {"args": nest.map_structure(tensor_config, list(node.args)),
                 "kwargs": nest.map_structure(tensor_config, dict(node.kwargs))}
                for node in self._nodes_of(layer)]
            layers.append(entry)

        def endpoints(structure):
            if isinstance(structure, dict):
                return {key: history(x) for key, x in structure.items()}
            if isinstance(structure, KerasTensor):
                return history(structure)
            return [history(x) for x in structure]

        return {"name": self.name, "trainable": self.trainable, "layers": layers,
                "input_layers": endpoints(self._nested_inputs),
                "output_layers": endpoints(self._nested_outputs)}

    @classmethod
    def from_config(cls, config: dict, custom_objects=None) -> "Functional":
        """Rebuilds the model: creates each layer, then replays its calls once the tensors
        they read exist.

        Raises:
            ValueError: a call reads a tensor no layer call produces.
        """
        layers, outputs_of, pending = {}, {}, []
        for entry in config["layers"]:
            layer_config = {k: v for k, v in entry.items() if k not in ("name", "inbound_nodes")}
            layer = deserialize_keras_object(layer_config, custom_objects)
            name = entry.get("name", layer.name)
            layers[name] = layer
            if isinstance(layer, InputLayer):
                outputs_of[(name, 0)] = [layer.output]
            pending.extend((name, i, node) for i, node in enumerate(entry["inbound_nodes"]))

        def resolve(value):
            if isinstance(value, dict) and value.get("class_name") == "__keras_tensor__":
                layer_name, node, index = value["config"]["keras_history"]
                return outputs_of[(layer_name, node)][index]
            if isinstance(value, dict):
                return {key: resolve(item) for key, item in value.items()}
            if isinstance(value, list):
                return [resolve(item) for item in value]
            return value

        while pending:
            progressed = False
            for item in list(pending):
                name, index, node = item
                try:
                    args, kwargs = resolve(node["args"]), resolve(node["kwargs"])
                except KeyError:
                    continue
                kwargs = {k: v for k, v in kwargs.items() if not (k == "mask" and v is None)}
                outputs_of[(name, index)] = nest.flatten(layers[name](*args, **kwargs))
                pending.remove(item)
                progressed = True
            if not progressed:
                raise ValueError(f"Functional model {config.get('name')}: cannot rebuild "
                                 f"the calls of {sorted({name for name, _, _ in pending})}; "
                                 "the tensors they read are never produced.")

        def endpoints(spec):
            if isinstance(spec, dict):
                return {key: endpoints(item) for key, item in spec.items()}
            if spec and isinstance(spec[0], str):
                return outputs_of[(spec[0], spec[1])][spec[2]]
            return [endpoints(item) for item in spec]

        return cls(inputs=endpoints(config["input_layers"]),
                   outputs=endpoints(config["output_layers"]), name=config.get("name"),
                   trainable=config.get("trainable", True))


def _param_count(layer) -> int:
    return int(sum(w.shape.num_elements() for w in layer.weights))


_FUNCTIONAL_SUBCLASSES: dict = {}


def functional_class(cls: type) -> type:
    """The class a model of class `cls` becomes when its `__init__` passes inputs and
    outputs: Functional for Model itself, else `cls` with Functional mixed in (once)."""
    if issubclass(cls, Functional):
        return cls
    if cls is Model:
        return Functional
    found = _FUNCTIONAL_SUBCLASSES.get(cls)
    if found is None:
        ignored = cls._TF_MODULE_IGNORED_PROPERTIES | Functional._TF_MODULE_IGNORED_PROPERTIES
        found = type(cls.__name__, (cls, Functional), {
            "__module__": cls.__module__, "__qualname__": cls.__qualname__,
            "_TF_MODULE_IGNORED_PROPERTIES": ignored})
        _FUNCTIONAL_SUBCLASSES[cls] = found
    return found
