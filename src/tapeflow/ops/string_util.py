"""What the string ops share: their input check, byte lengths, and RaggedTensor results."""
from __future__ import annotations

import numpy as np

from ..framework import dtypes, errors
from ..framework.tensor import Tensor
from .op_util import as_input

__all__ = ["string_input", "lengths", "ragged_result"]


def string_input(op_name: str, x, position: int = 0):
    """`x` as a string tensor (Python text converted).

    Raises:
        InvalidArgumentError: a tensor of another dtype, naming the op.
    """
    t = as_input(x)
    if t.dtype is not dtypes.string:
        raise errors.InvalidArgumentError(
            None, op_name, f"cannot compute {op_name} as input #{position}(zero-based) was "
            f"expected to be a string tensor but is a {t.dtype.name} tensor (shape "
            f"{t.shape.as_list() if t.shape.rank is not None else None})")
    return t



def lengths(x: np.ndarray) -> np.ndarray:
    """The byte length of each element of string array `x` (int64, `x`'s shape)."""
    if not x.size:
        return np.zeros(x.shape, np.int64)
    return np.fromiter(map(len, x.reshape(-1).tolist()), np.int64, x.size).reshape(x.shape)


def ragged_result(values, row_splits, x):
    """The result of a splitting op on `x`: `values` itself for a scalar `x`; for higher
    ranks a RaggedTensor whose rows are `x`'s elements, with `x`'s dimensions uniform.

    Raises:
        NotImplementedError: tapeflow has no RaggedTensor (module ops.ragged) yet.
    """
    if x.ndim == 0:
        return values
    try:
        from .ragged.ragged_tensor import RaggedTensor
    except ImportError:
        raise NotImplementedError(
            f"this op returns a RaggedTensor for a rank-{x.ndim} input, and tapeflow has no "
            "RaggedTensor yet; give it a scalar") from None
    nested = []
    dims = x.shape.as_list()
    for k in range(1, len(dims)):
        rows = int(np.prod(dims[:k]))
        nested.append(Tensor(np.arange(rows + 1, dtype=np.int64) * dims[k]))
    nested.append(row_splits)
    return RaggedTensor.from_nested_row_splits(values, nested, validate=False)
