"""The top-level names added for TF's op surface (dtypes, specs, checks, shape and cast
utilities, graph queries) and tf.nn's extra functions: each resolves to its
implementation. tests/test_api_names.py adds these paths to the names TF has."""
import importlib

import pytest

from tapeflow.framework import device, dtypes, graph, tensor_conversion, tensor_spec, variables
from tapeflow.ops import (array_ops, cast_ops, check_ops, control_flow_ops, histogram_ops,
                          logging_ops, math_ops, script_ops, shape_ops, type_spec)

TOPLEVEL_NAMES = [
    (variables.VariableAggregation, "VariableAggregation"),
    (variables.VariableSynchronization, "VariableSynchronization"),
    (tensor_spec.TypeSpec, "TypeSpec"), (type_spec.TensorArraySpec, "TensorArraySpec"),
    (type_spec.IndexedSlicesSpec, "IndexedSlicesSpec"),
    (type_spec.NoneTensorSpec, "NoneTensorSpec"), (type_spec.OptionalSpec, "OptionalSpec"),
    (type_spec.type_spec_from_value, "type_spec_from_value"),
    (device.DeviceSpec, "DeviceSpec"), (device.device, "device"),
    (graph.Operation, "Operation"), (graph.get_current_name_scope, "get_current_name_scope"),
    (graph.inside_function, "inside_function"), (graph.is_symbolic_tensor, "is_symbolic_tensor"),
    (tensor_conversion.register_tensor_conversion_function,
     "register_tensor_conversion_function"),
    (check_ops.Assert, "Assert"), (check_ops.assert_equal, "assert_equal"),
    (check_ops.assert_greater, "assert_greater"), (check_ops.assert_less, "assert_less"),
    (check_ops.assert_rank, "assert_rank"),
    (array_ops.guarantee_const, "guarantee_const"), (array_ops.parallel_stack, "parallel_stack"),
    (cast_ops.bitcast, "bitcast"), (cast_ops.saturate_cast, "saturate_cast"),
    (control_flow_ops.tuple, "tuple"),
    (histogram_ops.histogram_fixed_width, "histogram_fixed_width"),
    (histogram_ops.histogram_fixed_width_bins, "histogram_fixed_width_bins"),
    (logging_ops.get_logger, "get_logger"), (logging_ops.timestamp, "timestamp"),
    (math_ops.truncatediv, "truncatediv"), (math_ops.truncatemod, "truncatemod"),
    (script_ops.numpy_function, "numpy_function"),
    (shape_ops.broadcast_dynamic_shape, "broadcast_dynamic_shape"),
    (shape_ops.broadcast_static_shape, "broadcast_static_shape"),
    (shape_ops.required_space_to_batch_paddings, "required_space_to_batch_paddings"),
    (shape_ops.shape_n, "shape_n"), (shape_ops.unravel_index, "unravel_index"),
]
for _name in ("bfloat16", "qint8", "qint16", "qint32", "quint8", "quint16", "resource",
              "string", "uint16", "uint32", "uint64", "variant"):
    TOPLEVEL_NAMES.append((getattr(dtypes, _name), f"{_name} dtypes.{_name}"))
PATHS = [(obj, path) for obj, paths in TOPLEVEL_NAMES for path in paths.split()]


@pytest.mark.parametrize("obj,path", PATHS, ids=[path for _, path in PATHS])
def test_name_resolves(obj, path):
    owner, _, name = ("tapeflow." + path).rpartition(".")
    assert getattr(importlib.import_module(owner), name) is obj
