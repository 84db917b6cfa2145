"""The losses and metrics `Model.compile` was given, as `fit` and `evaluate` use them.

For a model with several outputs, `loss`, `loss_weights`, `metrics`, `weighted_metrics`,
targets and sample weights may each be given per output, as a list in output order or a
dict keyed by output name; a single loss (or metric list) applies to every output. The
total loss is the weighted sum of the outputs' losses plus the regularization losses;
the logs show it as 'loss' and, with several outputs, each as '<output>_loss' (metrics
as '<output>_<metric>').
"""
from __future__ import annotations

from ..framework import nest
from ..ops import math_ops
from . import losses as losses_module
from . import metrics as metrics_module

__all__ = ["CompiledLoss", "CompiledMetrics", "flat_per_output"]


def flat_per_output(what: str, value, names: list) -> list:
    """`value` (targets or sample weights) as one entry per output: a dict by output name,
    a list in output order, or one value shared by every output.

    Raises:
        ValueError: a dict without some output's name, or a list of the wrong length.
    """
    count = len(names)
    if value is None:
        return [None] * count
    if isinstance(value, dict):
        unknown = sorted(set(value) - set(names))
        if unknown:
            raise ValueError(f"{what}: unknown output name(s) {unknown}; the model's outputs "
                             f"are {names}.")
        return [value.get(name) for name in names]
    if isinstance(value, (list, tuple)):
        flat = nest.flatten(value)
        if len(flat) == count:
            return flat
        raise ValueError(f"{what}: expected {count} entries (one per output {names}), got "
                         f"{len(flat)}.")
    return [value] * count


def _as_loss(spec):
    if spec is None:
        return None
    loss = losses_module.get(spec)
    return loss if isinstance(loss, losses_module.Loss) else losses_module.LossFunctionWrapper(loss)


class CompiledLoss:
    """The compiled loss(es), and Means of the total and (several outputs) per-output
    losses, weighted by batch size."""

    def __init__(self, loss, loss_weights=None) -> None:
        self._loss_spec = loss
        self._weight_spec = loss_weights
        nested = isinstance(loss, (list, tuple, dict))
        self.loss = None if nested else _as_loss(loss)
        self.tracker = metrics_module.Mean(name="loss")
        self.output_trackers: list = []
        self.losses: list | None = None
        self.names: list = []

    @property
    def built(self) -> bool:
        return self.losses is not None

    def build(self, names: list) -> None:
        """Matches the losses and weights to the outputs called `names`.

        Raises:
            ValueError: a list of the wrong length, unknown output names, or no loss at all.
        """
        spec = self._loss_spec
        if isinstance(spec, (list, tuple, dict)):
            losses = [_as_loss(s) for s in flat_per_output("loss", spec, names)]
        else:
            losses = [self.loss] * len(names)
        if all(loss is None for loss in losses):
            raise ValueError(f"No loss to compute: `loss` gives none for the outputs {names}.")
        weights = flat_per_output("loss_weights", self._weight_spec, names)
        self.weights = [1.0 if w is None else float(w) for w in weights]
        self.names = list(names)
        self.losses = losses
        if len(names) > 1:
            self.output_trackers = [metrics_module.Mean(name=f"{name}_loss")
                                    if loss is not None else None
                                    for name, loss in zip(names, losses)]

    def __call__(self, y_true, y_pred, sample_weight=None, regularization_losses=None):
        if y_true is None:
            raise ValueError("Target data is missing. Your model was compiled with a loss, "
                             "and therefore expects target data to be passed in `fit()`.")
        predictions = nest.flatten(y_pred)
        targets = flat_per_output("targets (y)", y_true, self.names) if len(self.names) > 1 \
            else [y_true]
        weights = flat_per_output("sample_weight", sample_weight, self.names)
        batch = predictions[0].shape.as_list()[0]
        total = None
        for i, loss in enumerate(self.losses):
            if loss is None:
                continue
            value = loss(targets[i], predictions[i], sample_weight=weights[i])
            if self.output_trackers:
                self.output_trackers[i].update_state(value, sample_weight=batch)
            if self.weights[i] != 1.0:
                value = value * self.weights[i]
            total = value if total is None else total + value
        if regularization_losses:
            total = total + math_ops.add_n([math_ops.cast(loss, total.dtype)
                                            for loss in regularization_losses])
        self.tracker.update_state(total, sample_weight=batch)
        return total

    @property
    def metrics(self) -> list:
        return [self.tracker] + [t for t in self.output_trackers if t is not None]


def _metric_specs(spec, names: list) -> list:
    """One list of metric specs per output."""
    if spec is None:
        return [[] for _ in names]
    if isinstance(spec, dict):
        per_output = flat_per_output("metrics", spec, names)
        return [[] if s is None else list(s) if isinstance(s, (list, tuple)) else [s]
                for s in per_output]
    spec = list(spec) if isinstance(spec, (list, tuple)) else [spec]
    if len(names) > 1 and spec and all(isinstance(s, (list, tuple)) or s is None
                                       for s in spec):
        if len(spec) != len(names):
            raise ValueError(f"metrics: expected {len(names)} lists (one per output {names}), "
                             f"got {len(spec)}.")
        return [[] if s is None else list(s) for s in spec]
    return [spec for _ in names]


class CompiledMetrics:
    """The metrics (updated without sample weights) and weighted metrics (with them) given
    to `compile`; 'accuracy' picks binary, categorical or sparse categorical accuracy from
    the loss and the shapes of the first batch, as Keras does. A metric given by name logs
    under that name ('mae' as 'mae', 'mean_absolute_error' as 'mean_absolute_error')."""

    def __init__(self, metrics, weighted_metrics, compiled_loss: CompiledLoss) -> None:
        self._specs = metrics
        self._weighted_specs = weighted_metrics
        self._compiled_loss = compiled_loss
        self.metrics: list | None = None

    def _resolve(self, spec, loss, y_true, y_pred, used: set):
        if spec not in ("accuracy", "acc"):
            metric = metrics_module.get(spec)
            if isinstance(spec, str):           # named as given: "mae" logs as "mae"
                metric = type(metric).from_config({**metric.get_config(), "name": spec})
            elif id(metric) in used:            # one metric object given for two outputs
                metric = type(metric).from_config(metric.get_config())
            used.add(id(metric))
            return metric
        fn = getattr(loss, "fn", loss)
        if fn is losses_module.binary_crossentropy or y_pred.shape.as_list()[-1] == 1:
            cls = metrics_module.BinaryAccuracy
        elif fn is losses_module.sparse_categorical_crossentropy \
                or y_true.ndim < y_pred.ndim or y_true.shape.as_list()[-1] == 1:
            cls = metrics_module.SparseCategoricalAccuracy
        else:
            cls = metrics_module.CategoricalAccuracy
        return cls(name=spec)

    def _build(self, names: list, targets: list, predictions: list) -> None:
        losses = self._compiled_loss.losses if self._compiled_loss is not None \
            and self._compiled_loss.built else [getattr(self._compiled_loss, "loss", None)] \
            * len(names)
        self._entries = []
        taken, used = set(), set()
        for weighted, spec in ((False, self._specs), (True, self._weighted_specs)):
            for i, specs in enumerate(_metric_specs(spec, names)):
                for one in specs:
                    metric = self._resolve(one, losses[i], targets[i], predictions[i], used)
                    name = f"{names[i]}_{metric.name}" if len(names) > 1 else metric.name
                    if weighted and name in taken:
                        name = f"weighted_{name}"
                    metric._name = name
                    taken.add(name)
                    self._entries.append((i, weighted, metric))
        self.metrics = [metric for _, _, metric in self._entries]

    def update_state(self, y_true, y_pred, sample_weight=None, names=None) -> None:
        predictions = nest.flatten(y_pred)
        names = names or [f"output_{i + 1}" for i in range(len(predictions))]
        targets = flat_per_output("targets (y)", y_true, names) if len(names) > 1 else [y_true]
        if self.metrics is None:
            self._build(names, targets, predictions)
        weights = flat_per_output("sample_weight", sample_weight, names)
        for i, weighted, metric in self._entries:
            metric.update_state(targets[i], predictions[i],
                                sample_weight=weights[i] if weighted else None)
