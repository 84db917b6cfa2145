"""Learning-rate schedules against their formulas."""
import math

import pytest

import tapeflow as tf

S = tf.keras.optimizers.schedules


def test_exponential_and_inverse_time_decay():
    smooth = S.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5)
    stairs = S.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5, staircase=True)
    assert float(smooth(15)) == pytest.approx(0.1 * 0.5 ** 1.5)
    assert float(stairs(15)) == pytest.approx(0.05)
    assert smooth(0).dtype == tf.float32
    inverse = S.InverseTimeDecay(1.0, decay_steps=2, decay_rate=0.5, staircase=True)
    assert float(inverse(5)) == pytest.approx(1.0 / (1 + 0.5 * 2))
    with pytest.raises(ValueError, match="decay_steps"):
        S.ExponentialDecay(0.1, 0, 0.5)


def test_piecewise_polynomial_and_cosine():
    piecewise = S.PiecewiseConstantDecay([10, 20], [1.0, 0.5, 0.1])
    assert [float(piecewise(s)) for s in (0, 10, 11, 20, 21)] == \
        pytest.approx([1.0, 1.0, 0.5, 0.5, 0.1])
    with pytest.raises(ValueError, match="1 less than"):
        S.PiecewiseConstantDecay([10], [1.0])
    poly = S.PolynomialDecay(1.0, 10, end_learning_rate=0.0, power=2.0)
    assert float(poly(5)) == pytest.approx(0.25)
    cyclic = S.PolynomialDecay(1.0, 10, end_learning_rate=0.0, cycle=True)
    assert float(cyclic(15)) == pytest.approx(0.25)          # decay_steps stretched to 20
    cosine = S.CosineDecay(1.0, 10, alpha=0.1)
    assert float(cosine(5)) == pytest.approx(0.9 * 0.5 * (1 + math.cos(math.pi / 2)) + 0.1)
    assert float(cosine(100)) == pytest.approx(0.1)
    assert S.CosineDecay.from_config(cosine.get_config()).alpha == 0.1
