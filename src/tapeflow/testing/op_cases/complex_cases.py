"""Gradient-check rows for complex_ops, through the real loss of `complex_row`."""
import tapeflow as tf

from ._table import case, normal, positive
from .math_cases import complex_row, pair

for _op, _fn, _make in [("Angle", tf.math.angle, positive), ("Conj", tf.math.conj, normal),
                        ("Real", tf.math.real, normal), ("Imag", tf.math.imag, normal)]:
    case(_op, complex_row(_fn), *pair(2, 3, real_part=_make), label="complex")
case("Complex", lambda re, im: tf.math.imag(tf.complex(re, im) * tf.complex(im, re)),
     normal(2, 3), normal(3), label="broadcast")
