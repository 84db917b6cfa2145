"""The exception class of each bad input this project hardened, under tapeflow and under
TensorFlow: the same call written once against a module `tf`."""
import numpy as np
import pytest

import tapeflow

pytestmark = pytest.mark.parity

HUGE = [100000, 100000, 10]


def tape_gradient(tf, output_gradients):
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = x * 2.0
    return tape.gradient(y, x, output_gradients=output_gradients)


CASES = {
    "x + None": lambda tf: tf.constant([1.0, 2.0]) + None,
    "multiply by an object": lambda tf: tf.multiply(tf.constant([1.0]), object()),
    "ragged list": lambda tf: tf.constant([[1.0], [2.0, 3.0]]),
    "list with None": lambda tf: tf.constant([1.0, None]),
    "reduce_sum of None": lambda tf: tf.reduce_sum(None),
    "dict": lambda tf: tf.convert_to_tensor({"a": 1}),
    "one_hot depth -1": lambda tf: tf.one_hot([0, 1], depth=-1),
    "output_gradients of another dtype": lambda tf: tape_gradient(
        tf, tf.constant([1.0, 1.0], tf.float64)),
    "broadcast_to a huge shape": lambda tf: tf.broadcast_to(tf.constant(1.0), HUGE),
    "zeros of a huge shape": lambda tf: tf.zeros(HUGE),
    "random.normal of a huge shape": lambda tf: tf.random.normal(HUGE),
    "tile huge": lambda tf: tf.tile(tf.ones([10]), [10 ** 11]),
    "eye huge": lambda tf: tf.eye(10 ** 12),
    "incompatible shapes": lambda tf: tf.ones([2, 3]) + tf.ones([4]),
    "reshape of the wrong size": lambda tf: tf.reshape(tf.ones([6]), [4, 2]),
    "eye of -1 rows": lambda tf: tf.eye(-1),
    "constant of shape -1": lambda tf: tf.constant(0.5, shape=[-1, 2]),
    "split into 10**12 parts": lambda tf: tf.split(tf.zeros([0, 3]), 10 ** 12),
    "assign of another shape": lambda tf: tf.Variable([1.0, 2.0]).assign([1.0, 2.0, 3.0]),
    "assign_add of another shape": lambda tf: tf.Variable([1.0, 2.0]).assign_add([1.0]),
    "assign of None": lambda tf: tf.Variable([1.0, 2.0]).assign(None),
    "embedding_lookup with max_norm of an int table": lambda tf: tf.nn.embedding_lookup(
        tf.constant([[0, 1], [2, 3]]), tf.constant([1]), max_norm=1.0),
}
# Where TF's class is an accident of its implementation and tapeflow raises a TF class
# that says more: {label: reason}; strict xfails.
KNOWN_DIFFERENCES = {
    "output_gradients of another shape": "TF broadcasts a mismatched output gradient and "
                                         "returns a gradient of the wrong shape",
}
CASES["output_gradients of another shape"] = lambda tf: tape_gradient(tf, tf.constant(1.0))


def error_class(fn, tf):
    try:
        fn(tf)
    except Exception as e:  # noqa: BLE001  (the class is what is compared)
        return type(e).__name__
    return "no error"


@pytest.mark.parametrize("label", [
    pytest.param(label, marks=pytest.mark.xfail(reason=KNOWN_DIFFERENCES[label], strict=True))
    if label in KNOWN_DIFFERENCES else label for label in CASES])
def test_bad_input_raises_what_tensorflow_raises(label, tensorflow):
    ours = error_class(CASES[label], tapeflow)
    assert ours != "no error"
    assert ours == error_class(CASES[label], tensorflow), label


# Text converts to tf.string as in TF; text given a numeric dtype is refused (NumPy text is
# parsed, as TF does, and a ValueError where it does not parse), numbers given tf.string too.
STRING_CASES = {
    "NumPy str array": lambda tf: tf.constant(np.array(["a", "bc"])),
    "NumPy bytes array": lambda tf: tf.constant(np.array([b"a", b"bc"])),
    "NumPy non-ASCII str": lambda tf: tf.constant(np.array(["\u00e9"])),
    "NumPy str parsed as int32": lambda tf: tf.constant(np.array(["1", "-2"]), tf.int32),
    "NumPy str as float32": lambda tf: tf.constant(np.array(["a"]), tf.float32),
    "NumPy bytes as float32": lambda tf: tf.convert_to_tensor(np.array([b"a"]), tf.float32),
    "Python str as float32": lambda tf: tf.constant("a", tf.float32),
    "Python list of str as float32": lambda tf: tf.constant(["1.5"], tf.float32),
    "a number as string": lambda tf: tf.constant(1.0, tf.string),
    "a NumPy float array as string": lambda tf: tf.constant(np.array([1.0]), tf.string),
    "str mixed with a number": lambda tf: tf.constant(["a", 1]),
    "string + float": lambda tf: tf.constant(["a"]) + tf.constant([1.0]),
}


def outcome(fn, tf):
    """The dtype and values `fn` gives, or the class of what it raises."""
    try:
        t = fn(tf)
    except Exception as e:  # noqa: BLE001  (the class is what is compared)
        return type(e).__name__
    return t.dtype.name, t.numpy().tolist()


@pytest.mark.parametrize("label", list(STRING_CASES))
def test_string_data_converts_as_in_tensorflow(label, tensorflow):
    assert outcome(STRING_CASES[label], tapeflow) == outcome(STRING_CASES[label], tensorflow)
