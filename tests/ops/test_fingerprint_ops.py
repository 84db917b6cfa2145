"""fingerprint: FarmHash Fingerprint64 of each row, at every length branch of the hash."""
import numpy as np
import pytest

import tapeflow as tf

# Fingerprint64 of bytes(range(n)), as little-endian integers (FarmHash's reference values,
# which TF's fingerprint gives too).
KNOWN = {0: 11160318154034397263, 3: 10709908609026466970, 5: 13024315463276085577,
         12: 11517357035142004093, 20: 10220892904819695849, 40: 645241335607543436,
         100: 4395248839964844437, 200: 525935771297148851}


@pytest.mark.parametrize("length", sorted(KNOWN))
def test_known_values(length):
    out = tf.fingerprint(np.arange(length, dtype=np.uint8)[None])
    assert out.dtype == tf.uint8 and out.shape == (1, 8)
    assert int.from_bytes(bytes(out.numpy()[0].tolist()), "little") == KNOWN[length]


def test_rows_shapes_and_errors():
    rows = tf.fingerprint(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    assert rows.numpy().tolist() == [[223, 178, 164, 36, 10, 49, 237, 154],
                                     [174, 215, 15, 51, 84, 145, 74, 9]]
    assert tf.fingerprint(tf.zeros([0, 3])).shape == (0, 8)
    with pytest.raises(tf.errors.InvalidArgumentError, match="at least one dimension"):
        tf.fingerprint(1.0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="md5"):
        tf.fingerprint([[1.0]], method="md5")
