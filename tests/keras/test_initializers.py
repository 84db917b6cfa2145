"""keras.initializers: Keras's formulas, seeding, dtypes and lookup by name."""
import math

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.keras import initializers
from tapeflow.keras.initializers import compute_fans

K = tf.keras.initializers


def test_fans_of_dense_and_conv_kernels():
    assert compute_fans(()) == (1, 1)
    assert compute_fans((5,)) == (5, 5)
    assert compute_fans((4, 3)) == (4, 3)
    assert compute_fans((3, 3, 2, 8)) == (18, 72)      # receptive field 9
    assert compute_fans((4, 2, 5), [0, 1], [2]) == (8, 5)   # an EinsumDense kernel's axes
    assert compute_fans((4, 2, 5), [0], None) == (8, 20)    # both or neither
    init = K.HeUniform(seed=1, input_axes=[0, 1], output_axes=[2])
    assert np.abs(init((4, 2, 5)).numpy()).max() <= math.sqrt(6 / 8)
    assert init.get_config() == {"seed": 1, "input_axes": [0, 1], "output_axes": [2]}


@pytest.mark.parametrize("cls, limit", [
    (K.GlorotUniform, math.sqrt(6 / (200 + 300))),
    (K.HeUniform, math.sqrt(6 / 200)),
    (K.LecunUniform, math.sqrt(3 / 200)),
])
def test_uniform_variance_scaling_bounds_and_variance(cls, limit):
    x = cls(seed=1)((200, 300)).numpy()
    assert x.dtype == np.float32 and x.shape == (200, 300)
    assert np.abs(x).max() <= limit
    assert np.abs(x).max() > 0.99 * limit
    assert np.isclose(x.var(), limit ** 2 / 3, rtol=0.03)


@pytest.mark.parametrize("cls, variance", [
    (K.GlorotNormal, 2 / (200 + 300)),
    (K.HeNormal, 2 / 200),
    (K.LecunNormal, 1 / 200),
])
def test_truncated_normal_variance_scaling(cls, variance):
    x = cls(seed=2)((200, 300)).numpy()
    stddev = math.sqrt(variance) / 0.87962566103423978   # before truncation
    assert np.abs(x).max() <= 2 * stddev
    # Truncating a normal at 2 sigma scales its variance by 0.8796**2: the target returns.
    assert np.isclose(x.var(), variance, rtol=0.03)


def test_variance_scaling_modes_and_bad_arguments():
    x = K.VarianceScaling(scale=3.0, mode="fan_out", distribution="untruncated_normal",
                          seed=0)((500, 400)).numpy()
    assert np.isclose(x.std(), math.sqrt(3.0 / 400), rtol=0.03)
    with pytest.raises(ValueError, match="scale"):
        K.VarianceScaling(scale=0.0)
    with pytest.raises(ValueError, match="mode"):
        K.VarianceScaling(mode="fan_sideways")
    with pytest.raises(ValueError, match="distribution"):
        K.VarianceScaling(distribution="cauchy")


def test_random_normal_uniform_truncated_defaults():
    normal = K.RandomNormal(seed=0)((100000,)).numpy()
    assert abs(normal.mean()) < 0.002 and np.isclose(normal.std(), 0.05, rtol=0.02)
    uniform = K.RandomUniform(seed=0)((100000,)).numpy()
    assert uniform.min() >= -0.05 and uniform.max() < 0.05
    truncated = K.TruncatedNormal(mean=1.0, stddev=0.1, seed=0)((100000,)).numpy()
    assert np.abs(truncated - 1.0).max() <= 0.2


def test_seeded_initializers_repeat_and_unseeded_ones_follow_the_session_seed():
    a, b = K.GlorotUniform(seed=7)((3, 4)), K.GlorotUniform(seed=7)((3, 4))
    assert np.array_equal(a.numpy(), b.numpy())
    init = K.GlorotUniform(seed=7)
    assert np.array_equal(init((3, 4)).numpy(), init((3, 4)).numpy())   # as Keras 2
    tf.keras.utils.set_random_seed(3)
    first = [K.HeNormal()((2, 2)).numpy() for _ in range(2)]
    assert not np.array_equal(first[0], first[1])
    tf.keras.utils.set_random_seed(3)
    again = [K.HeNormal()((2, 2)).numpy() for _ in range(2)]
    assert all(np.array_equal(x, y) for x, y in zip(first, again))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_an_int_seed_draws_keras_stream_tfs_stateless_ops_seeded_seed_0(dtype):
    # Keras 3 draws GlorotUniform(seed=s) as stateless_uniform(seed=[s, 0]) within bounds
    # made float32 first; the truncated and plain normals with the scale as given.
    limit = np.float32(math.sqrt(6.0 / (3 + 4)))
    want = tf.random.stateless_uniform((3, 4), seed=[5, 0], minval=np.asarray(-limit, dtype),
                                       maxval=np.asarray(limit, dtype), dtype=dtype)
    got = K.GlorotUniform(seed=5)((3, 4), dtype=dtype)
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    want = tf.random.stateless_truncated_normal((4, 3), seed=[9, 0], stddev=math.sqrt(
        2.0 / 4) / 0.87962566103423978, dtype=dtype)
    np.testing.assert_array_equal(K.HeNormal(seed=9)((4, 3), dtype=dtype).numpy(),
                                  want.numpy())
    want = tf.random.stateless_normal((2, 5), seed=[2 ** 40 % (2 ** 31 - 2), 0], mean=1.0,
                                      stddev=0.5, dtype=dtype)
    np.testing.assert_array_equal(K.RandomNormal(1.0, 0.5, seed=2 ** 40)((2, 5), dtype=dtype)
                                  .numpy(), want.numpy())
    q = K.Orthogonal(seed=1)((4, 6), dtype=dtype).numpy()
    assert q.dtype == dtype and np.allclose(q @ q.T, np.eye(4), atol=1e-5)


def test_constant_zeros_ones_and_dtypes():
    assert K.Constant(2.5)((2,), dtype="float64").numpy().tolist() == [2.5, 2.5]
    assert K.Zeros()((2, 1), dtype=tf.int64).numpy().dtype == np.int64
    assert K.Ones()(tf.TensorShape([3])).numpy().tolist() == [1.0, 1.0, 1.0]
    assert K.GlorotUniform(seed=0)((2, 2), dtype="float64").dtype == tf.float64
    with pytest.raises(ValueError, match="floating point"):
        K.GlorotUniform()((2, 2), dtype="int32")


def test_get_by_name_config_and_callable():
    assert isinstance(initializers.get("glorot_uniform"), K.GlorotUniform)
    assert isinstance(initializers.get("HeNormal"), K.HeNormal)
    assert isinstance(initializers.get("uniform"), K.RandomUniform)
    restored = initializers.get(initializers.serialize(K.RandomNormal(stddev=3.0, seed=4)))
    assert (restored.stddev, restored.seed) == (3.0, 4)
    fn = lambda shape, dtype=None: tf.constant(1.0, shape=shape)  # noqa: E731
    assert initializers.get(fn) is fn
    assert initializers.get(None) is None
    with pytest.raises(ValueError, match="Unknown initializer"):
        initializers.get("glorot_uniformm")
    assert K.glorot_uniform is K.GlorotUniform
