"""CudnnRNN and its gradient CudnnRNNBackprop: TF's fused recurrent ops backed by NVIDIA's
cuDNN, as they are on a machine without a GPU. tapeflow runs on CPUs only, where TF registers
no kernel for them: a graph can hold them (their outputs have TF's static shapes, so functions
that trace a GPU specialization, and its gradient, build on a CPU), and running one is an
error, eagerly or in a graph, as in TF on a CPU.

Example:
    >>> import tapeflow as tf
    >>> @tf.function(input_signature=[tf.TensorSpec([None, 2, 3])])
    ... def lstm(x):
    ...     h = tf.zeros([1, 2, 4])
    ...     return tf.raw_ops.CudnnRNN(input=x, input_h=h, input_c=h, params=tf.zeros([144]))
    >>> [out.shape.as_list() for out in lstm.get_concrete_function().outputs[:3]]
    [[None, 2, 4], [1, 2, 4], [1, 2, 4]]
"""
from __future__ import annotations

from ..framework import errors
from ..framework.registry import RegisterGradient, define_op
from .creation_ops import zeros_like

__all__ = ["CudnnRNN", "CudnnRNNBackprop"]


def _no_cpu_kernel(op_name: str):
    def kernel(*inputs, rnn_mode="lstm", **attrs):
        raise errors.NotFoundError(
            None, op_name, f"{op_name} (rnn_mode={rnn_mode!r}) has no kernel for CPU devices: "
            "it runs only on a GPU with cuDNN, and tapeflow runs on CPUs; compute the "
            "recurrence with other ops (e.g. a loop of matmuls) instead")
    return kernel


def _cudnn_rnn_dims(inputs, attrs) -> list:
    """TF's static shapes: output [time, batch, directions * units], output_h as input_h,
    output_c as input_c in LSTM mode (a scalar otherwise), reserve_space unknown."""
    x, h, c = inputs[0], inputs[1], inputs[2]
    units = None if h._dims is None else h._dims[-1]
    if units is not None and attrs.get("direction", "unidirectional") == "bidirectional":
        units *= 2
    lead = (None, None) if x._dims is None else tuple(x._dims[:2])
    dtype = x._value.dtype
    cell = c._dims if attrs.get("rnn_mode", "lstm") == "lstm" else ()
    return [(dtype, lead + (units,)), (dtype, h._dims), (dtype, cell), (dtype, None)]


CudnnRNN = define_op("CudnnRNN", _no_cpu_kernel("CudnnRNN"), num_outputs=4)
CudnnRNN.shape_fn = _cudnn_rnn_dims

# Inputs: CudnnRNN's four inputs, its outputs (output, output_h, output_c), their gradients
# and its reserve_space; outputs: the gradients of its four inputs.
CudnnRNNBackprop = define_op("CudnnRNNBackprop", _no_cpu_kernel("CudnnRNNBackprop"),
                             num_outputs=4)
CudnnRNNBackprop.shape_fn = lambda inputs, attrs: [
    (x._value.dtype, x._dims) for x in inputs[:4]]


@RegisterGradient("CudnnRNN")
def _cudnn_rnn_grad(op, output_grad, output_h_grad, output_c_grad, _reserve_space_grad):
    attrs = {k: v for k, v in op.attrs.items() if k != "is_training"}
    outputs = op.outputs
    grads = [g if g is not None else zeros_like(o)
             for g, o in zip((output_grad, output_h_grad, output_c_grad), outputs)]
    return list(CudnnRNNBackprop(*op.inputs, *outputs[:3], *grads, outputs[3], **attrs))
