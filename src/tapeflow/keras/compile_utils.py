"""The loss and metrics `Model.compile` was given, as `fit` and `evaluate` use them."""
from __future__ import annotations

from . import losses as losses_module
from . import metrics as metrics_module

__all__ = ["CompiledLoss", "CompiledMetrics"]


class CompiledLoss:
    """The loss given to `compile`, and a Mean of its values weighted by batch size."""

    def __init__(self, loss) -> None:
        loss = losses_module.get(loss)
        if not isinstance(loss, losses_module.Loss):
            loss = losses_module.LossFunctionWrapper(loss)
        self.loss = loss
        self.tracker = metrics_module.Mean(name="loss")

    def __call__(self, y_true, y_pred, sample_weight=None):
        if y_true is None:
            raise ValueError("Target data is missing. Your model was compiled with a loss, "
                             "and therefore expects target data to be passed in `fit()`.")
        value = self.loss(y_true, y_pred, sample_weight=sample_weight)
        self.tracker.update_state(value, sample_weight=y_pred.shape.as_list()[0])
        return value


class CompiledMetrics:
    """The metrics given to `compile`; 'accuracy' picks binary, categorical or sparse
    categorical accuracy from the shapes of the first batch, as Keras does."""

    def __init__(self, metrics, loss) -> None:
        self._specs = list(metrics or [])
        self._loss = loss
        self.metrics: list | None = None

    def _resolve(self, spec, y_true, y_pred):
        if spec not in ("accuracy", "acc"):
            return metrics_module.get(spec)
        fn = getattr(self._loss, "fn", self._loss)
        if fn is losses_module.binary_crossentropy or y_pred.shape.as_list()[-1] == 1:
            cls = metrics_module.BinaryAccuracy
        elif fn is losses_module.sparse_categorical_crossentropy \
                or y_true.ndim < y_pred.ndim or y_true.shape.as_list()[-1] == 1:
            cls = metrics_module.SparseCategoricalAccuracy
        else:
            cls = metrics_module.CategoricalAccuracy
        return cls(name=spec)

    def update_state(self, y_true, y_pred, sample_weight=None) -> None:
        if self.metrics is None:
            self.metrics = [self._resolve(spec, y_true, y_pred) for spec in self._specs]
        for metric in self.metrics:
            metric.update_state(y_true, y_pred, sample_weight=sample_weight)
