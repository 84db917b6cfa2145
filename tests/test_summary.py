"""tf.summary: what is written reads back with TensorBoard's own reader."""
import io
import sys

import numpy as np
import pytest

import tapeflow as tf

event_accumulator = pytest.importorskip("tensorboard.backend.event_processing.event_accumulator")
from tensorboard.util import tensor_util  # noqa: E402


def read(directory):
    accumulator = event_accumulator.EventAccumulator(str(directory),
                                                     size_guidance={"tensors": 0})
    accumulator.Reload()
    return accumulator


def test_scalars_histograms_text_and_images_read_back(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        for step in range(3):
            assert tf.summary.scalar("loss", tf.constant(1.0 / (step + 1)), step=step)
        assert tf.summary.histogram("weights", np.arange(10.0), step=1, buckets=4)
        assert tf.summary.text("note", "hello", step=0)
        picture = np.zeros((2, 3, 4, 3), "float32")
        picture[0, 0, 0] = 1.0
        assert tf.summary.image("picture", picture, step=5, max_outputs=1)
    run = read(tmp_path)
    loss = run.Tensors("loss")
    assert [e.step for e in loss] == [0, 1, 2]
    np.testing.assert_allclose([tensor_util.make_ndarray(e.tensor_proto) for e in loss],
                               [1.0, 0.5, 1.0 / 3], rtol=1e-6)
    histogram = tensor_util.make_ndarray(run.Tensors("weights")[0].tensor_proto)
    np.testing.assert_allclose(histogram, [[0, 2.25, 3], [2.25, 4.5, 2], [4.5, 6.75, 2],
                                           [6.75, 9, 3]])
    assert tensor_util.make_ndarray(run.Tensors("note")[0].tensor_proto) == b"hello"
    encoded = tensor_util.make_ndarray(run.Tensors("picture")[0].tensor_proto)
    assert list(encoded[:2]) == [b"4", b"3"] and len(encoded) == 3
    from PIL import Image
    pixels = np.asarray(Image.open(io.BytesIO(encoded[2])))
    assert pixels.shape == (3, 4, 3) and pixels[0, 0].tolist() == [255, 255, 255]
    plugins = {tag: run.SummaryMetadata(tag).plugin_data.plugin_name
               for tag in ("loss", "weights", "note", "picture")}
    assert plugins == {"loss": "scalars", "weights": "histograms", "note": "text",
                       "picture": "images"}


def test_default_step_record_if_and_no_writer(tmp_path):
    assert tf.summary.scalar("ignored", 1.0, step=0) is False     # no default writer
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default(step=7):
        assert tf.summary.should_record_summaries()
        assert tf.summary.scalar("a", 1.0)
        with tf.summary.record_if(False):
            assert not tf.summary.scalar("b", 1.0)
        with tf.summary.record_if(lambda: True):
            assert tf.summary.scalar("c", 1.0)
    with writer.as_default():
        with pytest.raises(ValueError, match="No step set"):
            tf.summary.scalar("d", 1.0)
    run = read(tmp_path)
    assert sorted(run.Tags()["tensors"]) == ["a", "c"]
    assert run.Tensors("a")[0].step == 7


def test_noop_writer_and_errors(tmp_path):
    with tf.summary.create_noop_writer().as_default(step=0):
        assert tf.summary.scalar("x", 1.0)
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default(step=0):
        with pytest.raises(ValueError, match="must be a scalar"):
            tf.summary.scalar("x", [1.0, 2.0])
        with pytest.raises(ValueError, match=r"\[k, h, w, c\]"):
            tf.summary.image("x", np.zeros((3, 4)))

        @tf.function
        def traced(x):
            tf.summary.scalar("x", x)
            return x
        with pytest.raises(NotImplementedError, match="eagerly"):
            traced(tf.constant(1.0))
    writer.close()
    with writer.as_default(step=0), pytest.raises(RuntimeError, match="closed"):
        tf.summary.scalar("x", 1.0)


def test_missing_tensorboard_names_the_extra(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "tensorboard.summary.writer.event_file_writer", None)
    with pytest.raises(ImportError, match=r"tapeflow\[tensorboard\]"):
        tf.summary.create_file_writer(str(tmp_path))
