"""TensorArrays (alone or inside structures) as variables of converted tensor loops, and
Python lists appended in one (TF: the loop's tensors are out of scope afterwards)."""
import pytest

import tapeflow as tf
from tapeflow.framework.errors import InaccessibleTensorError


def test_for_over_tf_range_writes_a_tensor_array():
    @tf.function
    def f(n):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        for i in tf.range(n):
            ta = ta.write(i, tf.cast(i, tf.float32) * 2.0)
        return ta.stack()

    assert f(tf.constant(3)).numpy().tolist() == [0.0, 2.0, 4.0]
    assert f(tf.constant(5)).numpy().tolist() == [0.0, 2.0, 4.0, 6.0, 8.0]


def test_while_carries_a_tensor_array_inside_a_dict_and_tuple():
    @tf.function
    def f(n):
        s = {"ta": tf.TensorArray(tf.int32, size=n), "k": (tf.constant(0),)}
        i = 0
        while i < n:
            s = {"ta": s["ta"].write(i, i * i), "k": (s["k"][0] + 1,)}
            i += 1
        return s["ta"].stack(), s["k"][0]

    squares, count = f(tf.constant(4))
    assert squares.numpy().tolist() == [0, 1, 4, 9] and int(count) == 4


def test_a_list_appended_in_a_tensor_loop_is_out_of_scope():
    @tf.function
    def f(n):
        items = []
        for i in tf.range(n):
            items.append(i)
        return tf.stack(items)

    with pytest.raises(InaccessibleTensorError, match="belongs to another graph") as info:
        f(tf.constant(3))
    assert isinstance(info.value, ValueError)
