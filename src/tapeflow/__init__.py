"""tapeflow: TensorFlow's gradient machinery on NumPy.

Change `import tensorflow as tf` to `import tapeflow as tf`. This module only re-exports.
"""
from . import framework  # noqa: F401
from .framework import errors
from .framework.context import executing_eagerly
from .framework.dtypes import (DType, as_dtype, bool, complex64, complex128, double, float16,
                               float32, float64, half, int8, int16, int32, int64, uint8)
from .framework.indexed_slices import IndexedSlices
from .framework.registry import RegisterGradient, no_gradient
from .framework.tensor import Tensor, constant, convert_to_tensor
from .framework.tensor import is_tf_type as is_tensor
from .framework.tensor_shape import TensorShape
from .framework.variables import Variable, variable_creator_scope
from . import ops  # noqa: F401  (registers every gradient and forward rule)
from .ops.array_ops import (broadcast_to, concat, ensure_shape, expand_dims, get_static_value,
                            identity, identity_n, pad, rank, reshape, reverse, roll, shape, size,
                            split, squeeze, stack, tile, transpose, unstack)
from .ops.creation_ops import (eye, fill, linspace, meshgrid, one_hot, ones, ones_like, range,
                               zeros, zeros_like)
from .ops.gather_ops import gather
from .ops.indexing_ops import (boolean_mask, gather_nd, newaxis, repeat, scatter_nd, slice,
                               strided_slice, tensor_scatter_nd_add, tensor_scatter_nd_update,
                               where)
from .ops.sort_ops import argsort, sort
from .ops.special_math_ops import einsum, tensordot
from .ops.math_ops import (add, cast, divide, exp, matmul, multiply, negative, pow, reduce_mean,
                           reduce_sum, round, sigmoid, sqrt, square, subtract, tanh, truediv)
from .ops.math_ops import (abs, acos, acosh, add_n, asin, asinh, atan, atan2, atanh, cos, cosh,
                           floor, maximum, minimum, sign, sin, sinh, tan)
from .ops.math_ops import realdiv, scalar_mul
from .ops.comparison_ops import (equal, greater, greater_equal, less, less_equal, logical_and,
                                 logical_not, logical_or, not_equal)
from .ops.complex_ops import complex
from .ops.clip_ops import clip_by_global_norm, clip_by_norm, clip_by_value
from .ops.logging_ops import print_v2 as print  # noqa: A001  (TF's name)
from .ops.norm_ops import norm
from .ops.linalg_extra_ops import eig, eigvals
from .ops.matrix_function_ops import sqrtm as matrix_square_root
from .ops.reduction_ops import (argmax, argmin, cumsum, reduce_all, reduce_any, reduce_logsumexp,
                                reduce_max, reduce_min, reduce_prod)
from .eager.backprop import GradientTape, UnconnectedGradients
from .custom_gradient import custom_gradient, grad_pass_through, recompute_grad, stop_gradient
from . import autodiff, bitwise, dtypes, linalg, math, nn, random, test  # noqa: E402
from . import debugging, image, nest, ragged, sets, sparse  # noqa: E402
from .ops.partition_ops import dynamic_partition, dynamic_stitch  # noqa: E402
from .ops.counting_ops import (searchsorted, sequence_mask, unique,  # noqa: E402
                               unique_with_counts)
from .ops.space_ops import (batch_to_space, reverse_sequence, space_to_batch,  # noqa: E402
                            space_to_batch_nd)
from .ops.indexing_ops import (tensor_scatter_nd_max, tensor_scatter_nd_min,  # noqa: E402
                               tensor_scatter_nd_sub)
from .ops.index_shuffle_ops import random_index_shuffle  # noqa: E402
from .framework.graph import Graph, init_scope, name_scope
from .framework.tensor_spec import TensorSpec
from .framework.sparse_tensor import SparseTensor, SparseTensorSpec
from .ops.ragged.ragged_tensor import RaggedTensor
from .ops.ragged.ragged_tensor_spec import RaggedTensorSpec
from .eager.graph_gradients import AggregationMethod, gradients, hessians
from .autograph.api import function
from . import autograph  # noqa: E402
from .eager.control_flow import cond, while_loop
from .ops.tensor_array_ops import TensorArray
from .eager.functional_ops import (case, foldl, foldr, map_fn, scan, switch_case,
                                   vectorized_map)
from .ops.control_flow_ops import control_dependencies, group, no_op
from .ops.script_ops import py_function
from .module import Module  # noqa: E402
from .framework.dtypes import (bfloat16, qint8, qint16, qint32, quint8, quint16,  # noqa: E402
                               resource, string, uint16, uint32, uint64, variant)
from .framework.variables import VariableAggregation, VariableSynchronization  # noqa: E402
from .framework.tensor_spec import TypeSpec  # noqa: E402
from .ops.type_spec import (IndexedSlicesSpec, NoneTensorSpec, OptionalSpec,  # noqa: E402
                            TensorArraySpec, type_spec_from_value)
from .framework.device import DeviceSpec, device  # noqa: E402
from .io.graph_def_import import import_graph_def  # noqa: E402,F401
from .framework.graph import (Operation, get_current_name_scope, inside_function,  # noqa: E402
                              is_symbolic_tensor)
from .framework.tensor_conversion import register_tensor_conversion_function  # noqa: E402
from .ops.array_ops import guarantee_const, parallel_stack  # noqa: E402
from .ops.cast_ops import bitcast, saturate_cast  # noqa: E402
from .ops.check_ops import (Assert, assert_equal, assert_greater, assert_less,  # noqa: E402
                            assert_rank)
from .ops.control_flow_ops import tuple  # noqa: E402,A004  (TF's name)
from .ops.conv_variants import (conv, conv2d_backprop_filter_v2,  # noqa: E402
                                conv2d_backprop_input_v2)
from .ops.patch_ops import extract_volume_patches  # noqa: E402
from .ops.init_ops import (constant_initializer, ones_initializer,  # noqa: E402
                           random_normal_initializer, random_uniform_initializer,
                           zeros_initializer)
from .ops.histogram_ops import histogram_fixed_width, histogram_fixed_width_bins  # noqa: E402
from .ops.logging_ops import get_logger, timestamp  # noqa: E402
from .ops.math_ops import truncatediv, truncatemod  # noqa: E402
from .ops.script_ops import numpy_function  # noqa: E402
from .tensor_util import make_ndarray, make_tensor_proto  # noqa: E402
from .ops.critical_section_ops import CriticalSection  # noqa: E402
from .ops.fingerprint_ops import fingerprint  # noqa: E402
from .ops.string_convert_ops import as_string  # noqa: E402
from .ops.edit_distance_ops import edit_distance  # noqa: E402
from .ops.serving_ops import check_pinned, nondifferentiable_batch_function  # noqa: E402
from .ops.shape_ops import (broadcast_dynamic_shape, broadcast_static_shape,  # noqa: E402
                            required_space_to_batch_paddings, shape_n, unravel_index)

from . import version  # noqa: E402
__version__ = version.VERSION  # the TF API level; tapeflow's own: __tapeflow_version__
__tapeflow_version__ = version.TAPEFLOW_VERSION

# Imported on first use, so `import tapeflow` stays quick.
_LAZY_SUBMODULES = frozenset(["compat", "config", "data", "distribute", "experimental",
                               "graph_util", "io", "keras", "lookup", "raw_ops", "saved_model",
                               "strings", "summary", "tpu", "train", "types", "utils", "xla"])


# TF's top-level names for Keras's modules (`tf.optimizers` is `tf.keras.optimizers`).
_KERAS_ALIASES = {"optimizers": "keras.optimizers", "losses": "keras.losses",
                  "metrics": "keras.metrics", "initializers": "keras.initializers"}
# `tf.__internal__`, the names TF exports for its own libraries.
_ALIASES = {**_KERAS_ALIASES, "__internal__": "python.internal"}


def __getattr__(name: str):
    if name in _LAZY_SUBMODULES or name in _ALIASES:
        import importlib
        return importlib.import_module(f"{__name__}.{_ALIASES.get(name, name)}")
    raise AttributeError(f"module 'tapeflow' has no attribute {name!r}")


def __dir__() -> list:
    return sorted(set(globals()) | _LAZY_SUBMODULES | set(_KERAS_ALIASES))
from . import signal  # noqa: E402,F401  (tf.signal)
from .ops.signal_ops import (raw_fftnd as fftnd, raw_ifftnd as ifftnd,  # noqa: E402,F401
                             raw_irfftnd as irfftnd, raw_rfftnd as rfftnd)
