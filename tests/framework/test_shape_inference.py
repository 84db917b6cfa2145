"""Static shapes while a graph is built: inputs of unknown rank and dimensions, sizes
computed in the graph, and TF's ValueErrors for incompatible known dimensions."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.framework.shape_inference import broadcast_dims, shape_text

VALUE = np.arange(1.0, 10.0, dtype=np.float32).reshape(3, 3) / 9


# (label, op of one input, its static rank for an input of unknown rank)
UNKNOWN_RANK = [
    ("reduce_sum", lambda p: tf.reduce_sum(p), 0),
    ("reduce_sum keepdims", lambda p: tf.reduce_sum(p, keepdims=True), None),
    ("reduce_mean axis", lambda p: tf.reduce_mean(p, axis=1), None),
    ("reduce_max negative axis", lambda p: tf.reduce_max(p, axis=-1), None),
    ("transpose", lambda p: tf.transpose(p), None),
    ("softmax", lambda p: tf.nn.softmax(p), None),
    ("log_softmax axis", lambda p: tf.nn.log_softmax(p, axis=0), None),
    ("matmul", lambda p: tf.matmul(p, p), None),
    ("expand_dims", lambda p: tf.expand_dims(p, -1), None),
    ("squeeze", lambda p: tf.squeeze(p[None]), None),
    ("stack", lambda p: tf.stack([p, p * 2.0], axis=-1), None),
    ("split", lambda p: tf.split(p, 3, axis=1)[1], None),
    ("gather", lambda p: tf.gather(p, [2, 0]), None),
    ("sort", lambda p: tf.sort(p), None),
    ("top_k", lambda p: tf.math.top_k(p, 2).values, None),
    ("moments", lambda p: tf.nn.moments(p, [0])[1], None),
    ("tile", lambda p: tf.tile(p, [1, 2]), 2),
    ("pad", lambda p: tf.pad(p, [[1, 0], [0, 1]]), 2),
    ("softmax_cross_entropy", lambda p: tf.nn.softmax_cross_entropy_with_logits(p, p), None),
    ("einsum", lambda p: tf.einsum("ij,kj->ik", p, p), 2),
    ("one_hot of argmax", lambda p: p * tf.one_hot(tf.argmax(p, 1), 3), None),
]


@pytest.mark.parametrize("shape", [None, [None, None]], ids=["rank", "dims"])
@pytest.mark.parametrize("label,op,rank", UNKNOWN_RANK, ids=[u[0] for u in UNKNOWN_RANK])
def test_ops_take_inputs_of_unknown_rank(label, op, rank, shape):
    with tf.Graph().as_default():
        p = tf.compat.v1.placeholder(tf.float32, shape)
        y = op(p)
        g = tf.gradients(tf.reduce_sum(y * y), p)[0]
        got = tf.compat.v1.Session().run([y, g], {p: VALUE})
    if shape is None:
        assert y.shape.rank == rank
    x = tf.constant(VALUE)
    with tf.GradientTape() as tape:
        tape.watch(x)
        expected = op(x)
        loss = tf.reduce_sum(expected * expected)
    np.testing.assert_allclose(got[0], expected.numpy(), rtol=1e-6)
    np.testing.assert_allclose(got[1], tf.convert_to_tensor(tape.gradient(loss, x)).numpy(),
                               rtol=1e-5)


@pytest.mark.parametrize("build,message", [
    (lambda a: tf.matmul(a, tf.zeros([4, 5])),
     "Dimensions must be equal, but are 3 and 4 for 'MatMul' with input shapes: [?,3], [4,5]"),
    (lambda a: tf.matmul(a, tf.zeros([5, 4]), transpose_b=True), "but are 3 and 4"),
    (lambda a: a + tf.zeros([4]), "but are 3 and 4 for 'AddV2' with input shapes: [?,3], [4]"),
    (lambda a: tf.concat([a, tf.zeros([2, 2, 2])], 0), "Shape must be rank 2 but is rank 3"),
    (lambda a: tf.concat([a, tf.zeros([2, 2])], 0),
     "Dimension 1 in both shapes must be equal, but are 3 and 2"),
    (lambda a: tf.reshape(tf.zeros([2, 3]), [4, 2]),
     "Cannot reshape a tensor with 6 elements to shape [4,2] (8 elements)"),
    (lambda a: tf.reshape(a, [4, 2]), "Dimension size must be evenly divisible by 3 but is 8"),
], ids=["matmul", "matmul transposed", "add", "concat rank", "concat dims", "reshape",
        "reshape unknown"])
def test_incompatible_known_dimensions_are_value_errors(build, message):
    with tf.Graph().as_default():
        a = tf.compat.v1.placeholder(tf.float32, [None, 3])
        with pytest.raises(ValueError) as info:
            build(a)
    assert message in str(info.value)


def test_compatible_partial_shapes_are_inferred():
    with tf.Graph().as_default():
        a = tf.compat.v1.placeholder(tf.float32, [None, 3])
        assert (a + tf.zeros([1, 3])).shape.as_list() == [None, 3]
        assert tf.matmul(a, tf.zeros([3, 5])).shape.as_list() == [None, 5]
        assert tf.concat([a, a], 0).shape.as_list() == [None, 3]
        n = tf.shape(a)[0]
        assert tf.reshape(a, tf.stack([n, 3, 1])).shape.as_list() == [None, 3, 1]
        assert tf.fill(tf.stack([n, 2]), 1.0).shape.as_list() == [None, 2]
        assert tf.zeros([n, 4]).shape.as_list() == [None, 4]


def test_broadcast_dims_and_shape_text():
    assert broadcast_dims("AddV2", [(None, 3), (1, 3)]) == (None, 3)
    assert broadcast_dims("AddV2", [(2, 1), (3,)]) == (2, 3)
    assert broadcast_dims("AddV2", [(None, 1), (None,)]) == (None, None)
    assert broadcast_dims("AddV2", [None, (3,)]) is None
    with pytest.raises(ValueError, match="but are 2 and 3"):
        broadcast_dims("Mul", [(2,), (3,)])
    assert shape_text((None, 3)) == "[?,3]" and shape_text(None) == "<unknown>"


def test_sizes_computed_in_a_loop():
    @tf.function
    def f(x):
        def body(t, total):
            n = t + 1
            rows = tf.reshape(tf.fill([n * 3], 1.0) * tf.reduce_sum(x), [n, -1])
            ones = tf.zeros([n, 3]) + tf.ones(tf.shape(rows))
            counted = tf.cast(tf.range(n), tf.float32) * tf.fill([n], 2.0)
            sizes = tf.cast(tf.size(rows) + tf.rank(rows), tf.float32)
            return t + 1, total + tf.reduce_sum(rows) + tf.reduce_sum(ones) + \
                tf.reduce_sum(counted) + sizes
        return tf.while_loop(lambda t, total: t < 3, body, (0, 0.0))[1]
    # n = 1, 2, 3: rows 6n*n... summed by hand: 26 + 52 + 80.
    assert float(f(tf.constant([1.0, 2.0, 3.0]))) == 158.0


def test_reduction_gradients_of_an_unknown_batch_use_shape_ops():
    w = tf.Variable(np.linspace(-1.0, 1.0, 12).reshape(3, 4))

    def step(x):
        with tf.GradientTape() as tape:
            y = tf.tanh(tf.matmul(x, w))
            loss = tf.reduce_sum(tf.reduce_mean(y, axis=0)) + tf.reduce_sum(y, axis=1)[0]
        return loss, tape.gradient(loss, w)

    traced = tf.function(step, input_signature=[tf.TensorSpec([None, 3], tf.float64)])
    x = tf.constant(np.arange(15.0).reshape(5, 3) / 15)
    for got, want in zip(traced(x), step(x)):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12)
    types = [op.type for op in traced.get_concrete_function().graph.get_operations()]
    assert "EagerPyFunc" not in types and "Shape" in types


def test_random_draws_and_dropout_of_a_shape_computed_in_the_graph():
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def f(x):
        draws = (tf.random.normal(tf.shape(x), seed=1), tf.random.uniform([tf.shape(x)[0], 2]),
                 tf.random.truncated_normal(tf.shape(x)), tf.nn.dropout(x, 0.5, seed=2))
        assert [d.shape.as_list() for d in draws] == [[None, 3], [None, 2], [None, 3], [None, 3]]
        return draws

    normal, uniform, truncated, dropped = f(tf.ones([4, 3]))
    assert normal.shape == [4, 3] and uniform.shape == [4, 2] and truncated.shape == [4, 3]
    assert np.all((uniform.numpy() >= 0) & (uniform.numpy() < 1))
    assert np.all(np.abs(truncated.numpy()) <= 2)
    assert set(np.unique(dropped.numpy())) <= {0.0, 2.0}


def test_unknown_batch_in_masks_dropout_and_stateless_draws():
    spec = [tf.TensorSpec([None, 3])]
    masked = tf.function(lambda x: tf.boolean_mask(x, x[:, 0] > 0), input_signature=spec)
    x = tf.constant([[1.0, 2.0, 3.0], [-1.0, 5.0, 6.0], [2.0, 0.0, 0.0]])
    np.testing.assert_array_equal(masked(x).numpy(), [[1.0, 2.0, 3.0], [2.0, 0.0, 0.0]])
    dropout = tf.keras.layers.Dropout(0.5, seed=3)
    kept = tf.function(lambda x: dropout(x, training=True), input_signature=spec)(x).numpy()
    assert kept.shape == (3, 3) and set(np.unique(kept)) <= {0.0, *np.unique(2 * x.numpy())}

    @tf.function
    def draw():
        y = tf.random.stateless_uniform([3, 4], seed=[1, 2])
        assert y.shape.as_list() == [3, 4]          # the static shape, not the seed's values
        return y
    np.testing.assert_array_equal(draw().numpy(), tf.random.stateless_uniform(
        [3, 4], seed=[1, 2]).numpy())
