"""CriticalSection: results as tensors, serialization across threads, reentry refused."""
import threading

import pytest

import tapeflow as tf


def test_results_and_reentry():
    section = tf.CriticalSection(name="counter")
    assert section.name == "counter"
    one, two = section.execute(lambda: (1, tf.constant(2.0)))
    assert int(one) == 1 and one.dtype == tf.int32 and float(two) == 2.0
    assert section.execute(lambda: None) is None
    with pytest.raises(ValueError, match="already running"):
        section.execute(lambda: section.execute(lambda: 1))
    assert int(section.execute(lambda: 5)) == 5   # the failed call released the section


def test_threads_do_not_interleave():
    section, inside, overlaps = tf.CriticalSection(), [], []

    def work():
        def body():
            overlaps.append(len(inside))
            inside.append(1)
            threading.Event().wait(0.001)
            inside.pop()
            return 0
        for _ in range(20):
            section.execute(body)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(overlaps) == 80 and max(overlaps) == 0


def test_inside_a_function():
    v = tf.Variable(1.0)
    section = tf.CriticalSection()
    assert float(tf.function(lambda: section.execute(lambda: v.assign_add(1.0)))()) == 2.0
