"""tf.train.Coordinator: stop requests, the first error re-raised by join, clean stops,
threads that outlive the grace period, and reuse after clear_stop."""
import threading

import pytest

import tapeflow as tf
import tapeflow.compat.v1 as tf1


def run(coord, *targets):
    threads = [threading.Thread(target=t, name=f"t{i}") for i, t in enumerate(targets)]
    for thread in threads:
        thread.start()
    return threads


def test_the_first_error_is_reraised_by_join_and_later_ones_ignored():
    coord = tf.train.Coordinator()
    first = threading.Event()

    def bad():
        with coord.stop_on_exception():
            raise ValueError("first")

    def worse():
        first.wait(5)
        coord.request_stop(KeyError("second"))   # after the stop: not recorded

    def loop():
        while not coord.should_stop():
            coord.wait_for_stop(0.01)
        first.set()

    threads = run(coord, bad, worse, loop)
    with pytest.raises(ValueError, match="first"):
        coord.join(threads)
    assert coord.joined and coord.should_stop()
    with pytest.raises(ValueError, match="first"):
        coord.raise_requested_exception()
    with pytest.raises(RuntimeError, match="late"):   # after join, raised where reported
        coord.request_stop(RuntimeError("late"))


def test_a_clean_stop_raises_nothing_and_clear_stop_resets():
    coord = tf1.train.Coordinator()
    assert not coord.wait_for_stop(0.01)
    coord.request_stop(tf.errors.OutOfRangeError(None, None, "end of input"))
    coord.join([])
    coord.raise_requested_exception()
    coord.clear_stop()
    assert not coord.should_stop() and not coord.joined
    custom = tf.train.Coordinator(clean_stop_exception_types=(StopIteration,))
    custom.request_stop(StopIteration())
    custom.join()


def test_threads_alive_after_the_grace_period():
    coord = tf.train.Coordinator()
    release = threading.Event()
    threads = run(coord, lambda: release.wait(5))
    coord.register_thread(threads[0])
    coord.request_stop()
    with pytest.raises(RuntimeError, match="threads still running: t0"):
        coord.join(stop_grace_period_secs=0.05)
    coord.clear_stop()
    coord.request_stop()
    coord.join(threads, stop_grace_period_secs=0.01, ignore_live_threads=True)
    release.set()
    threads[0].join()
