"""GradientBuckets on one process: which buckets start, in which order, and what
`reduced` hands out (the collectives of one worker return their input)."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.distribute.buckets import GradientBuckets
from tapeflow.distribute.collectives import LocalCommunicator


class Recording(LocalCommunicator):
    """Notes the shapes of every all-reduce started."""

    def __init__(self) -> None:
        self.started = []

    def start_all_reduce(self, arrays, op="sum", bytes_per_pack=0, places=None):
        self.started.append([a.shape for a in arrays])
        return super().start_all_reduce(arrays, op, bytes_per_pack, places)


# float32 sources of 16, 64, 8, 256 bytes and a float64 one of 16.
SHAPES = [(4,), (4, 4), (2,), (8, 8)]
SOURCES = [tf.Variable(np.ones(s, "float32")) for s in SHAPES] + [tf.Variable([1.0, 2.0],
                                                                             dtype="float64")]


@pytest.mark.parametrize("order", [[4, 3, 2, 1, 0], [0, 2, 4, 1, 3], [1, 3, 0, 4, 2]])
def test_buckets_depend_on_the_sources_not_on_the_order_they_finish(order):
    communicator = Recording()
    buckets = GradientBuckets(communicator, SOURCES, {0, 1, 2, 3, 4}, bytes_per_pack=80)
    gradients = [tf.constant(np.full(s.shape, i + 1.0, s.dtype.as_numpy_dtype))
                 for i, s in enumerate(SOURCES)]
    for i in order:
        buckets(i, gradients[i])
    # Last source first; a dtype change or the 80-byte limit closes a bucket; 256 bytes
    # alone.
    assert communicator.started == [[(2,)], [(8, 8)], [(2,), (4, 4)], [(4,)]]
    for i, g in enumerate(gradients):
        np.testing.assert_array_equal(buckets.reduced(g).numpy(), g.numpy())
        assert buckets.reduced(g) is None                     # handed out once
    assert buckets.reduced(tf.constant(1.0)) is None          # not started here


def test_unwanted_none_and_sparse_gradients_are_left_to_the_blocking_path():
    communicator = Recording()
    buckets = GradientBuckets(communicator, SOURCES, {1, 2, 3})
    sparse = tf.IndexedSlices(tf.constant([[1.0, 1.0, 1.0, 1.0]]), tf.constant([0]),
                              tf.constant([4, 4]))
    unwanted = tf.constant([1.0, 1.0, 1.0, 1.0])
    buckets(0, unwanted)
    buckets(3, None)
    buckets(1, sparse)
    assert communicator.started == []                 # the bucket waits for source 2
    buckets(2, tf.constant([5.0, 6.0]))
    assert communicator.started == [[(2,)]]
    assert buckets.reduced(sparse) is None and buckets.reduced(unwanted) is None
    buckets.settle()
