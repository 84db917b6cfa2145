"""Gradient-check rows for special_ops (erf, erfc, lgamma, digamma, polygamma)."""
import numpy as np

import tapeflow as tf

from ._table import case, normal, positive, uniform

for _op, _fn, _make in [("Erf", tf.math.erf, normal), ("Erfc", tf.math.erfc, normal),
                        ("Lgamma", tf.math.lgamma, positive),
                        ("Digamma", tf.math.digamma, positive)]:
    case(_op, _fn, _make(2, 3))
    case(_op, _fn, _make(), label="scalar")
case("Lgamma", tf.math.lgamma, uniform(-2.9, -2.1, 3), label="negative")
case("Digamma", tf.math.digamma, uniform(-2.9, -2.1, 3), label="negative")
case("Polygamma", lambda x: tf.math.polygamma(np.array([0.0, 1.0, 2.0]), x), positive(3))
case("Polygamma", lambda x: tf.math.polygamma(np.array([[1.0], [2.0]]), x), positive(1, 3),
     label="broadcast")
