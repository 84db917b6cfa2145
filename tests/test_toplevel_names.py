"""The top-level names added for TF's op surface (dtypes, specs, checks, shape and cast
utilities, graph queries, initializers, convolutions) and tf.nn's further functions: each
resolves to its implementation. tests/test_api_names.py adds these paths to the names TF
has."""
import importlib

import pytest

from tapeflow import ctc_decoders, tensor_util
from tapeflow import dtypes as dtypes_namespace
from tapeflow.framework import device, dtypes, graph, tensor_conversion, tensor_spec, variables
from tapeflow.ops import (array_ops, cast_ops, check_ops, control_flow_ops, conv_variants,
                          critical_section_ops, ctc_ops, fingerprint_ops, fractional_pool_ops,
                          histogram_ops, init_ops, isotonic_ops, logging_ops, math_ops,
                          morphology_ops, nn_impl_ops, patch_ops, script_ops, serving_ops,
                          shape_ops, type_spec)

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
    (cast_ops.bitcast, "bitcast"), (cast_ops.saturate_cast, "saturate_cast dtypes.saturate_cast"),
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
    (init_ops.constant_initializer, "constant_initializer"),
    (init_ops.ones_initializer, "ones_initializer"),
    (init_ops.zeros_initializer, "zeros_initializer"),
    (init_ops.random_normal_initializer, "random_normal_initializer"),
    (init_ops.random_uniform_initializer, "random_uniform_initializer"),
    (conv_variants.conv, "conv"),
    (conv_variants.conv2d_backprop_filter_v2, "conv2d_backprop_filter_v2"),
    (conv_variants.conv2d_backprop_input_v2, "conv2d_backprop_input_v2"),
    (patch_ops.extract_volume_patches, "extract_volume_patches"),
    (tensor_util.make_tensor_proto, "make_tensor_proto"),
    (tensor_util.make_ndarray, "make_ndarray"),
    (critical_section_ops.CriticalSection, "CriticalSection"),
    (serving_ops.check_pinned, "check_pinned"),
    (fingerprint_ops.fingerprint, "fingerprint"),
    (serving_ops.nondifferentiable_batch_function, "nondifferentiable_batch_function"),
    # tf.nn
    (conv_variants.atrous_conv2d, "nn.atrous_conv2d"),
    (conv_variants.atrous_conv2d_transpose, "nn.atrous_conv2d_transpose"),
    (conv_variants.conv_transpose, "nn.conv_transpose"),
    (conv_variants.depthwise_conv2d_backprop_filter, "nn.depthwise_conv2d_backprop_filter"),
    (conv_variants.depthwise_conv2d_backprop_input, "nn.depthwise_conv2d_backprop_input"),
    (nn_impl_ops.batch_norm_with_global_normalization,
     "nn.batch_norm_with_global_normalization"),
    (nn_impl_ops.crelu, "nn.crelu"),
    (nn_impl_ops.local_response_normalization, "nn.local_response_normalization nn.lrn"),
    (nn_impl_ops.log_poisson_loss, "nn.log_poisson_loss"),
    (nn_impl_ops.normalize_moments, "nn.normalize_moments"),
    (nn_impl_ops.sufficient_statistics, "nn.sufficient_statistics"),
    (nn_impl_ops.weighted_cross_entropy_with_logits, "nn.weighted_cross_entropy_with_logits"),
    (nn_impl_ops.weighted_moments, "nn.weighted_moments"),
    (morphology_ops.dilation2d, "nn.dilation2d"), (morphology_ops.erosion2d, "nn.erosion2d"),
    (morphology_ops.max_pool_with_argmax, "nn.max_pool_with_argmax"),
    (ctc_ops.ctc_loss, "nn.ctc_loss"), (ctc_ops.collapse_repeated, "nn.collapse_repeated"),
    (ctc_ops.ctc_unique_labels, "nn.ctc_unique_labels"),
    (ctc_decoders.ctc_greedy_decoder, "nn.ctc_greedy_decoder"),
    (ctc_decoders.ctc_beam_search_decoder, "nn.ctc_beam_search_decoder"),
    (conv_variants.with_space_to_batch, "nn.with_space_to_batch"),
    (isotonic_ops.isotonic_regression, "nn.isotonic_regression"),
    (fractional_pool_ops.fractional_max_pool, "nn.fractional_max_pool"),
    (fractional_pool_ops.fractional_avg_pool, "nn.fractional_avg_pool"),
]
for _name in ("bfloat16", "qint8", "qint16", "qint32", "quint8", "quint16", "resource",
              "string", "uint16", "uint32", "uint64", "variant"):
    TOPLEVEL_NAMES.append((getattr(dtypes, _name), f"{_name} dtypes.{_name}"))
TOPLEVEL_NAMES.append((dtypes_namespace.QUANTIZED_DTYPES, "dtypes.QUANTIZED_DTYPES"))
PATHS = [(obj, path) for obj, paths in TOPLEVEL_NAMES for path in paths.split()]


@pytest.mark.parametrize("obj,path", PATHS, ids=[path for _, path in PATHS])
def test_name_resolves(obj, path):
    owner, _, name = ("tapeflow." + path).rpartition(".")
    assert getattr(importlib.import_module(owner), name) is obj
