"""tf.compat.v1.summary: graph scalars, merge_all and FileWriter, read back by TensorBoard."""
import numpy as np
import pytest

import tapeflow as tf
import tapeflow.compat.v1 as tf1

event_accumulator = pytest.importorskip("tensorboard.backend.event_processing.event_accumulator")


def test_scalars_merge_and_file_writer(tmp_path):
    tf1.disable_eager_execution()
    tf1.reset_default_graph()
    try:
        x = tf1.placeholder(tf.float32, [])
        tf1.summary.scalar("loss", x * 2.0)
        tf1.summary.scalar("rate", tf1.constant(1), family="train")
        merged = tf1.summary.merge_all()
        with pytest.raises(ValueError, match="scalar"):
            tf1.summary.scalar("bad", tf1.ones([2]))
        sess = tf1.Session()
        with tf1.summary.FileWriter(str(tmp_path), sess.graph) as writer:
            assert writer.get_logdir() == str(tmp_path)
            for step in range(3):
                writer.add_summary(sess.run(merged, {x: float(step)}), step)
            writer.add_graph(sess.graph)
    finally:
        tf1.enable_eager_execution()
    run = event_accumulator.EventAccumulator(str(tmp_path))
    run.Reload()
    assert [e.step for e in run.Scalars("loss")] == [0, 1, 2]
    np.testing.assert_allclose([e.value for e in run.Scalars("loss")], [0.0, 2.0, 4.0])
    assert [e.value for e in run.Scalars("train/rate")] == [1.0, 1.0, 1.0]


def test_merge_all_without_summaries_is_none():
    with tf1.Graph().as_default():
        assert tf1.summary.merge_all() is None
