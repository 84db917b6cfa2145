"""Thread safety as promised: tapes are per thread, tf.function traces once however many
threads make the first call, and one apply_gradients is never half-seen by another."""
import sys
import threading

import numpy as np
import pytest

import tapeflow as tf

THREADS = 8


def run_together(work, count: int = THREADS) -> list:
    """Runs work(i) on `count` threads released at once; returns their results in order
    (re-raising the first exception a thread met)."""
    barrier = threading.Barrier(count)
    results, errors = [None] * count, []

    def body(i):
        try:
            barrier.wait()
            results[i] = work(i)
        except BaseException as e:  # noqa: BLE001  (handed to the main thread)
            errors.append(e)
    threads = [threading.Thread(target=body, args=(i,)) for i in range(count)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible, to provoke races
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    if errors:
        raise errors[0]
    return results


def test_eight_threads_running_tapes_get_their_own_gradients():
    shared = tf.Variable([1.0, 2.0])

    def work(i):
        found = []
        for step in range(60):
            x = tf.constant([float(i), float(step)])
            with tf.GradientTape(persistent=step % 2 == 0) as tape:
                tape.watch(x)
                y = tf.reduce_sum(x * x * shared)
                with tape.stop_recording():
                    tf.sin(x)
            dx, dw = tape.gradient(y, [x, shared])
            found.append((dx.numpy(), dw.numpy(), x.numpy()))
        return found
    for found in run_together(work):
        for dx, dw, x in found:
            np.testing.assert_array_equal(dx, 2 * x * np.array([1.0, 2.0], "float32"))
            np.testing.assert_array_equal(dw, x * x)


@pytest.mark.parametrize("attempt", range(5))
def test_first_calls_from_eight_threads_trace_once(attempt):
    traces = []

    @tf.function
    def f(x):
        traces.append(1)
        return tf.reduce_sum(x * x)
    results = run_together(lambda i: float(f(tf.constant([float(i), 1.0]))))
    assert results == [i * i + 1.0 for i in range(THREADS)]
    assert len(traces) == 1


@pytest.mark.parametrize("attempt", range(3))
def test_first_calls_creating_variables_from_eight_threads(attempt):
    class Model(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = None

        @tf.function
        def __call__(self, x):
            if self.w is None:
                self.w = tf.Variable(2.0)
            return x * self.w
    model = Model()
    results = run_together(lambda i: float(model(tf.constant(float(i)))))
    assert results == [2.0 * i for i in range(THREADS)]


def test_optimizers_on_shared_variables_lose_no_update():
    for make in (lambda: tf.keras.optimizers.SGD(learning_rate=1.0),
                 lambda: tf.keras.optimizers.SGD(learning_rate=1.0, momentum=0.5),
                 lambda: tf.keras.optimizers.Adam(learning_rate=0.1)):
        w = tf.Variable(np.zeros(64, "float32"))
        optimizer = make()
        steps = 50
        run_together(lambda i: [optimizer.apply_gradients([(tf.ones([64]), w)])
                                for _ in range(steps)])
        assert int(optimizer.iterations) == THREADS * steps
        reference = tf.Variable(np.zeros(64, "float32"))
        serial = make()
        for _ in range(THREADS * steps):
            serial.apply_gradients([(tf.ones([64]), reference)])
        np.testing.assert_allclose(w.numpy(), reference.numpy(), rtol=1e-6)
        assert np.all(w.numpy() == w.numpy()[0])


def test_assign_add_from_eight_threads_loses_nothing():
    v = tf.Variable(0)
    run_together(lambda i: [v.assign_add(1) for _ in range(500)])
    assert int(v) == THREADS * 500
