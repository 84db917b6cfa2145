"""tf.experimental's type-based dispatch: registering implementations of public ops for
other types, the elementwise forms, and unregistering (behaviour and errors as TF 2.21's)."""
import typing

import pytest

import tapeflow as tf


class Box:
    def __init__(self, v):
        self.v = v


@pytest.fixture
def registered():
    targets = []
    yield targets
    for target in targets:
        tf.experimental.unregister_dispatch_for(target)


def test_dispatch_for_api_with_a_signature(registered):
    @tf.experimental.dispatch_for_api(tf.math.add, {"x": Box, "y": Box})
    def box_add(x, y, name=None):
        return Box(x.v + y.v)
    registered.append(box_add)
    assert int(tf.math.add(Box(tf.constant(1)), Box(tf.constant(2))).v) == 3
    assert int(tf.add(Box(tf.constant(1)), Box(tf.constant(2))).v) == 3
    with pytest.raises(ValueError, match="unsupported type"):
        tf.math.add(Box(tf.constant(1)), tf.constant(2))  # the signature does not match


def test_dispatch_for_api_with_annotations_and_lists(registered):
    @tf.experimental.dispatch_for_api(tf.concat)
    def box_concat(values: typing.List[Box], axis, name="concat"):
        return Box(tf.concat([b.v for b in values], axis))
    registered.append(box_concat)
    out = tf.concat([Box(tf.constant([1])), Box(tf.constant([2]))], 0)
    assert out.v.numpy().tolist() == [1, 2]


def test_elementwise_dispatch_and_unregister():
    @tf.experimental.dispatch_for_unary_elementwise_apis(Box)
    def box_unary(api_func, x):
        return Box(api_func(x.v))

    @tf.experimental.dispatch_for_binary_elementwise_apis(Box, typing.Union[Box, tf.Tensor])
    def box_binary(api_func, x, y):
        return Box(api_func(x.v, y if isinstance(y, tf.Tensor) else y.v))

    assert int(tf.abs(Box(tf.constant(-1))).v) == 1
    assert int(tf.math.negative(Box(tf.constant(3))).v) == -3
    assert float(tf.cast(Box(tf.constant(3)), tf.float32).v) == 3.0
    assert int(tf.multiply(Box(tf.constant(2)), tf.constant(3)).v) == 6
    assert tf.experimental.unregister_dispatch_for(box_unary) is None
    tf.experimental.unregister_dispatch_for(box_binary)
    with pytest.raises(ValueError, match="unsupported type"):
        tf.abs(Box(tf.constant(-1)))
    with pytest.raises(ValueError, match="was not registered"):
        tf.experimental.unregister_dispatch_for(box_unary)


def test_registration_errors():
    with pytest.raises(ValueError, match="unknown parameter 'z'"):
        tf.experimental.dispatch_for_api(tf.math.add, {"z": Box})(lambda x, y, name=None: x)
    with pytest.raises(ValueError, match="does not match API's signature"):
        @tf.experimental.dispatch_for_api(tf.math.add, {"x": Box})
        def wrong(a, b):
            return a
    with pytest.raises(ValueError, match="does not support dispatch"):
        tf.experimental.dispatch_for_api(lambda x: x, {"x": Box})


def test_plain_tensors_never_reach_dispatch():
    # a conversion error that no registration takes is the op's own
    with pytest.raises(ValueError):
        tf.math.add(object(), 1)
    assert tf.math.add(1, 2).numpy() == 3
