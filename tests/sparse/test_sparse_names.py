"""The tf.sparse namespace: TF 2.21's names that tapeflow has resolve, and it exports no
name TF lacks."""
import tapeflow as tf

# TF 2.21's tf.sparse, all of it.
TF_NAMES = {
    "SparseTensor", "add", "bincount", "concat", "cross", "cross_hashed", "expand_dims", "eye",
    "fill_empty_rows", "from_dense", "map_values", "mask", "maximum", "minimum", "reduce_max",
    "reduce_sum", "reorder", "reset_shape", "reshape", "retain", "sampled_addmm",
    "segment_mean", "segment_sqrt_n", "segment_sum", "slice", "softmax",
    "sparse_dense_matmul", "split", "to_dense", "to_indicator", "transpose"}
# Not built: string feature crosses (tapeflow has no string tensors).
MISSING = {"cross"}


def test_every_name_resolves():
    for name in TF_NAMES - MISSING:
        assert callable(getattr(tf.sparse, name)), name


def test_exports_only_tf_names():
    public = {n for n in dir(tf.sparse) if not n.startswith("_")} - {
        "math", "structure", "embedding"}  # the package's own modules
    assert public <= TF_NAMES
    assert set(tf.sparse.__all__) == TF_NAMES - MISSING


def test_top_level_and_nn_names():
    assert tf.SparseTensor is tf.sparse.SparseTensor and tf.SparseTensorSpec
    assert callable(tf.nn.embedding_lookup_sparse)
    assert callable(tf.nn.safe_embedding_lookup_sparse)
