"""`tf.saved_model.save`: a trackable object, its tf.functions and its variables as TF's
SavedModel directory (`saved_model.pb`, `variables/`, `assets/`).

The object graph is the checkpoint's (same node ids): every trackable a SavedObject, each
tf.function attribute a `function` node whose traces are FunctionDefs (written by
`framework.graph_def.write_function_def`), the signatures a `signature_map` of wrapper
functions returning dicts, and a SignatureDef each, calling them from the MetaGraph's graph.
"""
from __future__ import annotations

import inspect
import os
import shutil

import numpy as np

from .. import nest
from ..framework.graph_def import (PRODUCER_VERSION, attr_value, dtype_enum, proto_module,
                                   shape_proto, tensor_proto, function_variables,
                                   write_function_def)
from ..framework.tensor_spec import TensorSpec
from ..framework.variables import Variable
from . import constants
from .load import Asset
from .structure import encode

__all__ = ["save", "SaveOptions"]


class SaveOptions:
    """Options for `tf.saved_model.save` (TF's keywords; tapeflow writes one format, so
    the experimental ones are recorded, not acted on).

    Example:
        >>> import tapeflow as tf
        >>> tf.saved_model.SaveOptions(function_aliases={"f": None}).function_aliases
        {'f': None}
    """

    def __init__(self, namespace_whitelist=None, save_debug_info=False, function_aliases=None,
                 experimental_debug_stripper=False, experimental_io_device=None,
                 experimental_variable_policy=None, experimental_custom_gradients=True,
                 experimental_image_format=False, experimental_skip_saver=False,
                 experimental_sharding_callback=None, extra_tags=None) -> None:
        self.namespace_whitelist = list(namespace_whitelist or [])
        self.save_debug_info = save_debug_info
        self.function_aliases = function_aliases if function_aliases else {}
        self.experimental_debug_stripper = experimental_debug_stripper
        self.experimental_io_device = experimental_io_device
        self.experimental_variable_policy = experimental_variable_policy
        self.experimental_custom_gradients = experimental_custom_gradients
        self.experimental_image_format = experimental_image_format
        self.experimental_skip_saver = experimental_skip_saver
        self.experimental_sharding_callback = experimental_sharding_callback
        self.extra_tags = extra_tags


def _function_type():
    from ..eager.function import ConcreteFunction, Function
    return Function, ConcreteFunction


def _functions_of(obj) -> dict:
    """{attribute name: Function or ConcreteFunction} of a trackable object."""
    function, concrete = _function_type()
    found = {}
    for klass in reversed(type(obj).__mro__):
        for name, attr in vars(klass).items():
            if isinstance(attr, function):
                found[name] = getattr(obj, name)
    for name, attr in getattr(obj, "__dict__", {}).items():
        if isinstance(attr, (function, concrete)):
            found[name] = attr
    return dict(sorted(found.items()))


def _concretes_of(function) -> list:
    _, concrete = _function_type()
    if isinstance(function, concrete):
        return [function]
    if function.input_signature is not None:
        function.get_concrete_function()
    return [c for _, c in function._concretes]


def _spec(tensor, name=None):
    return TensorSpec(tensor.shape, tensor.dtype, name)


def _fullargspec(python_function, drop_first: bool):
    import collections
    FullArgSpec = collections.namedtuple(
        "FullArgSpec", ["args", "varargs", "varkw", "defaults", "kwonlyargs",
                        "kwonlydefaults", "annotations"])
    try:
        params = list(inspect.signature(python_function).parameters.values())
    except (TypeError, ValueError):
        params = []
    if drop_first and params:
        params = params[1:]
    kinds = inspect.Parameter
    args = [p.name for p in params if p.kind in (kinds.POSITIONAL_ONLY,
                                                  kinds.POSITIONAL_OR_KEYWORD)]
    defaults = [p.default for p in params if p.kind in (kinds.POSITIONAL_ONLY,
                kinds.POSITIONAL_OR_KEYWORD) and p.default is not p.empty]
    kwonly = [p.name for p in params if p.kind is kinds.KEYWORD_ONLY]
    kwdefaults = {p.name: p.default for p in params if p.kind is kinds.KEYWORD_ONLY and
                  p.default is not p.empty}
    var = [p.name for p in params if p.kind is kinds.VAR_POSITIONAL]
    varkw = [p.name for p in params if p.kind is kinds.VAR_KEYWORD]
    return FullArgSpec(args, var[0] if var else None, varkw[0] if varkw else None,
                       tuple(defaults) if defaults else None, kwonly, kwdefaults or None, {})


def _plain(value):
    """A default value a StructuredValue holds (others are left out as None)."""
    if isinstance(value, (tuple, list)):
        return type(value)(_plain(v) for v in value)
    return value if value is None or isinstance(value, (bool, int, float, str)) else None


class _Exporter:
    def __init__(self, obj, signatures) -> None:
        from ..train.object_graph import ObjectGraphView, serialize
        view = ObjectGraphView(obj)
        self.tensors, self.objects = serialize(view)
        _, _, self.children_of = view._breadth_first()
        self.node_ids = {id(o): i for i, o in enumerate(self.objects)}
        self.meta = proto_module("meta_graph").MetaGraphDef()
        self.graph_def = self.meta.graph_def
        self.graph_def.versions.producer = PRODUCER_VERSION
        self.written: dict = {}         # id(concrete function) -> FunctionDef name
        self.saved: dict = {}           # FunctionDef name -> SavedConcreteFunction
        self.handles: dict = {}         # variable id -> graph node of its VarHandleOp
        self.constants: dict = {}       # id(captured tensor) -> its object-graph node id
        self.names: set = set()
        self.count = 0
        self.graph = self.meta.object_graph_def
        self.signatures = signatures
        self.assets: list = []          # (source path, file name in assets/)

    def unique(self, name: str) -> str:
        base, count = name, 1
        while name in self.names:
            name, count = f"{base}_{count}", count + 1
        self.names.add(name)
        return name

    def build(self):
        from ..trackable.data_structures import ListWrapper, _DictWrapper
        nodes = [self.graph.nodes.add() for _ in self.objects]
        for obj, node in zip(self.objects, nodes):
            for name, child in self.children_of.get(id(obj), {}).items():
                node.children.add(node_id=self.node_ids[id(child)], local_name=name)
            if isinstance(obj, Variable):
                variable = node.variable
                variable.dtype = dtype_enum(obj.dtype)
                shape_proto(obj.shape, variable.shape)
                variable.trainable = bool(obj.trainable)
                variable.name = obj.name.split(":")[0]
                continue
            if isinstance(obj, Asset):
                self.asset(obj, node)
                continue
            identifier = "trackable_list_wrapper" if isinstance(obj, ListWrapper) else \
                "trackable_dict_wrapper" if isinstance(obj, _DictWrapper) else \
                "_generic_user_object"
            node.user_object.identifier = identifier
            node.user_object.version.producer = node.user_object.version.min_consumer = 1
        for index, obj in enumerate(list(self.objects)):
            if isinstance(obj, Variable):
                continue
            for name, function in _functions_of(obj).items():
                child = self.function_node(function)
                self.graph.nodes[index].children.add(node_id=child, local_name=name)
        self.signature_map(self.graph.nodes[0])
        self.saver()
        for name in sorted(self.saved):
            self.graph.concrete_functions[name].CopyFrom(self.saved[name])
        info = self.meta.meta_info_def
        from ..version import VERSION
        info.tags.append(constants.SERVING)
        info.tensorflow_version = VERSION
        info.tensorflow_git_version = "tapeflow"
        return self.meta

    def asset(self, asset, node) -> None:
        """An Asset's node: its file (copied into assets/ by `save`) and AssetFileDef."""
        path = asset.asset_path.numpy().decode()
        filename = os.path.basename(path)
        taken = {name for _, name in self.assets}
        base, count = filename, 1
        while filename in taken:
            stem, ext = os.path.splitext(base)
            filename, count = f"{stem}_{count}{ext}", count + 1
        placeholder = self.graph_def.node.add()
        placeholder.name, placeholder.op = self.unique("asset_path_initializer"), "Placeholder"
        placeholder.attr["dtype"].type = dtype_enum("string")
        placeholder.attr["shape"].shape.SetInParent()
        node.asset.asset_file_def_index = len(self.meta.asset_file_def)
        self.meta.asset_file_def.add(filename=filename).tensor_info.name = \
            placeholder.name + ":0"
        self.assets.append((path, filename))
        self.constants[id(asset.asset_path)] = self.node_ids[id(asset)]

    # -- functions ------------------------------------------------------------------------
    def concrete(self, function) -> str:
        """The FunctionDef name of a ConcreteFunction, written once with its
        SavedConcreteFunction (bound to the variables and constants it captures)."""
        name = self.written.get(id(function))
        if name is not None and name in self.saved:
            return name
        if name is None:
            self.count += 1
            base = "".join(c if c.isalnum() else "_" for c in function.name)
            name = f"__inference_{base}_{self.count}"
            variables = write_function_def(function, name, self.graph_def.library,
                                           self.written)
        else:  # written already, as the callee of another function
            variables = function_variables(function)
        saved = proto_module("saved_object_graph").SavedConcreteFunction()
        for captured in function.captured_inputs:
            saved.bound_inputs.append(self.constant(captured))
        for variable in variables:
            if id(variable) not in self.node_ids:
                raise ValueError(
                    f"Tried to export function {function.name!r} which references "
                    f"untracked resource {variable.name!r}: the variable must be an "
                    "attribute of a tracked object (or of the saved object)")
            saved.bound_inputs.append(self.node_ids[id(variable)])
        signature = function.structured_input_signature
        if signature is None:
            signature = (tuple(_spec(t, t.op.name) for t in function.inputs[
                :len(function.inputs) - len(function.captured_inputs)]), {})
        encode(signature, saved.canonicalized_input_signature)
        encode(nest.map_structure(
            lambda x: _spec(x) if hasattr(x, "dtype") and hasattr(x, "shape") else None,
            function.structured_outputs), saved.output_signature)
        self.saved[name] = saved
        return name

    def constant(self, tensor) -> int:
        node_id = self.constants.get(id(tensor))
        if node_id is None:
            const = self.graph_def.node.add()
            const.name, const.op = self.unique("Const"), "Const"
            const.attr["value"].tensor.CopyFrom(tensor_proto(tensor.numpy(), tensor.dtype))
            const.attr["dtype"].type = const.attr["value"].tensor.dtype
            node_id = len(self.graph.nodes)
            self.graph.nodes.add().constant.operation = const.name
            self.constants[id(tensor)] = node_id
        return node_id

    def function_node(self, function) -> int:
        Function, concrete_type = _function_type()
        node_id = len(self.graph.nodes)
        node = self.graph.nodes.add()
        if isinstance(function, concrete_type):
            bare = node.bare_concrete_function
            bare.concrete_function_name = self.concrete(function)
            return node_id
        saved = node.function
        for concrete in _concretes_of(function):
            saved.concrete_functions.append(self.concrete(concrete))
        python = function.python_function
        bound = hasattr(python, "func") and hasattr(python, "args") and python.args
        spec = _fullargspec(python.func if bound else python, bool(bound))
        spec = spec._replace(defaults=_plain(spec.defaults),
                             kwonlydefaults=None if spec.kwonlydefaults is None else {
                                 k: _plain(v) for k, v in spec.kwonlydefaults.items()})
        encode(spec, saved.function_spec.fullargspec)
        encode(None if function.input_signature is None else tuple(function.input_signature),
               saved.function_spec.input_signature)
        return node_id

    # -- signatures -----------------------------------------------------------------------
    def signature_map(self, root) -> None:
        signatures = self.signatures
        if signatures is None:
            Function, _ = _function_type()
            found = [f for f in _functions_of(self.objects[0]).values()
                     if isinstance(f, Function) and f.input_signature is not None]
            signatures = found[0] if len(found) == 1 else {}
        if not isinstance(signatures, dict):
            signatures = {constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY: signatures}
        if not signatures:
            return
        map_id = len(self.graph.nodes)
        node = self.graph.nodes.add()
        node.user_object.identifier = "signature_map"
        node.user_object.version.producer = node.user_object.version.min_consumer = 1
        root.children.add(node_id=map_id, local_name="signatures")
        for key in sorted(signatures):
            function = signatures[key]
            _, concrete_type = _function_type()
            if not isinstance(function, concrete_type):
                if getattr(function, "input_signature", None) is None:
                    raise ValueError(
                        f"Expected a TensorFlow function for which to generate a signature "
                        f"(with an input_signature, or a concrete function), got "
                        f"{function!r} for signature {key!r}")
                function = function.get_concrete_function()
            child = len(self.graph.nodes)
            self.graph.nodes.add().bare_concrete_function.concrete_function_name = \
                self.signature(key, function)
            self.graph.nodes[map_id].children.add(node_id=child, local_name=key)

    def signature(self, key: str, function) -> str:
        """Writes the signature wrapper of `function` (keyword inputs, a dict of outputs),
        its SavedConcreteFunction and its SignatureDef; returns the wrapper's name."""
        inner = self.concrete(function)
        inner_saved = self.saved[inner]
        count = len(function.inputs) - len(function.captured_inputs)
        inputs = function.inputs[:count]
        input_names = [t.op.name for t in inputs]
        outputs = nest.flatten(function.structured_outputs)
        structure = function.structured_outputs
        if isinstance(structure, dict):
            output_keys = sorted(structure)
        else:
            output_keys = [f"output_{i}" for i in range(len(outputs))]
        order = sorted(range(len(output_keys)), key=lambda i: output_keys[i])
        self.count += 1
        name = f"__inference_signature_wrapper_{self.count}"
        fdef = self.graph_def.library.function.add()
        fdef.signature.name = name
        fdef.signature.is_stateful = True
        bound = list(inner_saved.bound_inputs)
        bound_names = [f"unknown_{i}" for i in range(len(bound))]
        bound_types = [self.bound_type(b) for b in bound]
        # Keyword inputs flatten in sorted order: the wrapper takes them so.
        keyword_order = sorted(range(count), key=lambda i: input_names[i])
        for i in keyword_order:
            fdef.signature.input_arg.add(name=input_names[i], type=dtype_enum(inputs[i].dtype))
        for arg_name, kind in zip(bound_names, bound_types):
            fdef.signature.input_arg.add(name=arg_name, type=kind)
        call = fdef.node_def.add()
        call.name, call.op = "StatefulPartitionedCall", "StatefulPartitionedCall"
        call.input.extend(input_names + bound_names)
        call.attr["Tin"].CopyFrom(attr_value("list(type)", []))
        call.attr["Tin"].list.type.extend([dtype_enum(t.dtype) for t in inputs] + bound_types)
        call.attr["Tout"].CopyFrom(attr_value("list(type)", []))
        call.attr["Tout"].list.type.extend(dtype_enum(t.dtype) for t in outputs)
        call.attr["f"].func.name = inner
        for attr in ("config", "config_proto", "executor_type"):
            call.attr[attr].s = b""
        for position, i in enumerate(order):
            arg = fdef.signature.output_arg.add(name=f"output_{position}",
                                                type=dtype_enum(outputs[i].dtype))
            fdef.ret[arg.name] = f"StatefulPartitionedCall:output:{i}"
        saved = proto_module("saved_object_graph").SavedConcreteFunction()
        saved.bound_inputs.extend(bound)
        encode(((), {n: _spec(t, n) for n, t in zip(input_names, inputs)}),
               saved.canonicalized_input_signature)
        encode({output_keys[i]: _spec(outputs[i], output_keys[i]) for i in order},
               saved.output_signature)
        self.saved[name] = saved
        self.signature_def(key, name, [input_names[i] for i in keyword_order],
                           [inputs[i] for i in keyword_order], bound,
                           [dtype_enum(inputs[i].dtype) for i in keyword_order] + bound_types,
                           [(output_keys[i], outputs[i]) for i in order])
        return name

    def bound_type(self, node_id: int) -> int:
        node = self.graph.nodes[node_id]
        if node.WhichOneof("kind") == "asset":
            return dtype_enum("string")
        if node.WhichOneof("kind") == "constant":
            op = next(n for n in self.graph_def.node if n.name == node.constant.operation)
            return op.attr["dtype"].type
        return dtype_enum("resource")

    def handle(self, node_id: int) -> str:
        """The MetaGraph's node for a bound input: a variable's VarHandleOp, a Const."""
        saved = self.graph.nodes[node_id]
        if saved.WhichOneof("kind") == "constant":
            return saved.constant.operation
        if saved.WhichOneof("kind") == "asset":
            name = self.meta.asset_file_def[saved.asset.asset_file_def_index].tensor_info.name
            return name.split(":")[0]
        name = self.handles.get(node_id)
        if name is None:
            variable = saved.variable
            node = self.graph_def.node.add()
            name = node.name = self.unique(variable.name or "Variable")
            node.op = "VarHandleOp"
            node.attr["shared_name"].s = name.encode()
            node.attr["debug_name"].s = (variable.name + "/").encode()
            node.attr["dtype"].type = variable.dtype
            node.attr["shape"].shape.CopyFrom(variable.shape)
            for attr in ("container",):
                node.attr[attr].s = b""
            node.attr["allowed_devices"].list.SetInParent()
            self.handles[node_id] = name
        return name

    def saver(self) -> None:
        """TF1's SaverDef over the graph's VarHandleOps (what TF Serving and TF1 loaders
        run): RestoreV2 into AssignVariableOps, SaveV2 of ReadVariableOps, both fed the
        checkpoint prefix through `saver_filename`."""
        from ..train.object_graph import OBJECT_GRAPH_KEY
        variables = [(i, o) for i, o in enumerate(self.objects) if isinstance(o, Variable)]
        graph = proto_module("trackable_object_graph").TrackableObjectGraph.FromString(
            self.tensors[OBJECT_GRAPH_KEY])
        entries = []
        for i, obj in variables:
            for attribute in graph.nodes[i].attributes:
                if attribute.name == "VARIABLE_VALUE":
                    entries.append((attribute.checkpoint_key, i, obj))
        if not entries:
            return
        nodes = self.graph_def.node
        filename = nodes.add()
        filename.name, filename.op = self.unique("saver_filename"), "Placeholder"
        filename.attr["dtype"].type = dtype_enum("string")
        filename.attr["shape"].shape.SetInParent()

        def const(name, values):
            node = nodes.add()
            node.name, node.op = self.unique(name), "Const"
            node.attr["value"].tensor.CopyFrom(tensor_proto(np.array(values, dtype=object)))
            node.attr["dtype"].type = dtype_enum("string")
            return node.name
        names = const("saver/tensor_names", [e[0].encode() for e in entries])
        slices = const("saver/shape_and_slices", [b""] * len(entries))
        restore = nodes.add()
        restore.name, restore.op = self.unique("saver/RestoreV2"), "RestoreV2"
        restore.input.extend([filename.name, names, slices])
        restore.attr["dtypes"].list.type.extend(dtype_enum(o.dtype) for _, _, o in entries)
        assigns = []
        for index, (_, node_id, obj) in enumerate(entries):
            assign = nodes.add()
            assign.name, assign.op = self.unique("saver/AssignVariableOp"), "AssignVariableOp"
            assign.input.extend([self.handle(node_id), f"{restore.name}:{index}"])
            assign.attr["dtype"].type = dtype_enum(obj.dtype)
            assigns.append(assign.name)
        restore_all = nodes.add()
        restore_all.name, restore_all.op = self.unique("saver/restore_all"), "NoOp"
        restore_all.input.extend("^" + a for a in assigns)
        reads = []
        for _, node_id, obj in entries:
            read = nodes.add()
            read.name, read.op = self.unique("saver/ReadVariableOp"), "ReadVariableOp"
            read.input.append(self.handle(node_id))
            read.attr["dtype"].type = dtype_enum(obj.dtype)
            reads.append(read.name)
        save = nodes.add()
        save.name, save.op = self.unique("saver/SaveV2"), "SaveV2"
        save.input.extend([filename.name, names, slices, *reads])
        save.attr["dtypes"].list.type.extend(dtype_enum(o.dtype) for _, _, o in entries)
        saved = nodes.add()
        saved.name, saved.op = self.unique("saver/filename"), "Identity"
        saved.input.extend([filename.name, "^" + save.name])
        saved.attr["T"].type = dtype_enum("string")
        saver = self.meta.saver_def
        saver.filename_tensor_name = filename.name + ":0"
        saver.save_tensor_name = saved.name + ":0"
        saver.restore_op_name = restore_all.name
        saver.version = proto_module("saver").SaverDef.V2
        saver.max_to_keep, saver.keep_checkpoint_every_n_hours = 5, 10000.0
        saver.sharded = False

    def signature_def(self, key, function_name, input_names, inputs, bound, types,
                      outputs) -> None:
        signature = self.meta.signature_def[key]
        signature.method_name = constants.PREDICT_METHOD_NAME
        call_inputs = []
        for input_name, tensor in zip(input_names, inputs):
            node = self.graph_def.node.add()
            node.name, node.op = self.unique(f"{key}_{input_name}"), "Placeholder"
            node.attr["dtype"].type = dtype_enum(tensor.dtype)
            shape_proto(tensor.shape, node.attr["shape"].shape)
            info = signature.inputs[input_name]
            info.name, info.dtype = node.name + ":0", dtype_enum(tensor.dtype)
            shape_proto(tensor.shape, info.tensor_shape)
            call_inputs.append(node.name)
        call_inputs += [self.handle(b) for b in bound]
        call = self.graph_def.node.add()
        call.name, call.op = self.unique("StatefulPartitionedCall"), "StatefulPartitionedCall"
        call.input.extend(call_inputs)
        call.attr["Tin"].list.type.extend(types)
        call.attr["Tout"].list.type.extend(dtype_enum(t.dtype) for _, t in outputs)
        call.attr["Tout"].list.SetInParent()
        call.attr["Tin"].list.SetInParent()
        call.attr["f"].func.name = function_name
        for attr in ("config", "config_proto", "executor_type"):
            call.attr[attr].s = b""
        for i, (output_key, tensor) in enumerate(outputs):
            info = signature.outputs[output_key]
            info.name, info.dtype = f"{call.name}:{i}", dtype_enum(tensor.dtype)
            shape_proto(tensor.shape, info.tensor_shape)


def save(obj, export_dir, signatures=None, options=None) -> None:
    """Writes `obj` (a tf.Module or other trackable), its tf.functions and variables as a
    SavedModel in `export_dir`, which TF's `tf.saved_model.load` and TF Serving read.

    Args:
        obj: the trackable object to save (the root of the object graph).
        export_dir: the directory written (created if missing).
        signatures: a tf.function with an input_signature or a ConcreteFunction (saved as
            "serving_default"), or {signature key: function}; None exports the root's one
            tf.function with an input_signature, when it has exactly one.
        options: a `tf.saved_model.SaveOptions`.

    Raises:
        ValueError: a signature that is not a traced function, or a function reading a
            variable the object graph does not hold.
        UnimplementedError: a function holding an op with no TF op definition.

    Example:
        >>> import tempfile
        >>> import tapeflow as tf
        >>> class Scale(tf.Module):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.k = tf.Variable(3.0)
        ...     @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        ...     def __call__(self, x):
        ...         return x * self.k
        >>> path = tempfile.mkdtemp()
        >>> tf.saved_model.save(Scale(), path)
        >>> loaded = tf.saved_model.load(path)
        >>> loaded(tf.constant([1.0, 2.0])).numpy().tolist()
        [3.0, 6.0]
    """
    from ..train.tensor_bundle import write_bundle
    if not hasattr(obj, "_trackable_children"):
        raise ValueError(f"Expected an object of type `Trackable`, such as `tf.Module` or "
                         f"a subclass of the `Trackable` class, for export. Got {obj!r} "
                         f"with type {type(obj)}.")
    export_dir = os.fspath(export_dir)
    exporter = _Exporter(obj, signatures)
    meta = exporter.build()
    from ..protos.saved_model import messages
    model = messages()["SavedModel"](
        saved_model_schema_version=constants.SAVED_MODEL_SCHEMA_VERSION)
    model.meta_graphs.add().CopyFrom(meta)
    variables = os.path.join(export_dir, constants.VARIABLES_DIRECTORY)
    os.makedirs(variables, exist_ok=True)
    assets = os.path.join(export_dir, constants.ASSETS_DIRECTORY)
    os.makedirs(assets, exist_ok=True)
    for source, filename in exporter.assets:
        shutil.copyfile(source, os.path.join(assets, filename))
    write_bundle(os.path.join(variables, constants.VARIABLES_FILENAME), exporter.tensors)
    with open(os.path.join(export_dir, constants.SAVED_MODEL_FILENAME_PB), "wb") as f:
        f.write(model.SerializeToString(deterministic=True))
