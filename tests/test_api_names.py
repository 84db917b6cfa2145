"""TF's public names: every op function is reachable under each of TF 2's names for it, and
no namespace exports a name TF lacks, beyond tapeflow's documented extras.

The table was checked against TF 2's API (the golden API files and the "View aliases" of each
function's page): a row is a tapeflow function and all the TF paths that name it.
"""
import importlib
import importlib.util
import pathlib
import types

import pytest

import tapeflow as tf
from tapeflow import autodiff
from tapeflow.io.graph_def_import import import_graph_def
from tapeflow.custom_gradient import (custom_gradient, grad_pass_through, recompute_grad,
                                      stop_gradient)
from tapeflow.autograph import api as autograph_api
from tapeflow.eager import backprop, control_flow, functional_ops
from tapeflow.eager.graph_gradients import AggregationMethod, gradients, hessians
from tapeflow.framework import dtypes, graph, indexed_slices, registry, tensor, tensor_shape
from tapeflow.framework import tensor_spec, variables
from tapeflow.ops import (array_ops, bitwise_ops, clip_ops, comparison_ops, complex_ops,
                          control_flow_ops, conv_ops, creation_ops, diag_ops, embedding_ops,
                          gather_ops, indexing_ops, linalg_ops, logging_ops, math_ops, nn_ops,
                          norm_ops, pool_ops, random_ops, tensor_array_ops,
                          reduction_ops, script_ops, sort_ops, special_math_ops, special_ops,
                          index_shuffle_ops, candidate_sampling_ops)
from tapeflow import sampled_losses
from tapeflow.distribute import losses as distribute_losses
from tapeflow.testing import gradient_checker

TF_NAMES = [
    # elementwise arithmetic and functions
    (math_ops.add, "add math.add"), (math_ops.subtract, "subtract math.subtract"),
    (math_ops.multiply, "multiply math.multiply"),
    (math_ops.divide, "divide math.divide truediv math.truediv"),
    (math_ops.floordiv, "math.floordiv"), (math_ops.floormod, "math.floormod math.mod"),
    (math_ops.pow, "pow math.pow"), (math_ops.maximum, "maximum math.maximum"),
    (math_ops.minimum, "minimum math.minimum"),
    (math_ops.squared_difference, "math.squared_difference"),
    (math_ops.divide_no_nan, "math.divide_no_nan"), (math_ops.atan2, "atan2 math.atan2"),
    (math_ops.add_n, "add_n math.add_n"), (math_ops.realdiv, "realdiv"),
    (math_ops.scalar_mul, "scalar_mul math.scalar_mul"), (math_ops.abs, "abs math.abs"),
    (math_ops.negative, "negative math.negative"), (math_ops.sign, "sign math.sign"),
    (math_ops.square, "square math.square"), (math_ops.sqrt, "sqrt math.sqrt"),
    (math_ops.rsqrt, "math.rsqrt"), (math_ops.reciprocal, "math.reciprocal"),
    (math_ops.exp, "exp math.exp"), (math_ops.expm1, "math.expm1"), (math_ops.log, "math.log"),
    (math_ops.log1p, "math.log1p"), (math_ops.sin, "sin math.sin"), (math_ops.cos, "cos math.cos"),
    (math_ops.tan, "tan math.tan"), (math_ops.asin, "asin math.asin"),
    (math_ops.acos, "acos math.acos"), (math_ops.atan, "atan math.atan"),
    (math_ops.sinh, "sinh math.sinh"), (math_ops.cosh, "cosh math.cosh"),
    (math_ops.tanh, "tanh math.tanh nn.tanh"), (math_ops.asinh, "asinh math.asinh"),
    (math_ops.acosh, "acosh math.acosh"), (math_ops.atanh, "atanh math.atanh"),
    (math_ops.sigmoid, "sigmoid math.sigmoid nn.sigmoid"), (math_ops.round, "round math.round"),
    (math_ops.floor, "floor math.floor"), (math_ops.ceil, "math.ceil"),
    (math_ops.matmul, "matmul linalg.matmul"), (math_ops.cast, "cast dtypes.cast"),
    (math_ops.reduce_sum, "reduce_sum math.reduce_sum"),
    (math_ops.reduce_mean, "reduce_mean math.reduce_mean"),
    # comparisons, logical ops, predicates
    (comparison_ops.equal, "equal math.equal"),
    (comparison_ops.not_equal, "not_equal math.not_equal"), (comparison_ops.less, "less math.less"),
    (comparison_ops.less_equal, "less_equal math.less_equal"),
    (comparison_ops.greater, "greater math.greater"),
    (comparison_ops.greater_equal, "greater_equal math.greater_equal"),
    (comparison_ops.logical_and, "logical_and math.logical_and"),
    (comparison_ops.logical_or, "logical_or math.logical_or"),
    (comparison_ops.logical_not, "logical_not math.logical_not"),
    (comparison_ops.logical_xor, "math.logical_xor"), (comparison_ops.is_nan, "math.is_nan"),
    (comparison_ops.is_finite, "math.is_finite"), (comparison_ops.is_inf, "math.is_inf"),
    # bitwise
    (bitwise_ops.bitwise_and, "bitwise.bitwise_and"),
    (bitwise_ops.bitwise_or, "bitwise.bitwise_or"),
    (bitwise_ops.bitwise_xor, "bitwise.bitwise_xor"), (bitwise_ops.invert, "bitwise.invert"),
    (bitwise_ops.left_shift, "bitwise.left_shift"),
    (bitwise_ops.right_shift, "bitwise.right_shift"),
    # complex numbers
    (complex_ops.complex, "complex dtypes.complex"), (complex_ops.real, "math.real"),
    (complex_ops.imag, "math.imag"), (complex_ops.conj, "math.conj"),
    (complex_ops.angle, "math.angle"),
    # special functions
    (special_ops.erf, "math.erf"), (special_ops.erfc, "math.erfc"),
    (special_ops.lgamma, "math.lgamma"), (special_ops.digamma, "math.digamma"),
    (special_ops.polygamma, "math.polygamma"),
    (special_math_ops.einsum, "einsum linalg.einsum"),
    (special_math_ops.tensordot, "tensordot linalg.tensordot"),
    # reductions and scans
    (reduction_ops.reduce_prod, "reduce_prod math.reduce_prod"),
    (reduction_ops.reduce_max, "reduce_max math.reduce_max"),
    (reduction_ops.reduce_min, "reduce_min math.reduce_min"),
    (reduction_ops.reduce_all, "reduce_all math.reduce_all"),
    (reduction_ops.reduce_any, "reduce_any math.reduce_any"),
    (reduction_ops.reduce_logsumexp, "reduce_logsumexp math.reduce_logsumexp"),
    (reduction_ops.reduce_variance, "math.reduce_variance"),
    (reduction_ops.reduce_std, "math.reduce_std"),
    (reduction_ops.reduce_euclidean_norm, "math.reduce_euclidean_norm"),
    (reduction_ops.count_nonzero, "math.count_nonzero"),
    (reduction_ops.argmax, "argmax math.argmax"), (reduction_ops.argmin, "argmin math.argmin"),
    (reduction_ops.cumsum, "cumsum math.cumsum"), (reduction_ops.cumprod, "math.cumprod"),
    (sort_ops.top_k, "math.top_k nn.top_k"), (sort_ops.sort, "sort"),
    (sort_ops.argsort, "argsort"),
    # norms and clipping
    (norm_ops.norm, "norm linalg.norm"),
    (norm_ops.l2_normalize, "math.l2_normalize nn.l2_normalize linalg.l2_normalize"),
    (clip_ops.clip_by_value, "clip_by_value"), (clip_ops.clip_by_norm, "clip_by_norm"),
    (clip_ops.clip_by_global_norm, "clip_by_global_norm"),
    (clip_ops.global_norm, "linalg.global_norm"),
    # shapes and layout
    (array_ops.identity, "identity"), (array_ops.identity_n, "identity_n"),
    (array_ops.reshape, "reshape"), (array_ops.broadcast_to, "broadcast_to"),
    (array_ops.transpose, "transpose"), (array_ops.expand_dims, "expand_dims"),
    (array_ops.squeeze, "squeeze"), (array_ops.concat, "concat"), (array_ops.stack, "stack"),
    (array_ops.unstack, "unstack"), (array_ops.split, "split"), (array_ops.tile, "tile"),
    (array_ops.pad, "pad"), (array_ops.reverse, "reverse"), (array_ops.roll, "roll"),
    (array_ops.shape, "shape"), (array_ops.size, "size"), (array_ops.rank, "rank"),
    # gathers, scatters, slices
    (gather_ops.gather, "gather"), (gather_ops.unsorted_segment_sum, "math.unsorted_segment_sum"),
    (indexing_ops.slice, "slice"), (indexing_ops.strided_slice, "strided_slice"),
    (indexing_ops.gather_nd, "gather_nd"), (indexing_ops.scatter_nd, "scatter_nd"),
    (indexing_ops.tensor_scatter_nd_update, "tensor_scatter_nd_update"),
    (indexing_ops.tensor_scatter_nd_add, "tensor_scatter_nd_add"),
    (indexing_ops.where, "where"), (indexing_ops.boolean_mask, "boolean_mask"),
    (indexing_ops.repeat, "repeat"),
    # creation
    (creation_ops.zeros, "zeros"), (creation_ops.ones, "ones"),
    (creation_ops.zeros_like, "zeros_like"), (creation_ops.ones_like, "ones_like"),
    (creation_ops.fill, "fill"), (creation_ops.eye, "eye linalg.eye"),
    (creation_ops.range, "range"), (creation_ops.linspace, "linspace"),
    (creation_ops.one_hot, "one_hot"), (creation_ops.meshgrid, "meshgrid"),
    # linear algebra
    (linalg_ops.matvec, "linalg.matvec"), (linalg_ops.inv, "linalg.inv"),
    (linalg_ops.det, "linalg.det"), (linalg_ops.slogdet, "linalg.slogdet"),
    (linalg_ops.solve, "linalg.solve"), (linalg_ops.triangular_solve, "linalg.triangular_solve"),
    (linalg_ops.cholesky, "linalg.cholesky"), (linalg_ops.logdet, "linalg.logdet"),
    (linalg_ops.qr, "linalg.qr"), (linalg_ops.eigh, "linalg.eigh"),
    (linalg_ops.eigvalsh, "linalg.eigvalsh"), (linalg_ops.svd, "linalg.svd"),
    (linalg_ops.matrix_transpose, "linalg.matrix_transpose"),
    (linalg_ops.adjoint, "linalg.adjoint"), (diag_ops.diag, "linalg.diag"),
    (diag_ops.diag_part, "linalg.diag_part"), (diag_ops.trace, "linalg.trace"),
    (diag_ops.tensor_diag, "linalg.tensor_diag"),
    (diag_ops.tensor_diag_part, "linalg.tensor_diag_part"),
    (diag_ops.band_part, "linalg.band_part"),
    # neural networks
    (nn_ops.relu, "nn.relu"), (nn_ops.relu6, "nn.relu6"), (nn_ops.elu, "nn.elu"),
    (nn_ops.selu, "nn.selu"), (nn_ops.gelu, "nn.gelu"), (nn_ops.silu, "nn.silu nn.swish"),
    (nn_ops.leaky_relu, "nn.leaky_relu"), (nn_ops.softmax, "nn.softmax math.softmax"),
    (nn_ops.log_softmax, "nn.log_softmax math.log_softmax"),
    (nn_ops.softplus, "nn.softplus math.softplus"),
    (nn_ops.log_sigmoid, "math.log_sigmoid"), (nn_ops.softsign, "nn.softsign math.softsign"),
    (nn_ops.sigmoid_cross_entropy_with_logits, "nn.sigmoid_cross_entropy_with_logits"),
    (nn_ops.softmax_cross_entropy_with_logits, "nn.softmax_cross_entropy_with_logits"),
    (nn_ops.sparse_softmax_cross_entropy_with_logits,
     "nn.sparse_softmax_cross_entropy_with_logits"),
    (nn_ops.bias_add, "nn.bias_add"), (nn_ops.batch_normalization, "nn.batch_normalization"),
    (nn_ops.l2_loss, "nn.l2_loss"), (nn_ops.moments, "nn.moments"),
    (conv_ops.conv1d, "nn.conv1d"), (conv_ops.conv2d, "nn.conv2d"),
    (conv_ops.conv2d_transpose, "nn.conv2d_transpose"), (pool_ops.max_pool2d, "nn.max_pool2d"),
    (pool_ops.avg_pool2d, "nn.avg_pool2d"), (pool_ops.max_pool, "nn.max_pool"),
    (pool_ops.avg_pool, "nn.avg_pool"), (pool_ops.max_pool1d, "nn.max_pool1d"),
    (pool_ops.avg_pool1d, "nn.avg_pool1d"), (pool_ops.max_pool3d, "nn.max_pool3d"),
    (pool_ops.avg_pool3d, "nn.avg_pool3d"), (pool_ops.pool, "nn.pool"),
    (conv_ops.conv3d, "nn.conv3d"), (conv_ops.conv1d_transpose, "nn.conv1d_transpose"),
    (conv_ops.conv3d_transpose, "nn.conv3d_transpose"), (conv_ops.convolution, "nn.convolution"),
    (conv_ops.depthwise_conv2d, "nn.depthwise_conv2d"),
    (conv_ops.separable_conv2d, "nn.separable_conv2d"),
    (embedding_ops.embedding_lookup, "nn.embedding_lookup"),
    (random_ops.dropout, "nn.dropout"),
    # random numbers
    (random_ops.set_seed, "random.set_seed"), (random_ops.normal, "random.normal"),
    (random_ops.truncated_normal, "random.truncated_normal"),
    (random_ops.uniform, "random.uniform"), (random_ops.categorical, "random.categorical"),
    (random_ops.shuffle, "random.shuffle"),
    # control flow
    (control_flow.cond, "cond"), (control_flow.while_loop, "while_loop"),
    (tensor_array_ops.TensorArray, "TensorArray"), (functional_ops.map_fn, "map_fn"),
    (functional_ops.scan, "scan"), (functional_ops.foldl, "foldl"),
    (functional_ops.foldr, "foldr"), (functional_ops.vectorized_map, "vectorized_map"),
    (functional_ops.switch_case, "switch_case"), (functional_ops.case, "case"),
    (array_ops.ensure_shape, "ensure_shape"),
    (array_ops.get_static_value, "get_static_value"), (graph.name_scope, "name_scope"),
    (control_flow_ops.group, "group"), (control_flow_ops.no_op, "no_op"),
    (control_flow_ops.control_dependencies, "control_dependencies"),
    (script_ops.py_function, "py_function"), (logging_ops.print_v2, "print"),
    # gradients and the rest of the API around the ops
    (backprop.GradientTape, "GradientTape autodiff.GradientTape"),
    (backprop.UnconnectedGradients, "UnconnectedGradients"),
    (autodiff.ForwardAccumulator, "autodiff.ForwardAccumulator"),
    (stop_gradient, "stop_gradient"), (custom_gradient, "custom_gradient"),
    (grad_pass_through, "grad_pass_through"), (recompute_grad, "recompute_grad"),
    (gradients, "gradients"), (hessians, "hessians"), (AggregationMethod, "AggregationMethod"),
    (import_graph_def, "import_graph_def graph_util.import_graph_def"),
    (registry.RegisterGradient, "RegisterGradient"), (registry.no_gradient, "no_gradient"),
    (gradient_checker.compute_gradient, "test.compute_gradient"),
    (autograph_api.function, "function"), (autograph_api.to_graph, "autograph.to_graph"),
    (autograph_api.to_code, "autograph.to_code"),
    (autograph_api.do_not_convert, "autograph.experimental.do_not_convert"),
    (autograph_api.set_loop_options, "autograph.experimental.set_loop_options"),
    (graph.Graph, "Graph"), (graph.init_scope, "init_scope"),
    (tensor.Tensor, "Tensor"), (tensor.constant, "constant"),
    (tensor.convert_to_tensor, "convert_to_tensor"), (tensor.is_tf_type, "is_tensor"),
    (distribute_losses.compute_average_loss, "nn.compute_average_loss"),
    (distribute_losses.scale_regularization_loss, "nn.scale_regularization_loss"),
    (variables.Variable, "Variable"),
    (variables.variable_creator_scope, "variable_creator_scope"),
    (tensor_shape.TensorShape, "TensorShape"),
    (tensor_spec.TensorSpec, "TensorSpec"), (indexed_slices.IndexedSlices, "IndexedSlices"),
    (dtypes.DType, "DType dtypes.DType"), (dtypes.as_dtype, "as_dtype dtypes.as_dtype"),
    (index_shuffle_ops.random_index_shuffle, "random_index_shuffle"),
    (candidate_sampling_ops.all_candidate_sampler, "nn.all_candidate_sampler"),
    (candidate_sampling_ops.compute_accidental_hits, "nn.compute_accidental_hits"),
    (candidate_sampling_ops.fixed_unigram_candidate_sampler, "nn.fixed_unigram_candidate_sampler"),
    (candidate_sampling_ops.learned_unigram_candidate_sampler,
     "nn.learned_unigram_candidate_sampler"),
    (sampled_losses.nce_loss, "nn.nce_loss"),
    (sampled_losses.sampled_softmax_loss, "nn.sampled_softmax_loss"),
]
for _names in ("bool", "complex64", "complex128", "float16 half", "float32", "float64 double",
               "int8", "int16", "int32", "int64", "uint8"):
    TF_NAMES.append((getattr(dtypes, _names.split()[0]),
                     " ".join(f"{n} dtypes.{n}" for n in _names.split())))

# Other names TF has that tapeflow exports: namespaces, and non-function members.
TF_MODULES = {"autodiff", "autograph", "bitwise", "compat", "config", "data", "distribute",
              "dtypes", "errors", "keras", "linalg", "math", "nn", "random", "test", "train"}
TF_MEMBERS = {"Module", "executing_eagerly", "newaxis"}
# Documented extras (README): the functional helpers of tf.autodiff, and tf.utils.plot_tape.
EXTRAS = {"autodiff.hessian", "autodiff.hessian_vector_product", "autodiff.jvp",
          "autodiff.linearize", "autodiff.vjp", "utils"}
PATHS = [(fn, path) for fn, paths in TF_NAMES for path in paths.split()]
# Names whose table is in their area's own test file.
_spec = importlib.util.spec_from_file_location(
    "toplevel_names", pathlib.Path(__file__).with_name("test_toplevel_names.py"))
_module = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_module)
PATHS += _module.PATHS


def resolve(path: str):
    owner, _, name = ("tapeflow." + path).rpartition(".")
    return getattr(importlib.import_module(owner), name)


@pytest.mark.parametrize("fn,path", PATHS, ids=[path for _, path in PATHS])
def test_tf_name_resolves_to_the_function(fn, path):
    assert resolve(path) is fn


def test_the_table_names_each_function_once():
    functions = [id(fn) for fn, _ in TF_NAMES]
    assert len(functions) == len(set(functions))


# (tf.random's names: tests/random/test_names.py)
@pytest.mark.parametrize("space", ["bitwise", "math", "nn", "linalg", "test", "autodiff",
                                   "dtypes", "autograph", "autograph.experimental"])
def test_a_namespace_exports_only_tf_names(space):
    known = {path for _, path in PATHS} | EXTRAS
    exported = {f"{space}.{name}" for name in resolve(space).__all__}
    assert exported - known == set()


def test_the_top_level_exports_only_tf_names():
    known = {path for _, path in PATHS if "." not in path} | TF_MODULES | TF_MEMBERS | EXTRAS
    # Python binds each imported implementation package (ops, framework...) to tapeflow too.
    exported = {name for name in dir(tf) if not name.startswith("_")
                and not (isinstance(getattr(tf, name), types.ModuleType) and name not in known)}
    assert exported - known == set()
    assert not hasattr(tf, "log") and not hasattr(tf, "NoGradient")  # TF 1 names


def test_tf1_names_live_in_compat_v1():
    v1 = tf.compat.v1
    assert v1.log is math_ops.log
    assert v1.NoGradient is v1.NotDifferentiable is registry.no_gradient


def test_errors_are_tf_classes_and_codes():
    from tapeflow.framework import errors
    assert tf.errors is errors
    assert tf.errors.InvalidArgumentError.error_code == tf.errors.INVALID_ARGUMENT == 3
    assert tf.errors.OK == 0 and tf.errors.UNAUTHENTICATED == 16
    assert issubclass(tf.errors.OperatorNotAllowedInGraphError, TypeError)
    assert "SymbolicValueError" not in tf.errors.__all__


# Segment reductions, partitioning, counting and space rearrangements.
from tapeflow.ops import counting_ops, partition_ops, segment_ops, space_ops  # noqa: E402

SEGMENT_NAMES = [
    *[(getattr(segment_ops, n), f"math.{n}") for n in (
        "segment_sum", "segment_mean", "segment_max", "segment_min", "segment_prod",
        "unsorted_segment_max", "unsorted_segment_min", "unsorted_segment_prod",
        "unsorted_segment_mean", "unsorted_segment_sqrt_n")],
    *[(getattr(segment_ops, f"sparse_{n}"), f"sparse.{n}")
      for n in ("segment_sum", "segment_mean", "segment_sqrt_n")],
    (partition_ops.dynamic_partition, "dynamic_partition"),
    (partition_ops.dynamic_stitch, "dynamic_stitch"),
    (counting_ops.bincount, "math.bincount"), (counting_ops.unique, "unique"),
    (counting_ops.unique_with_counts, "unique_with_counts"),
    (counting_ops.searchsorted, "searchsorted"), (counting_ops.sequence_mask, "sequence_mask"),
    (counting_ops.confusion_matrix, "math.confusion_matrix"),
    (counting_ops.in_top_k, "math.in_top_k nn.in_top_k"),
    *[(getattr(indexing_ops, f"tensor_scatter_nd_{n}"), f"tensor_scatter_nd_{n}")
      for n in ("sub", "min", "max")],
    (space_ops.space_to_batch_nd, "space_to_batch_nd"),
    (space_ops.space_to_batch, "space_to_batch nn.space_to_batch"),
    (space_ops.batch_to_space, "batch_to_space"),
    (space_ops.depth_to_space, "nn.depth_to_space"),
    (space_ops.space_to_depth, "nn.space_to_depth"),
    (space_ops.reverse_sequence, "reverse_sequence"),
    (space_ops.extract_patches, "image.extract_patches"),
]
SEGMENT_PATHS = [(fn, path) for fn, paths in SEGMENT_NAMES for path in paths.split()]
PATHS = PATHS + SEGMENT_PATHS  # a new list: the parametrized tables above stay as they are
TF_MODULES |= {"image", "sparse"}


@pytest.mark.parametrize("fn,path", SEGMENT_PATHS, ids=[path for _, path in SEGMENT_PATHS])
def test_segment_and_space_names_resolve(fn, path):
    assert resolve(path) is fn


@pytest.mark.parametrize("space", ["sparse"])  # (tf.image's: tests/image/test_names.py)
def test_new_namespaces_export_only_tf_names(space):
    exported = {f"{space}.{name}" for name in getattr(tf, space).__all__}
    assert exported - {path for _, path in PATHS} == set()


# tf.signal, in a block of its own.
from tapeflow.ops import signal_ops, spectral_ops  # noqa: E402

SIGNAL_PATHS = [(getattr(module, name), f"signal.{name}") for module, names in [
    (signal_ops, "fft ifft fft2d ifft2d fft3d ifft3d rfft irfft rfft2d irfft2d rfft3d irfft3d "
                 "fftshift ifftshift"),
    (spectral_ops, "frame overlap_and_add hann_window hamming_window stft inverse_stft "
                   "inverse_stft_window_fn dct idct linear_to_mel_weight_matrix "
                   "mfccs_from_log_mel_spectrograms")] for name in names.split()]
TF_NAMES += SIGNAL_PATHS
PATHS = PATHS + SIGNAL_PATHS  # a new list: the parametrized one stays as it is
TF_MODULES.add("signal")


@pytest.mark.parametrize("fn,path", SIGNAL_PATHS, ids=[path for _, path in SIGNAL_PATHS])
def test_signal_name_resolves_to_the_function(fn, path):
    test_tf_name_resolves_to_the_function(fn, path)


def test_signal_exports_only_tf_names():
    test_a_namespace_exports_only_tf_names("signal")


def test_tf1_programs_names_live_only_in_compat_v1():
    v1 = tf.compat.v1
    for name in ("get_variable", "variable_scope", "placeholder_with_default", "layers",
                 "set_random_seed", "to_float", "arg_max"):
        assert hasattr(v1, name) and not hasattr(tf, name), name
    # TF 2 keeps `tf.losses` and `tf.metrics`, as Keras's modules: not v1's
    assert tf.losses is tf.keras.losses and v1.losses is not tf.losses
    assert tf.metrics is tf.keras.metrics and v1.metrics is not tf.metrics
    assert tf.optimizers is tf.keras.optimizers
    assert tf.initializers is tf.keras.initializers
    assert v1.train.AdamOptimizer is not tf.keras.optimizers.Adam


# tf.math's special functions and utilities, tf.math.special, tf.signal's n-D transforms and
# MDCT: their table is tests/ops/test_special_fn_names.py.
from .ops.test_special_fn_names import NAMES as SPECIAL_FN_PATHS  # noqa: E402

PATHS = PATHS + SPECIAL_FN_PATHS

# SparseTensor and the sparse embedding lookups (tf.sparse's own table:
# tests/sparse/test_sparse_names.py).
from tapeflow.framework import sparse_tensor  # noqa: E402
from tapeflow.sparse import embedding as sparse_embedding  # noqa: E402

PATHS = PATHS + [(sparse_tensor.SparseTensor, "SparseTensor"),
                 (sparse_tensor.SparseTensorSpec, "SparseTensorSpec"),
                 (sparse_embedding.embedding_lookup_sparse, "nn.embedding_lookup_sparse"),
                 (sparse_embedding.safe_embedding_lookup_sparse,
                  "nn.safe_embedding_lookup_sparse")] + [
    (getattr(tf.sparse, name), f"sparse.{name}") for name in tf.sparse.__all__]
# tf.linalg's newer names and their top-level aliases: tests/linalg/test_names.py checks them
# against TF's list.
PATHS = PATHS + [(getattr(tf.linalg, name), f"linalg.{name}") for name in tf.linalg.__all__] + [
    (tf.eig, "eig"), (tf.eigvals, "eigvals"), (tf.matrix_square_root, "matrix_square_root")]
# tf.test: TestCase and Benchmark (tests/test_tf_test.py tests them), main and the build
# queries.
PATHS = PATHS + [(getattr(tf.test, name), f"test.{name}") for name in tf.test.__all__
                 if name != "compute_gradient"]
# tf.strings, tf.as_string and tf.edit_distance (tests/ops/test_string_ops.py tests them).
from tapeflow.ops import edit_distance_ops, string_convert_ops  # noqa: E402

PATHS = PATHS + [(string_convert_ops.as_string, "as_string"),
                 (edit_distance_ops.edit_distance, "edit_distance")] + [
    (getattr(tf.strings, name), f"strings.{name}") for name in tf.strings.__all__]
TF_MODULES.add("strings")

# RaggedTensor and tf.ragged (their behaviour: tests/ops/ragged/).
from tapeflow.ops.ragged import ragged_tensor, ragged_tensor_spec  # noqa: E402

PATHS = PATHS + [(ragged_tensor.RaggedTensor, "RaggedTensor"),
                 (ragged_tensor_spec.RaggedTensorSpec, "RaggedTensorSpec")] + [
    (getattr(tf.ragged, name), f"ragged.{name}") for name in tf.ragged.__all__] + [
    (getattr(tf.sets, name), f"sets.{name}") for name in tf.sets.__all__]
TF_MODULES |= {"ragged", "sets"}
