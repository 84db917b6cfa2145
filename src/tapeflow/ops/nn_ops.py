"""Neural-network ops (tf.nn): activations, softmax, cross entropies and normalization.

Convolution and pooling are in `conv_ops.py`. Gradient rules are in `nn_grad.py`.
"""
from __future__ import annotations

import functools

import numpy as np

from ..framework import dtypes, errors
from ..framework.execute import execute
from ..framework.graph_def import graph_def_form
from ..framework.registry import ELEMENTWISE, LINEAR, STACKED, TRANSPARENT, define_op
from ..framework.tensor import Tensor
from .array_ops import broadcast_to, squeeze, transpose
from .dispatch import (add_dispatch_support, dispatch_or_raise,
                       register_unary_elementwise_api)
from .math_ops import (Sigmoid, Tanh, add, cast, multiply, reduce_mean, reduce_sum, sqrt,
                       square)
from .op_util import ACCUMULATE_IN_FLOAT32, add_reduce, in_float32
from .special_ops import erfc
from .op_util import NO_ATTRS, as_input, binary_inputs, normalize_axes, normalize_axis

SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


def _relu(x):
    return np.maximum(x, 0)


def _relu_grad(g, y):
    return np.multiply(g, y > 0)


# Below this spread of all the (float32 or float64) logits, subtracting their overall
# maximum keeps every exponential normal and loses no more than a row maximum would (an ulp
# of the spread).
_SOFTMAX_SPREAD = 30.0


def _softmax(x, axis):
    if not x.size:  # no maximum to subtract
        return x.copy()
    if x.dtype.char in ACCUMULATE_IN_FLOAT32:
        return in_float32(_softmax, x, axis=axis)
    # One maximum of all (a fast reduction) in place of a maximum per row (slow for short
    # rows) where the spread allows: the shift cancels in the quotient.
    top = np.maximum.reduce(x, axis=None)
    if x.dtype.kind == "f" and x.dtype.itemsize >= 4 and \
            top - np.minimum.reduce(x, axis=None) < _SOFTMAX_SPREAD:
        e = x - top
    else:
        e = x - np.maximum.reduce(x, axis=axis, keepdims=True)
    np.exp(e, out=e)
    e /= add_reduce(e, (axis,), True)
    return e


def _log_softmax(x, axis):
    if not x.size:
        return x.copy()
    if x.dtype.char in ACCUMULATE_IN_FLOAT32:
        return in_float32(_log_softmax, x, axis=axis)
    shifted = x - np.max(x, axis=axis, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


def _relu6(x):
    return np.minimum(np.maximum(x, 0), 6)


def _relu6_grad(g, x):
    return np.where((x > 0) & (x < 6), g, 0).astype(g.dtype, copy=False)


def _elu(x):
    # expm1 of min(x, 0): accurate near 0 and no overflow warning from the unused branch.
    return np.where(x > 0, x, np.expm1(np.minimum(x, 0)))


def _elu_grad(g, y):
    return np.where(y < 0, g * (y + 1), g)


def _selu(x):
    return SELU_SCALE * np.where(x > 0, x, SELU_ALPHA * np.expm1(np.minimum(x, 0)))


def _selu_grad(g, y):
    return np.where(y < 0, g * (y + SELU_SCALE * SELU_ALPHA), g * SELU_SCALE)


def _leaky_relu(x, alpha):
    return np.where(x > 0, x, x * alpha)


def _leaky_relu_grad(g, x, alpha):
    return np.where(x > 0, g, g * alpha)


def _softplus(x):
    return np.logaddexp(0, x)


def _softsign(x):
    return x / (1 + np.abs(x))


def _bias_add(value, bias, data_format):
    if data_format == "NCHW":
        bias = bias.reshape(bias.shape + (1,) * (value.ndim - 2))
    return value + bias


def _softmax_xent(logits, labels):
    """Loss per example and its gradient w.r.t. the logits over the last axis, as TF's fused
    kernel returns both; the gradient is softmax - labels, exact when labels sum to 1."""
    log_probs = _log_softmax(logits, -1)
    loss = -np.add.reduce(labels * log_probs, axis=-1)
    return loss, np.exp(log_probs) - labels


_UNSIGNED = {np.dtype(f"i{size}"): np.dtype(f"u{size}") for size in (1, 2, 4, 8)}


def _check_labels(labels, classes: int) -> None:
    # Seen as unsigned, a negative label is larger than any class: one pass finds both.
    if labels.size and labels.view(_UNSIGNED.get(labels.dtype, labels.dtype)).max() >= classes:
        bad = labels[(labels < 0) | (labels >= classes)].ravel()[0]
        raise errors.InvalidArgumentError(
            None, "SparseSoftmaxCrossEntropyWithLogits",
            f"SparseSoftmaxCrossEntropyWithLogits: received a label value of {bad} which is "
            f"outside the valid range of [0, {classes}).")


def _sparse_xent(logits, labels):
    """Loss per example and its gradient w.r.t. the logits (softmax minus one-hot), as TF's
    fused kernel returns both."""
    classes = logits.shape[-1]
    _check_labels(labels, classes)
    shifted = logits - np.maximum.reduce(logits, axis=-1, keepdims=True)
    exp = np.exp(shifted)
    total = np.add.reduce(exp, axis=-1, keepdims=True)
    # Each example's label as a position in the flattened (C-ordered, fresh) arrays.
    picked = np.arange(0, labels.size * classes, classes) + labels.ravel()
    loss = np.log(total[..., 0]) - shifted.ravel()[picked].reshape(labels.shape)
    backprop = exp / total
    backprop.ravel()[picked] -= 1
    return loss, backprop


@functools.lru_cache(maxsize=64)
def _gate_constants(shape: tuple, dtype) -> tuple:
    """For LSTM pre-activations of `shape` [..., 4 * units] (gates i, f, c, o), whole arrays
    of that shape (read-only; an operand of the whole shape costs half as much as a row
    broadcast): the scale that turns tanh into sigmoid (0.5 on the sigmoid gates, 1 on the
    candidate), the offset (0.5, 0) and the candidate's indicator (1 on c, 0 elsewhere)."""
    units = shape[-1] // 4
    scale = np.full(shape, 0.5, dtype)
    scale[..., 2 * units:3 * units] = 1
    offset = np.full(shape, 0.5, dtype)
    offset[..., 2 * units:3 * units] = 0
    candidate = np.zeros(shape, dtype)
    candidate[..., 2 * units:3 * units] = 1
    for constant in (scale, offset, candidate):
        constant.flags.writeable = False
    return scale, offset, candidate


def _lstm_activations(z):
    """The gates of LSTM pre-activations z [..., 4 * units] in Keras's order i, f, c, o,
    computed in z's own array: sigmoid of i, f and o, tanh of the candidate c. One tanh of
    every block serves all: sigmoid(x) = (1 + tanh(x / 2)) / 2, exact to rounding (within
    1e-7 of 0 where the sigmoid is below that), in a quarter of a stable sigmoid's time;
    a scale and an offset per column make it four whole-array operations."""
    scale, offset, _ = _gate_constants(z.shape, z.dtype)
    z *= scale
    np.tanh(z, out=z)
    z *= scale
    z += offset
    return z


def _lstm_gates(x, h_prev, recurrent_kernel, c_prev):
    a = _lstm_activations(x + np.matmul(h_prev, recurrent_kernel))
    u = a.shape[-1] // 4
    c = a[..., u:2 * u] * c_prev
    c += a[..., :u] * a[..., 2 * u:3 * u]
    h = np.tanh(c)
    h *= a[..., 3 * u:]
    return h, c, a


def _lstm_gates_grad(gates, c_prev, c, dh, dc, dgates):
    u = gates.shape[-1] // 4
    i, f, g, o = (gates[..., :u], gates[..., u:2 * u], gates[..., 2 * u:3 * u],
                  gates[..., 3 * u:])
    tanh_c = np.tanh(c)
    d = tanh_c * tanh_c
    np.subtract(1, d, out=d)
    d *= o
    d *= dh
    d += dc
    dz = np.empty_like(gates, dtype=np.result_type(gates, dc, c_prev))
    np.multiply(d, g, out=dz[..., :u])
    np.multiply(d, c_prev, out=dz[..., u:2 * u])
    np.multiply(d, i, out=dz[..., 2 * u:3 * u])
    np.multiply(dh, tanh_c, out=dz[..., 3 * u:])
    dz += dgates
    # The slopes a (1 - a) of the sigmoid gates and 1 - g^2 of the candidate, as
    # (1 - a) (a + [0, 0, 1, 0]).
    slope = 1 - gates
    dz *= slope
    np.add(gates, _gate_constants(gates.shape, gates.dtype)[2], out=slope)
    dz *= slope
    d *= f
    return dz, d


def lstm_gates(x, h_prev, recurrent_kernel, c_prev) -> tuple:
    """One LSTM step as one op: (h, c, gates) from the projected inputs `x` [..., 4 * units]
    (inputs @ kernel + bias), the previous output and cell state and the recurrent kernel
    [units, 4 * units]: pre-activations z = x + h_prev @ recurrent_kernel for the gates i,
    f, c, o in Keras's order (sigmoid, sigmoid, tanh, sigmoid); `gates` are their
    activations (which the gradient reads).

    Example:
        >>> import tapeflow as tf
        >>> from tapeflow.ops.nn_ops import lstm_gates
        >>> h, c, gates = lstm_gates(tf.zeros([1, 4]), tf.zeros([1, 1]), tf.ones([1, 4]),
        ...                          tf.ones([1, 1]))
        >>> float(c[0, 0]), round(float(h[0, 0]), 4)   # c = 0.5 * 1 + 0.5 * 0
        (0.5, 0.2311)
    """
    return execute(LSTMGates, (as_input(x), as_input(h_prev), as_input(recurrent_kernel),
                               as_input(c_prev)), NO_ATTRS)


Relu = define_op("Relu", _relu, family=ELEMENTWISE)
ReluGrad = define_op("ReluGrad", _relu_grad, family=ELEMENTWISE)
Softmax = define_op("Softmax", _softmax, batching=STACKED)
LogSoftmax = define_op("LogSoftmax", _log_softmax)
Relu6 = define_op("Relu6", _relu6, family=ELEMENTWISE)
Relu6Grad = define_op("Relu6Grad", _relu6_grad, family=ELEMENTWISE)
Elu = define_op("Elu", _elu, family=ELEMENTWISE)
EluGrad = define_op("EluGrad", _elu_grad, family=ELEMENTWISE)
Selu = define_op("Selu", _selu, family=ELEMENTWISE)
SeluGrad = define_op("SeluGrad", _selu_grad, family=ELEMENTWISE)
LeakyRelu = define_op("LeakyRelu", _leaky_relu, family=ELEMENTWISE)
LeakyReluGrad = define_op("LeakyReluGrad", _leaky_relu_grad, family=ELEMENTWISE)
Softplus = define_op("Softplus", _softplus, family=ELEMENTWISE)
Softsign = define_op("Softsign", _softsign, family=ELEMENTWISE)
BiasAdd = define_op("BiasAdd", _bias_add, family=LINEAR)
# One step of an LSTM from its projected inputs x = inputs @ kernel + bias, the previous
# output and cell state and the recurrent kernel: (h, c, the gates' activations). A
# primitive for speed: one kernel call where the step takes thirteen ops (Keras's fused
# kernels and TF's LSTMBlockCell do the same); its gradient reads the activations instead
# of redoing them.
LSTMGates = define_op("LSTMGates", _lstm_gates, num_outputs=3)
LSTMGatesGrad = define_op("LSTMGatesGrad", _lstm_gates_grad, num_outputs=2)
SoftmaxXent = define_op("SoftmaxCrossEntropyWithLogits", _softmax_xent, num_outputs=2)
SparseSoftmaxXent = define_op("SparseSoftmaxCrossEntropyWithLogits", _sparse_xent,
                              num_outputs=2, batching=TRANSPARENT)
# Probing with made-up labels can go out of range: the shapes follow from the inputs'.
SparseSoftmaxXent.shape_fn = lambda inputs, attrs: [
    (inputs[0]._value.dtype, inputs[1]._dims), (inputs[0]._value.dtype, inputs[0]._dims)]


def _last_axis(op) -> str:
    if op.attrs["axis"] % op.inputs[0].shape.rank != op.inputs[0].shape.rank - 1:
        raise errors.UnimplementedError(
            None, op.type, f"node {op.name!r}: TF's {op.type} works on the last axis, not "
            f"axis {op.attrs['axis']} of a rank-{op.inputs[0].shape.rank} input")
    return op.type


for _name in ("Softmax", "LogSoftmax"):
    graph_def_form(_name, tf_type=_last_axis, drop=("axis",))



def relu(features, name=None) -> Tensor:
    """max(features, 0), elementwise; the gradient at 0 is 0, as in TF.

    Example:
        >>> import tapeflow as tf
        >>> tf.nn.relu(tf.constant([-1.0, 2.0])).numpy()
        array([0., 2.], dtype=float32)
    """
    try:
        x = _real_features("Relu", features)
    except (TypeError, ValueError):  # a RaggedTensor or extension type: dispatch
        return dispatch_or_raise(relu, (features,), {"name": name})
    return execute(Relu, (x,), NO_ATTRS)


register_unary_elementwise_api(relu)


def softmax(logits, axis=None, name=None) -> Tensor:
    """exp(logits) / sum(exp(logits)) along `axis` (default -1), computed stably.

    Example:
        >>> import tapeflow as tf
        >>> tf.nn.softmax(tf.constant([0.0, 0.0])).numpy()
        array([0.5, 0.5], dtype=float32)
    """
    logits = _float_features("Softmax", logits)
    axis = normalize_axis("Softmax", -1 if axis is None else axis, logits.ndim)
    return execute(Softmax, (logits,), {"axis": axis})


def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None) -> Tensor:
    """Cross entropy between integer class `labels` and unnormalized `logits`, per example.

    Args:
        labels: int32/int64 tensor of shape [d0, ..., dn-1], values in [0, num_classes).
        logits: float tensor of shape [d0, ..., dn-1, num_classes].

    Returns:
        A tensor shaped like `labels` with the dtype of `logits`. Labels get no gradient.

    Raises:
        InvalidArgumentError: a label out of range, or shapes that do not match.

    Example:
        >>> import tapeflow as tf
        >>> loss = tf.nn.sparse_softmax_cross_entropy_with_logits(
        ...     labels=tf.constant([0]), logits=tf.constant([[0.0, 0.0]]))
        >>> round(float(tf.reduce_sum(loss)), 4)
        0.6931
    """
    labels, logits = as_input(labels), as_input(logits)
    if not labels.dtype.is_integer:
        raise errors.InvalidArgumentError(
            None, "SparseSoftmaxCrossEntropyWithLogits",
            f"SparseSoftmaxCrossEntropyWithLogits: labels must be int32 or int64, got "
            f"{labels.dtype.name}.")
    if type(logits) is Tensor and type(labels) is Tensor:  # eager: the arrays' shapes
        shape, wanted = logits._value.shape, labels._value.shape
        bad = len(shape) != len(wanted) + 1 or shape[:-1] != wanted
    else:
        known = logits.shape.rank is not None and labels.shape.rank is not None
        bad = known and (logits.shape.rank < 1 or logits.shape.rank != labels.shape.rank + 1
                         or not logits.shape[:-1].is_compatible_with(labels.shape))
    if bad:
        raise errors.InvalidArgumentError(
            None, "SparseSoftmaxCrossEntropyWithLogits",
            f"SparseSoftmaxCrossEntropyWithLogits: logits shape {list(logits.shape)} must be "
            f"labels shape {list(labels.shape)} plus a class axis.")
    return execute(SparseSoftmaxXent, (logits, labels), NO_ATTRS)[0]


def _float_features(op_name: str, x):
    x = as_input(x)
    if not x.dtype.is_floating:
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: expected a float16, float32 or float64 tensor, got "
            f"{x.dtype.name} (shape {list(x.shape)}).")
    return x


def _activation(op, public_name: str, summary: str, example: str):
    def fn(features, name=None):
        return execute(op, (_float_features(op.name, features),), NO_ATTRS)
    fn.__name__ = fn.__qualname__ = public_name
    fn.__doc__ = (f"{summary}, elementwise (op `{op.name}`).\n\n"
                  "    Raises:\n        InvalidArgumentError: a non-floating dtype.\n\n"
                  f"    Example:\n        >>> import tapeflow as tf\n"
                  f"        >>> tf.nn.{public_name}(tf.constant([-1.0, 0.0, 8.0])).numpy()\n"
                  f"        {example}\n")
    return fn


elu = _activation(Elu, "elu", "features if > 0, else exp(features) - 1",
                  "array([-0.63212055,  0.        ,  8.        ], dtype=float32)")
selu = _activation(Selu, "selu", "scale * (features if > 0, else alpha * (exp(features) - 1))",
                   "array([-1.1113307,  0.       ,  8.405608 ], dtype=float32)")
softplus = _activation(Softplus, "softplus", "log(1 + exp(features)), computed stably",
                       "array([0.3132617, 0.6931472, 8.000336 ], dtype=float32)")
softsign = _activation(Softsign, "softsign", "features / (1 + |features|)",
                       "array([-0.5       ,  0.        ,  0.8888889], dtype=float32)")


def log_sigmoid(x, name=None) -> Tensor:
    """log(sigmoid(x)) = -softplus(-x), elementwise, finite for large |x|; its gradient
    comes from Softplus's rule.

    Args:
        x: a floating tensor.

    Returns:
        A tensor of x's shape and dtype.

    Raises:
        InvalidArgumentError: a non-floating dtype.

    Example:
        >>> import tapeflow as tf
        >>> float(tf.math.log_sigmoid(tf.constant(-1000.0)))
        -1000.0
    """
    x = _float_features("Softplus", x)
    return -execute(Softplus, (-x,), NO_ATTRS)


@add_dispatch_support(elementwise=1)
def relu6(features, name=None) -> Tensor:
    """min(max(features, 0), 6), elementwise; integer tensors keep their dtype.

    Raises:
        InvalidArgumentError: a bool or complex dtype.

    Example:
        >>> import tapeflow as tf
        >>> tf.nn.relu6(tf.constant([-1.0, 0.0, 8.0])).numpy()
        array([0., 0., 6.], dtype=float32)
    """
    return execute(Relu6, (_real_features("Relu6", features),), NO_ATTRS)


def _real_features(op_name: str, features) -> Tensor:
    x = as_input(features)
    if not (x.dtype.is_floating or x.dtype.is_integer):
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: expected a real number tensor, got {x.dtype.name} (shape "
            f"{list(x.shape)}).")
    return x


@add_dispatch_support(elementwise=1)
def leaky_relu(features, alpha=0.2, name=None) -> Tensor:
    """features if > 0, else alpha * features, elementwise; integers are cast to float32 first.

    Example:
        >>> import tapeflow as tf
        >>> tf.nn.leaky_relu(tf.constant([-1.0, 2.0])).numpy()
        array([-0.2,  2. ], dtype=float32)
    """
    x = as_input(features)
    if x.dtype.is_integer:
        x = cast(x, dtypes.float32)
    x = _float_features("LeakyRelu", x)
    return execute(LeakyRelu, (x,), {"alpha": float(alpha)})


@add_dispatch_support(elementwise=1)
def gelu(features, approximate=False, name=None) -> Tensor:
    """The Gaussian error linear unit x * P(X <= x), X ~ N(0, 1); tanh-approximated on request.

    The exact form is 0.5 * x * erfc(-x / sqrt(2)), accurate for large negative x.

    Raises:
        ValueError: a non-floating dtype.

    Example:
        >>> import tapeflow as tf
        >>> tf.nn.gelu(tf.constant([-1.0, 0.0, 1.0]), approximate=True).numpy()
        array([-0.158808,  0.      ,  0.841192], dtype=float32)
    """
    x = as_input(features)
    if not x.dtype.is_floating:
        raise ValueError(f"gelu: features must be a floating point tensor, got "
                         f"{x.dtype.name} (shape {list(x.shape)})")
    if approximate:
        inner = multiply(x + 0.044715 * x * x * x, 0.7978845608028654)
        return 0.5 * x * (1.0 + execute(Tanh, (inner,), NO_ATTRS))
    return 0.5 * x * erfc(multiply(x, -0.7071067811865476))


@add_dispatch_support(elementwise=1)
def silu(features, beta=1.0, name=None) -> Tensor:
    """features * sigmoid(beta * features), elementwise (also `tf.nn.swish`).

    Example:
        >>> import tapeflow as tf
        >>> tf.nn.silu(tf.constant([0.0, 1.0])).numpy()
        array([0.       , 0.7310586], dtype=float32)
    """
    x = as_input(features)
    if not x.dtype.is_complex:  # TF's silu takes floating and complex tensors
        x = _float_features("Silu", x)
    scaled = x if beta == 1.0 else multiply(x, beta)
    return x * execute(Sigmoid, (scaled,), NO_ATTRS)


swish = silu


def log_softmax(logits, axis=None, name=None) -> Tensor:
    """logits - log(sum(exp(logits))) along `axis` (default -1), computed stably.

    Raises:
        InvalidArgumentError: the axis is out of range.

    Example:
        >>> import tapeflow as tf
        >>> tf.nn.log_softmax(tf.constant([0.0, 0.0])).numpy()
        array([-0.6931472, -0.6931472], dtype=float32)
    """
    logits = _float_features("LogSoftmax", logits)
    axis = normalize_axis("LogSoftmax", -1 if axis is None else axis, logits.ndim)
    return execute(LogSoftmax, (logits,), {"axis": axis})


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None) -> Tensor:
    """Elementwise logistic loss max(x, 0) - x * z + log(1 + exp(-|x|)) for logits x, labels z.

    Stable at any |x|; both logits and labels get gradients.

    Raises:
        ValueError: labels and logits have different shapes.
        InvalidArgumentError: different dtypes.

    Example:
        >>> import tapeflow as tf
        >>> tf.nn.sigmoid_cross_entropy_with_logits(
        ...     labels=tf.constant([1.0, 0.0]), logits=tf.constant([100.0, 100.0])).numpy()
        array([  0., 100.], dtype=float32)
    """
    logits, labels = binary_inputs("SigmoidCrossEntropyWithLogits", logits, labels)
    if logits.shape != labels.shape:
        raise ValueError(f"sigmoid_cross_entropy_with_logits: logits and labels must have the "
                         f"same shape ({list(logits.shape)} vs {list(labels.shape)})")
    logits = _float_features("SigmoidCrossEntropyWithLogits", logits)
    return execute(Softplus, (logits,), NO_ATTRS) - logits * labels


def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None) -> Tensor:
    """Cross entropy between the distributions `labels` and softmax(`logits`) along `axis`.

    -sum(labels * log_softmax(logits)), computed stably at large |logits|. As in TF 2, the
    labels get a gradient too (wrap them in stop_gradient to prevent it). As TF's fused
    kernel, the logits gradient is softmax - labels: exact when each label vector sums to 1.

    Args:
        labels: class probabilities, broadcastable to `logits`; cast to the logits' dtype.
        logits: unnormalized log probabilities.
        axis: the class axis.

    Returns:
        A tensor with the class axis removed.

    Raises:
        InvalidArgumentError: shapes that do not broadcast, or a bad axis.

    Example:
        >>> import tapeflow as tf
        >>> loss = tf.nn.softmax_cross_entropy_with_logits(
        ...     labels=tf.constant([[0.0, 1.0]]), logits=tf.constant([[0.0, 0.0]]))
        >>> loss.numpy().round(4)
        array([0.6931], dtype=float32)
    """
    logits = _float_features("SoftmaxCrossEntropyWithLogits", logits)
    labels = cast(as_input(labels), logits.dtype)
    axis = normalize_axis("SoftmaxCrossEntropyWithLogits", axis, logits.ndim)
    if labels.shape != logits.shape:
        try:
            shape = np.broadcast_shapes(tuple(labels.shape), tuple(logits.shape))
        except ValueError:
            raise errors.InvalidArgumentError(
                None, "SoftmaxCrossEntropyWithLogits", f"SoftmaxCrossEntropyWithLogits: logits "
                f"and labels must be broadcastable: logits {list(logits.shape)}, labels "
                f"{list(labels.shape)}.") from None
        logits, labels = broadcast_to(logits, shape), broadcast_to(labels, shape)
    if logits.ndim is not None and axis != logits.ndim - 1:
        perm = tuple(a for a in range(logits.ndim) if a != axis) + (axis,)
        logits, labels = transpose(logits, perm), transpose(labels, perm)
    return execute(SoftmaxXent, (logits, labels), NO_ATTRS)[0]


def bias_add(value, bias, data_format=None, name=None) -> Tensor:
    """value + bias, with the 1-D bias along the channel axis (last, or 1 for "NC..." formats).

    Raises:
        InvalidArgumentError: bias not 1-D, value below rank 2, a channel count that differs
            from the bias size, or different dtypes.
        ValueError: an unknown data_format.

    Example:
        >>> import tapeflow as tf
        >>> value, bias = tf.constant(0.0, shape=[1, 2, 3]), tf.constant([1.0, 2.0])
        >>> tf.nn.bias_add(value, bias, data_format="NCW").numpy()
        array([[[1., 1., 1.],
                [2., 2., 2.]]], dtype=float32)
    """
    value, bias = binary_inputs("BiasAdd", value, bias)
    fmt = "NHWC" if data_format is None else str(data_format)
    channel_first = fmt.startswith("NC")
    if not (channel_first or (fmt.startswith("N") and fmt.endswith("C"))):
        raise ValueError(f"bias_add: unknown data_format {data_format!r}; use e.g. 'NHWC' or "
                         f"'NCHW'.")
    if bias.ndim != 1 or value.ndim < 2:
        raise errors.InvalidArgumentError(
            None, "BiasAdd", f"BiasAdd: bias must be 1-D and value at least 2-D, got shapes "
            f"{list(value.shape)} and {list(bias.shape)}.")
    channels = value.shape[1] if channel_first else value.shape[-1]
    if channels != bias.shape[0]:
        raise errors.InvalidArgumentError(
            None, "BiasAdd", f"BiasAdd: must provide as many biases as the channel dimension of "
            f"the input tensor: bias shape {list(bias.shape)}, value shape {list(value.shape)} "
            f"({fmt}).")
    return execute(BiasAdd, (value, bias), {"data_format": "NCHW" if channel_first else "NHWC"})


def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None) -> Tensor:
    """(x - mean) * scale / sqrt(variance + variance_epsilon) + offset, broadcasting.

    `offset` and `scale` may be None. Every argument gets a gradient.

    Example:
        >>> import tapeflow as tf
        >>> tf.nn.batch_normalization(tf.constant([1.0, 3.0]), 2.0, 4.0, None, None, 0.0).numpy()
        array([-0.5,  0.5], dtype=float32)
    """
    x = _float_features("BatchNormalization", x)
    def like_x(value):
        return binary_inputs("BatchNormalization", x, value)[1]

    inv = 1.0 / sqrt(add(like_x(variance), variance_epsilon))
    if scale is not None:
        inv = inv * like_x(scale)
    shift = -like_x(mean) * inv
    if offset is not None:
        shift = shift + like_x(offset)
    return x * inv + shift


def l2_loss(t, name=None) -> Tensor:
    """sum(t ** 2) / 2, a scalar.

    Example:
        >>> import tapeflow as tf
        >>> float(tf.nn.l2_loss(tf.constant([1.0, 2.0])))
        2.5
    """
    return reduce_sum(square(_float_features("L2Loss", t))) * 0.5


def moments(x, axes, shift=None, keepdims=False, name=None) -> tuple:
    """The mean and variance of `x` over `axes`.

    The variance is mean((x - mean) ** 2); its gradient includes the path through the mean
    (TF stops it there, which changes only second derivatives).

    Returns:
        `(mean, variance)`, with the reduced axes kept as 1 when `keepdims`.

    Example:
        >>> import tapeflow as tf
        >>> mean, variance = tf.nn.moments(tf.constant([[1.0, 3.0], [5.0, 7.0]]), axes=[0])
        >>> mean.numpy(), variance.numpy()
        (array([3., 5.], dtype=float32), array([4., 4.], dtype=float32))
    """
    x = as_input(x)
    axes = normalize_axes("Moments", axes, x.ndim)
    mean = reduce_mean(x, axis=axes, keepdims=True)
    variance = reduce_mean(square(x - mean), axis=axes, keepdims=True)
    if not keepdims:
        mean, variance = squeeze(mean, axis=list(axes)), squeeze(variance, axis=list(axes))
    return mean, variance
