"""GraphDefs read into tapeflow graphs: `import_graph_def`.

Each NodeDef becomes tapeflow's operation for its op type: the graph's own nodes (Const,
Placeholder, NoOp, variables) directly, every other op through its `tf.raw_ops` wrapper,
which maps TF's inputs and attributes onto tapeflow's op (raw_ops' one table). The
operation takes the node's name under the import scope.
"""
from __future__ import annotations

import numpy as np

from ..framework import errors
from ..framework.graph import get_default_graph
from ..framework.graph_def import dtype_of_enum, proto_module, python_attr
from ..framework.graph_variables import GraphVariable

__all__ = ["import_graph_def"]


def _parse(graph_def):
    if isinstance(graph_def, (bytes, bytearray)):
        parsed = proto_module("graph").GraphDef()
        try:
            parsed.ParseFromString(bytes(graph_def))
        except Exception as error:  # protobuf's DecodeError
            raise errors.DataLossError(None, None, f"the GraphDef could not be parsed: "
                                       f"{error}") from None
        return parsed
    if not hasattr(graph_def, "node"):
        raise TypeError(f"graph_def must be a GraphDef proto, got {type(graph_def).__name__}")
    return graph_def


def _split_input(text: str):
    """('op', index, is_control) of a NodeDef input string."""
    if text.startswith("^"):
        return text[1:], 0, True
    op, _, rest = text.partition(":")
    return op, int(rest.rpartition(":")[2] or 0), False


def _order(nodes: list) -> list:
    """The nodes with every node after its inputs (ValueError on a cycle)."""
    by_name = {n.name: n for n in nodes}
    done, order, visiting = set(), [], set()

    def visit(node):
        stack = [(node, iter(node.input))]
        visiting.add(node.name)
        while stack:
            current, inputs = stack[-1]
            for text in inputs:
                name = _split_input(text)[0]
                if name in done or name not in by_name:
                    continue
                if name in visiting:
                    raise ValueError(f"GraphDef cycle through node {name!r}")
                visiting.add(name)
                stack.append((by_name[name], iter(by_name[name].input)))
                break
            else:
                stack.pop()
                visiting.discard(current.name)
                done.add(current.name)
                order.append(current)
    for node in nodes:
        if node.name not in done:
            visit(node)
    return order


def _tensor_key(name: str) -> str:
    return name if ":" in name else name + ":0"


def import_graph_def(graph_def, input_map=None, return_elements=None, name=None,
                     op_dict=None, producer_op_list=None):
    """Adds the nodes of a GraphDef to the default graph, as tapeflow's operations.

    Args:
        graph_def: a `GraphDef` proto (or its serialized bytes).
        input_map: {tensor name in graph_def: tensor} replacing those inputs (a name
            without ':i' means output 0); a variable may replace a resource input.
        return_elements: names in graph_def of tensors ('op:0') or operations ('op') to
            return.
        name: the name scope of the imported nodes (default "import"; "" for none).
        op_dict, producer_op_list: unused (kept for TF's signature).

    Returns:
        The tapeflow tensors and operations named in `return_elements` (None without).

    Raises:
        NotFoundError: a node's op type tapeflow lacks (named with the node).
        ValueError: an input naming no node, an input_map or return_elements name not in
            graph_def, a duplicate node name.
        DataLossError: bytes that are not a GraphDef.

    Example:
        >>> import tapeflow as tf
        >>> g = tf.Graph()
        >>> with g.as_default():
        ...     x = tf.compat.v1.placeholder(tf.float32, [2], name="x")
        ...     y = tf.square(x, name="y")
        >>> with tf.Graph().as_default() as h:
        ...     x2 = tf.constant([3.0, 4.0])
        ...     y2, = tf.graph_util.import_graph_def(
        ...         g.as_graph_def(), input_map={"x": x2}, return_elements=["y:0"])
        >>> y2.name, tf.compat.v1.Session(graph=h).run(y2).tolist()
        ('import/y:0', [9.0, 16.0])
    """
    graph_def = _parse(graph_def)
    graph = get_default_graph()
    prefix = "import" if name is None else name
    scope = ""
    if prefix:
        scope = (prefix if prefix.endswith("/") else graph.unique_name(prefix)) .rstrip("/") + "/"
    mapped = {_tensor_key(k): v for k, v in (input_map or {}).items()}
    names = {n.name for n in graph_def.node}
    for key in mapped:
        if key.split(":")[0] not in names:
            raise ValueError(f"Attempted to map inputs that were not found in graph_def: "
                             f"[{key}]")
    library = {f.signature.name: f for f in graph_def.library.function}
    with graph.as_default():
        outputs, operations = _import_nodes(graph, list(graph_def.node), _graph_input(
            mapped, names), scope, library, strict=True)
    if return_elements is None:
        return None
    found = []
    for element in return_elements:
        source, sep, index = element.partition(":")
        if source not in operations:
            raise ValueError(f"Requested return_element {element!r} not found in graph_def.")
        found.append(outputs[source][int(index)] if sep else operations[source])
    return found


def _graph_input(mapped: dict, names: set):
    """How a GraphDef node's input string ('op', 'op:1') finds its tensor."""
    def resolve(text: str, node, outputs: dict):
        source, index, _ = _split_input(text)
        if source not in names:
            raise ValueError(f"Node {node.name!r}: input {text!r} names no node of the "
                             "GraphDef")
        key = f"{source}:{index}"
        if key in mapped:
            return mapped[key]
        return _output(outputs, source, index, text, node)
    return resolve


def _output(outputs: dict, source: str, index: int, text: str, node):
    produced = outputs[source]
    if index >= len(produced) or produced[index] is None:
        raise ValueError(f"Node {node.name!r}: input {text!r} is not a tensor tapeflow can "
                         "give (map it with input_map)")
    return produced[index]


def _import_nodes(graph, nodes: list, resolve, scope: str, library: dict, strict: bool):
    """Adds `nodes` to `graph` in dependency order; returns their outputs and operations
    by node name. `resolve(text, node, outputs)` finds the tensor of an input string."""
    outputs: dict = {}
    operations: dict = {}
    for node in _order(nodes):
        inputs, controls = [], []
        for text in node.input:
            if text.startswith("^"):
                control = operations.get(text[1:])
                if control is None and text[1:] not in outputs:
                    raise ValueError(f"Node {node.name!r}: control input {text!r} names no "
                                     "node")
                if control is not None:
                    controls.append(control)
                continue
            inputs.append(resolve(text, node, outputs))
        with graph.control_dependencies(controls):
            outs, op = _import_node(graph, node, inputs, scope, library, strict)
        outputs[node.name], operations[node.name] = outs, op
    return outputs, operations


def _output_offsets(node, attrs: dict) -> dict:
    """{output argument name: (first flat output index)} of a node, from TF's op def."""
    from ..framework.op_defs import OP_DEFS
    offsets, start = {}, 0
    for name, _, number_attr, list_attr, _ in OP_DEFS.get(node.op, ((), (), (), False))[1]:
        offsets[name] = start
        start += attrs[number_attr] if number_attr else len(attrs[list_attr]) if list_attr \
            else 1
    return offsets


def call_function_def(fdef, args: list, library: dict) -> list:
    """The outputs of FunctionDef `fdef` called on `args`: its nodes added to the default
    graph (inside a branch or loop body being traced, or inline)."""
    graph = get_default_graph()
    values = {arg.name: x for arg, x in zip(fdef.signature.input_arg, args)}
    by_name = {n.name: n for n in fdef.node_def}

    def resolve(text: str, node, outputs: dict):
        if text in values:
            return values[text]
        source, _, rest = text.partition(":")
        if source not in by_name:
            raise ValueError(f"Function {fdef.signature.name!r}, node {node.name!r}: input "
                             f"{text!r} names no argument or node")
        arg, _, index = rest.partition(":")
        attrs = {k: python_attr(v) for k, v in by_name[source].attr.items()}
        offset = _output_offsets(by_name[source], attrs).get(arg, 0) if arg else 0
        return _output(outputs, source, offset + int(index or 0), text, node)
    with graph.name_scope(""):
        outputs, _ = _import_nodes(graph, list(fdef.node_def), resolve, "", library,
                                   strict=False)
    return [resolve(fdef.ret[arg.name], fdef, outputs) for arg in fdef.signature.output_arg]


def _function(library: dict, name: str, node):
    try:
        return library[name]
    except KeyError:
        raise errors.NotFoundError(None, node.op, f"Node {node.name!r} ({node.op}) calls "
                                   f"function {name!r}, which the GraphDef's library lacks") \
            from None


def _import_node(graph, node, inputs: list, scope: str, library: dict, strict: bool):
    """(outputs, operation) of one NodeDef added to `graph`."""
    attrs = {key: python_attr(value) for key, value in node.attr.items()}
    full = scope + node.name
    kind = node.op
    if kind == "VarHandleOp":
        variable = GraphVariable.from_handle(graph, full, attrs["dtype"], attrs["shape"])
        return [variable], variable
    start = len(graph.get_operations())
    with graph.name_scope(full + "/"):
        if kind in _FUNCTIONAL:
            result = _FUNCTIONAL[kind](node, attrs, inputs, library)
        else:
            result = _run_node(graph, node, kind, attrs, inputs)
    outs = _flat(result)
    created = graph.get_operations()[start:]
    tensors = [t for t in outs if hasattr(t, "op") and hasattr(t, "value_index")]
    if tensors and all(t.op is tensors[0].op for t in tensors) and tensors[0].op in created:
        op = tensors[0].op
    elif not tensors and created:
        op = created[-1]
    else:
        op = None
    if op is not None and (strict or full not in {o.name for o in created[:-1]}):
        try:
            graph._set_operation_name(op, full)
        except ValueError:
            if strict:
                raise  # inside a function body, a node may keep the name it was given
        if kind in ("AssignVariableOp",) and isinstance(inputs[0], GraphVariable):
            inputs[0].set_initializer(op, inputs[1])
    return outs, op


def _if(node, attrs: dict, inputs: list, library: dict):
    from ..eager.control_flow import cond
    branches = [_function(library, attrs[k], node) for k in ("then_branch", "else_branch")]
    if not branches[0].signature.output_arg:
        raise errors.UnimplementedError(None, node.op, f"node {node.name!r}: an If without "
                                        "outputs is not imported")
    args = inputs[1:]
    return cond(inputs[0], lambda: call_function_def(branches[0], args, library),
                lambda: call_function_def(branches[1], args, library))


def _while(node, attrs: dict, inputs: list, library: dict):
    from ..eager.control_flow import while_loop
    cond_f, body_f = _function(library, attrs["cond"], node), _function(library, attrs["body"],
                                                                       node)
    # Resources (variables) go in unchanged: closed over, not loop variables.
    fixed = {i: x for i, x in enumerate(inputs) if not hasattr(x, "value_index")}
    moving = [i for i in range(len(inputs)) if i not in fixed]

    def full(values):
        args = list(inputs)
        for i, x in zip(moving, values):
            args[i] = x
        return args

    def body(*values):
        out = call_function_def(body_f, full(values), library)
        return [out[i] for i in moving]
    shapes = attrs.get("output_shapes") or None
    invariants = [shapes[i] for i in moving] if shapes and len(shapes) == len(inputs) else None
    result = while_loop(lambda *values: call_function_def(cond_f, full(values), library)[0],
                        body, [inputs[i] for i in moving], shape_invariants=invariants)
    result = list(result) if isinstance(result, (list, tuple)) else [result]
    return full(result)


def _call(node, attrs: dict, inputs: list, library: dict):
    return call_function_def(_function(library, attrs["f"], node), inputs, library)


# Functional ops: their functions' nodes are added to the branches (or inline).
_FUNCTIONAL = {"If": _if, "StatelessIf": _if, "While": _while, "StatelessWhile": _while,
               "PartitionedCall": _call, "StatefulPartitionedCall": _call}


def _flat(result) -> list:
    if result is None:
        return []
    if isinstance(result, (list, tuple)):
        flat = []
        for item in result:
            flat.extend(item if isinstance(item, (list, tuple)) else [item])
        return flat
    if hasattr(result, "outputs") and not hasattr(result, "value_index"):
        return list(result.outputs)  # an Operation
    return [result]


def _run_node(graph, node, kind: str, attrs: dict, inputs: list):
    from .. import raw_ops
    from ..ops.control_flow_ops import no_op
    from ..ops.array_ops import identity
    from ..framework.tensor import constant
    if kind == "Const":
        value = attrs["value"]
        dtype = attrs["dtype"]
        if value.dtype == object:
            return constant(value)
        return constant(np.asarray(value), dtype=dtype)
    if kind == "Placeholder":
        if attrs["dtype"] == "resource":
            return [None]  # a captured variable's handle: given by input_map
        shape = attrs.get("shape")
        return graph.placeholder(attrs["dtype"]._np, _unknown() if shape is None else shape)
    if kind == "NoOp":
        return no_op()
    if kind == "ReadVariableOp":
        return _variable(node, inputs[0]).read_value()
    if kind == "VarIsInitializedOp":
        return graph.variable_is_initialized(_variable(node, inputs[0]))
    if kind in ("AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp"):
        variable = _variable(node, inputs[0])
        method = {"AssignVariableOp": variable.assign, "AssignAddVariableOp":
                  variable.assign_add, "AssignSubVariableOp": variable.assign_sub}[kind]
        return method(inputs[1], read_value=False)
    if kind == "Identity" and isinstance(inputs[0], GraphVariable):
        return identity(inputs[0])
    wrapper = getattr(raw_ops, kind, None) if kind in _raw_op_types() else None
    if wrapper is not None:
        return wrapper(**_raw_arguments(node, kind, attrs, inputs))
    return _registry_op(node, kind, attrs, inputs)


def _registry_op(node, kind: str, attrs: dict, inputs: list):
    """Tapeflow's op of TF's type `kind` (one raw_ops does not wrap): TF's inputs are its
    inputs, TF's attributes the kernel's keywords of the same names.

    Raises:
        NotFoundError: tapeflow has no op of that type, or it takes what TF holds as an
            input as an attribute (the GraphDef form of the op says so).
    """
    import inspect
    from ..framework.execute import execute
    from ..framework.graph_def import graph_def_form_of
    from ..framework.registry import get_op
    from ..framework.op_defs import OP_DEFS
    try:
        op = get_op(kind)
    except LookupError:
        op = None
    form = graph_def_form_of(kind)
    if op is None or kind not in OP_DEFS or (form is not None and (
            form.tf_type is not None or any(callable(v) for v in form.attrs.values()))):
        raise errors.NotFoundError(
            None, kind, f"Op type not registered '{kind}' in tapeflow (node {node.name!r} of "
            "the GraphDef)")
    try:
        params = inspect.signature(op.kernel).parameters
    except (TypeError, ValueError):
        params = {}
    from ..ops.array_ops import get_static_value
    keywords, tensors, implied = {}, [], {}
    positional = _positional_count(params)
    given = form.inputs if form is not None else {}
    for i, (arg, value) in enumerate(zip(OP_DEFS[kind][0], inputs)):
        source = given.get(arg[0])
        if callable(source):
            implied[arg[0]] = (source, value)  # checked against the op made below
        elif source is not None or (
                arg[0] in params and not arg[2] and not arg[3] and i >= positional):
            # TF's input is the kernel's attribute of that name (the inverse of writing an
            # attribute named as a TF input as a constant input).
            known = get_static_value(value)
            if known is None:
                raise errors.UnimplementedError(
                    None, kind, f"node {node.name!r} ({kind}): input {arg[0]!r} must be a "
                    "constant: tapeflow's op holds it as an attribute")
            keywords[source or arg[0]] = _python_value(np.asarray(known))
        else:
            tensors.append(value)
    tensors.extend(inputs[len(OP_DEFS[kind][0]):])
    form_attrs = form.attrs if form is not None else {}
    renamed = {v: k for k, v in form_attrs.items() if isinstance(v, str)}
    for name, constant in form_attrs.items():
        if not isinstance(constant, str) and name in attrs and attrs[name] != constant:
            raise errors.UnimplementedError(
                None, kind, f"node {node.name!r} ({kind}): tapeflow's op takes only "
                f"{name}={constant!r}, got {attrs[name]!r}")
    for name, value in attrs.items():
        name = renamed.get(name, name)
        if name in params and not name.startswith("_") and name not in keywords:
            keywords[name] = value._np if hasattr(value, "_np") else (
                tuple(value) if isinstance(value, list) else value)
    for name, p in params.items():  # what TF's node does not give, the op takes as unknown
        if p.kind is p.KEYWORD_ONLY and p.default is p.empty and name not in keywords:
            keywords[name] = None
    try:
        result = execute(op, tuple(tensors), keywords)
    except (TypeError, KeyError, ValueError) as error:  # TF's node does not fit the kernel
        raise errors.UnimplementedError(
            None, kind, f"node {node.name!r} ({kind}): tapeflow's {kind} does not take the "
            f"node's inputs and attributes as TF writes them: {error}") from None
    if implied:
        made = (result[0] if isinstance(result, (list, tuple)) else result).op
        for name, (source, value) in implied.items():
            known = get_static_value(value)
            if known is None or not np.array_equal(np.asarray(known), np.asarray(source(made))):
                raise errors.UnimplementedError(
                    None, kind, f"node {node.name!r} ({kind}): tapeflow's op takes only "
                    f"{name}={np.asarray(source(made)).tolist()!r}, got {value!r}")
    return result


def _python_value(array: np.ndarray):
    """A constant as tapeflow's attributes hold it: a Python scalar or nested tuples."""
    if array.ndim == 0:
        return array.item()
    return tuple(_python_value(a) for a in array)


def _positional_count(params) -> int:
    """How many of a kernel's parameters come before its first one with a default."""
    count = 0
    for p in params.values():
        if p.kind is p.VAR_POSITIONAL:
            return 1 << 30
        if p.default is not p.empty or p.kind is p.KEYWORD_ONLY:
            break
        count += 1
    return count


def _raw_op_types() -> set:
    from .. import raw_ops
    return set(dir(raw_ops))


def _unknown():
    from ..framework.tensor_shape import TensorShape
    return TensorShape(None)


def _variable(node, value):
    if not hasattr(value, "read_value") or not hasattr(value, "assign"):
        raise ValueError(f"Node {node.name!r} ({node.op}) needs a variable as its resource "
                         f"input, got {value!r}; map the resource with input_map")
    return value


def _raw_arguments(node, kind: str, attrs: dict, inputs: list) -> dict:
    """The keyword arguments of raw op `kind` for a NodeDef: its inputs by TF's input
    arguments (a list argument takes its `N` or type-list count), its attributes by name."""
    from ..framework.op_defs import OP_DEFS
    from ..raw_op_defs import RAW_OP_DEFS
    params = RAW_OP_DEFS[kind][0]
    input_args = OP_DEFS[kind][0]
    kwargs, rest = {}, list(inputs)
    for param, arg in zip(params, input_args):
        if arg[2] or arg[3]:
            count = attrs[arg[2]] if arg[2] else len(attrs[arg[3]])
            kwargs[param[0]], rest = rest[:count], rest[count:]
        else:
            kwargs[param[0]], rest = rest[0], rest[1:]
    # TF's Python keywords are its attributes' names, but for a few renamed ones (Squeeze's
    # squeeze_dims is `axis`): those pair with the remaining attributes in TF's order.
    inferred = {a for arg in input_args for a in arg[1:4] if a}
    keywords = [p[0] for p in params[len(input_args):]]
    renamed = [a[0] for a in OP_DEFS[kind][2] if a[0] not in inferred and a[0] not in keywords]
    unmatched = [k for k in keywords if k not in attrs]
    for keyword, attr in zip(unmatched, renamed):
        if attr in attrs:
            kwargs[keyword] = attrs[attr]
    for keyword in keywords:
        if keyword in attrs:
            kwargs[keyword] = attrs[keyword]
    return kwargs
