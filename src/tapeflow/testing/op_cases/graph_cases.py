"""Gradient-check rows for the graph machinery's ops (functions, py_function)."""
import tapeflow as tf

from ._table import EXEMPT, case, normal


@tf.function
def _traced(x, w):
    return tf.tanh(tf.matmul(x, w)) * tf.reduce_sum(x, axis=1, keepdims=True)


# A call of a tf.function is one recorded op; its gradient is the traced backward graph,
# and the second order differentiates that graph's own call.
case("PartitionedCall", _traced, normal(2, 3), normal(3, 4))
case("EagerPyFunc", lambda x: tf.py_function(lambda t: tf.tanh(t) * t, [x], tf.float64),
     normal(2, 3))

_WHERE = "tests/ops/test_control_flow.py (graph-mode gradients against eager ones)"
EXEMPT.update({
    "Const": "a graph's constant: no inputs, nothing to differentiate",
    "Placeholder": "a graph's input: no inputs, nothing to differentiate",
    "NoOp": "groups control dependencies: no outputs",
    "VarIsInitializedOp": "tests/io/test_graph_def.py (a bool about a variable: no "
                          "gradient)",
    "PrintV2": "tests/ops/test_logging_ops.py (tf.print writes; no outputs)",
    "AssignVariableOp": "tests/framework/test_graph.py (assignments are not differentiable)",
    "AssignAddVariableOp": "tests/framework/test_graph.py",
    "AssignSubVariableOp": "tests/framework/test_graph.py",
    "AnonymousIterator": "tests/autograph/test_dataset_loops.py (makes an iterator; no "
                         "inputs)",
    "IteratorGetNext": "tests/autograph/test_dataset_loops.py (dataset elements are data)",
    "IteratorGetNextAsOptional": "tests/autograph/test_dataset_loops.py",
    **{name: "tests/ops/test_lookup_ops.py (table ops read and write a table's state: "
                 "keys and values are data, no gradient)"
       for name in ("InitializeTableV2", "LookupTableFindV2", "LookupTableInsertV2",
                    "LookupTableImportV2", "LookupTableRemoveV2", "LookupTableSizeV2",
                    "LookupTableExportV2")},
    "If": _WHERE,
    "While": _WHERE,
})
