"""`tf.compat.v1.graph_util`: GraphDef transforms (a sub-graph, variables frozen to
constants) beside `import_graph_def`."""
from __future__ import annotations

import copy

from ...framework.graph_def import tensor_proto
from ...io.graph_def_import import import_graph_def

__all__ = ["convert_variables_to_constants", "extract_sub_graph", "import_graph_def",
           "remove_training_nodes", "must_run_on_cpu", "tensor_shape_from_node_def_name"]


def _node_name(text: str) -> str:
    return text.lstrip("^").split(":")[0]


def extract_sub_graph(graph_def, dest_nodes):
    """The GraphDef of the nodes `dest_nodes` need (through data and control inputs), in
    their original order.

    Raises:
        TypeError: graph_def is not a GraphDef, or dest_nodes is a string.
        AssertionError: a destination node is not in graph_def.

    Example:
        >>> import tapeflow as tf
        >>> g = tf.Graph()
        >>> with g.as_default():
        ...     a = tf.constant(1.0, name="a")
        ...     b = tf.identity(a, name="b")
        ...     _ = tf.constant(2.0, name="unused")
        >>> sub = tf.compat.v1.graph_util.extract_sub_graph(g.as_graph_def(), ["b"])
        >>> [n.name for n in sub.node]
        ['a', 'b']
    """
    if not hasattr(graph_def, "node"):
        raise TypeError("graph_def must be a graph_pb2.GraphDef proto.")
    if isinstance(dest_nodes, str):
        raise TypeError("dest_nodes must be a list.")
    by_name = {n.name: n for n in graph_def.node}
    for name in dest_nodes:
        assert name in by_name, f"{name} is not in graph"
    keep, pending = set(), list(dest_nodes)
    while pending:
        name = pending.pop()
        if name in keep:
            continue
        keep.add(name)
        pending.extend(_node_name(i) for i in by_name[name].input)
    out = type(graph_def)()
    out.versions.CopyFrom(graph_def.versions)
    out.library.CopyFrom(graph_def.library)
    out.node.extend(copy.deepcopy(n) for n in graph_def.node if n.name in keep)
    return out


def convert_variables_to_constants(sess, input_graph_def, output_node_names,
                                   variable_names_whitelist=None,
                                   variable_names_blacklist=None):
    """A frozen GraphDef: the sub-graph `output_node_names` need, each variable's handle
    replaced by a Const of its value in `sess` and its reads by Identity nodes (as TF
    writes them).

    Args:
        sess: the Session holding the variables' values.
        input_graph_def: the GraphDef (of `sess.graph`).
        output_node_names: the names of the nodes to keep (with what they need).
        variable_names_whitelist: only these variables are frozen (default all).
        variable_names_blacklist: these variables are not frozen.

    Returns:
        The frozen GraphDef.

    Example:
        >>> import tapeflow as tf
        >>> g = tf.Graph()
        >>> with g.as_default():
        ...     v = tf.Variable(3.0, name="v")
        ...     y = tf.multiply(v, 2.0, name="y")
        ...     sess = tf.compat.v1.Session()
        ...     sess.run(v.initializer)
        ...     frozen = tf.compat.v1.graph_util.convert_variables_to_constants(
        ...         sess, g.as_graph_def(), ["y"])
        >>> sorted({n.op for n in frozen.node})
        ['Const', 'Identity', 'Mul']
    """
    graph_def = extract_sub_graph(input_graph_def, output_node_names)
    handles = {}
    for node in graph_def.node:
        if node.op in ("VarHandleOp", "VariableV2"):
            if variable_names_whitelist is not None and node.name not in \
                    variable_names_whitelist:
                continue
            if variable_names_blacklist is not None and node.name in variable_names_blacklist:
                continue
            handles[node.name] = node
    values = dict(zip(handles, sess.run([sess.graph.get_tensor_by_name(n + ":0")
                                          for n in handles]))) if handles else {}
    out = type(graph_def)()
    out.versions.CopyFrom(graph_def.versions)
    out.library.CopyFrom(graph_def.library)
    for node in graph_def.node:
        new = out.node.add()
        if node.name in handles:
            new.name, new.op = node.name, "Const"
            new.attr["dtype"].CopyFrom(node.attr["dtype"])
            new.attr["value"].tensor.CopyFrom(tensor_proto(values[node.name]))
        elif node.op == "ReadVariableOp" and _node_name(node.input[0]) in handles:
            new.name, new.op = node.name, "Identity"
            new.input.extend(node.input)
            new.attr["T"].CopyFrom(node.attr["dtype"])
            if "_class" in node.attr:
                new.attr["_class"].CopyFrom(node.attr["_class"])
        else:
            new.CopyFrom(node)
    return out


def remove_training_nodes(input_graph, protected_nodes=None):
    """The GraphDef without its Identity and CheckNumerics nodes (their consumers read
    their inputs), except `protected_nodes` and nodes with control inputs.

    Example:
        >>> import tapeflow as tf
        >>> g = tf.Graph()
        >>> with g.as_default():
        ...     a = tf.constant(1.0, name="a")
        ...     b = tf.square(tf.identity(a), name="b")
        >>> [n.op for n in tf.compat.v1.graph_util.remove_training_nodes(g.as_graph_def()).node]
        ['Const', 'Square']
    """
    protected = set(protected_nodes or ())
    removed = {}
    for node in input_graph.node:
        if node.op in ("Identity", "CheckNumerics") and node.name not in protected and \
                not any(i.startswith("^") for i in node.input):
            removed[node.name] = node.input[0]
    out = type(input_graph)()
    out.versions.CopyFrom(input_graph.versions)
    out.library.CopyFrom(input_graph.library)
    for node in input_graph.node:
        if node.name in removed:
            continue
        new = out.node.add()
        new.CopyFrom(node)
        del new.input[:]
        for text in node.input:
            while _node_name(text) in removed and not text.startswith("^"):
                text = removed[_node_name(text)]
            new.input.append(text)
    return out


def must_run_on_cpu(node, pin_variables_on_cpu=False) -> bool:
    """Whether a node must run on the CPU: here every node does (tapeflow runs on NumPy)."""
    return True


def tensor_shape_from_node_def_name(graph, input_name):
    """The static shape of the tensor `input_name` ('op' means 'op:0') of `graph`."""
    name = input_name if ":" in input_name else input_name + ":0"
    return graph.get_tensor_by_name(name).shape
