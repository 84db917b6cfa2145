"""RaggedTensor, tf.ragged, tf.sets and ragged tf.data elements against TensorFlow: values,
dtypes, row partitions, gradients through the flat values and error classes, each case
written once against a module `tf`."""
import numpy as np
import pytest

pytestmark = pytest.mark.parity


def _parts(x):
    """A RaggedTensor as its flat values and row splits; a SparseTensor as its three parts."""
    if isinstance(x, (list, tuple)):
        return [_parts(item) for item in x]
    if hasattr(x, "nested_row_splits"):
        return ["ragged", x.flat_values, *x.nested_row_splits]
    if hasattr(x, "dense_shape") and not hasattr(x, "numpy"):
        return ["sparse", x.indices, x.values, x.dense_shape]
    return x


def _rt(tf, dtype=None):
    return tf.ragged.constant([[1.0, 2.0], [], [3.0, 4.0, 5.0]], dtype=dtype)


def _grad(tf, f):
    v = tf.constant(np.linspace(-1.0, 1.5, 5).astype(np.float32))
    with tf.GradientTape() as tape:
        tape.watch(v)
        out = f(tf.RaggedTensor.from_row_splits(v, [0, 2, 2, 5]))
        flat = out.flat_values if hasattr(out, "flat_values") else out
        y = tf.reduce_sum(flat * flat)
    return _parts(out), tf.convert_to_tensor(tape.gradient(y, v))  # (TF's: IndexedSlices)


CASES = {
    "factories": lambda tf: _parts([
        tf.RaggedTensor.from_row_lengths([1, 2, 3], [2, 0, 1]),
        tf.RaggedTensor.from_value_rowids([1, 2, 3], [0, 0, 2], nrows=4),
        tf.RaggedTensor.from_tensor([[1, 2, 0], [3, 0, 0]], padding=0),
        tf.RaggedTensor.from_tensor([[1, 2, 0], [3, 0, 0]], lengths=[1, 3]),
        tf.RaggedTensor.from_nested_row_lengths([1, 2, 3, 4], [[2, 1], [1, 2, 1]]),
        tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)]),
    "conversions": lambda tf: [_rt(tf).to_tensor(), _rt(tf).to_tensor(-1.0, shape=[2, 4]),
                               _parts(_rt(tf).to_sparse()), _rt(tf).bounding_shape(),
                               _rt(tf).value_rowids(), _rt(tf).row_lengths()],
    "indexing": lambda tf: _parts([_rt(tf)[:, 1:], _rt(tf)[::2], _rt(tf)[-1], _rt(tf)[2, 1:],
                                   _rt(tf)[:, :-1]]),
    "indexing inner": lambda tf: _rt(tf)[:, 0],
    "merge_dims": lambda tf: _parts([tf.ragged.constant([[[1, 2], [3]], [[4]]]).merge_dims(a, b)
                                     for a, b in ((0, 1), (1, 2), (0, 2))]),
    "elementwise": lambda tf: _parts([_rt(tf) * 2 + 1, tf.sin(_rt(tf)), _rt(tf) > 2,
                                      _rt(tf) + tf.constant([[1.0], [2.0], [3.0]]),
                                      tf.cast(_rt(tf), tf.int32)]),
    "mismatched rows": lambda tf: _rt(tf) + tf.ragged.constant([[1.0], [2.0, 3.0], []]),
    "reductions": lambda tf: [f(_rt(tf), axis=a) for f in (
        tf.reduce_sum, tf.reduce_max, tf.reduce_min, tf.reduce_mean, tf.reduce_prod)
        for a in (0, 1)],
    "structure": lambda tf: _parts([
        tf.concat([_rt(tf), _rt(tf)], 0), tf.concat([_rt(tf), _rt(tf)], 1),
        tf.stack([_rt(tf), _rt(tf)], 1), tf.gather(_rt(tf), [2, 0]),
        tf.gather_nd(_rt(tf), [[0, 1], [2, 2]]), tf.where(_rt(tf) > 2, _rt(tf), -_rt(tf)),
        tf.ragged.boolean_mask(_rt(tf), _rt(tf) > 1.5), tf.ragged.range([3, 0, 2]),
        tf.ragged.stack_dynamic_partitions([10, 20, 30], [1, 0, 1], 3)]),
    "gradients": lambda tf: [_grad(tf, lambda r: tf.reduce_sum(r * r, axis=1)),
                             _grad(tf, lambda r: tf.reduce_max(r, axis=1)),
                             _grad(tf, lambda r: r.to_tensor()),
                             _grad(tf, lambda r: tf.concat([r, tf.sin(r)], axis=1))],
    "sets": lambda tf: _parts([
        tf.sets.intersection([[1, 2, 2, 3]], [[2, 3, 7]]), tf.sets.union([[1, 2]], [[2, 5]]),
        tf.sets.difference([[1, 2, 2, 3]], [[2, 3, 7]]),
        tf.sets.size(tf.SparseTensor([[0, 0], [0, 1], [1, 0]], [5, 5, 3], [2, 2]))]),
    "data": lambda tf: _parts([list(tf.data.Dataset.from_tensor_slices(_rt(tf)).batch(2)),
                               list(tf.data.Dataset.range(4).map(tf.range).ragged_batch(3))]),
}


@pytest.mark.parametrize("label", sorted(CASES))
def test_matches_tensorflow(label, parity):
    parity.check_case(CASES[label], rtol=1e-5, atol=1e-6, where=label)
