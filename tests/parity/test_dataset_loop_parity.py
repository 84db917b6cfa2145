"""Loops over tf.data datasets inside tf.function give TF's values: each case is `fn(tf)`
returning a list of results of calling a tf.function (twice, to see a fresh iteration per
call), written once and run with tapeflow and with TensorFlow."""
import numpy as np
import pytest

import tapeflow

pytestmark = pytest.mark.parity

FEATURES = np.linspace(-1.0, 1.0, 14, dtype=np.float32).reshape(7, 2)
TARGETS = (FEATURES @ np.array([[2.0], [-1.0]], np.float32) + 0.5).astype(np.float32)


def training_epochs(tf):
    dataset = tf.data.Dataset.from_tensor_slices((FEATURES, TARGETS)).batch(3)  # 3, 3, 1
    model = tf.keras.Sequential([
        tf.keras.Input((2,)),
        tf.keras.layers.Dense(3, activation="tanh",
                              kernel_initializer=tf.keras.initializers.Constant(0.3)),
        tf.keras.layers.Dense(1, kernel_initializer=tf.keras.initializers.Constant(-0.2))])
    optimizer = tf.keras.optimizers.SGD(0.1)

    @tf.function
    def train_epoch(ds):
        total = tf.constant(0.0)
        for x, y in ds:
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((model(x) - y) ** 2)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            total += loss
        return total

    losses = [train_epoch(dataset) for _ in range(2)]
    return losses + [w for w in model.trainable_variables]


def pipeline_sums(tf):
    dataset = (tf.data.Dataset.from_tensor_slices({"a": np.arange(10), "b": np.arange(10.0)})
               .map(lambda e: {"a": e["a"] * 2, "b": e["b"] + 1.0})
               .filter(lambda e: e["a"] % 3 != 0)
               .batch(4))

    @tf.function
    def sums(ds):
        a = tf.constant(0, tf.int64)
        b = tf.constant(0.0, tf.float64)
        rows = tf.constant(0)
        for i, e in enumerate(ds):
            a += tf.reduce_sum(e["a"]) * (i + 1)
            b += tf.reduce_sum(e["b"] * e["b"])
            rows += tf.shape(e["a"])[0]
        return a, b, rows

    return list(sums(dataset)) + list(sums(dataset))


def break_in_an_infinite_dataset(tf):
    dataset = tf.data.Dataset.range(1, 6).repeat()

    @tf.function
    def until(ds, limit):
        total = tf.constant(0, tf.int64)
        steps = tf.constant(0)
        for x in ds:
            if total + x > limit:
                break
            total += x
            steps += 1
        return total, steps

    return list(until(dataset, tf.constant(40, tf.int64))) + \
        list(until(dataset, tf.constant(7, tf.int64)))


def iterator_and_next(tf):
    dataset = tf.data.Dataset.range(3, 9).batch(2)

    @tf.function
    def head_and_rest(ds):
        it = iter(ds)
        head = next(it)
        rest = tf.zeros([2], tf.int64)
        for x in it:
            rest += x
        return head, rest

    return list(head_and_rest(dataset)) + list(head_and_rest(dataset))


CASES = [training_epochs, pipeline_sums, break_in_an_infinite_dataset, iterator_and_next]


@pytest.mark.parametrize("case", CASES, ids=[c.__name__ for c in CASES])
def test_values_match(case, tensorflow):
    ours = [np.asarray(v) for v in case(tapeflow)]
    theirs = [np.asarray(v) for v in case(tensorflow)]
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=2e-6, atol=1e-6)
