"""The Loss base class, Keras's reductions and the shape fix-ups every loss shares.

Each loss function returns one loss per example (the mean over the last axis for elementwise
losses); a Loss object weights those by `sample_weight` and reduces them:
'sum_over_batch_size' (the default) divides the weighted sum by the number of losses, 'sum'
sums, None or 'none' returns them as they are, 'mean_with_sample_weight' divides by the sum
of the weights.
"""
from __future__ import annotations

from ... import math as tf_math
from ...framework.tensor import Tensor, convert_to_tensor
from ...ops import array_ops, math_ops

__all__ = ["Reduction", "Loss", "LossFunctionWrapper", "compute_weighted_loss", "EPSILON"]

# Keras's fuzz factor: probabilities are clipped to [EPSILON, 1 - EPSILON] before a log.
EPSILON = 1e-7


class Reduction:
    """The reduction names of tf.keras 2, as `tf.keras.losses.Reduction` still lists them.
    Keras 3 losses take 'sum_over_batch_size', 'sum', None / 'none', 'mean' and
    'mean_with_sample_weight' (not 'auto')."""

    AUTO = "auto"
    NONE = "none"
    SUM = "sum"
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"

    @classmethod
    def all(cls) -> tuple:
        return (cls.AUTO, cls.NONE, cls.SUM, cls.SUM_OVER_BATCH_SIZE)

    @classmethod
    def validate(cls, key) -> None:
        """Raises ValueError for anything but the four names."""
        if key not in cls.all():
            raise ValueError(f'Invalid Reduction Key: {key!r}. Expected keys are "{cls.all()}"')


REDUCTIONS = (None, "none", "sum", "sum_over_batch_size", "mean", "mean_with_sample_weight")


def check_reduction(reduction) -> None:
    """Raises ValueError for anything but Keras 3's reductions."""
    if reduction not in REDUCTIONS:
        raise ValueError(f"Invalid value for argument `reduction`. Expected one of "
                         f"{REDUCTIONS}. Received: reduction={reduction!r}")


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


def match_ranks(x: Tensor, y: Tensor, expand_rank_1: bool = True) -> tuple:
    """Keras's rank fix-up for two tensors whose ranks differ by one: where the higher rank
    ends in 1, that axis is squeezed, or (`expand_rank_1`, the other of rank 1) the other
    gets a trailing axis. Anything else is returned as it is."""
    if x.ndim == y.ndim + 1 and _shape(x)[-1] == 1:
        return (x, array_ops.expand_dims(y, -1)) if y.ndim == 1 and expand_rank_1 \
            else (_squeeze_last(x), y)
    if y.ndim == x.ndim + 1 and _shape(y)[-1] == 1:
        return (array_ops.expand_dims(x, -1), y) if x.ndim == 1 and expand_rank_1 \
            else (x, _squeeze_last(y))
    return x, y


def compute_weighted_loss(losses: Tensor, sample_weight=None,
                          reduction: str | None = "sum_over_batch_size"):
    """`losses` times `sample_weight`, then reduced as Keras 3 does: 'sum_over_batch_size'
    (or 'mean') divides the weighted sum by the number of losses, not by the sum of the
    weights; 'mean_with_sample_weight' divides by the sum of the weights; 'sum' sums; None
    or 'none' (and a scalar loss) is returned as it is.

    The weights meet the losses after Keras's rank fix-up (`match_ranks`); weights of one
    rank less than the losses otherwise (one weight per example for per-timestep losses) get
    a trailing axis, where Keras 3 would fail to broadcast them.

    Raises:
        ValueError: an unknown reduction.
        InvalidArgumentError: weights that do not broadcast to the losses.

    Example:
        >>> import tapeflow as tf
        >>> from tapeflow.keras.losses import compute_weighted_loss
        >>> float(compute_weighted_loss(tf.constant([1.0, 3.0]), [1.0, 0.0]))
        0.5
    """
    check_reduction(reduction)
    weight = None
    if sample_weight is not None:
        weight = math_ops.cast(convert_to_tensor(sample_weight), losses.dtype)
        losses, weight = match_ranks(losses, weight)
        if weight.ndim and weight.ndim == losses.ndim - 1:   # one weight per example
            weight = array_ops.expand_dims(weight, -1)
        losses = losses * weight
    if reduction in (None, "none") or losses.ndim == 0:
        return losses
    total = math_ops.reduce_sum(losses)
    if reduction == "sum":
        return total
    if reduction == "mean_with_sample_weight" and weight is not None:
        return tf_math.divide_no_nan(total, math_ops.reduce_sum(weight))
    return tf_math.divide_no_nan(total, float(losses.shape.num_elements()))


class Loss:
    """Base class: `loss(y_true, y_pred, sample_weight=None)` is `call` reduced.

    Args:
        name: the loss's name.
        reduction: 'sum_over_batch_size' (default), 'sum', None / 'none', 'mean' or
            'mean_with_sample_weight' (see `compute_weighted_loss`).
        dtype: the dtype y_pred (and floating y_true) are cast to before the loss is
            computed; by default the loss takes y_pred's dtype (Keras 3 casts to float32).

    Raises:
        ValueError: an unknown reduction.
    """

    def __init__(self, name: str | None = None, reduction: str | None = "sum_over_batch_size",
                 dtype=None) -> None:
        check_reduction(reduction)
        self.reduction = reduction
        self.name = name
        self.dtype = dtype

    def __call__(self, y_true, y_pred, sample_weight=None) -> Tensor:
        if self.dtype is not None:
            y_pred = math_ops.cast(convert_to_tensor(y_pred), self.dtype)
            y_true = convert_to_tensor(y_true)
            if y_true.dtype.is_floating:
                y_true = math_ops.cast(y_true, self.dtype)
        return compute_weighted_loss(self.call(y_true, y_pred), sample_weight, self.reduction)

    def call(self, y_true, y_pred) -> Tensor:
        """The per-example losses."""
        raise NotImplementedError

    def get_config(self) -> dict:
        return {"name": self.name, "reduction": self.reduction}

    @classmethod
    def from_config(cls, config: dict) -> "Loss":
        return cls(**config)


class LossFunctionWrapper(Loss):
    """A Loss computing `fn(y_true, y_pred, **kwargs)` per example."""

    def __init__(self, fn, reduction: str | None = "sum_over_batch_size",
                 name: str | None = None, dtype=None, **kwargs) -> None:
        super().__init__(name or getattr(fn, "__name__", None), reduction, dtype)
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true, y_pred) -> Tensor:
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def get_config(self) -> dict:
        return {**super().get_config(), **self._fn_kwargs}


def wrapper_class(class_name: str, fn, default_name: str, summary: str, example: str) -> type:
    """A LossFunctionWrapper subclass for a loss function without options, with Keras's
    signature `(reduction='sum_over_batch_size', name=default_name, dtype=None)`."""
    def __init__(self, reduction: str | None = "sum_over_batch_size", name: str = default_name,
                 dtype=None) -> None:
        LossFunctionWrapper.__init__(self, fn, reduction, name, dtype)

    doc = f"{summary}\n\n    Example:\n        >>> import tapeflow as tf\n{example}"
    return type(class_name, (LossFunctionWrapper,), {
        "__init__": __init__, "__doc__": doc, "__module__": fn.__module__,
        "get_config": Loss.get_config})
