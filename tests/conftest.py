"""Helpers shared by the tests of every package."""
import pytest

import tapeflow as tf
from tapeflow.framework import registry


def _derivatives(f, x, order: int) -> list:
    if order == 0:
        return [f(x)]
    with tf.GradientTape() as tape:
        tape.watch(x)
        lower = _derivatives(f, x, order - 1)
    return lower + [tape.gradient(lower[-1], x)]


@pytest.fixture
def derivatives():
    """`derivatives(f, x, order)`: [f(x), f'(x), ...] up to `order`, as floats, by nested
    GradientTapes (each one records the derivative below it)."""
    return lambda f, x, order: [float(d) for d in _derivatives(f, x, order)]


def _second_order(model, x) -> tuple:
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = model(x)
        g = inner.gradient(y, x)
        s = tf.reduce_sum(g * g)
    return y, g, outer.gradient(s, x)


@pytest.fixture
def second_order():
    """`second_order(model, x)`: model(x), its gradient g and the gradient of sum(g * g),
    by nested GradientTapes (eagerly, or inside a tf.function)."""
    return _second_order


@pytest.fixture
def temporary_op():
    """`temporary_op(name, kernel, **kwargs)`: `define_op` for one test; the op, with the rules
    registered for it, leaves the registry when the test ends."""
    names = []

    def define(name, kernel, **kwargs):
        names.append(name)
        return registry.define_op(name, kernel, **kwargs)
    yield define
    for name in names:
        del registry._OPS[name]
