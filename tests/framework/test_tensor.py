import copy
import pickle

import numpy as np
import pytest

import tapeflow as tf


@pytest.mark.parametrize("value, dtype", [
    (3.0, tf.float32), (3, tf.int32), (True, tf.bool), ([1.0, 2.0], tf.float32),
    ([1, 2], tf.int32), (1 + 2j, tf.complex128), (2 ** 40, tf.int64),
    (np.float64(1.0), tf.float64), (np.zeros(2, np.float16), tf.float16),
    (np.arange(3), tf.int64)])
def test_constant_default_dtypes(value, dtype):
    assert tf.constant(value).dtype is dtype


def test_constant_with_dtype_and_shape():
    assert tf.constant(1, dtype=tf.float64).numpy().dtype == np.float64
    np.testing.assert_array_equal(tf.constant(7, shape=[2, 2]).numpy(), [[7, 7], [7, 7]])
    assert tf.constant([1, 2, 3, 4], shape=[2, 2]).shape == [2, 2]
    with pytest.raises(TypeError):
        tf.constant([1, 2, 3], shape=[2, 2])
    with pytest.raises(TypeError):
        tf.constant(1.5, dtype=tf.int32)
    with pytest.raises(TypeError):
        tf.constant("text", tf.int32)


def test_constant_copies_numpy_input():
    a = np.ones(3, np.float32)
    t = tf.constant(a)
    a[0] = 5
    assert t.numpy()[0] == 1.0
    out = t.numpy()
    out[1] = 9
    assert t.numpy()[1] == 1.0


def test_convert_to_tensor():
    t = tf.constant([1.0])
    assert tf.convert_to_tensor(t) is t
    assert tf.convert_to_tensor([1, 2]).dtype is tf.int32
    assert tf.convert_to_tensor(1, dtype_hint=tf.float32).dtype is tf.float32
    assert tf.convert_to_tensor(1.5, dtype_hint=tf.int32).dtype is tf.float32
    with pytest.raises(ValueError):
        tf.convert_to_tensor(t, dtype=tf.float64)
    v = tf.Variable([1.0, 2.0])
    np.testing.assert_array_equal(tf.convert_to_tensor(v).numpy(), [1.0, 2.0])


def test_repr_and_str():
    assert repr(tf.constant(4.0)) == "<tf.Tensor: shape=(), dtype=float32, numpy=4.0>"
    assert repr(tf.constant([1, 2])) == \
        "<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>"
    assert str(tf.constant([1.0, 2.0])) == "tf.Tensor([1. 2.], shape=(2,), dtype=float32)"
    # A value that spans lines starts on a line of its own, as in TF.
    assert repr(tf.constant([[1, 2], [3, 4]])) == ("<tf.Tensor: shape=(2, 2), dtype=int32, numpy="
                                                   "\narray([[1, 2],\n       [3, 4]], "
                                                   "dtype=int32)>")
    assert str(tf.constant([[1, 2], [3, 4]])) == \
        "tf.Tensor(\n[[1 2]\n [3 4]], shape=(2, 2), dtype=int32)"


def test_python_conversions():
    t = tf.constant(2.5)
    assert float(t) == 2.5 and int(t) == 2 and bool(t) and f"{t:.1f}" == "2.5"
    assert [1, 2, 3][tf.constant(1)] == 2
    with pytest.raises(TypeError):
        [1, 2][t]
    v = tf.constant([[1, 2], [3, 4]])
    assert len(v) == 2
    with pytest.raises(TypeError):
        len(tf.constant(1.0))
    with pytest.raises(ValueError):
        bool(tf.constant([1.0, 2.0]))
    np.testing.assert_array_equal(np.asarray(v), [[1, 2], [3, 4]])
    assert np.asarray(v, dtype=np.float64).dtype == np.float64


def test_properties():
    t = tf.constant(np.zeros((2, 3), np.float64))
    assert t.shape == [2, 3] and t.ndim == 2 and t.dtype is tf.float64
    assert t.get_shape() == t.shape
    with pytest.raises(AttributeError):
        t.name


def test_tensors_are_unhashable_but_have_refs():
    t = tf.constant(1.0)
    with pytest.raises(TypeError):
        hash(t)
    refs = {t.ref(): "a"}
    assert refs[t.ref()] == "a" and t.ref().deref() is t
    assert t.ref() != tf.constant(1.0).ref()


def test_copy_and_pickle():
    t = tf.constant([1.0, 2.0])
    assert copy.copy(t) is t
    np.testing.assert_array_equal(copy.deepcopy(t).numpy(), t.numpy())
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(t)).numpy(), t.numpy())


@pytest.mark.parametrize("op, expected", [
    (lambda x, y: x + y, [4.0, 6.0]), (lambda x, y: x - y, [-2.0, -2.0]),
    (lambda x, y: x * y, [3.0, 8.0]), (lambda x, y: x / y, [1 / 3, 0.5]),
    (lambda x, y: x ** y, [1.0, 16.0]), (lambda x, y: -x, [-1.0, -2.0])])
def test_operators(op, expected):
    x, y = tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])
    np.testing.assert_allclose(op(x, y).numpy(), expected, rtol=1e-6)


def test_reflected_operators_with_python_scalars():
    x = tf.constant([1.0, 2.0])
    np.testing.assert_allclose((1 + x).numpy(), [2, 3])
    np.testing.assert_allclose((1 - x).numpy(), [0, -1])
    np.testing.assert_allclose((2 * x).numpy(), [2, 4])
    np.testing.assert_allclose((2 / x).numpy(), [2, 1])
    np.testing.assert_allclose((2 ** x).numpy(), [2, 4])
    assert (x * 2).dtype is tf.float32 and (tf.constant(2) * 3).dtype is tf.int32
    m = tf.constant([[1.0, 2.0]])
    np.testing.assert_allclose((m @ tf.constant([[1.0], [1.0]])).numpy(), [[3.0]])
    np.testing.assert_allclose((np.array([[1.0, 1.0]], np.float32) @ tf.transpose(m)).numpy(),
                               [[3.0]])


def test_numpy_operand_defers_to_tensor():
    out = np.float32(2.0) * tf.constant([1.0])
    assert isinstance(out, tf.Tensor)


def test_no_implicit_promotion():
    with pytest.raises(tf.errors.InvalidArgumentError, match="float32.*float64|AddV2"):
        tf.constant(1.0) + tf.constant(1.0, dtype=tf.float64)
    # As TF: `+` (TF's add) takes the tensor's dtype only as a hint, `*` insists on it.
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.constant(1) + 1.5
    with pytest.raises(TypeError):
        tf.constant(1) * 1.5
    with pytest.raises(TypeError):
        1.5 + tf.constant(1)
    with pytest.raises(TypeError):
        tf.multiply(tf.constant([1]), [1.5])
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.add(1, tf.constant([1.0]))  # 1 converts on its own: int32


def test_python_numbers_are_not_bools():
    with pytest.raises(TypeError):
        tf.constant(1, tf.bool)
    with pytest.raises(TypeError):
        tf.logical_and(tf.constant([True]), 1)
    assert tf.constant(np.array([2]), tf.bool).numpy().tolist() == [True]  # NumPy data: cast


def test_numpy_data_is_cast_to_the_tensors_dtype():
    # As TF: NumPy arrays and scalars are cast (truncating), Python data must fit.
    out = tf.constant([1.0]) + np.array([1.0])
    assert out.dtype == tf.float32 and out.numpy().tolist() == [2.0]
    out = tf.constant([2]) * np.array([2.5])
    assert out.dtype == tf.int32 and out.numpy().tolist() == [4]
    assert tf.multiply(np.array([2.0]), tf.constant([1.0])).dtype == tf.float32
    assert tf.constant(np.array([1.5]), tf.int32).numpy().tolist() == [1]
    assert tf.concat([np.array([1.5]), tf.constant([1])], 0).numpy().tolist() == [1, 1]
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.add_n([tf.constant([1.0]), np.array([2.0])])  # converted on its own: float64


def test_incompatible_shapes_name_op_and_shapes():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"AddV2.*\[2\].*\[3\]"):
        tf.constant([1.0, 2.0]) + tf.constant([1.0, 2.0, 3.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"MatMul.*\[2, 3\].*\[2, 3\]"):
        tf.matmul(tf.constant(np.ones((2, 3), np.float32)), tf.constant(np.ones((2, 3), np.float32)))


def test_is_tensor():
    assert tf.is_tensor(tf.constant(1)) and tf.is_tensor(tf.Variable(1.0))
    assert not tf.is_tensor(np.ones(2)) and not tf.is_tensor(1.0)


def test_integer_divide_is_true_division():
    out = tf.constant([3, 4]) / tf.constant([2, 8])
    assert out.dtype is tf.float64
    np.testing.assert_allclose(out.numpy(), [1.5, 0.5])
