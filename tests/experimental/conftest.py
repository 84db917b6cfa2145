"""The numpy behaviour switch is process-wide: `numpy_behavior(**kwargs)` turns it on for one
test and puts tapeflow's Tensor, mode and prefer_float32 back afterwards."""
import contextlib

import pytest

import tapeflow as tf
from tapeflow.experimental.numpy import np_config, np_dtypes
from tapeflow.framework import promotion


@contextlib.contextmanager
def numpy_behavior_on(**kwargs):
    saved = {name: tf.Tensor.__dict__.get(name)
             for name in [*np_config.NUMPY_METHODS, *np_config.PROMOTING_OPERATORS]}
    tf.experimental.numpy.experimental_enable_numpy_behavior(**kwargs)
    try:
        yield
    finally:
        np_dtypes.set_prefer_float32(False)
        promotion.set_mode("off")
        for name, attribute in saved.items():
            if attribute is None:
                delattr(tf.Tensor, name)
            else:
                setattr(tf.Tensor, name, attribute)


@pytest.fixture
def numpy_behavior():
    return numpy_behavior_on
