"""Keras models under a `tf.distribute` strategy.

A model remembers the strategy whose scope it was made in; `compile`, `fit`, `evaluate`
and `predict` run in that scope, their steps as the worker's replica (`strategy.run`).
With several replicas (MPI workers) each global batch is cut into one part per worker, the
loss each worker differentiates is divided by the number of replicas (the optimizer sums
the gradients: their mean results), every worker shuffles with the chief's seed, the
metrics in the logs are summed over the workers (Keras keeps metric state as sums),
`predict` gathers the workers' parts, and only the chief writes weights.
"""
from __future__ import annotations

import contextlib

import numpy as np

__all__ = ["current_strategy", "gathered", "global_logs", "replicated", "scaled_loss",
           "scope", "shard", "shared_rng", "writes_files"]


def current_strategy():
    """The strategy of the enclosing scope, or None outside every scope."""
    import tapeflow as tf
    return tf.distribute.get_strategy() if tf.distribute.has_strategy() else None


def _several(model):
    """The model's strategy when it has more than one replica, else None."""
    strategy = model._distribute_strategy
    return strategy if strategy is not None and strategy.num_replicas_in_sync > 1 else None


def scope(model):
    """The scope of the model's strategy (nothing for a model made outside any)."""
    strategy = model._distribute_strategy
    return strategy.scope() if strategy is not None else contextlib.nullcontext()


def replicated(model, step):
    """`step` run as this worker's replica (`strategy.run`) when the model has a strategy."""
    strategy = model._distribute_strategy
    if strategy is None:
        return step
    return lambda data: strategy.run(step, args=(data,))


def scaled_loss(model, loss):
    """The loss to differentiate: divided by the replicas, whose gradients are summed."""
    strategy = _several(model)
    return loss if strategy is None else loss / float(strategy.num_replicas_in_sync)


def shared_rng(model, rng_factory):
    """A factory of shuffling Generators: the model's own, or with several workers, one
    seeded by the chief so every worker cuts the same global batches."""
    strategy = _several(model)
    if strategy is None:
        return rng_factory
    import tapeflow as tf
    mine = int(rng_factory().integers(2 ** 31)) if strategy.extended.should_checkpoint else 0
    seed = int(strategy.reduce("SUM", tf.constant(mine, tf.int64), axis=None))
    rng = np.random.default_rng(seed)
    return lambda: rng


def shard(model, batches):
    """This worker's part of each global batch (the batches themselves with one worker)."""
    strategy = _several(model)
    return batches if strategy is None else strategy.experimental_distribute_dataset(batches)


def global_logs(model, logs: dict) -> dict:
    """`logs` with each metric's result over every worker's examples: the metric states
    are summed over the workers for the result, then set back to this worker's."""
    strategy = _several(model)
    if strategy is None:
        return logs
    metrics = model.metrics
    variables = [v for metric in metrics for v in metric.variables]
    own = [v.numpy() for v in variables]
    for variable, total in zip(variables, strategy.reduce(
            "SUM", [v.read_value() for v in variables], axis=None)):
        variable.assign(total)
    merged = dict(logs)
    merged.update({metric.name: float(metric.result()) for metric in metrics})
    for variable, value in zip(variables, own):
        variable.assign(value)
    return merged


def gathered(model, outputs):
    """Every worker's predictions for a global batch, in batch order."""
    strategy = _several(model)
    return outputs if strategy is None else strategy.gather(outputs, axis=0)


def writes_files(model) -> bool:
    """Whether this worker writes the model's files: not under a strategy, or the chief."""
    strategy = model._distribute_strategy
    return strategy is None or strategy.extended.should_checkpoint
