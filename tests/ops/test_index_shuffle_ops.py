"""index_shuffle and random_index_shuffle: bijections for every block size, batches of
seeds, TF's padding of a stateless seed (TF's values are in test_stateless_random_ops.py)."""
import pytest

import tapeflow as tf
from tapeflow.framework.errors import InvalidArgumentError


def test_index_shuffle_is_a_bijection_and_batches():
    for top in (0, 1, 9, 1000, 70000):
        got = tf.random.experimental.index_shuffle(tf.range(top + 1, dtype=tf.int64), [3, 4],
                                                   top).numpy()
        assert sorted(got.tolist()) == list(range(top + 1))
    seeds = tf.constant([[498247692, 1, 2], [498247692, 3, 4]])
    batch = tf.random_index_shuffle([0, 0], seeds, 9).numpy()
    assert batch.tolist() == [int(tf.random.experimental.index_shuffle(0, [1, 2], 9)),
                              int(tf.random.experimental.index_shuffle(0, [3, 4], 9))]
    with pytest.raises(InvalidArgumentError):  # TF pads a batch of seeds with a row
        tf.random.experimental.index_shuffle([0, 0], [[1, 2], [3, 4]], 9)
