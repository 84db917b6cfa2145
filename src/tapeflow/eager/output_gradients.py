"""The contract of `GradientTape.gradient`'s `output_gradients`, checked before any work."""
from __future__ import annotations

from ..framework import errors
from ..framework.indexed_slices import IndexedSlices
from ..framework.tensor import convert_to_tensor

__all__ = ["checked_output_gradients"]


def checked_output_gradients(targets: list, upstream: list) -> list:
    """`upstream` (one entry per flattened target, None for ones) as tensors matching them.

    Python and NumPy data take the target's dtype; a tensor must have it already.

    Raises:
        InvalidArgumentError: an entry whose dtype or shape is not its target's (a gradient
            that merely broadcasts against the target would give sources wrong shapes).
    """
    checked = []
    for i, (target, grad) in enumerate(zip(targets, upstream)):
        if grad is None or isinstance(target, IndexedSlices) or isinstance(grad, IndexedSlices):
            checked.append(grad)
            continue
        if not hasattr(grad, "_as_tensor") and not hasattr(grad, "_op"):
            try:
                grad = convert_to_tensor(grad, dtype=target.dtype)
            except (TypeError, ValueError) as e:
                raise errors.invalid_argument(
                    "gradient", f"output_gradients[{i}] does not convert to the target's "
                    f"dtype {target.dtype.name}: {e}") from None
        if grad.dtype != target.dtype:
            raise errors.invalid_argument(
                "gradient", f"output_gradients[{i}] has dtype {grad.dtype.name} but its "
                f"target has dtype {target.dtype.name}")
        if not grad.shape.is_compatible_with(target.shape):
            raise errors.invalid_argument(
                "gradient", f"output_gradients[{i}] has shape {grad.shape} but its target has "
                f"shape {target.shape}; they must be equal")
        checked.append(grad)
    return checked
