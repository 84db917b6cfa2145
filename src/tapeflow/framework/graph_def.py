"""Graphs as TF's GraphDef protos: every Operation a NodeDef with TF's op type, inputs and
attributes (names and types from TF's op definitions, `op_defs.OP_DEFS`).

A tapeflow op's node takes its inputs in TF's input order and its attributes by name;
type attributes (`T`, `Tidx`, `N`, ...) come from its inputs' and outputs' dtypes and
every attribute TF's op definition defaults is written as TF writes it. Where a tapeflow
op holds as an attribute what TF takes as an input (a reduction's axes, a reshape's
shape, a transpose's permutation), or names or encodes an attribute differently (conv's
resolved `pads` against TF's `padding`), the op's module says so once, beside the op, with
`graph_def_form` (DESIGN rule 8). Variables are VarHandleOp nodes (in a Graph) or
resource placeholders (a function's captured variables), as TF writes them.

The protos are the `tensorboard` package's (an optional extra, imported on first use).
"""
from __future__ import annotations

import importlib

import numpy as np

from . import errors
from .tensor_shape import TensorShape

__all__ = ["graph_def_form", "graph_def_form_of", "graph_to_graph_def", "proto_module",
           "dtype_enum",
           "dtype_of_enum", "attr_value", "python_attr", "write_function_def",
           "function_variables"]

# The GraphDef versions tapeflow writes: TF 2.21's producer version.
PRODUCER_VERSION = 2474


def proto_module(name: str):
    """TF's `<name>_pb2` module from the tensorboard package (ImportError naming the extra)."""
    try:
        return importlib.import_module(f"tensorboard.compat.proto.{name}_pb2")
    except ImportError as error:
        raise ImportError("GraphDefs are TF's protos, read and written with the `protobuf` "
                          "and `tensorboard` packages: pip install 'tapeflow[tf-files]'") \
            from error


def _op_defs() -> dict:
    from .op_defs import OP_DEFS
    return OP_DEFS


def dtype_enum(dtype) -> int:
    """TF's DataType enum value for a dtype (or its name)."""
    name = dtype if isinstance(dtype, str) else np.dtype(dtype).name if not hasattr(
        dtype, "name") else dtype.name
    if name == "str" or name.startswith("<U") or name == "object" or name.startswith("|S") \
            or name.startswith("bytes"):
        name = "string"
    types = proto_module("types")
    key = "DT_" + {"float32": "FLOAT", "float64": "DOUBLE", "bool": "BOOL",
                   "resource": "RESOURCE", "string": "STRING", "variant": "VARIANT",
                   "bfloat16": "BFLOAT16", "float16": "HALF"}.get(name, name.upper())
    try:
        return types.DataType.Value(key)
    except ValueError:
        raise TypeError(f"dtype {name!r} has no DataType in a GraphDef") from None


def dtype_of_enum(value: int):
    """The tapeflow DType of TF's DataType enum value (DT_RESOURCE: 'resource')."""
    from .dtypes import as_dtype
    name = proto_module("types").DataType.Name(value)[3:].lower()
    name = {"float": "float32", "double": "float64", "half": "float16"}.get(name, name)
    return name if name in ("resource", "variant") else as_dtype(name)


class _Form:
    """How one tapeflow op type becomes TF's node (see `graph_def_form`)."""

    __slots__ = ("tf_type", "inputs", "attrs", "drop")

    def __init__(self, tf_type, inputs, attrs, drop) -> None:
        self.tf_type, self.inputs, self.attrs, self.drop = tf_type, inputs, attrs, drop


_FORMS: dict = {}


def graph_def_form(op_type: str, tf_type=None, inputs=None, attrs=None, drop=()) -> None:
    """Says how the nodes of tapeflow op `op_type` are written as TF's NodeDefs, where the
    op's own inputs and attributes do not line up with TF's op definition by themselves.

    Args:
        op_type: the tapeflow op type.
        tf_type: TF's op type (default `op_type`), or `tf_type(op)` choosing it per node.
        inputs: {TF input argument: tapeflow attribute name or `read(op)`}: values the
            tapeflow op holds as attributes that TF takes as (constant) inputs.
        attrs: {TF attribute: tapeflow attribute name, `read(op)` or a constant (what
            the tapeflow op always does; a GraphDef read must have that value)}.
        drop: tapeflow attributes that TF's node has no counterpart for (they are implied).
    """
    _FORMS[op_type] = _Form(tf_type, dict(inputs or {}), dict(attrs or {}), frozenset(drop))


def graph_def_form_of(op_type: str):
    """The `graph_def_form` given for `op_type` (None for ops written as they are)."""
    return _FORMS.get(op_type)


def _read(op, source):
    """A form's source: `read(op)`, a tapeflow attribute's name, or a constant."""
    if callable(source):
        return source(op)
    return op.attrs[source] if isinstance(source, str) else source


# -- attribute values ----------------------------------------------------------------------
def shape_proto(shape, proto):
    """Fills a TensorShapeProto from a TensorShape, a list of dims or None (unknown rank)."""
    proto.SetInParent()  # a scalar's shape has no fields, and is still set
    dims = None if shape is None else getattr(shape, "dims", shape)
    if dims is None or getattr(shape, "rank", 0) is None:
        proto.unknown_rank = True
    else:
        for d in dims:
            proto.dim.add().size = -1 if d is None else int(d)
    return proto


def tensor_proto(value, dtype=None):
    """A TensorProto holding `value` (a NumPy array or Python value)."""
    tensor_util = importlib.import_module("tensorboard.util.tensor_util")
    stub = importlib.import_module("tensorboard.compat.tensorflow_stub.dtypes")
    array = np.asarray(value)
    name = (dtype.name if dtype is not None else array.dtype.name)
    if array.dtype.kind in "USO":
        name = "string"
        array = np.vectorize(lambda s: s if isinstance(s, bytes) else str(s).encode(),
                             otypes=[object])(array) if array.size else array.astype(object)
    return tensor_util.make_tensor_proto(array, stub.as_dtype(name), list(array.shape))


def attr_value(kind: str, value):
    """`value` as an AttrValue of TF's attribute type `kind` ("type", "list(int)", ...)."""
    attr = proto_module("attr_value").AttrValue()
    if kind == "type":
        attr.type = dtype_enum(value)
    elif kind == "list(type)":
        attr.list.type.extend(dtype_enum(v) for v in value)
    elif kind == "int":
        attr.i = int(value)
    elif kind == "float":
        attr.f = float(value)
    elif kind == "bool":
        attr.b = bool(value)
    elif kind == "string":
        attr.s = value if isinstance(value, bytes) else str(value).encode()
    elif kind == "shape":
        shape_proto(value, attr.shape)
    elif kind == "tensor":
        attr.tensor.CopyFrom(tensor_proto(value))
    elif kind == "func":
        attr.func.name = value
    elif kind.startswith("list("):
        item = kind[5:-1]
        for v in value:
            if item == "int":
                attr.list.i.append(int(v))
            elif item == "float":
                attr.list.f.append(float(v))
            elif item == "bool":
                attr.list.b.append(bool(v))
            elif item == "string":
                attr.list.s.append(v if isinstance(v, bytes) else str(v).encode())
            elif item == "shape":
                shape_proto(v, attr.list.shape.add())
            else:
                raise TypeError(f"attribute type {kind!r} is not written")
        if not value:
            attr.list.SetInParent()
    else:
        raise TypeError(f"attribute type {kind!r} is not written")
    return attr


def python_attr(attr):
    """An AttrValue as a Python value: dtypes as tapeflow DTypes, shapes as TensorShapes,
    tensors as NumPy arrays, functions by name, strings as str."""
    kind = attr.WhichOneof("value")
    if kind == "list":
        lst = attr.list
        for field in ("s", "i", "f", "b", "type", "shape", "func"):
            items = list(getattr(lst, field))
            if items:
                return [_python_item(field, v) for v in items]
        return []
    if kind is None:
        return None
    return _python_item(kind, getattr(attr, kind))


def _python_item(kind, v):
    if kind == "s":
        return v.decode(errors="replace")
    if kind == "type":
        return dtype_of_enum(v)
    if kind == "shape":
        if v.unknown_rank:
            return TensorShape(None)
        return TensorShape([None if d.size < 0 else d.size for d in v.dim])
    if kind == "tensor":
        return importlib.import_module("tensorboard.util.tensor_util").make_ndarray(v)
    if kind == "func":
        return v.name
    return v


# -- writing a graph -----------------------------------------------------------------------
def tensor_name(tensor) -> str:
    """TF's input string for a tensor: 'op' for output 0, 'op:i' for the others."""
    index = tensor.value_index
    return tensor.op.name if index == 0 else f"{tensor.op.name}:{index}"


class _Writer:
    """Writes the nodes of one graph into a GraphDef (or a FunctionDef's node list)."""

    def __init__(self, graph, nodes, add_shapes: bool, library, args=None,
                 written=None) -> None:
        self.graph = graph
        self.nodes = nodes
        self.add_shapes = add_shapes
        self.library = library  # the GraphDef's FunctionDefLibrary, shared with functions
        # In a FunctionDef: {tensor or variable id: argument name}; None in a GraphDef.
        self.args = args
        self.written = {} if written is None else written  # function id -> its name
        self.handles: dict = {}  # variable id -> the node name of its handle
        self.names = {op.name for op in graph.get_operations()}

    def unique(self, name: str) -> str:
        base, count = name, 1
        while name in self.names:
            name = f"{base}_{count}"
            count += 1
        self.names.add(name)
        return name

    def handle(self, variable, consumer) -> str:
        """The node name of `variable`'s resource handle, written on first use."""
        name = self.handles.get(variable._id)
        if name is not None:
            return name
        if self.args is not None:
            if variable._id not in self.args:
                raise errors.UnimplementedError(
                    None, consumer.type, f"node {consumer.name!r} of function "
                    f"{self.graph.name!r} reads variable {variable.name!r}, which is not one "
                    "of the function's inputs")
            return self.args[variable._id]
        node = self.nodes.add()
        dims = None if variable.shape.rank is None else list(variable.shape.dims)
        if getattr(variable, "_graph", None) is self.graph:
            node.name = variable.name.rsplit(":", 1)[0]
            node.op = "VarHandleOp"
            self.names.add(node.name)
            _fill_defaults(node, "VarHandleOp", {"shared_name": node.name,
                                                 "debug_name": node.name + "/",
                                                 "dtype": variable.dtype,
                                                 "shape": dims})
            node.attr["_class"].list.s.append(f"loc:@{node.name}".encode())
        else:  # a variable the function captures: a resource input, as TF writes it
            node.name = self.unique(f"{consumer.name}/resource")
            node.op = "Placeholder"
            node.attr["dtype"].type = dtype_enum("resource")
            shape_proto(TensorShape(()), node.attr["shape"].shape)
            node.attr["_user_specified_name"].s = b"resource"
        self.handles[variable._id] = node.name
        return node.name

    def write(self, op) -> None:
        form = _FORMS.get(op.type)
        tf_type = _tf_type(op)
        op_def = _op_defs().get(tf_type)
        if op_def is None:
            raise errors.UnimplementedError(
                None, op.type, f"the graph's node {op.name!r} of op type {op.type!r} has no "
                "TF op definition to be written as a GraphDef node")
        input_args, output_args, attr_defs, _ = op_def
        given_inputs = dict(form.inputs) if form is not None else {}
        # An attribute named as one of TF's inputs is that (constant) input.
        for arg in input_args:
            if arg[0] in op.attrs and arg[0] not in given_inputs and op.attrs[arg[0]] is not None:
                given_inputs[arg[0]] = arg[0]
        given_attrs = dict(form.attrs) if form is not None else {}
        node = proto_module("node_def").NodeDef()
        node.name, node.op = op.name, tf_type
        if op.device:
            node.device = op.device
        values: dict = {}   # TF attribute -> Python value
        tensors = _call_inputs(op)
        free = [a for a in input_args if a[0] not in given_inputs]
        for arg in input_args:
            name, type_attr, number_attr, list_attr, fixed = arg
            if name in given_inputs:
                value = _constant_input(_read(op, given_inputs[name]), fixed,
                                        values.get(type_attr))
                node.input.append(self.const(f"{op.name}/{name}", value))
                items = [value.dtype]
                if number_attr:
                    values.setdefault(number_attr, 1)
            elif number_attr or list_attr:
                rest = len(free) - 1 - free.index(arg)
                count = len(tensors) - rest
                chosen, tensors = tensors[:count], tensors[count:]
                node.input.extend(self.input_name(t, op) for t in chosen)
                items = [_dtype_of(t) for t in chosen]
                if number_attr:
                    values.setdefault(number_attr, len(chosen))
                if list_attr:
                    values.setdefault(list_attr, items)
                    continue
            else:
                if not tensors:
                    raise errors.UnimplementedError(
                        None, op.type, f"node {op.name!r} ({op.type}) has fewer inputs than "
                        f"TF's {tf_type}: no input for {name!r}")
                tensor = tensors.pop(0)
                node.input.append(self.input_name(tensor, op))
                items = [_dtype_of(tensor)]
            if type_attr and items:
                values.setdefault(type_attr, items[0])
        for control in op.control_inputs:
            node.input.append("^" + control.name)
        for arg, output in zip(output_args, _output_groups(output_args, op.outputs)):
            if arg[1] and output:
                values.setdefault(arg[1], output[0].dtype)
            if arg[2]:
                values.setdefault(arg[2], len(output))
            if arg[3]:
                values.setdefault(arg[3], [t.dtype for t in output])
        known = {a[0] for a in attr_defs}
        for key, source in given_attrs.items():
            values[key] = _read(op, source)
        for key, value in op.attrs.items():
            if key in known and key not in given_attrs:
                values[key] = value
            elif key not in known and key not in _consumed(form) and key not in given_inputs:
                raise errors.UnimplementedError(
                    None, op.type, f"node {op.name!r} ({op.type}): attribute {key!r}={value!r} "
                    f"has no counterpart in TF's {tf_type}")
        for spec in attr_defs:
            if spec[1] == "func" and hasattr(values.get(spec[0]), "graph"):
                values[spec[0]] = self.function(values[spec[0]], op)
        _fill_defaults(node, tf_type, values)
        if self.add_shapes:
            for out in op.outputs:
                shape_proto(out.shape, node.attr["_output_shapes"].list.shape.add())
        self.nodes.add().CopyFrom(node)

    def const(self, name: str, value) -> str:
        node = self.nodes.add()
        node.name, node.op = self.unique(name), "Const"
        node.attr["value"].tensor.CopyFrom(tensor_proto(value))
        node.attr["dtype"].type = node.attr["value"].tensor.dtype
        return node.name if self.args is None else node.name + ":output:0"

    def input_name(self, tensor, consumer) -> str:
        if getattr(tensor, "op", None) is None or not hasattr(tensor, "value_index"):
            return self.handle(tensor, consumer)  # a variable: its resource handle
        if self.args is None:
            return tensor_name(tensor)
        return self.args.get(tensor._id) or _function_tensor_name(tensor)

    def function(self, function, caller) -> str:
        """Writes `function` (a ConcreteFunction an op of this graph calls) into the
        library as a FunctionDef, once; returns its name."""
        name = self.written.get(id(function))
        if name is None:
            taken = set(self.written.values())
            name, count = function.name, 1
            while name in taken:
                name, count = f"{function.name}_{count}", count + 1
            self.written[id(function)] = name
            _write_function(function, name, caller, self)
        return name


def _constant_input(value, fixed: str, shared):
    """A constant input's array in the dtype TF's argument takes: its fixed dtype, the dtype
    its type attribute has from an earlier input, else int32 for integers (and for an
    empty list of axes)."""
    array = np.asarray(value)
    if fixed in ("string", "resource", "variant"):
        return array
    if fixed:
        return array.astype(np.dtype(fixed))
    if shared is not None:
        return array.astype(np.dtype(getattr(shared, "as_numpy_dtype", shared)))
    if array.size == 0 and array.dtype.kind == "f" or array.dtype == np.int64 and np.all(
            np.abs(array) < 2 ** 31):
        return array.astype(np.int32)
    return array


def _call_inputs(op) -> list:
    """The op's inputs as TF's node takes them: a function call's trailing variable reads
    (a graph reads a variable it passes) are the variables' resource handles, as TF's
    calls pass them."""
    inputs = list(op.inputs)
    function = op.attrs.get("f")
    if not hasattr(function, "graph") or not hasattr(function, "inputs"):
        return inputs
    for i in range(len(function.inputs), len(inputs)):
        producer = getattr(inputs[i], "op", None)
        if producer is not None and producer.type == "ReadVariableOp" and \
                _dtype_of(producer.inputs[0]) == "resource":
            inputs[i] = producer.inputs[0]
    return inputs


def _consumed(form) -> set:
    """The tapeflow attributes a form writes as TF's (by name, or named in `drop`)."""
    if form is None:
        return set()
    named = [s for s in list(form.attrs.values()) + list(form.inputs.values())
             if isinstance(s, str)]
    return set(named) | set(form.inputs) | set(form.attrs) | form.drop


def _dtype_of(tensor):
    if getattr(tensor, "op", None) is None or not hasattr(tensor, "value_index"):
        return "resource"
    return tensor.dtype


def _output_groups(output_args, outputs) -> list:
    """The op's outputs split by TF's output arguments (a list argument takes the rest)."""
    outputs = list(outputs)
    groups = []
    for i, arg in enumerate(output_args):
        if arg[2] or arg[3]:
            count = len(outputs) - (len(output_args) - 1 - i)
            groups.append(outputs[:count])
            outputs = outputs[count:]
        else:
            groups.append(outputs[:1])
            outputs = outputs[1:]
    return groups


def _fill_defaults(node, tf_type: str, values: dict) -> None:
    """Writes the node's attributes: `values`, then TF's defaults for the rest."""
    for spec in _op_defs()[tf_type][2]:
        name, kind = spec[0], spec[1]
        if name in values:
            value = values[name]
            if kind == "int" and value is None:
                value = 0
            node.attr[name].CopyFrom(attr_value(kind, value))
        elif len(spec) > 2:
            node.attr[name].CopyFrom(attr_value(kind, spec[2]))
        else:
            raise errors.UnimplementedError(
                None, tf_type, f"node {node.name!r} ({tf_type}): no value for TF's required "
                f"attribute {name!r}")


def _function_tensor_name(tensor) -> str:
    """A tensor's name inside a FunctionDef: 'node:output_arg:index'."""
    op = tensor.op
    tf_type = _tf_type(op)
    output_args = _op_defs()[tf_type][1]
    position = tensor.value_index
    for arg, group in zip(output_args, _output_groups(output_args, op.outputs)):
        if position < len(group):
            return f"{op.name}:{arg[0]}:{position}"
        position -= len(group)
    raise ValueError(f"{tensor!r} is not an output of TF's {tf_type}")


def _tf_type(op) -> str:
    form = _FORMS.get(op.type)
    if form is not None and form.tf_type is not None:
        return form.tf_type(op) if callable(form.tf_type) else form.tf_type
    return op.type


def _arg_name(name: str, used: set) -> str:
    """A FunctionDef argument name (lower case letters, digits and _), unique."""
    text = "".join(c if c.isalnum() else "_" for c in name.lower()) or "arg"
    if not text[0].isalpha():
        text = "arg_" + text
    base, count = text, 1
    while text in used:
        text = f"{base}_{count}"
        count += 1
    used.add(text)
    return text


def _write_function(function, name: str, caller, outer: _Writer) -> None:
    """`function` as a FunctionDef: its input placeholders, then the variables the calling
    op passes (`caller.attrs["variables"]`, or a call's inputs after the function's: resource
    inputs), are its arguments; a loop
    body (`caller` a While) also returns its captured inputs unchanged, as TF's While needs."""
    graph = function.graph
    fdef = outer.library.function.add()
    signature = fdef.signature
    signature.name = name
    used: set = set()
    args: dict = {}
    inputs = list(function.inputs)
    for tensor in inputs:
        arg = signature.input_arg.add()
        arg.name = args[tensor._id] = _arg_name(tensor.op.name, used)
        arg.type = dtype_enum(tensor.dtype)
    variables = list(caller.attrs["variables"]) if "variables" in caller.attrs else [
        v for v in _call_inputs(caller)[len(inputs):] if _dtype_of(v) == "resource"]
    for variable in variables:
        arg = signature.input_arg.add()
        arg.name = args[variable._id] = _arg_name(variable.name.split(":")[0] + "_resource",
                                                  used)
        arg.type = dtype_enum("resource")
    writer = _Writer(graph, fdef.node_def, outer.add_shapes, outer.library, args, outer.written)
    placeholders = {t.op for t in inputs}
    for op in graph.get_operations():
        if op not in placeholders:
            writer.write(op)
    results = [writer.input_name(t, None) for t in function.outputs]
    types = [dtype_enum(t.dtype) for t in function.outputs]
    if caller.type == "While" and function is caller.attrs["body_fn"]:
        count = caller.attrs["count"]
        passed = inputs[count:]
        results += [args[t._id] for t in passed] + [args[v._id] for v in variables]
        types += [dtype_enum(t.dtype) for t in passed] + [dtype_enum("resource")] * len(
            variables)
    for i, (result, kind) in enumerate(zip(results, types)):
        arg = signature.output_arg.add()
        arg.name, arg.type = f"output_{i}", kind
        fdef.ret[arg.name] = result
    if any(op._stateful for op in graph.get_operations()):
        signature.is_stateful = True


def graph_to_graph_def(graph, add_shapes: bool = False, from_version=None):
    """A GraphDef of `graph`'s operations, in the order they were added.

    Raises:
        UnimplementedError: an op that has no TF op definition, or an attribute with no
            counterpart in TF's op.
    """
    graph_def = proto_module("graph").GraphDef()
    writer = _Writer(graph, graph_def.node, add_shapes, graph_def.library)
    for op in graph.get_operations()[from_version or 0:]:
        writer.write(op)
    graph_def.versions.producer = PRODUCER_VERSION
    return graph_def


class _TopLevelCall:
    """What `_write_function` asks of the op calling a function, for a function called
    from outside any graph (a SavedModel's): its captured variables are resource inputs."""

    type = "StatefulPartitionedCall"

    def __init__(self, variables) -> None:
        self.attrs = {"variables": tuple(variables)}


def function_variables(function) -> list:
    """The variables ConcreteFunction `function`'s ops take as inputs (those of the
    functions it calls too, which its call ops pass on), in order of first use."""
    found: dict = {}
    for op in function.graph.get_operations():
        for value in op.inputs:
            if getattr(value, "op", None) is None or not hasattr(value, "value_index"):
                found.setdefault(id(value), value)
    return list(found.values())


def write_function_def(function, name: str, library, written=None) -> list:
    """Writes ConcreteFunction `function` as FunctionDef `name` into `library` (a
    FunctionDefLibrary), with the functions it calls. Its arguments are its inputs (its
    captured tensors last), then one resource argument per variable it reads
    (`function_variables(function)`, in order).

    Args:
        function: the ConcreteFunction.
        name: the FunctionDef's name.
        library: the FunctionDefLibrary proto written into.
        written: {id(function): name} of functions already in `library` (updated).

    Returns:
        The variables of its resource arguments, in order.

    Raises:
        UnimplementedError: an op with no TF op definition.
    """
    written = {} if written is None else written
    written[id(function)] = name
    from .graph import Graph
    writer = _Writer(Graph(), proto_module("graph").GraphDef().node, False, library,
                     written=written)
    variables = function_variables(function)
    _write_function(function, name, _TopLevelCall(variables), writer)
    return variables


# -- helpers for the ops' forms ------------------------------------------------------------
def axes_input(op):
    """A reduction's axes as TF's input (None, all axes, written as the full list)."""
    axis = op.attrs.get("axis")
    if axis is None:
        return list(range(op.inputs[0].shape.rank))
    return list(axis) if isinstance(axis, (tuple, list)) else axis


def _is_complex(tensor) -> bool:
    return np.dtype(tensor.dtype.as_numpy_dtype if hasattr(tensor.dtype, "as_numpy_dtype")
                    else tensor.dtype).kind == "c"


def _adjoint(op, side: str) -> bool:
    transpose, adjoint = op.attrs.get("transpose_" + side), op.attrs.get("adjoint_" + side)
    if transpose and _is_complex(op.inputs[0]):
        raise errors.UnimplementedError(
            None, op.type, f"node {op.name!r}: a transpose (not adjoint) of a complex matrix "
            "has no TF MatMul attribute")
    return bool(transpose or adjoint)


def matmul_form(op_def) -> None:
    """A matrix product: TF's MatMul when both operands are matrices, else BatchMatMulV2."""
    def tf_type(op):
        ranks = [t.shape.rank for t in op.inputs]
        return "MatMul" if ranks == [2, 2] and not _is_complex(op.inputs[0]) else \
            "BatchMatMulV2"
    graph_def_form(op_def.name, tf_type=tf_type,
                   attrs={"transpose_a": lambda op: _adjoint(op, "a"),
                          "transpose_b": lambda op: _adjoint(op, "b"),
                          "adj_x": lambda op: _adjoint(op, "a"),
                          "adj_y": lambda op: _adjoint(op, "b")},
                   drop=("transpose_a", "transpose_b", "adjoint_a", "adjoint_b"))


def window_form(op_type: str, kernel_of, same_pads) -> None:
    """A convolution or pooling: TF's strides/ksize/dilations over all four NHWC axes and
    `padding` "VALID", "SAME" (`same_pads(op)` gives what SAME resolves to) or explicit."""
    def full(values):
        return [1, *values, 1]

    def padding(op):
        if op.attrs["pads"] == "SAME":  # resolved when it runs (sizes unknown when built)
            return "SAME"
        pads = tuple(tuple(p) for p in op.attrs["pads"])
        if all(p == (0, 0) for p in pads):
            return "VALID"
        return "SAME" if pads == same_pads(op) else "EXPLICIT"

    def explicit(op):
        if padding(op) != "EXPLICIT":
            return []
        return [0, 0, *[v for p in op.attrs["pads"] for v in p], 0, 0]
    attrs = {"strides": lambda op: full(op.attrs["strides"]), "padding": padding,
             "explicit_paddings": explicit}
    if kernel_of is None:
        attrs["dilations"] = lambda op: full(op.attrs["dilations"])
    else:
        attrs["ksize"] = lambda op: full(kernel_of(op))
    graph_def_form(op_type, attrs=attrs, drop=("pads",))
