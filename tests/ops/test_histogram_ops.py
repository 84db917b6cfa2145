"""Fixed-width histograms: counts, bins, dtypes and errors."""
import pytest

import tapeflow as tf

VALUES = [-1.0, 0.0, 1.5, 2.0, 5.0, 15.0]


def test_histogram_counts_and_bins():
    assert tf.histogram_fixed_width(VALUES, [0.0, 5.0], nbins=5).numpy().tolist() == \
        [2, 1, 1, 0, 2]
    assert tf.histogram_fixed_width_bins(VALUES, [0.0, 5.0], nbins=5).numpy().tolist() == \
        [0, 0, 1, 2, 4, 4]
    bins = tf.histogram_fixed_width_bins([[1.0, 2.0]], [0.0, 5.0], nbins=5, dtype=tf.int64)
    assert bins.numpy().tolist() == [[1, 2]] and bins.dtype == tf.int64


def test_integer_values_and_a_function():
    counts = tf.histogram_fixed_width(tf.constant([1, 2, 3]), [0, 4], nbins=2, dtype=tf.int64)
    assert counts.numpy().tolist() == [1, 2] and counts.dtype == tf.int64
    f = tf.function(lambda v: tf.histogram_fixed_width(v, [0.0, 5.0], 5))
    assert f(tf.constant([1.0, 2.0, 7.0])).numpy().tolist() == [0, 1, 1, 0, 1]


@pytest.mark.parametrize("value_range,nbins,match", [
    ([5.0, 0.0], 5, "value_range"), ([0.0, 5.0], 0, "positive"),
    ([0.0, 1.0, 2.0], 5, r"shape \[2\]")])
def test_errors(value_range, nbins, match):
    with pytest.raises(tf.errors.InvalidArgumentError, match=match):
        tf.histogram_fixed_width([1.0], value_range, nbins=nbins)
