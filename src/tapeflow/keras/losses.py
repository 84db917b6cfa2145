"""keras.losses: loss functions and the Loss classes that reduce them, with Keras's formulas.

Each function returns one loss per example (the mean over the last axis for elementwise
losses); a Loss object weights those by `sample_weight` and reduces them: 'sum_over_batch_size'
(the default, 'auto') divides the weighted sum by the number of losses, 'sum' sums, 'none'
returns them as they are.
"""
from __future__ import annotations

from .. import math as tf_math
from .. import nn as tf_nn
from ..framework import errors
from ..framework.tensor import Tensor, convert_to_tensor
from ..ops import array_ops, clip_ops, math_ops
from .naming import by_name

__all__ = ["Reduction", "Loss", "LossFunctionWrapper", "MeanSquaredError", "MeanAbsoluteError",
           "Huber", "BinaryCrossentropy", "CategoricalCrossentropy",
           "SparseCategoricalCrossentropy", "mean_squared_error", "mean_absolute_error", "huber",
           "binary_crossentropy", "categorical_crossentropy",
           "sparse_categorical_crossentropy", "get", "EPSILON"]

# Keras's fuzz factor: probabilities are clipped to [EPSILON, 1 - EPSILON] before a log.
EPSILON = 1e-7


class Reduction:
    """How a Loss object reduces per-example losses."""

    AUTO = "auto"
    NONE = "none"
    SUM = "sum"
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"

    @classmethod
    def all(cls) -> tuple:
        return (cls.AUTO, cls.NONE, cls.SUM, cls.SUM_OVER_BATCH_SIZE)

    @classmethod
    def validate(cls, key) -> None:
        """Raises ValueError for anything but the four reductions."""
        if key not in cls.all():
            raise ValueError(f'Invalid Reduction Key: {key!r}. Expected keys are "{cls.all()}"')


def _shape(x) -> list:
    return x.shape.as_list()


def _squeeze_last(x: Tensor) -> Tensor:
    return array_ops.reshape(x, _shape(x)[:-1])


def _prepare(fn_name: str, y_true, y_pred) -> tuple:
    """Both as tensors of y_pred's dtype and one shape (a trailing 1 is squeezed away).

    Raises:
        ValueError: the shapes differ otherwise.
    """
    y_pred = convert_to_tensor(y_pred)
    y_true = convert_to_tensor(y_true)
    if y_true.dtype is not y_pred.dtype:
        y_true = math_ops.cast(y_true, y_pred.dtype)
    true_rank, pred_rank = y_true.ndim, y_pred.ndim
    if pred_rank == true_rank + 1 and _shape(y_pred)[-1] == 1:
        y_pred = _squeeze_last(y_pred)
    elif true_rank == pred_rank + 1 and _shape(y_true)[-1] == 1:
        y_true = _squeeze_last(y_true)
    if _shape(y_true) != _shape(y_pred):
        raise ValueError(f"{fn_name}: y_true and y_pred have incompatible shapes "
                         f"{tuple(_shape(y_true))} and {tuple(_shape(y_pred))}; they must be "
                         "equal (a trailing dimension of 1 is squeezed).")
    return y_true, y_pred


def _mean_last(x: Tensor) -> Tensor:
    return math_ops.reduce_mean(x, axis=-1) if x.ndim else x


def mean_squared_error(y_true, y_pred) -> Tensor:
    """mean((y_pred - y_true) ** 2) over the last axis.

    Raises:
        ValueError: shapes that differ (beyond a trailing 1).

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.losses.mean_squared_error([[0.0, 1.0]], [[1.0, 1.0]]).numpy()
        array([0.5], dtype=float32)
    """
    y_true, y_pred = _prepare("mean_squared_error", y_true, y_pred)
    return _mean_last(math_ops.square(y_pred - y_true))


def mean_absolute_error(y_true, y_pred) -> Tensor:
    """mean(|y_pred - y_true|) over the last axis.

    Raises:
        ValueError: shapes that differ (beyond a trailing 1).

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.losses.mean_absolute_error([[0.0, 1.0]], [[2.0, 1.0]]).numpy()
        array([1.], dtype=float32)
    """
    y_true, y_pred = _prepare("mean_absolute_error", y_true, y_pred)
    return _mean_last(tf_math.abs(y_pred - y_true))


def huber(y_true, y_pred, delta: float = 1.0) -> Tensor:
    """Mean over the last axis of 0.5 * e**2 where |e| <= delta, else
    delta * |e| - 0.5 * delta**2 (e = y_pred - y_true), computed as 0.5 * q**2 +
    delta * (|e| - q) with q = min(|e|, delta).

    Raises:
        ValueError: shapes that differ (beyond a trailing 1).

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.losses.huber([[0.0, 0.0]], [[0.5, 3.0]]).numpy()
        array([1.3125], dtype=float32)
    """
    y_true, y_pred = _prepare("huber_loss", y_true, y_pred)
    abs_error = tf_math.abs(y_pred - y_true)
    quadratic = tf_math.minimum(abs_error, delta)
    linear = abs_error - quadratic
    return _mean_last(0.5 * math_ops.square(quadratic) + delta * linear)


def binary_crossentropy(y_true, y_pred, from_logits: bool = False,
                        label_smoothing: float = 0.0, axis: int = -1) -> Tensor:
    """-mean(y log p + (1 - y) log(1 - p)) over `axis`; p clipped to [1e-7, 1 - 1e-7],
    or computed stably from logits with `from_logits`.

    Raises:
        ValueError: shapes that differ (beyond a trailing 1).

    Example:
        >>> import tapeflow as tf
        >>> round(float(tf.keras.losses.binary_crossentropy([1.0], [0.5])), 4)
        0.6931
    """
    y_true, y_pred = _prepare("binary_crossentropy", y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    if from_logits:
        losses = tf_nn.sigmoid_cross_entropy_with_logits(labels=y_true, logits=y_pred)
    else:
        p = clip_ops.clip_by_value(y_pred, EPSILON, 1.0 - EPSILON)
        losses = -(y_true * math_ops.log(p + EPSILON)
                   + (1.0 - y_true) * math_ops.log(1.0 - p + EPSILON))
    return math_ops.reduce_mean(losses, axis=axis) if losses.ndim else losses


def categorical_crossentropy(y_true, y_pred, from_logits: bool = False,
                             label_smoothing: float = 0.0, axis: int = -1) -> Tensor:
    """-sum(y_true * log(p)) over `axis`, p = y_pred normalized to sum 1 and clipped to
    [1e-7, 1 - 1e-7], or softmax(y_pred) computed stably with `from_logits`.

    Raises:
        ValueError: y_true and y_pred have different shapes.

    Example:
        >>> import tapeflow as tf
        >>> loss = tf.keras.losses.categorical_crossentropy([[0.0, 1.0]], [[0.5, 0.5]])
        >>> [round(float(v), 4) for v in loss.numpy()]
        [0.6931]
    """
    y_pred = convert_to_tensor(y_pred)
    y_true = math_ops.cast(convert_to_tensor(y_true), y_pred.dtype)
    if _shape(y_true) != _shape(y_pred):
        raise ValueError(f"categorical_crossentropy: Shapes {tuple(_shape(y_true))} and "
                         f"{tuple(_shape(y_pred))} are incompatible (y_true must be one-hot, "
                         "shaped like y_pred; use sparse_categorical_crossentropy for integer "
                         "labels).")
    if label_smoothing:
        classes = _shape(y_pred)[axis]
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / classes
    if from_logits:
        return tf_nn.softmax_cross_entropy_with_logits(labels=y_true, logits=y_pred, axis=axis)
    p = y_pred / math_ops.reduce_sum(y_pred, axis=axis, keepdims=True)
    p = clip_ops.clip_by_value(p, EPSILON, 1.0 - EPSILON)
    return -math_ops.reduce_sum(y_true * math_ops.log(p), axis=axis)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits: bool = False,
                                    axis: int = -1) -> Tensor:
    """-log(p[label]) per example, for integer labels (shape [batch] or [batch, 1]) and
    class scores y_pred of shape [batch, classes]: probabilities (clipped), or logits.

    Raises:
        ValueError: labels shaped otherwise than y_pred without its class axis.
        InvalidArgumentError: a label outside [0, classes).

    Example:
        >>> import tapeflow as tf
        >>> loss = tf.keras.losses.sparse_categorical_crossentropy(
        ...     [1], [[0.0, 0.0]], from_logits=True)
        >>> [round(float(v), 4) for v in loss.numpy()]
        [0.6931]
    """
    name = "sparse_categorical_crossentropy"
    y_pred = convert_to_tensor(y_pred)
    y_true = convert_to_tensor(y_true)
    if axis not in (-1, y_pred.ndim - 1):
        y_pred = array_ops.transpose(y_pred, _move_to_end(y_pred.ndim, axis))
    if y_true.ndim == y_pred.ndim and y_true.ndim and _shape(y_true)[-1] == 1:
        y_true = _squeeze_last(y_true)
    if y_pred.ndim < 1 or _shape(y_true) != _shape(y_pred)[:-1]:
        raise ValueError(f"{name}: Shape mismatch: The shape of labels (received "
                         f"{tuple(_shape(y_true))}) should equal the shape of logits except for "
                         f"the last dimension (received {tuple(_shape(y_pred))}).")
    if not y_true.dtype.is_integer:
        y_true = math_ops.cast(y_true, "int64")
    if not from_logits:
        y_pred = math_ops.log(clip_ops.clip_by_value(y_pred, EPSILON, 1.0 - EPSILON))
    try:
        return tf_nn.sparse_softmax_cross_entropy_with_logits(labels=y_true, logits=y_pred)
    except errors.InvalidArgumentError as e:
        raise errors.InvalidArgumentError(None, e.op, f"{name}: {e.message}") from None


def _move_to_end(rank: int, axis: int) -> list:
    axis %= rank
    return [a for a in range(rank) if a != axis] + [axis]


def compute_weighted_loss(losses: Tensor, sample_weight=None, reduction: str = "auto"):
    """`losses` times `sample_weight`, then reduced ('sum_over_batch_size' divides the
    weighted sum by the number of losses, not by the sum of the weights, as Keras does).

    The weights broadcast against the losses after Keras's rank fix-up: a trailing 1 is
    squeezed from weights of one rank more, and weights of one rank less (one weight per
    example for per-timestep losses) get a trailing axis.

    Raises:
        InvalidArgumentError: weights that do not broadcast to the losses.
    """
    if sample_weight is not None:
        weight = math_ops.cast(convert_to_tensor(sample_weight), losses.dtype)
        if weight.ndim == losses.ndim + 1 and _shape(weight)[-1] == 1:
            weight = _squeeze_last(weight)
        elif weight.ndim and weight.ndim == losses.ndim - 1:
            weight = array_ops.expand_dims(weight, -1)
        losses = losses * weight
    if reduction == Reduction.NONE:
        return losses
    total = math_ops.reduce_sum(losses)
    if reduction == Reduction.SUM:
        return total
    count = losses.shape.num_elements()
    return total / float(max(count, 1))


class Loss:
    """Base class: `loss(y_true, y_pred, sample_weight=None)` is `call` reduced.

    Args:
        reduction: 'auto' / 'sum_over_batch_size' (default), 'sum' or 'none'.
        name: the loss's name.

    Raises:
        ValueError: an unknown reduction.
    """

    def __init__(self, reduction: str = Reduction.AUTO, name: str | None = None) -> None:
        Reduction.validate(reduction)
        self.reduction = reduction
        self.name = name

    def __call__(self, y_true, y_pred, sample_weight=None) -> Tensor:
        return compute_weighted_loss(self.call(y_true, y_pred), sample_weight, self.reduction)

    def call(self, y_true, y_pred) -> Tensor:
        """The per-example losses."""
        raise NotImplementedError

    def get_config(self) -> dict:
        return {"reduction": self.reduction, "name": self.name}

    @classmethod
    def from_config(cls, config: dict) -> "Loss":
        return cls(**config)


class LossFunctionWrapper(Loss):
    """A Loss computing `fn(y_true, y_pred, **kwargs)` per example."""

    def __init__(self, fn, reduction: str = Reduction.AUTO, name: str | None = None,
                 **kwargs) -> None:
        super().__init__(reduction, name or getattr(fn, "__name__", None))
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true, y_pred) -> Tensor:
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def get_config(self) -> dict:
        return {**super().get_config(), **self._fn_kwargs}


class MeanSquaredError(LossFunctionWrapper):
    """Mean of squared errors.

    Example:
        >>> import tapeflow as tf
        >>> float(tf.keras.losses.MeanSquaredError()([[0.0, 1.0], [0.0, 0.0]],
        ...                                          [[1.0, 1.0], [1.0, 0.0]]))
        0.5
    """

    def __init__(self, reduction: str = Reduction.AUTO, name: str = "mean_squared_error"):
        super().__init__(mean_squared_error, reduction, name)


class MeanAbsoluteError(LossFunctionWrapper):
    """Mean of absolute errors.

    Example:
        >>> import tapeflow as tf
        >>> float(tf.keras.losses.MeanAbsoluteError()([[0.0, 1.0]], [[2.0, 1.0]]))
        1.0
    """

    def __init__(self, reduction: str = Reduction.AUTO, name: str = "mean_absolute_error"):
        super().__init__(mean_absolute_error, reduction, name)


class Huber(LossFunctionWrapper):
    """Quadratic for errors up to `delta`, linear beyond (see `huber`).

    Example:
        >>> import tapeflow as tf
        >>> float(tf.keras.losses.Huber(delta=1.0)([[0.0, 0.0]], [[0.5, 3.0]]))
        1.3125
    """

    def __init__(self, delta: float = 1.0, reduction: str = Reduction.AUTO,
                 name: str = "huber_loss") -> None:
        super().__init__(huber, reduction, name, delta=delta)


class _Crossentropy(LossFunctionWrapper):
    """A cross entropy with `from_logits`, `label_smoothing` and `axis`."""

    _fn = None
    _default_name = ""

    def __init__(self, from_logits: bool = False, label_smoothing: float = 0.0,
                 axis: int = -1, reduction: str = Reduction.AUTO, name: str | None = None):
        super().__init__(type(self)._fn, reduction, name or self._default_name,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)


class BinaryCrossentropy(_Crossentropy):
    """Cross entropy of 0/1 targets and probabilities (or logits with `from_logits`).

    Example:
        >>> import tapeflow as tf
        >>> loss = tf.keras.losses.BinaryCrossentropy(from_logits=True)
        >>> round(float(loss([[1.0], [0.0]], [[0.0], [0.0]])), 4)
        0.6931
    """

    _fn = staticmethod(binary_crossentropy)
    _default_name = "binary_crossentropy"


class CategoricalCrossentropy(_Crossentropy):
    """Cross entropy of one-hot targets and class probabilities (or logits).

    Example:
        >>> import tapeflow as tf
        >>> loss = tf.keras.losses.CategoricalCrossentropy(from_logits=True)
        >>> round(float(loss([[0.0, 1.0]], [[0.0, 0.0]])), 4)
        0.6931
    """

    _fn = staticmethod(categorical_crossentropy)
    _default_name = "categorical_crossentropy"


class SparseCategoricalCrossentropy(LossFunctionWrapper):
    """Cross entropy of integer labels and class probabilities (or logits).

    Example:
        >>> import tapeflow as tf
        >>> loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
        >>> round(float(loss([0, 1], [[0.0, 0.0], [0.0, 0.0]])), 4)
        0.6931
    """

    def __init__(self, from_logits: bool = False, ignore_class=None,
                 reduction: str = Reduction.AUTO,
                 name: str = "sparse_categorical_crossentropy") -> None:
        if ignore_class is not None:
            raise NotImplementedError("SparseCategoricalCrossentropy: ignore_class is not "
                                      "supported; give those examples sample_weight 0.")
        super().__init__(sparse_categorical_crossentropy, reduction, name,
                         from_logits=from_logits)


mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error

_FUNCTIONS = {
    "mean_squared_error": mean_squared_error, "mse": mean_squared_error,
    "mean_absolute_error": mean_absolute_error, "mae": mean_absolute_error,
    "huber": huber, "huber_loss": huber, "binary_crossentropy": binary_crossentropy,
    "categorical_crossentropy": categorical_crossentropy,
    "sparse_categorical_crossentropy": sparse_categorical_crossentropy,
}
_CLASSES = {cls.__name__: cls for cls in (
    MeanSquaredError, MeanAbsoluteError, Huber, BinaryCrossentropy, CategoricalCrossentropy,
    SparseCategoricalCrossentropy)}


def get(identifier):
    """A loss from a name: a function for 'mse' or 'sparse_categorical_crossentropy', a Loss
    object for 'MeanSquaredError'. Callables and None pass through.

    Raises:
        ValueError: an unknown name.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.losses.get("mse").__name__
        'mean_squared_error'
    """
    if identifier is None or callable(identifier):
        return identifier
    if isinstance(identifier, str):
        found = by_name("loss function", identifier, _FUNCTIONS, _CLASSES)
        return found() if isinstance(found, type) else found
    raise ValueError(f"Could not interpret loss identifier: {identifier!r}")
