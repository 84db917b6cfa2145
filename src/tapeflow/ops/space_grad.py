"""Gradient rules of space_ops. Each works on raw arrays and on Tensors alike."""
from __future__ import annotations

import numpy as np

from ..framework.registry import RegisterGradient
from .array_ops import Reshape, Transpose
from .gather_ops import UnsortedSegmentSum
from .op_util import shape_of
from .space_ops import (BatchToSpaceND, DepthToSpace, ReverseSequence, SpaceToBatchND,
                        SpaceToDepth, patch_positions)


@RegisterGradient("DepthToSpace")
def _depth_to_space_grad(op, g):
    return SpaceToDepth(g, **op.attrs)


@RegisterGradient("SpaceToDepth")
def _space_to_depth_grad(op, g):
    return DepthToSpace(g, **op.attrs)


@RegisterGradient("SpaceToBatchND")
def _space_to_batch_grad(op, g):
    return BatchToSpaceND(g, block_shape=op.attrs["block_shape"], crops=op.attrs["paddings"])


@RegisterGradient("BatchToSpaceND")
def _batch_to_space_grad(op, g):
    return SpaceToBatchND(g, block_shape=op.attrs["block_shape"], paddings=op.attrs["crops"])


@RegisterGradient("ReverseSequence")
def _reverse_sequence_grad(op, g):
    return ReverseSequence(g, op.inputs[1], **op.attrs), None


@RegisterGradient("ExtractImagePatches")
def _extract_patches_grad(op, g):
    # Each patch entry adds its gradient to the pixel it read (padding reads none): a
    # segment sum over the pixels of one image, with the batch moved last.
    batch, height, width, depth = shape_of(op.inputs[0])
    positions = patch_positions(height, width, depth, **op.attrs).reshape(-1)
    per_entry = Transpose(Reshape(g, (batch, positions.size)), perm=(1, 0))
    pixels = UnsortedSegmentSum(per_entry, positions.astype(np.int64),
                                num_segments=height * width * depth)
    return Reshape(Transpose(pixels, perm=(1, 0)), (batch, height, width, depth))
