"""The `tf.*` names Keras 3.15's TensorFlow backend (and the rest of `keras/src`) uses: each
must resolve in tapeflow, so a new Keras release's new needs show up as a failing test.

`KERAS_TF_NAMES` lists every attribute chain rooted at the name `tf` in Keras 3.15.1's
`keras/src` (its `*_test.py` files left out), read from the source by the AST walk below;
`MISSING` lists the ones tapeflow lacks today. Every other name must resolve, every missing
one must not (add a name: remove it from `MISSING`). With Keras installed, the list is
checked against the installed Keras's source (`pip install keras==<new>`: the difference
is the new release's needs).
"""
import ast
import importlib.util
import pathlib

import pytest

import tapeflow as tf

KERAS_VERSION = "3.15.1"

KERAS_TF_NAMES = """
    Assert DType GradientTape IndexedSlices OptionalSpec RaggedTensor
    RaggedTensor.from_row_splits RaggedTensor.from_tensor RaggedTensorSpec SparseTensor
    SparseTensorSpec Tensor TensorArray TensorShape TensorSpec TensorSpec.from_tensor
    TypeSpec Variable VariableAggregation.MEAN VariableAggregation.NONE
    VariableAggregation.ONLY_FIRST_REPLICA VariableAggregation.SUM
    VariableSynchronization.AUTO VariableSynchronization.NONE
    VariableSynchronization.ON_READ VariableSynchronization.ON_WRITE
    __internal__.CompositeTensor __internal__.EagerTensor __internal__.FuncGraph
    __internal__.distribute.interim.maybe_merge_call
    __internal__.distribute.strategy_supports_no_merge_call
    __internal__.eager_context.eager_mode __internal__.smart_cond.smart_cond
    __internal__.tf2.enabled __internal__.tracking.AutoTrackable
    __internal__.tracking.Trackable __internal__.tracking.no_automatic_dependency_tracking
    __internal__.types.Tensor __version__ __version__.split abs add argmax argmin argsort
    as_dtype as_string assert_greater audio.decode_wav autodiff.ForwardAccumulator
    autograph.experimental.do_not_convert bfloat16 bitcast bitwise.bitwise_and
    bitwise.bitwise_or bitwise.bitwise_xor bitwise.invert bitwise.left_shift
    bitwise.right_shift bool boolean_mask broadcast_dynamic_shape broadcast_static_shape
    broadcast_to cast clip_by_norm clip_by_value compat.as_text compat.v1.Dimension
    compat.v1.assign compat.v1.assign_add compat.v1.assign_sub compat.v1.boolean_mask
    compat.v1.cond compat.v1.foldl compat.v1.foldr compat.v1.gather compat.v1.gather_nd
    compat.v1.gradients compat.v1.map_fn compat.v1.math.in_top_k compat.v1.nn.avg_pool
    compat.v1.nn.conv2d_transpose compat.v1.nn.convolution
    compat.v1.nn.ctc_beam_search_decoder compat.v1.nn.ctc_loss compat.v1.nn.max_pool
    compat.v1.pad compat.v1.placeholder compat.v1.random_normal_initializer
    compat.v1.random_uniform_initializer compat.v1.reset_default_graph compat.v1.scan
    compat.v1.sparse_concat compat.v1.sparse_placeholder compat.v1.where
    compat.v1.while_loop complex concat cond config.list_logical_devices
    config.list_physical_devices constant control_dependencies convert_to_tensor cos cumsum
    custom_gradient data.AUTOTUNE data.Dataset data.Dataset.from_generator
    data.Dataset.from_tensor_slices data.Dataset.from_tensors data.Dataset.range
    data.Dataset.zip data.Iterator data.Options data.experimental.AutoShardPolicy.DATA
    data.experimental.ExternalStatePolicy.IGNORE debugging.check_numerics device
    distribute.DistributedDataset distribute.DistributedIterator
    distribute.DistributedValues distribute.MultiWorkerMirroredStrategy
    distribute.ReduceOp.SUM distribute.TPUStrategy distribute.get_replica_context
    distribute.get_strategy distribute.has_strategy distribute.in_cross_replica_context
    divide dtypes dtypes.as_dtype dtypes.complex einsum ensure_shape equal
    errors.InvalidArgumentError errors.NotFoundError errors.OutOfRangeError
    executing_eagerly exp expand_dims experimental.Optional experimental.Optional.empty
    experimental.Optional.from_value experimental.RowPartition.from_value_rowids
    experimental.numpy.finfo experimental.numpy.select eye fill float16 float16.max
    float16.min float32 float64 floor function gather gather_nd get_static_value greater
    greater_equal identity image.ResizeMethod.AREA image.ResizeMethod.BICUBIC
    image.ResizeMethod.BILINEAR image.ResizeMethod.GAUSSIAN image.ResizeMethod.LANCZOS3
    image.ResizeMethod.LANCZOS5 image.ResizeMethod.MITCHELLCUBIC
    image.ResizeMethod.NEAREST_NEIGHBOR image.decode_image image.extract_patches
    image.hsv_to_rgb image.resize image.resize_with_pad image.rgb_to_hsv image.sobel_edges
    init_scope inside_function int32 int32.max int32.min int64 int8 io.gfile io.gfile.exists
    io.gfile.join io.read_file is_tensor less less_equal linalg.adjoint linalg.band_part
    linalg.cholesky linalg.cross linalg.det linalg.diag linalg.diag_part linalg.eig
    linalg.eigh linalg.inv linalg.l2_normalize linalg.logdet linalg.lu linalg.matrix_rank
    linalg.pinv linalg.qr linalg.slogdet linalg.solve linalg.svd linalg.triangular_solve
    linspace lite.OpsSet.SELECT_TF_OPS lite.OpsSet.TFLITE_BUILTINS lite.Optimize
    lite.Optimize.DEFAULT lite.TFLiteConverter.from_saved_model logical_and logical_not
    logical_or lookup.KeyValueTensorInitializer lookup.StaticHashTable
    lookup.TextFileIndex.LINE_NUMBER lookup.TextFileIndex.WHOLE_LINE
    lookup.TextFileInitializer lookup.experimental.MutableHashTable map_fn math.abs
    math.acos math.acosh math.angle math.asin math.asinh math.atan math.atan2 math.atanh
    math.bessel_i0 math.bincount math.ceil math.conj math.cos math.cosh math.count_nonzero
    math.cumprod math.cumsum math.divide_no_nan math.equal math.erf math.erfc math.erfinv
    math.exp math.expm1 math.floor math.floordiv math.floormod math.imag math.in_top_k
    math.invert_permutation math.is_finite math.is_inf math.is_nan math.log math.log1p
    math.log_sigmoid math.logical_and math.logical_or math.logical_xor math.maximum
    math.minimum math.mod math.nextafter math.pow math.real math.reciprocal math.reduce_all
    math.reduce_logsumexp math.reduce_max math.reduce_min math.reduce_std math.reduce_sum
    math.reduce_variance math.rsqrt math.segment_max math.segment_min math.segment_prod
    math.segment_sum math.sin math.sinh math.softplus math.softsign math.sqrt math.tan
    math.tanh math.top_k math.unsorted_segment_max math.unsorted_segment_min
    math.unsorted_segment_prod math.unsorted_segment_sum matmul maximum meshgrid minimum
    multiply name_scope negative nest.flatten nest.is_nested nest.map_structure
    nest.pack_sequence_as newaxis nn.atrous_conv2d_transpose nn.avg_pool nn.avg_pool3d
    nn.batch_normalization nn.bias_add nn.conv1d nn.conv2d nn.conv_transpose nn.convolution
    nn.ctc_beam_search_decoder nn.ctc_greedy_decoder nn.ctc_loss nn.depth_to_space
    nn.depthwise_conv2d nn.dropout nn.elu nn.embedding_lookup nn.embedding_lookup_sparse
    nn.experimental.stateless_dropout nn.gelu nn.leaky_relu nn.log_softmax nn.max_pool
    nn.max_pool3d nn.moments nn.pool nn.relu nn.relu6 nn.safe_embedding_lookup_sparse
    nn.selu nn.separable_conv2d nn.sigmoid nn.sigmoid_cross_entropy_with_logits nn.silu
    nn.softmax nn.softmax_cross_entropy_with_logits nn.softsign nn.space_to_depth
    nn.sparse_softmax_cross_entropy_with_logits nn.tanh not_equal one_hot ones ones_like pad
    pow profiler.experimental.Trace profiler.experimental.start profiler.experimental.stop
    quantization.fake_quant_with_min_max_vars
    quantization.fake_quant_with_min_max_vars_per_channel ragged.constant
    ragged.map_flat_values random.normal random.set_seed random.shuffle
    random.stateless_binomial random.stateless_categorical random.stateless_gamma
    random.stateless_normal random.stateless_truncated_normal random.stateless_uniform
    random.truncated_normal random.uniform range rank raw_ops.Bucketize raw_ops.CudnnRNNV3
    raw_ops.ImageProjectiveTransformV3 raw_ops.UniqueV2 raw_ops.UniqueWithCountsV2
    recompute_grad reduce_all reduce_any reduce_max reduce_mean reduce_min reduce_prod
    reduce_sum repeat required_space_to_batch_paddings reshape reverse reverse_sequence roll
    round saved_model.load saved_model.save scatter_nd searchsorted sequence_mask
    sets.intersection shape sigmoid sign signal.fft signal.fft2d signal.frame
    signal.hamming_window signal.hann_window signal.inverse_stft
    signal.inverse_stft_window_fn signal.irfft signal.kaiser_window signal.rfft signal.stft
    sin size slice sort sparse.add sparse.bincount sparse.concat sparse.cross_hashed
    sparse.expand_dims sparse.fill_empty_rows sparse.from_dense sparse.map_values
    sparse.maximum sparse.minimum sparse.reduce_max sparse.reduce_sum sparse.reshape
    sparse.retain sparse.sparse_dense_matmul sparse.to_dense sparse.transpose split sqrt
    square squeeze stack stop_gradient string strings.as_string strings.format strings.lower
    strings.ngrams strings.regex_replace strings.split strings.substr
    strings.to_hash_bucket_fast strings.to_hash_bucket_strong strings.unicode_split subtract
    switch_case sysconfig.get_build_info tanh tensor_scatter_nd_add tensor_scatter_nd_max
    tensor_scatter_nd_min tensor_scatter_nd_update tensordot tile train.TrackableView
    transpose type_spec_from_value types.experimental.GenericFunction uint16 uint32 uint64
    uint8 unique unique_with_counts unstack vectorized_map where while_loop zeros zeros_like
""".split()

MISSING = set("""
    audio.decode_wav compat.v1.Dimension compat.v1.sparse_concat compat.v1.sparse_placeholder
    experimental.RowPartition.from_value_rowids lite.OpsSet.SELECT_TF_OPS
    lite.OpsSet.TFLITE_BUILTINS lite.Optimize lite.Optimize.DEFAULT
    lite.TFLiteConverter.from_saved_model profiler.experimental.Trace
    profiler.experimental.start profiler.experimental.stop
    quantization.fake_quant_with_min_max_vars
    quantization.fake_quant_with_min_max_vars_per_channel raw_ops.Bucketize raw_ops.CudnnRNNV3
    raw_ops.ImageProjectiveTransformV3 raw_ops.UniqueV2 raw_ops.UniqueWithCountsV2
    sysconfig.get_build_info
""".split())


def resolve(chain: str):
    """The object `tf.<chain>` names (AttributeError where a link is missing)."""
    found = tf
    for part in chain.split("."):
        found = getattr(found, part)
    return found


@pytest.mark.parametrize("chain", [n for n in KERAS_TF_NAMES if n not in MISSING])
def test_a_name_keras_uses_resolves(chain):
    resolve(chain)


@pytest.mark.parametrize("chain", sorted(MISSING))
def test_a_missing_name_is_still_missing(chain):
    with pytest.raises(AttributeError):
        resolve(chain)


def tf_chains(root: pathlib.Path) -> set:
    """Every maximal attribute chain `tf.a.b...` in the non-test sources under `root`, less
    `tf.available` (an attribute of Keras's lazy module object, not of TensorFlow)."""
    chains = set()
    for path in root.rglob("*.py"):
        if path.name.endswith("_test.py"):
            continue
        tree = ast.parse(path.read_text())
        parents = {child: node for node in ast.walk(tree)
                   for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id == "tf":
                chain, current = [], node
                while isinstance(parents.get(current), ast.Attribute) and \
                        parents[current].value is current:
                    current = parents[current]
                    chain.append(current.attr)
                if chain and chain != ["available"]:
                    chains.add(".".join(chain))
    return chains


@pytest.mark.skipif(importlib.util.find_spec("keras") is None,
                    reason="Keras is in the keras extra: pip install -e '.[keras]'")
def test_the_list_is_what_the_installed_keras_uses():
    import importlib.metadata
    root = pathlib.Path(importlib.util.find_spec("keras").submodule_search_locations[0])
    used, listed = tf_chains(root / "src"), set(KERAS_TF_NAMES)
    assert (sorted(used - listed), sorted(listed - used)) == ([], []), (
        f"Keras {importlib.metadata.version('keras')} uses other tf names than Keras "
        f"{KERAS_VERSION} (new ones first): update KERAS_TF_NAMES and make them resolve")
