"""Keras masks: which time steps of a tensor are real (True) and which are padding.

A layer such as `Embedding(mask_zero=True)` or `Masking` attaches a mask to its output;
layers that support masking receive it as their `mask` argument and pass it on, and losses
and metrics in `fit` give the masked steps weight 0. Tensors have fixed attributes, so the
masks live in a table keyed by the tensor, dropped with it.
"""
from __future__ import annotations

import weakref

__all__ = ["get_keras_mask", "set_keras_mask"]

# id(tensor) -> (weak reference to the tensor, its mask).
_MASKS: dict = {}


def get_keras_mask(x):
    """The mask a layer attached to its output `x` (e.g. Embedding(mask_zero=True)), or
    None. Masks travel with tensors from layer to layer."""
    entry = _MASKS.get(id(x))
    return entry[1] if entry is not None and entry[0]() is x else None


def set_keras_mask(x, mask) -> None:
    """Attaches `mask` to the tensor `x` (None removes it)."""
    key = id(x)
    if mask is None:
        _MASKS.pop(key, None)
        return
    try:
        ref = weakref.ref(x, lambda _, key=key: _MASKS.pop(key, None))
    except TypeError:
        return
    _MASKS[key] = (ref, mask)
