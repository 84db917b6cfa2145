"""tf.__internal__ and tensorflow.python.types / ops: the names TF's own libraries use, as
TF 2.21 answers them (values recorded from TF), over tapeflow's mechanisms."""
import pytest

import tapeflow as tf
from tapeflow.python.ops.math_ops import is_nan
from tapeflow.python.types import core

I = tf.__internal__


def test_the_tensor_kinds_tell_eager_from_graph_tensors():
    seen = []

    @tf.function
    def f(x):
        seen.append((isinstance(x, I.EagerTensor), isinstance(x, I.SymbolicTensor),
                     isinstance(x, I.types.Tensor),
                     isinstance(tf.compat.v1.get_default_graph(), I.FuncGraph)))
        return x

    f(tf.constant(1.0))
    assert seen == [(False, True, True, True)]  # TF: False, True, True, True
    eager = tf.constant(1.0)
    assert isinstance(eager, I.EagerTensor) and not isinstance(eager, I.SymbolicTensor)
    assert isinstance(tf.Variable(1.0), core.Tensor) and not isinstance(1.0, core.Tensor)
    assert isinstance(tf.sparse.eye(2), I.CompositeTensor)


def test_a_library_class_may_declare_itself_a_tensor():
    class Wrapper(I.types.Tensor):
        pass

    assert isinstance(Wrapper(), core.Tensor) and not isinstance(Wrapper(), I.EagerTensor)


def test_smart_cond_decides_now_when_it_can():
    assert I.smart_cond.smart_cond(True, lambda: 1, lambda: 2) == 1
    assert int(I.smart_cond.smart_cond(tf.constant(False), lambda: tf.constant(1),
                                       lambda: tf.constant(2))) == 2
    traced = []

    @tf.function
    def f(flag):
        out = I.smart_cond.smart_cond(flag, lambda: tf.constant(1.0), lambda: tf.constant(2.0))
        traced.append(tf.is_symbolic_tensor(out))
        return out

    assert float(f(tf.constant(True))) == 1.0 and float(f(tf.constant(False))) == 2.0
    assert traced == [True]  # one trace, a tf.cond on the run-time flag
    with pytest.raises(TypeError, match="pred"):
        I.smart_cond.smart_cond("yes", lambda: 1, lambda: 2)


def test_merge_calls_reach_the_strategy():
    merge = I.distribute.interim.maybe_merge_call
    assert I.distribute.strategy_supports_no_merge_call()
    default = tf.distribute.get_strategy()
    assert merge(lambda s, a, b=0: (s, a, b), default, 1, b=2) == (default, 1, 2)
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        assert not I.distribute.strategy_supports_no_merge_call()  # TF: False
    seen = []

    def step():
        return merge(lambda s, a: seen.append(
            (s is strategy, tf.distribute.in_cross_replica_context(), a)), strategy, 5)

    strategy.run(step)
    assert seen == [(True, True, 5)]


def test_tf2_eager_context_and_is_nan():
    assert I.tf2.enabled()
    with tf.Graph().as_default():
        with I.eager_context.eager_mode():
            assert tf.executing_eagerly()
    assert is_nan(tf.constant([1.0, float("nan")])).numpy().tolist() == [False, True]


def test_what_keras_asks_of_tensors_and_dtypes():
    # recorded from TF 2.21
    assert [d.is_numeric for d in (tf.float32, tf.bool, tf.string, tf.int8, tf.complex64,
                                   tf.qint8, tf.resource, tf.bfloat16)] == \
        [True, False, False, True, True, True, False, True]
    assert tf.is_tensor(tf.sparse.eye(2)) and tf.is_tensor(tf.Variable(1.0))
    assert not tf.is_tensor(1.0) and not tf.is_tensor([tf.constant(1.0)])
    t = tf.constant(1.0)
    t._keras_logits = "logits"  # a library's own attribute on a tensor
    assert t._keras_logits == "logits"
    from tapeflow.python.eager import context
    context.context().clear_kernel_cache()
    assert float(t * 2.0) == 2.0


def test_a_class_declaring_itself_a_tensor_is_a_tensor_to_tf_is_tensor():
    class Wrapper(I.types.Tensor):
        pass

    assert tf.is_tensor(Wrapper()) and not tf.is_tensor(object())
