"""tf.types.experimental: tapeflow's functions are instances of TF's abstract types."""
import typing

import numpy as np

import tapeflow as tf

T = tf.types.experimental


def test_functions_and_traces_are_instances_of_the_abstract_types():
    f = tf.function(lambda x: x * 2.0)
    cf = f.get_concrete_function(tf.TensorSpec([2], tf.float32))
    assert isinstance(f, T.PolymorphicFunction) and isinstance(f, T.Callable)
    assert T.GenericFunction is T.PolymorphicFunction
    assert isinstance(cf, T.ConcreteFunction) and isinstance(cf, T.Callable)
    assert not isinstance(cf, T.PolymorphicFunction) and not isinstance(f, T.ConcreteFunction)
    assert not isinstance(lambda: 0, T.Callable)


def test_tensor_like_is_the_union_of_what_converts():
    members = typing.get_args(T.TensorLike)
    assert tf.Tensor in members and np.ndarray in members and float in members
