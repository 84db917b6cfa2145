"""`tf.saved_model.load`: a SavedModel directory (tapeflow's or TF's) as trackable
objects: its object graph revived (user objects, lists, dicts, variables restored from
`variables/`, constants, assets), each saved function a callable whose traces are built
from the FunctionDefs by the GraphDef importer (`io.graph_def_import.call_function_def`),
and `signatures` callable with keyword tensors. Nothing in the directory is executed as
Python: only the protos and the checkpoint are read.
"""
from __future__ import annotations

import os

from .. import nest
from ..framework import errors
from ..framework.graph_def import dtype_of_enum, python_attr
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_spec import TensorSpec
from ..trackable.autotrackable import AutoTrackable
from ..trackable.base import Trackable
from . import constants
from .structure import decode

__all__ = ["load", "LoadOptions", "Asset", "contains_saved_model"]


class LoadOptions:
    """Options for `tf.saved_model.load` (TF's keywords).

    Args:
        allow_partial_checkpoint: load even when the checkpoint lacks some variables.
        experimental_skip_checkpoint: leave the variables at their initial (zero) values.
        experimental_io_device, experimental_variable_policy,
        experimental_load_function_aliases: TF's keywords, recorded.

    Example:
        >>> import tapeflow as tf
        >>> tf.saved_model.LoadOptions(allow_partial_checkpoint=True).allow_partial_checkpoint
        True
    """

    def __init__(self, allow_partial_checkpoint=False, experimental_io_device=None,
                 experimental_skip_checkpoint=False, experimental_variable_policy=None,
                 experimental_load_function_aliases=False) -> None:
        self.allow_partial_checkpoint = allow_partial_checkpoint
        self.experimental_io_device = experimental_io_device
        self.experimental_skip_checkpoint = experimental_skip_checkpoint
        self.experimental_variable_policy = experimental_variable_policy
        self.experimental_load_function_aliases = experimental_load_function_aliases


class Asset(Trackable):
    """A file a SavedModel carries in its `assets/` directory.

    Args:
        path: the file's path (a string or string tensor).

    Example:
        >>> import tapeflow as tf
        >>> tf.saved_model.Asset("vocab.txt").asset_path.numpy()
        b'vocab.txt'
    """

    def __init__(self, path) -> None:
        from ..framework.tensor import constant
        self.asset_path = constant(path.numpy() if hasattr(path, "numpy") else
                                   os.fspath(path))


def contains_saved_model(export_dir) -> bool:
    """Whether `export_dir` holds a SavedModel (`saved_model.pb` or `.pbtxt`).

    Example:
        >>> import tempfile
        >>> import tapeflow as tf
        >>> tf.saved_model.contains_saved_model(tempfile.mkdtemp())
        False
    """
    export_dir = os.fspath(export_dir)
    return any(os.path.isfile(os.path.join(export_dir, name)) for name in (
        constants.SAVED_MODEL_FILENAME_PB, constants.SAVED_MODEL_FILENAME_PBTXT))


class _UserObject(AutoTrackable):
    """A revived user object: its saved children as attributes."""


class _CallableUserObject(_UserObject):
    """A revived user object that was saved with a `__call__` function."""

    def __call__(self, *args, **kwargs):
        return self.__dict__["__call__"](*args, **kwargs)


class _SignatureMap(Trackable):
    """The loaded SavedModel's `signatures`: {key: signature function}, read-only."""

    def __init__(self) -> None:
        self._signatures: dict = {}

    def __getitem__(self, key):
        return self._signatures[key]

    def __iter__(self):
        return iter(self._signatures)

    def __len__(self) -> int:
        return len(self._signatures)

    def __contains__(self, key) -> bool:
        return key in self._signatures

    def keys(self):
        return self._signatures.keys()

    def values(self):
        return self._signatures.values()

    def items(self):
        return self._signatures.items()

    def get(self, key, default=None):
        return self._signatures.get(key, default)

    def __repr__(self) -> str:
        return f"_SignatureMap({dict(self._signatures)!r})"


class _Library:
    """The MetaGraph's FunctionDefs, each traced once into a tapeflow ConcreteFunction."""

    def __init__(self, meta, saved_functions, bound_values) -> None:
        self.fdefs = {f.signature.name: f for f in meta.graph_def.library.function}
        self.saved = saved_functions        # name -> SavedConcreteFunction
        self.bound_values = bound_values    # node id -> Variable or tensor
        self.traced: dict = {}

    def concrete(self, name: str):
        """(ConcreteFunction over the flat tensor inputs, input structure, output
        structure) of FunctionDef `name`."""
        found = self.traced.get(name)
        if found is not None:
            return found
        from ..eager.function import Function
        from ..io.graph_def_import import call_function_def
        fdef = self.fdefs.get(name)
        saved = self.saved.get(name)
        if fdef is None or saved is None:
            raise errors.NotFoundError(None, None, f"the SavedModel has no function {name!r}")
        inputs = decode(saved.canonicalized_input_signature)
        outputs = decode(saved.output_signature)
        specs = [x for x in nest.flatten(inputs) if isinstance(x, TensorSpec)]
        bound = [self.bound_values[i] for i in saved.bound_inputs]
        bound = [b.asset_path if isinstance(b, Asset) else b for b in bound]
        count = len(fdef.signature.input_arg) - len(bound)
        if count != len(specs):
            specs = [TensorSpec(TensorShape(None), dtype_of_enum(arg.type), arg.name)
                     for arg in fdef.signature.input_arg[:count]]

        def body(*args):
            results = call_function_def(fdef, list(args) + bound, self.fdefs)
            if outputs is None or not results:
                return None if not results else results
            return nest.pack_sequence_as(outputs, results)
        body.__name__ = name
        try:
            traced = Function(body, input_signature=specs, name=name).get_concrete_function()
        except errors.NotFoundError as error:
            raise errors.NotFoundError(None, error.op, f"{error.message} (in the SavedModel's "
                                       f"function {name!r})") from None
        found = self.traced[name] = (traced, inputs, outputs)
        return found


def _call_with(function, inputs, args, kwargs):
    """`function` (flat tensors) called on (args, kwargs) shaped as `inputs`, or None when
    they do not fit that structure."""
    from ..framework.tensor import convert_to_tensor
    saved_args, saved_kwargs = inputs if isinstance(inputs, tuple) and len(inputs) == 2 \
        else (inputs, {})
    if len(args) != len(saved_args) or set(kwargs) != set(saved_kwargs or {}):
        return None
    given = nest.flatten((tuple(args), dict(kwargs)))
    expected = nest.flatten((tuple(saved_args), dict(saved_kwargs or {})))
    if len(given) != len(expected):
        return None
    flat = []
    for value, spec in zip(given, expected):
        if isinstance(spec, TensorSpec):
            try:
                tensor = convert_to_tensor(value, dtype=spec.dtype)
            except (TypeError, ValueError):
                return None
            if not spec.is_compatible_with(tensor):
                return None
            flat.append(tensor)
        elif value != spec:
            return None
    return function(*flat)


class _RestoredFunction:
    """A loaded tf.function: its traces, chosen by the call's arguments (bound to the
    saved argument names first)."""

    def __init__(self, name, traces, spec) -> None:
        self.__name__ = name
        self._traces = traces               # [(ConcreteFunction, input structure)]
        self._spec = spec                   # the saved FullArgSpec (decoded) or None
        self.concrete_functions = [t[0] for t in traces]

    def _positional(self, args, kwargs):
        spec = self._spec
        if spec is None:
            return args, kwargs
        names = list(spec.args or [])
        args = list(args)
        kwargs = dict(kwargs)
        defaults = list(spec.defaults or [])
        for i, name in enumerate(names[len(args):], start=len(args)):
            if name in kwargs:
                args.append(kwargs.pop(name))
            elif i >= len(names) - len(defaults):
                args.append(defaults[i - (len(names) - len(defaults))])
            else:
                break
        return tuple(args), kwargs

    def __call__(self, *args, **kwargs):
        args, kwargs = self._positional(args, kwargs)
        for function, inputs in self._traces:
            result = _call_with(function, inputs, args, kwargs)
            if result is not None or (function.outputs == [] and _fits(inputs, args, kwargs)):
                return result
        raise ValueError(
            f"Could not find matching concrete function to call loaded from the SavedModel: "
            f"{self.__name__} got positional arguments {args!r} and keyword arguments "
            f"{kwargs!r}; the saved traces take "
            + "; ".join(repr(inputs) for _, inputs in self._traces))

    def get_concrete_function(self, *args, **kwargs):
        """The first trace (with no arguments) or the one the arguments fit."""
        if not args and not kwargs:
            return self.concrete_functions[0]
        for function, inputs in self._traces:
            if _fits(inputs, *self._positional(args, kwargs)):
                return function
        raise ValueError(f"{self.__name__}: no saved trace takes {args!r}, {kwargs!r}")

    def __repr__(self) -> str:
        return f"<restored function {self.__name__}>"


def _fits(inputs, args, kwargs) -> bool:
    saved_args, saved_kwargs = inputs
    return len(args) == len(saved_args) and set(kwargs) == set(saved_kwargs or {})


class _RestoredConcreteFunction(_RestoredFunction):
    """A loaded bare concrete function (a signature: keyword tensors in, a dict out)."""

    def __init__(self, name, function, inputs, arguments) -> None:
        super().__init__(name, [(function, inputs)], None)
        self._arguments = list(arguments)   # the keywords positional arguments take

    def __call__(self, *args, **kwargs):
        if args and self._arguments:
            kwargs = {**dict(zip(self._arguments, args)), **kwargs}
            args = ()
        return super().__call__(*args, **kwargs)

    @property
    def structured_outputs(self):
        return self.concrete_functions[0].structured_outputs

    @property
    def inputs(self):
        return self.concrete_functions[0].inputs

    @property
    def structured_input_signature(self):
        return self._traces[0][1]


def _read_saved_model(export_dir: str):
    from ..protos.saved_model import messages
    model = messages()["SavedModel"]()
    path = os.path.join(export_dir, constants.SAVED_MODEL_FILENAME_PB)
    text_path = os.path.join(export_dir, constants.SAVED_MODEL_FILENAME_PBTXT)
    if os.path.isfile(path):
        with open(path, "rb") as f:
            data = f.read()
        try:
            model.ParseFromString(data)
        except Exception as error:  # protobuf's DecodeError
            raise errors.DataLossError(None, None, f"{path} is not a readable SavedModel "
                                       f"(truncated or corrupted): {error}") from None
    elif os.path.isfile(text_path):
        from google.protobuf import text_format
        with open(text_path, encoding="utf-8") as f:
            try:
                text_format.Merge(f.read(), model)
            except Exception as error:
                raise errors.DataLossError(None, None, f"{text_path} is not a readable "
                                           f"SavedModel: {error}") from None
    else:
        raise OSError(f"SavedModel file does not exist at: {export_dir}{os.sep}"
                      f"{{{constants.SAVED_MODEL_FILENAME_PBTXT}|"
                      f"{constants.SAVED_MODEL_FILENAME_PB}}}")
    if not model.meta_graphs:
        raise errors.DataLossError(None, None, f"{path} holds no MetaGraph")
    return model


def _meta_graph(model, tags, export_dir):
    if tags is None:
        return model.meta_graphs[0]
    wanted = {tags} if isinstance(tags, str) else set(tags)
    for meta in model.meta_graphs:
        if set(meta.meta_info_def.tags) == wanted:
            return meta
    raise RuntimeError(f"MetaGraphDef associated with tags {sorted(wanted)!r} could not be "
                       f"found in SavedModel, with available tags "
                       f"'{[list(m.meta_info_def.tags) for m in model.meta_graphs]}'.")


def _revive(export_dir, meta, options):
    from ..framework.tensor import constant
    from ..framework.variables import Variable
    from ..trackable.data_structures import wrap_or_unwrap
    graph = meta.object_graph_def
    nodes = list(graph.nodes)
    const_nodes = {n.name: n for n in meta.graph_def.node if n.op == "Const"}
    objects: dict = {}
    for i, node in enumerate(nodes):
        kind = node.WhichOneof("kind")
        if kind == "variable":
            v = node.variable
            shape = TensorShape(None) if v.shape.unknown_rank else TensorShape(
                [None if d.size < 0 else d.size for d in v.shape.dim])
            dtype = dtype_of_enum(v.dtype)
            import numpy as np
            initial = np.zeros([0 if d is None else d for d in shape.dims]
                               if shape.rank is not None else [], dtype=dtype.as_numpy_dtype)
            objects[i] = Variable(initial, name=v.name or None, trainable=v.trainable,
                                  shape=shape if not shape.is_fully_defined() else None)
        elif kind == "constant":
            op = const_nodes.get(node.constant.operation)
            if op is None:
                raise errors.NotFoundError(None, None, f"the SavedModel's constant "
                                           f"{node.constant.operation!r} is not in its graph")
            objects[i] = constant(python_attr(op.attr["value"]),
                                  dtype=dtype_of_enum(op.attr["dtype"].type))
        elif kind == "asset":
            asset_def = meta.asset_file_def[node.asset.asset_file_def_index]
            objects[i] = Asset(os.path.join(export_dir, constants.ASSETS_DIRECTORY,
                                            asset_def.filename))
        elif kind == "user_object" and node.user_object.identifier == "signature_map":
            objects[i] = _SignatureMap()
        elif kind == "user_object" and node.user_object.identifier == "trackable_list_wrapper":
            objects[i] = wrap_or_unwrap([])
        elif kind == "user_object" and node.user_object.identifier == "trackable_dict_wrapper":
            objects[i] = wrap_or_unwrap({})
        elif kind in ("user_object", None, "captured_tensor", "resource"):
            callable_ = any(c.local_name == "__call__" for c in node.children)
            objects[i] = (_CallableUserObject if callable_ else _UserObject)()
    library = _Library(meta, dict(graph.concrete_functions), objects)
    for i, node in enumerate(nodes):
        kind = node.WhichOneof("kind")
        if kind == "function":
            traces = []
            for name in node.function.concrete_functions:
                traced, inputs, _ = library.concrete(name)
                traces.append((traced, inputs))
            spec = decode(node.function.function_spec.fullargspec) if \
                node.function.function_spec.HasField("fullargspec") else None
            objects[i] = _RestoredFunction(_function_name(nodes, i), traces, spec)
        elif kind == "bare_concrete_function":
            bare = node.bare_concrete_function
            traced, inputs, _ = library.concrete(bare.concrete_function_name)
            objects[i] = _RestoredConcreteFunction(bare.concrete_function_name, traced,
                                                   inputs, bare.argument_keywords)
    for i, node in enumerate(nodes):
        obj = objects.get(i)
        for child in node.children:
            value = objects.get(child.node_id)
            if value is None:
                continue
            if isinstance(obj, _SignatureMap):
                obj._signatures[child.local_name] = value
            elif isinstance(obj, list):
                obj.append(value)
            elif isinstance(obj, dict):
                obj[child.local_name] = value
            elif isinstance(obj, _UserObject):
                setattr(obj, child.local_name, value)
    return objects


def _function_name(nodes, index: int) -> str:
    for node in nodes:
        for child in node.children:
            if child.node_id == index:
                return child.local_name
    return f"function_{index}"


def load(export_dir, tags=None, options=None):
    """Loads a SavedModel written by `tf.saved_model.save` (tapeflow's or TF's).

    Args:
        export_dir: the SavedModel directory.
        tags: the MetaGraph's tags (a string or list); None takes the only one.
        options: a `tf.saved_model.LoadOptions`.

    Returns:
        The root trackable: its saved attributes (variables restored from `variables/`,
        submodules, functions), and `signatures` ({key: function of keyword tensors
        returning a dict}).

    Raises:
        OSError: no saved_model.pb in `export_dir`.
        DataLossError: a truncated or corrupted saved_model.pb.
        NotFoundError: a function holding an op type tapeflow lacks (named, with the
            function), or a checkpoint missing.
        RuntimeError: no MetaGraph with `tags`.

    Example:
        >>> import tempfile
        >>> import tapeflow as tf
        >>> module = tf.Module()
        >>> module.v = tf.Variable(2.0)
        >>> module.f = tf.function(lambda x: x + module.v,
        ...                        input_signature=[tf.TensorSpec([], tf.float32)])
        >>> path = tempfile.mkdtemp()
        >>> tf.saved_model.save(module, path)
        >>> loaded = tf.saved_model.load(path)
        >>> float(loaded.v), float(loaded.f(tf.constant(1.0)))
        (2.0, 3.0)
        >>> sorted(loaded.signatures), loaded.signatures["serving_default"](x=tf.constant(1.0))
        (['serving_default'], {'output_0': <tf.Tensor: shape=(), dtype=float32, numpy=3.0>})
    """
    options = options or LoadOptions()
    export_dir = os.fspath(export_dir)
    model = _read_saved_model(export_dir)
    meta = _meta_graph(model, tags, export_dir)
    objects = _revive(export_dir, meta, options)
    root = objects[0]
    prefix = os.path.join(export_dir, constants.VARIABLES_DIRECTORY,
                          constants.VARIABLES_FILENAME)
    has_variables = any(n.WhichOneof("kind") == "variable" for n in
                        meta.object_graph_def.nodes)
    if has_variables and not options.experimental_skip_checkpoint:
        from ..train.checkpoint import Checkpoint
        status = Checkpoint(root=root).read(prefix)
        if options.allow_partial_checkpoint:
            status.expect_partial()
        else:
            status.assert_existing_objects_matched()
    if isinstance(root, _UserObject) and "signatures" not in root.__dict__:
        root.signatures = _SignatureMap()
    return root
