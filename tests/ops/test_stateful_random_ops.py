"""tf.random.Generator: TF's states and values, counters, resets, splits, copies, graphs,
the global generator and errors."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.framework.errors import InvalidArgumentError, UnimplementedError


def test_from_seed_draws_tfs_values_and_advances_256_blocks_per_value():
    g = tf.random.Generator.from_seed(42)
    assert g.state.dtype == tf.int64 and g.state.shape == [3] and not g.state.trainable
    np.testing.assert_array_equal(g.state.numpy(), [42, 0, 0])
    # Recorded from TensorFlow 2.21.
    np.testing.assert_array_equal(g.normal([3]).numpy(),
                                  np.float32([-0.7565803, -0.06854702, 0.07595026]))
    np.testing.assert_array_equal(g.uniform([2], dtype=tf.float64).numpy(),
                                  [0.01750527289568704, 0.6021304057964945])
    np.testing.assert_array_equal(g.state.numpy(), [42 + 256 * 5, 0, 0])
    assert g.algorithm == tf.random.Algorithm.PHILOX.value and int(g.key) == 0


def test_each_draw_continues_the_stream_and_equals_the_stateless_kernel():
    g = tf.random.Generator.from_seed(7)
    first, second = g.normal([4]).numpy(), g.normal([4]).numpy()
    assert not np.array_equal(first, second)
    g.reset_from_seed(7)
    np.testing.assert_array_equal(g.normal([4]).numpy(), first)
    g.skip(4)
    np.testing.assert_array_equal(g.normal([4]).numpy(),
                                  tf.random.Generator.from_seed(7 + 2 * 256 * 4).normal(
                                      [4]).numpy())


def test_uniform_integers_truncated_normal_and_scaling():
    g = tf.random.Generator.from_seed(3)
    ints = g.uniform([2000], 5, 9, dtype=tf.int64)
    assert ints.dtype == tf.int64 and set(ints.numpy().tolist()) == {5, 6, 7, 8}
    assert g.uniform_full_int([3], tf.int32).dtype == tf.int32
    assert g.uniform([2], None, None, dtype=tf.int64).dtype == tf.int64
    t = g.truncated_normal([1000], 1.0, 0.5).numpy()
    assert t.min() > 0.0 and t.max() < 2.0
    x = g.uniform([1000], -2.0, 3.0).numpy()
    assert x.min() >= -2.0 and x.max() < 3.0
    mean = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(mean)
        y = tf.reduce_sum(g.normal([3], mean))
    assert float(tape.gradient(y, mean)) == 3.0


def test_binomial_shape_and_mean():
    g = tf.random.Generator.from_seed(5)
    b = g.binomial([4000, 2], [10.0, 20.0], [0.5, 0.25])
    assert b.dtype == tf.int32 and b.shape == [4000, 2]
    np.testing.assert_allclose(b.numpy().mean(axis=0), [5.0, 5.0], rtol=0.05)


def test_split_make_seeds_copy_and_key_counter():
    g = tf.random.Generator.from_seed(1)
    children = g.split(3)
    assert len(children) == 3
    assert all(list(c.state.numpy()[:2]) == [0, 0] for c in children)
    assert len({int(c.key) for c in children}) == 3
    seeds = g.make_seeds(4)
    assert seeds.shape == [2, 4] and seeds.dtype == tf.int64 and not seeds.numpy()[1].any()
    copy = tf.random.Generator(copy_from=g)
    np.testing.assert_array_equal(copy.normal([3]).numpy(), g.normal([3]).numpy())
    from_kc = tf.random.Generator.from_key_counter(5, [1, 2], "philox")
    np.testing.assert_array_equal(from_kc.state.numpy(), [1, 2, 5])
    from_kc.reset_from_key_counter(9, [3, 4])
    np.testing.assert_array_equal(from_kc.state.numpy(), [3, 4, 9])
    variable = tf.Variable(np.array([1, 2, 3], np.int64))
    assert tf.random.Generator(state=variable, alg="philox").state is variable


def test_create_rng_state_cuts_and_pads():
    np.testing.assert_array_equal(tf.random.create_rng_state(2 ** 64 + 3, "philox").numpy(),
                                  [3, 1, 0])
    np.testing.assert_array_equal(tf.random.create_rng_state(-1, 1).numpy(), [-1, -1, -1])
    np.testing.assert_array_equal(tf.random.create_rng_state([7, 8], "philox").numpy(),
                                  [0, 7, 8])
    np.testing.assert_array_equal(
        tf.random.create_rng_state([1, 2, 3, 4], tf.random.Algorithm.PHILOX).numpy(), [1, 2, 3])
    np.testing.assert_array_equal(tf.random.create_rng_state(5, "threefry").numpy(), [5, 0])


def test_draws_inside_a_function_advance_the_state():
    g = tf.random.Generator.from_seed(11)
    reference = tf.random.Generator.from_seed(11)
    draw = tf.function(lambda: (g.normal([2]), g.normal([2])))
    for _ in range(2):
        a, b = draw()
        np.testing.assert_array_equal(a.numpy(), reference.normal([2]).numpy())
        np.testing.assert_array_equal(b.numpy(), reference.normal([2]).numpy())
    np.testing.assert_array_equal(g.state.numpy(), reference.state.numpy())


def test_a_checkpoint_saves_and_restores_the_state(tmp_path):
    g = tf.random.Generator.from_seed(3)
    checkpoint = tf.train.Checkpoint(generator=g)
    path = checkpoint.save(str(tmp_path / "generator"))
    first = g.normal([2]).numpy()
    checkpoint.restore(path)
    np.testing.assert_array_equal(g.normal([2]).numpy(), first)
    holder = tf.Module()
    holder.generator = g
    assert len(holder.variables) == 0  # not a Module, as in TF


def test_global_generator_can_be_replaced():
    previous = tf.random.get_global_generator()
    assert tf.random.get_global_generator() is previous
    try:
        mine = tf.random.Generator.from_seed(2)
        tf.random.set_global_generator(mine)
        assert tf.random.experimental.get_global_generator() is mine
    finally:
        tf.random.set_global_generator(previous)
    other = tf.random.Generator.from_non_deterministic_state()
    assert not np.array_equal(other.state.numpy(), previous.state.numpy())
    with pytest.raises(TypeError):
        tf.random.set_global_generator(3)
    assert tf.random.get_global_generator() is previous


@pytest.mark.parametrize("call,error", [
    (lambda: tf.random.Generator.from_state([1, 2], "philox"), ValueError),
    (lambda: tf.random.Generator.from_seed(1, "threefry").normal([2]), UnimplementedError),
    (lambda: tf.random.Generator.from_seed(1, "nope"), ValueError),
    (lambda: tf.random.Generator.from_seed(1).uniform([2], dtype=tf.int32), ValueError),
    (lambda: tf.random.Generator.from_seed(1).uniform([2], 3, 3, dtype=tf.int32),
     InvalidArgumentError),
    (lambda: tf.random.Generator.from_seed(1).normal([2], dtype=tf.int32), TypeError),
    (lambda: tf.random.Generator.from_seed(1).binomial([3], [10.0], [0.5]),
     InvalidArgumentError),
    (lambda: tf.random.Generator(), ValueError),
])
def test_errors_leave_the_state_unchanged(call, error):
    with pytest.raises(error):
        call()
    g = tf.random.Generator.from_seed(1)
    for bad in (lambda: g.uniform([2], dtype=tf.int32), lambda: g.normal([2], dtype=tf.int32),
                lambda: g.binomial([3], [10.0], [0.5])):
        with pytest.raises((ValueError, TypeError, InvalidArgumentError)):
            bad()
    np.testing.assert_array_equal(g.state.numpy(), [1, 0, 0])
