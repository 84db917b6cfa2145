"""TF's ops on RaggedTensors (through tf.experimental's dispatch), their gradients and
tf.function traces; expected values and exception classes are TF 2.21's."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.testing.gradient_checker import check_grads


def rt():
    return tf.ragged.constant([[1.0, 2.0], [], [3.0, 4.0, 5.0]])


def value(x):
    return x.to_list() if isinstance(x, tf.RaggedTensor) else x.numpy().tolist()


NAN = float("nan")
CASES = {
    "neg": (lambda r: -r, [[-1.0, -2.0], [], [-3.0, -4.0, -5.0]]),
    "abs": (lambda r: abs(-r), [[1.0, 2.0], [], [3.0, 4.0, 5.0]]),
    "pow": (lambda r: r ** 2, [[1.0, 4.0], [], [9.0, 16.0, 25.0]]),
    "rmul": (lambda r: 2 * r, [[2.0, 4.0], [], [6.0, 8.0, 10.0]]),
    "div": (lambda r: r / 2, [[0.5, 1.0], [], [1.5, 2.0, 2.5]]),
    "floordiv": (lambda r: r // 2, [[0.0, 1.0], [], [1.0, 2.0, 2.0]]),
    "rsub": (lambda r: 1 - r, [[0.0, -1.0], [], [-2.0, -3.0, -4.0]]),
    "gt": (lambda r: r > 2, [[False, False], [], [True, True, True]]),
    "eq": (lambda r: r == r, [[True, True], [], [True, True, True]]),
    "maximum": (lambda r: tf.math.maximum(r, 2.0), [[2.0, 2.0], [], [3.0, 4.0, 5.0]]),
    "relu": (lambda r: tf.nn.relu(r - 3), [[0.0, 0.0], [], [0.0, 1.0, 2.0]]),
    "ones_like": (lambda r: tf.ones_like(r), [[1.0, 1.0], [], [1.0, 1.0, 1.0]]),
    "cast": (lambda r: tf.cast(r, tf.int32), [[1, 2], [], [3, 4, 5]]),
    "add_n": (lambda r: tf.add_n([r, r]), [[2.0, 4.0], [], [6.0, 8.0, 10.0]]),
    "broadcast_rows": (lambda r: r + tf.constant([[1.0], [2.0], [3.0]]),
                       [[2.0, 3.0], [], [6.0, 7.0, 8.0]]),
    "reduce_sum_1": (lambda r: tf.reduce_sum(r, axis=1), [3.0, 0.0, 12.0]),
    "reduce_sum_keep": (lambda r: tf.reduce_sum(r, axis=1, keepdims=True),
                        [[3.0], [0.0], [12.0]]),
    "reduce_sum_all": (lambda r: tf.reduce_sum(r, axis=[0, 1]), 15.0),
    "reduce_max_1": (lambda r: tf.reduce_max(r, axis=1), [2.0, -3.4028234663852886e+38, 5.0]),
    "reduce_min_1": (lambda r: tf.reduce_min(r, axis=1), [1.0, 3.4028234663852886e+38, 3.0]),
    "reduce_prod_1": (lambda r: tf.reduce_prod(r, axis=1), [2.0, 1.0, 60.0]),
    "reduce_mean_0": (lambda r: tf.reduce_mean(r, axis=0), [2.0, 3.0, 5.0]),
    "reduce_any": (lambda r: tf.reduce_any(r > 2, axis=1), [False, False, True]),
    "reduce_all": (lambda r: tf.reduce_all(r > 0, axis=1), [True, True, True]),
    "concat_0": (lambda r: tf.concat([r, tf.constant([[7.0, 8.0]])], axis=0),
                 [[1.0, 2.0], [], [3.0, 4.0, 5.0], [7.0, 8.0]]),
    "concat_1": (lambda r: tf.concat([r, r], 1),
                 [[1.0, 2.0, 1.0, 2.0], [], [3.0, 4.0, 5.0, 3.0, 4.0, 5.0]]),
    "stack_1": (lambda r: tf.stack([r, r], axis=1),
                [[[1.0, 2.0], [1.0, 2.0]], [[], []], [[3.0, 4.0, 5.0], [3.0, 4.0, 5.0]]]),
    "expand_dims_0": (lambda r: tf.expand_dims(r, 0), [[[1.0, 2.0], [], [3.0, 4.0, 5.0]]]),
    "expand_dims_1": (lambda r: tf.expand_dims(r, 1), [[[1.0, 2.0]], [[]], [[3.0, 4.0, 5.0]]]),
    "gather": (lambda r: tf.gather(r, [[0, 2], [1, 1]]),
               [[[1.0, 2.0], [3.0, 4.0, 5.0]], [[], []]]),
    "gather_row": (lambda r: tf.gather(r, 1), []),
    "gather_nd": (lambda r: tf.gather_nd(r, [[0, 1], [2, 2]]), [2.0, 5.0]),
    "gather_nd_rows": (lambda r: tf.gather_nd(r, [[2], [0]]), [[3.0, 4.0, 5.0], [1.0, 2.0]]),
    "where": (lambda r: tf.where(r > 2, r, r * 10), [[10.0, 20.0], [], [3.0, 4.0, 5.0]]),
    "where_coordinates": (lambda r: tf.where(r > 2), [[2, 0], [2, 1], [2, 2]]),
    "size": (lambda r: tf.size(r), 5),
    "tile": (lambda r: tf.tile(r, [2, 2]),
             [[1.0, 2.0, 1.0, 2.0], [], [3.0, 4.0, 5.0, 3.0, 4.0, 5.0],
              [1.0, 2.0, 1.0, 2.0], [], [3.0, 4.0, 5.0, 3.0, 4.0, 5.0]]),
    "rank": (lambda r: tf.rank(r), 2),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_ragged_op(name):
    fn, expected = CASES[name]
    assert value(fn(rt())) == expected


def test_ops_on_deeper_ragged_tensors():
    assert value(tf.tile(tf.ragged.constant([[[1, 2], [3]], [[4]]]), [1, 2, 2])) == \
        [[[1, 2, 1, 2], [3, 3], [1, 2, 1, 2], [3, 3]], [[4, 4], [4, 4]]]
    c = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]]])
    assert value(tf.reduce_sum(c, axis=1)) == [[4, 2], [4, 5, 6]]
    assert value(tf.reduce_sum(c, axis=2)) == [[3, 3], [15]]
    assert value(tf.reduce_sum(c, axis=-1)) == [[3, 3], [15]]
    assert value(tf.reduce_sum(c, axis=0)) == [[5, 7, 6], [3]]
    d = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
    assert value(tf.reduce_sum(d, axis=2)) == [[3, 7], [11]]
    assert value(tf.reduce_sum(d, axis=1)) == [[4, 6], [5, 6]]
    assert value(tf.reduce_sum(d, axis=0)) == [[6, 8], [3, 4]]
    assert value(d + tf.constant([10, 20])) == [[[11, 22], [13, 24]], [[15, 26]]]


def test_variance_and_std_leave_empty_rows_nan():
    var = tf.math.reduce_variance(rt(), axis=1).numpy()
    std = tf.math.reduce_std(rt(), axis=1).numpy()
    np.testing.assert_allclose(var, [0.25, NAN, 2 / 3], rtol=1e-6)
    np.testing.assert_allclose(std, [0.5, NAN, 0.8164966], rtol=1e-6)


@pytest.mark.parametrize("fn,error", [
    (lambda r: r + tf.constant([1.0, 2.0, 3.0]), tf.errors.InvalidArgumentError),
    (lambda r: r + tf.ragged.constant([[1.0], [2.0, 3.0], []]), tf.errors.InvalidArgumentError),
    (lambda r: tf.reduce_sum(r, axis=2), ValueError),
    (lambda r: tf.boolean_mask(r, [True, False, True]), ValueError),
])
def test_ragged_op_errors(fn, error):
    with pytest.raises(error):
        fn(rt())


TABLE = [[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]]


@pytest.mark.parametrize("fn,expected", [
    (lambda: tf.ragged.range([3, 5, 2]), [[0, 1, 2], [0, 1, 2, 3, 4], [0, 1]]),
    (lambda: tf.ragged.range([0, 5, 8], [3, 3, 12]), [[0, 1, 2], [], [8, 9, 10, 11]]),
    (lambda: tf.ragged.range(0, 5, [1, 2, 3]), [[0, 1, 2, 3, 4], [0, 2, 4], [0, 3]]),
    (lambda: tf.ragged.range([0.0, 1.0], [1.0, 2.5], 0.5), [[0.0, 0.5], [1.0, 1.5, 2.0]]),
    (lambda: tf.ragged.row_splits_to_segment_ids([0, 2, 2, 5]), [0, 0, 2, 2, 2]),
    (lambda: tf.ragged.segment_ids_to_row_splits([0, 0, 2, 2, 2]), [0, 2, 2, 5]),
    (lambda: tf.ragged.segment_ids_to_row_splits([0, 0, 2], num_segments=5),
     [0, 2, 2, 3, 3, 3]),
    (lambda: tf.ragged.stack([tf.ragged.constant([[1, 2], [3]]), tf.ragged.constant([[4]])]),
     [[[1, 2], [3]], [[4]]]),
    (lambda: tf.ragged.stack([tf.ragged.constant([[1, 2], [3]]),
                              tf.ragged.constant([[4], [5, 6]])], axis=1),
     [[[1, 2], [4]], [[3], [5, 6]]]),
    (lambda: tf.ragged.stack([tf.constant([1, 2]), tf.constant([3, 4, 5])]),
     [[1, 2], [3, 4, 5]]),
    (lambda: tf.ragged.stack([tf.ragged.constant([[1, 2], [3]]), tf.constant([[4, 5]])]),
     [[[1, 2], [3]], [[4, 5]]]),
    (lambda: tf.ragged.boolean_mask([[1, 2], [3, 4]], [[True, False], [False, True]]),
     [[1], [4]]),
    (lambda: tf.ragged.boolean_mask(tf.ragged.constant([[1, 2], [3]]),
                                    tf.ragged.constant([[True, False], [True]])), [[1], [3]]),
    (lambda: tf.ragged.boolean_mask(tf.ragged.constant([[1, 2], [3], []]),
                                    [True, False, True]), [[1, 2], []]),
    (lambda: tf.ragged.boolean_mask([1, 2, 3], [True, False, True]), [1, 3]),
    (lambda: tf.ragged.stack_dynamic_partitions([10, 20, 30, 40], [1, 0, 1, 2], 4),
     [[20], [10, 30], [40], []]),
    (lambda: tf.ragged.map_flat_values(tf.add, tf.ragged.constant([[1, 2], [3]]), 10),
     [[11, 12], [13]]),
    (lambda: tf.ragged.cross_hashed([tf.ragged.constant([[1, 2], [3]], dtype=tf.int64),
                                     tf.ragged.constant([[4], [5, 6]], dtype=tf.int64)],
                                    num_buckets=100), [[25, 47], [12, 43]]),
    (lambda: tf.gather(tf.constant([10, 20, 30]), tf.ragged.constant([[0, 1], [2]])),
     [[10, 20], [30]]),
    (lambda: tf.nn.embedding_lookup(tf.constant(TABLE), tf.ragged.constant([[2, 0], [1]])),
     [[[2.0, 2.0], [0.0, 0.0]], [[1.0, 1.0]]]),
    (lambda: tf.nn.embedding_lookup(tf.constant(TABLE), tf.ragged.constant([[[2], [0, 1]], [[1]]])),
     [[[[2.0, 2.0]], [[0.0, 0.0], [1.0, 1.0]]], [[[1.0, 1.0]]]]),
])
def test_tf_ragged_namespace(fn, expected):
    assert value(fn()) == expected


@pytest.mark.parametrize("inputs,expected", [
    (lambda: [tf.ragged.constant([["a", "b"], ["c"]]), tf.ragged.constant([["d"], ["e", "f"]])],
     [[b"a_X_d", b"b_X_d"], [b"c_X_e", b"c_X_f"]]),
    (lambda: [tf.ragged.constant([["a", "b"]]), tf.ragged.constant([["d", "e"]]),
              tf.constant([["x"]])],
     [[b"a_X_d_X_x", b"a_X_e_X_x", b"b_X_d_X_x", b"b_X_e_X_x"]]),
    (lambda: [tf.ragged.constant([[1, 2]], dtype=tf.int64), tf.constant([["q"]]),
              tf.sparse.from_dense(tf.constant([["s", ""]]))], [[b"1_X_q_X_s", b"2_X_q_X_s"]]),
    (lambda: [tf.ragged.constant([[], ["a"]]), tf.ragged.constant([["d"], ["e"]])],
     [[], [b"a_X_e"]]),
])
def test_cross(inputs, expected):
    assert tf.ragged.cross(inputs()).to_list() == expected


def test_cross_refuses_floats():
    with pytest.raises(ValueError, match="Unexpected dtype for inputs"):
        tf.ragged.cross([tf.ragged.constant([[1.0]]), tf.ragged.constant([["d"]])])


def test_map_flat_values_needs_one_partition():
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.ragged.map_flat_values(tf.add, tf.ragged.constant([[1, 2], [3]]),
                                  tf.ragged.constant([[1], [2, 3]]))


def test_string_values():
    words = tf.RaggedTensor.from_row_splits(tf.constant(["a", "bc", "d"]), [0, 2, 3])
    assert words.dtype == tf.string and words.to_list() == [[b"a", b"bc"], [b"d"]]
    assert value(words == "a") == [[True, False], [False]]


# -- gradients ------------------------------------------------------------------------------
def test_gradient_reaches_the_variable_through_flat_values():
    v = tf.Variable([1.0, 2.0, 3.0, 4.0, 5.0])
    with tf.GradientTape() as tape:
        r = tf.RaggedTensor.from_row_splits(v * 1.0, [0, 2, 2, 5])
        loss = tf.reduce_sum(tf.reduce_max(r * r, axis=1)) + tf.reduce_sum(r.to_tensor())
    assert tape.gradient(loss, v).numpy().tolist() == [1.0, 5.0, 1.0, 1.0, 11.0]


def test_embedding_lookup_at_ragged_ids_sends_the_gradient_to_the_rows_looked_up():
    table = tf.constant(TABLE)
    with tf.GradientTape() as tape:
        tape.watch(table)
        rows = tf.nn.embedding_lookup(table, tf.ragged.constant([[2, 0], [2]]))
        loss = tf.reduce_sum(rows.flat_values)
    # TF 2.21: [[1, 1], [0, 0], [2, 2]]
    assert tf.convert_to_tensor(tape.gradient(loss, table)).numpy().tolist() == [
        [1.0, 1.0], [0.0, 0.0], [2.0, 2.0]]
    check_grads(lambda t: tf.nn.embedding_lookup(t, tf.ragged.constant([[2, 0], [1]])
                                                 ).flat_values, [np.linspace(-1.0, 1.5, 6
                                                                             ).reshape(3, 2)])


SPLITS = [0, 2, 2, 5]


@pytest.mark.parametrize("fn", [
    lambda r: tf.reduce_sum(r * r, axis=1),
    lambda r: tf.reduce_sum(tf.sin(r), axis=0),
    lambda r: r.to_tensor(),
    lambda r: tf.concat([r, r * 2.0], axis=1).flat_values,
    lambda r: tf.gather(r, [2, 0]).flat_values,
    lambda r: tf.tile(r, [2, 3]).flat_values,
    lambda r: (r * r.to_tensor()[:, :1] + tf.constant([[1.0], [2.0], [3.0]], tf.float64)
               ).flat_values,
], ids=["reduce_sum_square", "reduce_sum_axis0_sin", "to_tensor", "concat", "gather", "tile",
        "broadcast"])
def test_numerical_gradients(fn):
    check_grads(lambda v: fn(tf.RaggedTensor.from_row_splits(v, SPLITS)),
                [np.linspace(-1.0, 1.5, 5)])


# -- tf.function ----------------------------------------------------------------------------
def test_function_traces_by_spec_and_reuses_the_trace_for_other_row_lengths():
    traces = []

    @tf.function
    def f(x):
        traces.append(1)
        return tf.reduce_sum(x, axis=1), x * 2

    total, doubled = f(tf.ragged.constant([[1.0, 2.0], [3.0]]))
    assert total.numpy().tolist() == [3.0, 3.0] and doubled.to_list() == [[2.0, 4.0], [6.0]]
    total, doubled = f(tf.ragged.constant([[1.0], [2.0, 3.0, 4.0]]))
    assert total.numpy().tolist() == [1.0, 9.0] and len(traces) == 1


def test_function_input_signature_with_a_ragged_spec():
    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.float32)])
    def g(x):
        return x.row_lengths(), x[:, 1:]

    lengths, rest = g(tf.ragged.constant([[1.0, 2.0], [3.0]]))
    assert lengths.numpy().tolist() == [2, 1] and rest.to_list() == [[2.0], []]
    with pytest.raises(TypeError):
        g(tf.ragged.constant([[1, 2], [3]]))


@pytest.mark.parametrize("fn,expected", [
    (lambda: tf.map_fn(tf.reduce_sum, rt(), fn_output_signature=tf.float32), [3.0, 0.0, 12.0]),
    (lambda: tf.map_fn(lambda x: x * 2, rt()), [[2.0, 4.0], [], [6.0, 8.0, 10.0]]),
    (lambda: tf.map_fn(lambda x: tf.range(x), tf.constant([1, 2]),
                       fn_output_signature=tf.RaggedTensorSpec([None], tf.int32, 0)),
     [[0], [0, 1]]),
    (lambda: tf.map_fn(lambda x: tf.RaggedTensor.from_row_lengths(tf.range(x), [x]),
                       tf.constant([1, 2]),
                       fn_output_signature=tf.RaggedTensorSpec([None, None], tf.int32, 1)),
     [[[0]], [[0, 1]]]),
])
def test_map_fn_over_and_to_ragged(fn, expected):
    assert value(fn()) == expected


def test_shape_of_a_ragged_tensor_is_a_dynamic_ragged_shape():
    s = tf.shape(rt())
    assert isinstance(s, tf.experimental.DynamicRaggedShape)
    assert repr(s) == "<DynamicRaggedShape lengths=[3, (2, 0, 3)] num_row_partitions=1>"
    assert (s.rank, s.num_row_partitions, s.dtype) == (2, 1, tf.int32)
    assert s.inner_shape.numpy().tolist() == [5] and int(s[0]) == 3
    assert s.static_lengths() == [3, (2, 0, 3)]
    assert s.is_uniform(0) and not s.is_uniform(1)
    with pytest.raises(ValueError, match="Index 1 is not uniform"):
        s[1]
    d = tf.shape(tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1))
    assert repr(d) == "<DynamicRaggedShape lengths=[2, (2, 1), 2] num_row_partitions=1>"
    assert int(d[2]) == 2 and d.inner_shape.numpy().tolist() == [3, 2]
    assert repr(tf.shape(tf.ragged.constant([[[1, 2], [3]], [[4]]]))) == \
        "<DynamicRaggedShape lengths=[2, (2, 1), (2, 1, 1)] num_row_partitions=2>"
