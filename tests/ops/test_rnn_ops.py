"""CudnnRNN and CudnnRNNBackprop as TF 2.21 has them on a CPU: graphs hold them with TF's
static shapes and gradients; running them has no kernel (TF: NotFoundError eagerly)."""
import pytest

import tapeflow as tf


def _lstm(x, p, rnn_mode="lstm", direction="unidirectional"):
    h = tf.zeros([1, 2, 4])
    return tf.raw_ops.CudnnRNN(input=x, input_h=h, input_c=h, params=p, rnn_mode=rnn_mode,
                               direction=direction)


def test_running_cudnn_rnn_on_a_cpu_is_not_found():
    with pytest.raises(tf.errors.NotFoundError, match="CudnnRNN"):
        _lstm(tf.zeros([5, 2, 3]), tf.zeros([144]))


def test_graph_shapes_are_tfs():
    shapes = {}

    @tf.function(input_signature=[tf.TensorSpec([None, None, 3]), tf.TensorSpec([144])])
    def unknown(x, p):
        shapes["unknown"] = [o.shape.as_list() if o.shape.rank is not None else None
                             for o in _lstm(x, p)]
        return x

    @tf.function
    def gru(x, p):
        out = _lstm(x, p, "gru")
        shapes["fields"] = out._fields
        shapes["gru"] = [o.shape.as_list() if o.shape.rank is not None else None
                         for o in out]
        return x

    unknown.get_concrete_function()
    gru.get_concrete_function(tf.zeros([5, 2, 3]), tf.zeros([144]))
    # TF 2.21: output [time, batch, units], output_h as input_h, output_c as input_c in LSTM
    # mode and a scalar otherwise, reserve_space of unknown shape.
    assert shapes["unknown"] == [[None, None, 4], [1, 2, 4], [1, 2, 4], None]
    assert shapes["gru"] == [[5, 2, 4], [1, 2, 4], [], None]
    assert shapes["fields"] == ("output", "output_h", "output_c", "reserve_space")


def test_gradient_is_a_cudnn_rnn_backprop_with_the_inputs_shapes():
    found = {}

    @tf.function(input_signature=[tf.TensorSpec([None, 2, 3]), tf.TensorSpec([144])])
    def f(x, p):
        with tf.GradientTape() as tape:
            tape.watch([x, p])
            y = tf.reduce_sum(_lstm(x, p).output)
        gx, gp = tape.gradient(y, [x, p])
        found["shapes"] = [gx.shape.as_list(), gp.shape.as_list()]
        found["types"] = [op.type for op in gx.graph.get_operations() if "Cudnn" in op.type]
        return gx, gp

    cf = f.get_concrete_function()
    assert found["shapes"] == [[None, 2, 3], [144]]
    assert found["types"] == ["CudnnRNN", "CudnnRNNBackprop"]
    with pytest.raises(tf.errors.OpError, match="CudnnRNN"):
        cf(tf.zeros([5, 2, 3]), tf.zeros([144]))
