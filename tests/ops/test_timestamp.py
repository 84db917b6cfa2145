"""tf.timestamp reads the clock when it runs; get_logger is tapeflow's logger."""
import time

import tapeflow as tf


def test_timestamp_runs_at_each_call_of_a_function():
    now = tf.function(lambda: tf.timestamp())
    first = float(now())
    time.sleep(0.01)
    assert float(now()) > first and now().dtype == tf.float64
    assert abs(float(tf.timestamp()) - time.time()) < 60


def test_get_logger():
    assert tf.get_logger().name == "tapeflow"
