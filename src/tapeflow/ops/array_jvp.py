"""Forward-mode (JVP) rules of array, creation and indexing ops: all linear but one."""
from __future__ import annotations

from ..framework.registry import RegisterJVP
from .array_ops import PadV2
from .jvp_util import linear_jvp, register_jvps

register_jvps(linear_jvp, "Identity", "IdentityN", "Reshape", "BroadcastTo",
              "Transpose", "ConcatV2", "SplitV", "ExpandDims", "Squeeze", "Pack", "Unpack",
              "Tile", "MirrorPad", "MirrorPadGrad", "ReverseV2", "Roll", "UnsortedSegmentSum",
              "Fill", "Slice", "StridedSlice", "StridedSliceGrad", "GatherV2", "GatherNd",
              "ScatterNd", "TensorScatterUpdate", "TensorScatterAdd", "SelectV2")


@RegisterJVP("ReadVariableOp")
def _read_variable_jvp(op, t):
    # The variable's tangent itself (a graph has no ReadVariableOp of a tensor).
    return t


@RegisterJVP("PadV2")
def _pad_jvp(op, t):
    # Affine, not linear: the padding constant has no tangent.
    return PadV2(t, paddings=op.attrs["paddings"], constant_values=0)
