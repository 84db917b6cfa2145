"""How each op's gradient rule handles a batch of upstream gradients (vectorized Jacobians).

The batched reverse pass (the batched domain of eager/backward.py) gives every gradient a leading batch
axis. An op's rule is reused in one of three ways, read from its OpDef: a hand-written
batched rule registered with `RegisterBatchedGradient`, where that is faster; else its
`batching`, declared at `define_op` or following from its family: TRANSPARENT (the rule
is right on batched gradients as it is) or a `Stacking` (the rule is shown the op run on a
stack of copies of its inputs). Any other op's rule runs once per batch row.
"""
from __future__ import annotations

from typing import Callable, Optional

from .registry import TRANSPARENT, Stacking, get_op

__all__ = ["RegisterBatchedGradient", "batched_rule", "has_batched_gradient",
           "is_batch_transparent", "stacking_attrs"]


def is_batch_transparent(op_type: str) -> bool:
    return get_op(op_type).batching is TRANSPARENT


def stacking_attrs(op_type: str, attrs: dict, batch: int) -> Optional[dict]:
    """`attrs` of `op_type` run on a stack of `batch` copies of its inputs (see Stacking);
    None if the op does not batch by stacking."""
    batching = get_op(op_type).batching
    return batching.attrs(attrs, batch) if isinstance(batching, Stacking) else None


class RegisterBatchedGradient:
    """Decorator registering `fn(op, *grads)` for gradients with a leading batch axis.

    `fn` returns one gradient per input with the batch axis first, at the input's shape or
    a broadcast of it (the engine sums it down); None for the inputs in
    `op.skip_input_indices`, whose gradients nobody needs.

    Raises:
        LookupError: no op named `op_type` is defined.
        KeyError: a batched gradient for it is already registered.
    """

    def __init__(self, op_type: str) -> None:
        self._op = get_op(op_type)

    def __call__(self, fn: Callable) -> Callable:
        if self._op.batched_grad is not None:
            raise KeyError(f"a batched gradient for op {self._op.name!r} is already registered")
        self._op.batched_grad = fn
        return fn


def batched_rule(op_type: str) -> Optional[Callable]:
    return get_op(op_type).batched_grad


def has_batched_gradient(op_type: str) -> bool:
    """Whether the batched pass handles `op_type` without a loop over the batch."""
    op = get_op(op_type)
    return op.batched_grad is not None or op.batching is not None
