"""How each op's gradient rule handles a batch of upstream gradients (vectorized Jacobians).

The batched reverse pass (eager/batched_backprop.py) gives every gradient a leading batch
axis. A rule that only combines the gradient elementwise (with broadcasting) or by matmul
works on it unchanged: declare it with `batch_transparent`. A rule that uses shapes or axes
needs a batched variant: register it with `RegisterBatchedGradient`. Any other op's rule
runs once per batch row.
"""
from __future__ import annotations

from typing import Callable, Optional

__all__ = ["batch_transparent", "RegisterBatchedGradient", "batched_rule", "is_batch_transparent"]

_TRANSPARENT: set = set()
_BATCHED_RULES: dict = {}


def batch_transparent(*op_types: str) -> None:
    """Declares the gradient rules of `op_types` correct on batched gradients as they are."""
    _TRANSPARENT.update(op_types)


def is_batch_transparent(op_type: str) -> bool:
    return op_type in _TRANSPARENT


class RegisterBatchedGradient:
    """Decorator registering `fn(op, *grads)` for gradients with a leading batch axis.

    `fn` returns one gradient per input with the batch axis first, at the input's shape or
    a broadcast of it (the engine sums it down). `op.skip_input_indices` lists the inputs
    whose gradients nobody needs; return None for them.
    """

    def __init__(self, op_type: str) -> None:
        self._op_type = op_type

    def __call__(self, fn: Callable) -> Callable:
        if self._op_type in _BATCHED_RULES:
            raise KeyError(f"a batched gradient for op {self._op_type!r} is already registered")
        _BATCHED_RULES[self._op_type] = fn
        return fn


def batched_rule(op_type: str) -> Optional[Callable]:
    return _BATCHED_RULES.get(op_type)
