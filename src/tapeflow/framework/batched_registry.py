"""How each op's gradient rule handles a batch of upstream gradients (vectorized Jacobians).

The batched reverse pass (eager/batched_backprop.py) gives every gradient a leading batch
axis. An op's rule is reused in one of three ways, declared here:
- `batch_transparent`: the rule only combines the gradient elementwise (broadcasting) or
  by matmul, so it works on batched gradients unchanged;
- `batch_by_stacking`: the rule uses axes or shapes; it is shown the op as if it had run on
  a stack of copies of its inputs (inputs broadcast along a new first axis, axis attributes
  moved one place right), which makes its gradients the batched ones;
- `RegisterBatchedGradient`: a hand-written batched rule, where that is faster.
Any other op's rule runs once per batch row.
"""
from __future__ import annotations

from typing import Callable, Optional

__all__ = ["BATCH", "batch_transparent", "batch_by_stacking", "RegisterBatchedGradient",
           "batched_rule", "has_batched_gradient", "is_batch_transparent", "stacking_attrs"]

_TRANSPARENT: set = set()
_STACKING: dict = {}
_BATCHED_RULES: dict = {}


def batch_transparent(*op_types: str) -> None:
    """Declares the gradient rules of `op_types` correct on batched gradients as they are."""
    _TRANSPARENT.update(op_types)


def is_batch_transparent(op_type: str) -> bool:
    return op_type in _TRANSPARENT


# In `leading`, stands for the batch size.
BATCH = object()


def batch_by_stacking(*op_types: str, axes: tuple = ("axis",), perms: tuple = (),
                      leading: Optional[dict] = None,
                      transform: Optional[Callable] = None) -> None:
    """Declares `op_types` batchable as a stack: the op applied to inputs stacked along a
    new first axis stacks its outputs the same way, once its attributes say so: those in
    `axes` (an axis or a tuple of them) move one place right, those in `perms` (a
    permutation) gain the new axis first, and each per-axis tuple in `leading` gains the
    given first entry (BATCH for the batch size). `transform(attrs)`, if given, makes any
    other change, or returns None where stacking cannot express the op.
    """
    for op_type in op_types:
        _STACKING[op_type] = (axes, perms, leading or {}, transform)


def stacking_attrs(op_type: str, attrs: dict, batch: int) -> Optional[dict]:
    """`attrs` of a stacked `op_type` (see batch_by_stacking); None if not declared."""
    spec = _STACKING.get(op_type)
    if spec is None:
        return None
    axes, perms, leading, transform = spec
    shifted = dict(attrs)
    for name, first in leading.items():
        if name in attrs:
            shifted[name] = (batch if first is BATCH else first,) + tuple(attrs[name])
    for name in axes:
        if name in attrs:
            value = attrs[name]
            shifted[name] = tuple(_shift(a) for a in value) if isinstance(value, tuple) \
                else _shift(value)
    for name in perms:
        if name in attrs:
            shifted[name] = (0,) + tuple(p + 1 for p in attrs[name])
    return shifted if transform is None else transform(shifted)


def _shift(axis: int) -> int:
    return axis + 1 if axis >= 0 else axis


class RegisterBatchedGradient:
    """Decorator registering `fn(op, *grads)` for gradients with a leading batch axis.

    `fn` returns one gradient per input with the batch axis first, at the input's shape or
    a broadcast of it (the engine sums it down); None for the inputs in
    `op.skip_input_indices`, whose gradients nobody needs.
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


def has_batched_gradient(op_type: str) -> bool:
    """Whether the batched pass handles `op_type` without a loop over the batch."""
    return op_type in _TRANSPARENT or op_type in _STACKING or op_type in _BATCHED_RULES
