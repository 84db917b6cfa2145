"""get_current_name_scope, inside_function and is_symbolic_tensor, eagerly and traced."""
import tapeflow as tf


def scopes():
    with tf.name_scope("a"):
        with tf.name_scope("b"):
            return tf.get_current_name_scope(), tf.inside_function()


def test_eagerly():
    assert tf.get_current_name_scope() == "" and not tf.inside_function()
    assert scopes() == ("a/b", False)
    assert not tf.is_symbolic_tensor(tf.constant(1.0))


def test_inside_a_function_and_a_graph():
    assert tf.function(scopes)() == ("a/b", True)
    seen = []
    tf.function(lambda x: seen.append(tf.is_symbolic_tensor(x)) or x)(tf.constant(1.0))
    assert seen == [True]
    with tf.Graph().as_default():
        assert not tf.inside_function() and tf.is_symbolic_tensor(tf.constant(1.0))
