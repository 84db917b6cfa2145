"""Gradient rules of xla_ops (TF registers none; these are the slices' own transposes).
Each works on raw arrays and on Tensors alike."""
from __future__ import annotations

import numpy as np

from ..framework.registry import RegisterGradient
from .op_util import dtype_of, shape_of
from .xla_ops import XlaDynamicSlice, XlaDynamicUpdateSlice


@RegisterGradient("XlaDynamicSlice")
def _dynamic_slice_grad(op, g):
    x, start = op.inputs
    return XlaDynamicUpdateSlice(np.zeros(shape_of(x), dtype_of(g)), g, start), None


@RegisterGradient("XlaDynamicUpdateSlice")
def _dynamic_update_slice_grad(op, g):
    _, update, start = op.inputs
    size = shape_of(update)
    return (XlaDynamicUpdateSlice(g, np.zeros(size, dtype_of(g)), start),
            XlaDynamicSlice(g, start, size=size), None)
