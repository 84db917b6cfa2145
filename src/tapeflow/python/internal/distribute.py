"""`tf.__internal__.distribute`: calling a cross-replica function from a replica
(`interim.maybe_merge_call`) over tapeflow's strategies' merge calls."""
from __future__ import annotations

import types as _types

__all__ = ["interim", "strategy_supports_no_merge_call"]


def strategy_supports_no_merge_call() -> bool:
    """Whether the current strategy can run a cross-replica function from a replica without
    a merge call: only the default strategy (one replica, no scope) can.

    Example:
        >>> import tapeflow as tf
        >>> tf.__internal__.distribute.strategy_supports_no_merge_call()
        True
        >>> with tf.distribute.MirroredStrategy().scope():
        ...     tf.__internal__.distribute.strategy_supports_no_merge_call()
        False
    """
    from ... import distribute
    return not distribute.has_strategy()


def maybe_merge_call(fn, strategy, *args, **kwargs):
    """`fn(strategy, *args, **kwargs)`: directly when the strategy needs no merge call (or
    the code already runs in the cross-replica context), else through the replica
    context's `merge_call`.

    Args:
        fn: a function of the strategy and `args`.
        strategy: the `tf.distribute.Strategy` it runs under.
        *args, **kwargs: `fn`'s other arguments.

    Returns:
        What `fn` returns.

    Example:
        >>> import tapeflow as tf
        >>> merge = tf.__internal__.distribute.interim.maybe_merge_call
        >>> strategy = tf.distribute.MirroredStrategy()
        >>> strategy.run(lambda: merge(lambda s, a: (type(s).__name__, a), strategy, 5))
        ('MirroredStrategy', 5)
    """
    from ... import distribute
    context = None if strategy_supports_no_merge_call() else distribute.get_replica_context()
    if context is None:
        return fn(strategy, *args, **kwargs)
    return context.merge_call(fn, args=args, kwargs=kwargs)


# TF keeps this one in a submodule of its own.
interim = _types.SimpleNamespace(maybe_merge_call=maybe_merge_call)
