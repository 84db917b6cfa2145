"""bfloat16 computes through the ml_dtypes package, with the values TF 2.21 gives (recorded):
elementwise ops round to bfloat16 each step; sums, means, matrix products and softmax
accumulate in float32 and round once."""
import os
import subprocess
import sys

import numpy as np
import pytest

import tapeflow as tf

ml_dtypes = pytest.importorskip("ml_dtypes")
bf16 = tf.bfloat16


def values(t) -> list:
    return np.asarray(t.numpy(), np.float32).tolist()


def test_properties_known_without_computing():
    assert (bf16.is_floating, bf16.is_integer, bf16.is_complex, bf16.size) == (True, False, False, 2)
    assert bf16.max == float.fromhex("0x1.fep127") == -bf16.min
    assert bf16.is_trainable and tf.as_dtype("bfloat16") is bf16
    assert repr(bf16) == "tf.bfloat16" and str(bf16) == "<dtype: 'bfloat16'>"
    with pytest.raises(ValueError, match="limits"):
        bf16.limits


def test_numpy_dtype_lookup_both_ways():
    assert bf16.as_numpy_dtype is ml_dtypes.bfloat16
    assert tf.as_dtype(ml_dtypes.bfloat16) is bf16
    assert tf.as_dtype(np.dtype(ml_dtypes.bfloat16)) is bf16
    array = np.array([1.5, 2.5], ml_dtypes.bfloat16)
    for t in (tf.constant(array), tf.convert_to_tensor(array)):
        assert t.dtype is bf16 and values(t) == [1.5, 2.5]


def test_constant_repr_str_and_numpy():
    x = tf.constant(1.5, bf16)
    assert repr(x) == "<tf.Tensor: shape=(), dtype=bfloat16, numpy=1.5>"
    assert str(x) == "tf.Tensor(1.5, shape=(), dtype=bfloat16)"
    assert type(x.numpy()) is ml_dtypes.bfloat16 and float(x) == 1.5
    v = tf.constant([1.5, 2.25, 3.1], bf16)
    assert repr(v) == ("<tf.Tensor: shape=(3,), dtype=bfloat16, numpy=array([1.5, 2.25, 3.09375],"
                       " dtype=dtype(bfloat16))>")
    assert str(v) == "tf.Tensor([1.5 2.25 3.09375], shape=(3,), dtype=bfloat16)"
    assert v.numpy().dtype == np.dtype(ml_dtypes.bfloat16)


def test_creation_and_cast_round_trip():
    assert values(tf.zeros([2], bf16)) == [0, 0] and tf.zeros([2], bf16).dtype is bf16
    assert values(tf.ones([2], bf16)) == [1, 1]
    assert tf.zeros_like(tf.ones([3], bf16)).dtype is bf16
    assert values(tf.fill([2], tf.constant(3.0, bf16))) == [3, 3]
    third = tf.cast(tf.constant(1 / 3), bf16)
    assert third.dtype is bf16 and float(third) == 0.333984375
    back = tf.cast(third, tf.float32)
    assert back.dtype is tf.float32 and float(back) == 0.333984375
    assert int(tf.cast(tf.constant(3.7, bf16), tf.int32)) == 3


def test_elementwise_ops_round_to_bfloat16():
    one, three = tf.constant(1.0, bf16), tf.constant(3.0, bf16)
    assert float(one / three) == float(one / 3) == 0.333984375
    assert float(tf.constant(256.0, bf16) + 1) == 256.0  # 257 is not a bfloat16
    assert values(tf.constant([1.0], bf16) * 1.1) == [1.1015625]
    assert values(tf.exp(tf.constant([1.0, 2.0], bf16))) == [2.71875, 7.375]
    assert float(tf.sqrt(tf.constant(2.0, bf16))) == 1.4140625
    assert float(tf.sin(tf.constant(1.0, bf16))) == 0.83984375
    assert float(tf.square(tf.constant(3.3, bf16))) == float(tf.constant(3.3, bf16) ** 2) == 10.875
    assert float(tf.tanh(tf.constant(0.5, bf16))) == 0.462890625
    assert float(tf.math.log(tf.constant(3.0, bf16))) == 1.1015625
    assert float(tf.abs(tf.constant(-0.3, bf16))) == 0.30078125
    assert values(tf.nn.relu(tf.constant([-1.0, 2.0], bf16))) == [0, 2]
    assert (one / three).dtype is bf16


def test_comparisons_give_bool():
    lt = tf.constant([1.0, 2.0], bf16) < 1.5
    assert lt.dtype is tf.bool and lt.numpy().tolist() == [True, False]
    assert bool(tf.equal(tf.constant(1.0, bf16), tf.constant(1.0, bf16)))
    assert int(tf.argmax(tf.constant([1.0, 3.0, 2.0], bf16))) == 1


def test_reductions_accumulate_in_float32():
    r = tf.cast(tf.range(300), bf16)
    assert float(tf.reduce_sum(r)) == 44800.0  # NumPy's bfloat16 sum: 45312
    assert float(tf.reduce_mean(r)) == 150.0
    assert float(tf.reduce_max(r)) == 300.0
    rows = tf.cast(tf.reshape(tf.range(600), [2, 300]), bf16)
    assert values(tf.reduce_sum(rows, axis=1)) == [44800, 135168]
    assert float(tf.reduce_mean(tf.constant([1.0, 2.0, 2.0], bf16))) == 1.6640625
    spread = tf.constant([1.0, 2.0, 4.0], bf16)
    assert float(tf.math.reduce_std(spread)) == 1.25
    assert float(tf.math.reduce_variance(spread)) == 1.5546875
    assert float(tf.reduce_logsumexp(spread)) == 4.1875
    assert float(tf.norm(tf.constant([3.0, 4.0], bf16))) == 5.0
    assert tf.reduce_sum(r).dtype is bf16


def test_matmul_and_softmax_accumulate_in_float32():
    ones = tf.cast(tf.fill([1, 300], 1.0), bf16)
    column = tf.cast(tf.reshape(tf.range(300), [300, 1]), bf16)
    product = tf.matmul(ones, column)
    assert product.dtype is bf16 and values(product) == [[44800.0]]
    assert values(ones @ column) == [[44800.0]]
    small = tf.constant([[1.0, 1 / 256, 1 / 256]], bf16)
    assert values(tf.matmul(small, tf.ones([3, 1], bf16))) == [[1.0078125]]
    assert values(tf.nn.softmax(tf.constant([1.0, 2.0, 3.0], bf16))) == [
        0.08984375, 0.2451171875, 0.6640625]


def test_mixing_float32_and_bfloat16_is_an_error():
    with pytest.raises(tf.errors.InvalidArgumentError, match="bfloat16.*float32"):
        tf.constant(1.0, bf16) + tf.constant(1.0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="bfloat16.*float32"):
        tf.matmul(tf.constant([[1.0]], bf16), tf.constant([[1.0]]))


def test_variables_and_gradients():
    v = tf.Variable(tf.constant([1.0, 2.0], bf16))
    assert v.dtype is bf16
    assert repr(tf.Variable(1.5, dtype=bf16)) == \
        "<tf.Variable 'Variable:0' shape=() dtype=bfloat16, numpy=1.5>"
    with tf.GradientTape() as tape:  # read variables of bfloat16 are watched: trainable
        y = tf.reduce_sum(v * v * 3.0)
    grad = tape.gradient(y, v)
    assert grad.dtype is bf16 and values(grad) == [6, 12]
    v.assign_add([0.5, 0.5])
    assert values(v) == [1.5, 2.5]
    x = tf.constant(2.0, bf16)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.sin(x) * tf.exp(x)
        z = tf.matmul(tf.reshape(x, [1, 1]), tf.constant([[3.0]], bf16))
    assert float(tape.gradient(y, x)) == 3.65625
    assert float(tape.gradient(z, x)) == 3.0


def test_gradient_through_a_cast_to_bfloat16():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.cast(x, bf16) * tf.constant(3.0, bf16))
    grad = tape.gradient(y, x)
    assert grad.dtype is tf.float32 and grad.numpy().tolist() == [3.0, 3.0]


def test_without_ml_dtypes_the_first_computation_names_the_extra(tmp_path):
    # A directory first on the path whose ml_dtypes fails to import.
    (tmp_path / "ml_dtypes.py").write_text("raise ImportError('no ml_dtypes here')\n")
    code = ("import sys, tapeflow as tf\n"
            "assert 'ml_dtypes' not in sys.modules\n"
            "assert tf.bfloat16.is_floating and tf.bfloat16.size == 2\n"
            "try:\n    tf.constant(1.5, tf.bfloat16)\n"
            "except ImportError as e:\n    print(e)\n")
    src = os.path.dirname(os.path.dirname(tf.__file__))
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{src}"},
                            check=True)
    assert "pip install 'tapeflow[bfloat16]'" in result.stdout
    assert "ml_dtypes" in result.stdout


def test_import_does_not_load_ml_dtypes():
    src = os.path.dirname(os.path.dirname(tf.__file__))
    result = subprocess.run([sys.executable, "-c", "import sys, tapeflow; "
                             "print('ml_dtypes' in sys.modules)"], capture_output=True,
                            text=True, env={**os.environ, "PYTHONPATH": src}, check=True)
    assert result.stdout.strip() == "False"


def test_function_and_forward_mode_take_bfloat16():
    x = tf.constant([1.0, 2.0], bf16)
    traced = tf.function(lambda v: tf.reduce_sum(v * v))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = traced(x)
    assert y.dtype is bf16 and float(y) == 5.0
    assert values(tape.gradient(y, x)) == [2.0, 4.0]
    with tf.autodiff.ForwardAccumulator(x, tf.ones([2], bf16)) as acc:
        z = tf.reduce_sum(x * x)
    assert float(acc.jvp(z)) == 6.0
