"""What a graph knows of its tensors' values while it is built: static shapes that follow
from shape vectors built of `tf.shape` pieces and constants, as TF 2.21 infers them inside a
tf.function traced for an x of shape [None, 3, 4] (the expected shapes were recorded there).
"""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.framework.shape_inference import known_value

# (label, f(x, s) with s = tf.shape(x), the static shape TF gives)
STATIC_SHAPES = [
    ("reshape [s0, -1]", lambda x, s: tf.reshape(x, [s[0], -1]), [None, None]),
    ("reshape [-1, 12]", lambda x, s: tf.reshape(x, [-1, 12]), [None, 12]),
    ("reshape [s0, 12]", lambda x, s: tf.reshape(x, [s[0], 12]), [None, 12]),
    ("reshape concat", lambda x, s: tf.reshape(x, tf.concat([s[:1], [12]], 0)), [None, 12]),
    ("reshape concat of a slice", lambda x, s: tf.reshape(x, tf.concat([s[:2], [4]], 0)),
     [None, 3, 4]),
    ("reshape stack of a product", lambda x, s: tf.reshape(x, tf.stack([s[0], s[1] * s[2]])),
     [None, 12]),
    ("reshape stack", lambda x, s: tf.reshape(x, tf.stack([s[0], s[1], s[2]])), [None, 3, 4]),
    ("reshape gather", lambda x, s: tf.reshape(x, tf.gather(s, [0, 2, 1])),
     [None, None, None]),
    ("reshape cast", lambda x, s: tf.reshape(x, tf.cast(s, tf.int64)), [None, 3, 4]),
    ("reshape [s0, 3, -1]", lambda x, s: tf.reshape(x, [s[0], 3, -1]), [None, 3, None]),
    ("reshape [-1, s1, s2]", lambda x, s: tf.reshape(x, [-1, s[1], s[2]]), [None, 3, 4]),
    ("gather of an empty constant", lambda x, s: tf.gather(tf.zeros([0]), s[0]), []),
    ("gather axis 1", lambda x, s: tf.gather(x, tf.zeros([5, 2], tf.int32), axis=1),
     [None, 5, 2, 4]),
    ("gather batch_dims", lambda x, s: tf.gather(x, tf.zeros([5, 2], tf.int32), axis=2,
                                                 batch_dims=1), [None, 3, 2]),
    ("fill", lambda x, s: tf.fill([s[0], 2], 1.0), [None, 2]),
    ("zeros", lambda x, s: tf.zeros([s[0], 2]), [None, 2]),
    ("zeros of a stack", lambda x, s: tf.zeros(tf.stack([s[0], 2])), [None, 2]),
    ("broadcast_to", lambda x, s: tf.broadcast_to(tf.zeros([4]), tf.concat([s[:2], [4]], 0)),
     [None, 3, 4]),
    ("tile", lambda x, s: tf.tile(x, [1, 2, 1]), [None, 6, 4]),
    ("tile by a known size", lambda x, s: tf.tile(x, tf.stack([1, s[1], 1])), [None, 9, 4]),
    ("range of a known size", lambda x, s: tf.range(s[1]), [3]),
    ("range of an unknown size", lambda x, s: tf.range(s[0]), [None]),
    ("ones of a slice", lambda x, s: tf.ones(tf.shape(x)[1:]), [3, 4]),
    ("eye of a known size", lambda x, s: tf.eye(s[1], s[2]), [3, 4]),
]


def _traced(f):
    found = {}

    @tf.function(input_signature=[tf.TensorSpec([None, 3, 4])])
    def g(x):
        y = f(x, tf.shape(x))
        found["shape"] = y.shape
        found["known"] = known_value(y)
        return y

    g.get_concrete_function()
    return found


@pytest.mark.parametrize("label,f,expected", STATIC_SHAPES, ids=[c[0] for c in STATIC_SHAPES])
def test_static_shapes_follow_known_values(label, f, expected):
    assert _traced(f)["shape"].as_list() == expected


RESHAPES = [c for c in STATIC_SHAPES if c[0].startswith("reshape")]


@pytest.mark.parametrize("label,f,expected", RESHAPES, ids=[c[0] for c in RESHAPES])
def test_the_functions_compute_what_the_shapes_say(label, f, expected):
    g = tf.function(lambda x: f(x, tf.shape(x)),
                    input_signature=[tf.TensorSpec([None, 3, 4])])
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    y = g(tf.constant(x)).numpy()
    assert tf.TensorShape(expected).is_compatible_with(y.shape)
    np.testing.assert_array_equal(np.ravel(y), np.ravel(x))


# (label, f(x, s), what the graph knows of the value: a tuple with None where it is unknown)
KNOWN_VALUES = [
    ("shape", lambda x, s: s, (None, 3, 4)),
    ("slice of a shape", lambda x, s: s[1:], np.array([3, 4])),
    ("stack", lambda x, s: tf.stack([s[0], 5, s[2]]), (None, 5, 4)),
    ("concat", lambda x, s: tf.concat([s[:1], [7], s[1:]], 0), (None, 7, 3, 4)),
    ("a known size", lambda x, s: s[1] * s[2], np.array(12)),
    ("an unknown size", lambda x, s: s[0], None),
    ("rank", lambda x, s: tf.rank(x), np.array(3)),
]


@pytest.mark.parametrize("label,f,expected", KNOWN_VALUES, ids=[c[0] for c in KNOWN_VALUES])
def test_known_values(label, f, expected):
    known = _traced(f)["known"]
    if isinstance(expected, np.ndarray):
        np.testing.assert_array_equal(known, expected)
    else:
        assert known == expected


def test_known_values_are_not_constants_to_user_code():
    # As in TF: tf.get_static_value of tf.shape(x)[1] is None, and `==` builds an Equal op.
    @tf.function(input_signature=[tf.TensorSpec([None, 3, 4])])
    def g(x):
        s = tf.shape(x)
        assert tf.get_static_value(s[1]) is None
        assert tf.get_static_value(s) is None
        assert (s[1] == 3).op.type == "Equal"
        return x

    g.get_concrete_function()


def test_a_list_holding_tensors_is_packed_and_cast_to_the_requested_dtype():
    b = tf.constant(1.5)
    np.testing.assert_array_equal(tf.convert_to_tensor([b, 1], dtype=tf.int32), [1, 1])
    np.testing.assert_array_equal(tf.convert_to_tensor([b, 1], dtype_hint=tf.int32), [1, 1])
    np.testing.assert_array_equal(tf.convert_to_tensor([b, 1], dtype=tf.float64), [1.5, 1.0])
    assert tf.convert_to_tensor([b, 1]).dtype == tf.float32
    with pytest.raises(TypeError):
        tf.convert_to_tensor([2.5, b], dtype=tf.int32)
    # tf.tile, tf.reshape and tf.zeros take a float tensor among the sizes (cast), as in TF.
    assert tf.tile(tf.zeros([1, 1]), [tf.constant(2.0), 1]).shape == [2, 1]
    assert tf.reshape(tf.zeros([2, 1]), [tf.constant(2.0), 1]).shape == [2, 1]
    assert tf.zeros([tf.constant(2.0), 1]).shape == [2, 1]
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.tile(tf.zeros([1, 1]), [tf.constant(2), tf.constant(1.0)])


def test_a_packed_list_carries_gradients():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.convert_to_tensor([x, 3.0 * x]))
    assert float(tape.gradient(y, x)) == 4.0


def test_a_tensor_array_loop_over_a_static_length_one_sequence():
    # A for loop over tf.range(1, 1): the gather of the (empty) range has shape [].
    @tf.function(input_signature=[tf.TensorSpec([1, 2])])
    def g(x):
        n = tf.shape(x)[0]
        total = tf.zeros([2])
        for t in tf.range(1, n):
            total += x[t]
        return total

    np.testing.assert_array_equal(g(tf.ones([1, 2])), [0.0, 0.0])


def test_eye_of_sizes_known_only_when_run():
    init = tf.function(lambda t: tf.eye(tf.shape(t)[0], tf.shape(t)[1], dtype=t.dtype),
                       input_signature=[tf.TensorSpec([None, None])])
    np.testing.assert_array_equal(init(tf.ones([2, 3])), np.eye(2, 3, dtype=np.float32))
    batched = tf.function(lambda t: tf.eye(2, batch_shape=tf.shape(t)[:1]),
                          input_signature=[tf.TensorSpec([None])])
    np.testing.assert_array_equal(batched(tf.ones([3])), np.broadcast_to(np.eye(2), (3, 2, 2)))


def test_conv_transpose_with_an_output_shape_computed_from_the_batch_size():
    w = tf.ones([3, 3, 2, 1])

    @tf.function(input_signature=[tf.TensorSpec([None, 4, 4, 1])])
    def g(x):
        shape = tf.concat([[tf.shape(x)[0]], [8, 8, 2]], 0)
        return tf.nn.conv_transpose(x, w, shape, strides=2)

    y = g(tf.ones([3, 4, 4, 1]))
    expected = tf.nn.conv2d_transpose(tf.ones([3, 4, 4, 1]), w, [3, 8, 8, 2], strides=2)
    np.testing.assert_allclose(y, expected)


@pytest.mark.parametrize("shape,message", [
    ((1, 1, -2), "Size 2 must be non-negative, not -2"),
    ((2, -1, -1), "Only one input size may be -1, not both 1 and 2"),
])
def test_reshape_rejects_bad_wildcards(shape, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        tf.reshape(tf.ones([1, 2, 3]), shape)


def test_reshape_to_a_list_mixing_types_is_a_value_error():
    with pytest.raises(ValueError, match="mixed types"):
        tf.reshape(tf.ones([1, 2, 3]), (1, 7, "string"))
