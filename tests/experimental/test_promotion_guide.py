"""The cells of TF's tf_numpy_type_promotion guide give TF 2.21's results (recorded from TF:
the repr of each cell's last expression, or the class it raised)."""
import numpy as np
import pytest

import tapeflow as tf

# (dtype-conversion mode, the cell's code, what TF 2.21 gives for its last line)
CELLS = [
    ('all', 'a = tf.constant(10, dtype=tf.int32)\nb = tf.constant(5.0, dtype=tf.float32)\na + b',
     '<tf.Tensor: shape=(), dtype=float32, numpy=15.0>'),
    ('safe', 'a = tf.constant(10, dtype=tf.int32)\nb = tf.constant(5.0, dtype=tf.float32)\na + b',
     'raised TypeError'),
    ('all', 'a = tf.constant(10, dtype=tf.int8)\nb = tf.constant(5, dtype=tf.uint32)\na + b',
     '<tf.Tensor: shape=(), dtype=int64, numpy=15>'),
    ('safe', 'a = tf.constant(10, dtype=tf.int8)\nb = tf.constant(5, dtype=tf.uint32)\na + b',
     'raised TypeError'),
    ('all', 'tf.constant(1, tf.int64) + tf.constant(3.2, tf.float16)',
     '<tf.Tensor: shape=(), dtype=float16, numpy=4.19921875>'),
    ('all', 'tf.constant(1.2) + tf.constant(3.1, tf.float16)',
     '<tf.Tensor: shape=(), dtype=float16, numpy=4.30078125>'),
    ('all', 'tf.constant(5)',
     '<tf.Tensor: shape=(), dtype=int32, numpy=5, weak=True>'),
    ('all', 'tf.constant([5.0, 10.0, 3])',
     '<tf.Tensor: shape=(3,), dtype=float32, numpy=array([ 5., 10.,  3.], dtype=float32), weak=True>'),
    ('all', 'tf.constant(5, tf.int32)',
     '<tf.Tensor: shape=(), dtype=int32, numpy=5>'),
    ('all', 'tf.math.abs([100.0, 4.0])',
     '<tf.Tensor: shape=(2,), dtype=float32, numpy=array([100.,   4.], dtype=float32), weak=True>'),
    ('legacy', 'a = np.array(1, dtype=np.int8)\nb = tf.constant(1)\nc = np.array(1, dtype=np.float16)\ntf.add(tf.add(a, b), c)',
     'raised InvalidArgumentError'),
    ('legacy', 'a = np.array(1, dtype=np.int8)\nb = tf.constant(1)\nc = np.array(1, dtype=np.float16)\ntf.add(tf.add(b, a), c)',
     '<tf.Tensor: shape=(), dtype=int32, numpy=3>'),
    ('all', 'a = np.array(1, dtype=np.int8)\nb = tf.constant(1)\nc = np.array(1, dtype=np.float16)\ntf.add(tf.add(a, b), c)',
     '<tf.Tensor: shape=(), dtype=float16, numpy=3.0>'),
    ('all', 'a = np.array(1, dtype=np.int8)\nb = tf.constant(1)\nc = np.array(1, dtype=np.float16)\ntf.add(tf.add(b, a), c)',
     '<tf.Tensor: shape=(), dtype=float16, numpy=3.0>'),
    ('legacy', 'np.array(3.2, np.float16) + tf.constant(1, tf.int8) + tf.constant(50)',
     '<tf.Tensor: shape=(), dtype=float64, numpy=54.19921875>'),
    ('all', 'np.array(3.2, np.float16) + tf.constant(1, tf.int8) + tf.constant(50)',
     '<tf.Tensor: shape=(), dtype=float16, numpy=54.1875>'),
    ('all', '-tf.constant(5)',
     '<tf.Tensor: shape=(), dtype=int32, numpy=-5, weak=True>'),
    ('all', 'tf.constant(5, tf.int16) - tf.constant(1, tf.float32)',
     '<tf.Tensor: shape=(), dtype=float32, numpy=4.0>'),
    ('all', 'a = tf.Variable(10, tf.int32)\na.assign_add(tf.constant(5, tf.int16))\na.numpy()',
     'np.int32(15)'),
    ('all', 'a = tf.constant(10, tf.int16)\ntf.constant(a, tf.float32)',
     '<tf.Tensor: shape=(), dtype=float32, numpy=10.0>'),
    ('all', 'tnp.array(1)',
     '<tf.Tensor: shape=(), dtype=int32, numpy=1, weak=True>'),
    ('all', 'tnp.array(1.0)',
     '<tf.Tensor: shape=(), dtype=float32, numpy=1.0, weak=True>'),
]


@pytest.mark.parametrize("mode,source,expected", CELLS)
def test_guide_cell(numpy_behavior, mode, source, expected):
    with numpy_behavior(dtype_conversion_mode=mode):
        *body, last = source.split("\n")
        scope = {"tf": tf, "tnp": tf.experimental.numpy, "np": np}
        try:
            exec("\n".join(body), scope)  # noqa: S102  (the guide's cell)
            result = repr(eval(last, scope))  # noqa: S307
        except Exception as e:  # noqa: BLE001  (the class is what is compared)
            result = f"raised {type(e).__name__}"
        assert result == expected
