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
    op, _, index = text.partition(":")
    return op, int(index or 0), False


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
    outputs: dict = {}
    operations: dict = {}
    with graph.as_default():
        for node in _order(list(graph_def.node)):
            inputs, controls = [], []
            for text in node.input:
                source, index, control = _split_input(text)
                if source not in names:
                    raise ValueError(f"Node {node.name!r}: input {text!r} names no node of "
                                     "the GraphDef")
                if control:
                    controls.append(operations[source])
                    continue
                key = f"{source}:{index}"
                if key in mapped:
                    inputs.append(mapped[key])
                    continue
                produced = outputs[source]
                if index >= len(produced) or produced[index] is None:
                    raise ValueError(f"Node {node.name!r}: input {text!r} is not a tensor "
                                     "tapeflow can give (map it with input_map)")
                inputs.append(produced[index])
            with graph.control_dependencies(controls):
                outs, op = _import_node(graph, node, inputs, scope)
            outputs[node.name], operations[node.name] = outs, op
    if return_elements is None:
        return None
    found = []
    for element in return_elements:
        source, sep, index = element.partition(":")
        if source not in operations:
            raise ValueError(f"Requested return_element {element!r} not found in graph_def.")
        found.append(outputs[source][int(index)] if sep else operations[source])
    return found


def _import_node(graph, node, inputs: list, scope: str):
    """(outputs, operation) of one NodeDef added to `graph`."""
    attrs = {key: python_attr(value) for key, value in node.attr.items()}
    full = scope + node.name
    kind = node.op
    if kind == "VarHandleOp":
        variable = GraphVariable.from_handle(graph, full, attrs["dtype"], attrs["shape"])
        return [variable], variable
    start = len(graph.get_operations())
    with graph.name_scope(full + "/"):
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
    if op is not None:
        graph._set_operation_name(op, full)
        if kind in ("AssignVariableOp",) and isinstance(inputs[0], GraphVariable):
            inputs[0].set_initializer(op, inputs[1])
    return outs, op


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
        return graph.placeholder(attrs["dtype"]._np, attrs.get("shape") or _unknown())
    if kind == "NoOp":
        return no_op()
    if kind == "ReadVariableOp":
        return _variable(node, inputs[0]).read_value()
    if kind in ("AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp"):
        variable = _variable(node, inputs[0])
        method = {"AssignVariableOp": variable.assign, "AssignAddVariableOp":
                  variable.assign_add, "AssignSubVariableOp": variable.assign_sub}[kind]
        return method(inputs[1], read_value=False)
    if kind == "Identity" and isinstance(inputs[0], GraphVariable):
        return identity(inputs[0])
    wrapper = getattr(raw_ops, kind, None) if kind in _raw_op_types() else None
    if wrapper is None:
        raise errors.NotFoundError(
            None, kind, f"Op type not registered '{kind}' in tapeflow (node {node.name!r} of "
            "the GraphDef)")
    return wrapper(**_raw_arguments(node, kind, attrs, inputs))


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
    from ..raw_op_defs import OP_DEFS, RAW_OP_DEFS
    params = RAW_OP_DEFS[kind][0]
    input_args = OP_DEFS[kind][0]
    kwargs, rest = {}, list(inputs)
    for param, arg in zip(params, input_args):
        if arg[2] or arg[3]:
            count = attrs[arg[2]] if arg[2] else len(attrs[arg[3]])
            kwargs[param[0]], rest = rest[:count], rest[count:]
        else:
            kwargs[param[0]], rest = rest[0], rest[1:]
    for param in params[len(input_args):]:
        if param[0] in attrs:
            kwargs[param[0]] = attrs[param[0]]
    return kwargs
