"""A Variable's indexed reads and writes: `sparse_read`, `gather_nd`, `scatter_*`,
`scatter_nd_*`, `batch_scatter_update`.

A read is the op on the variable (`gather`, `gather_nd`), so a tape records it and the
gradient of `sparse_read` with respect to the variable is an IndexedSlices, as TF's. A write
is one mechanism: the variable's value with the update scattered in (`tensor_scatter_nd_*`,
or a product of the updates per row for `scatter_mul`/`scatter_div`), assigned back. That
is eager (the value changes at once) or graph ops (inside a tf.function) by the same code,
and a write that fails changes nothing.
"""
from __future__ import annotations

import numpy as np

from ..framework import errors
from ..framework.indexed_slices import IndexedSlices
from ..framework.tensor import Tensor
from ..framework.variables import Variable
from .array_ops import concat, expand_dims
from .gather_ops import gather
from .indexing_ops import (gather_nd, tensor_scatter_nd_add, tensor_scatter_nd_max,
                           tensor_scatter_nd_min, tensor_scatter_nd_sub,
                           tensor_scatter_nd_update)
from .math_ops import multiply, realdiv, truncatediv
from .segment_ops import unsorted_segment_prod

__all__ = []


def _sparse_read(self, indices, name=None) -> Tensor:
    """The rows of the variable at `indices` (`tf.gather(v, indices)`); the gradient with
    respect to the variable is an IndexedSlices.

    Example:
        >>> import tapeflow as tf
        >>> tf.Variable([[1.0, 2.0], [3.0, 4.0]]).sparse_read([1]).numpy()
        array([[3., 4.]], dtype=float32)
    """
    return gather(self, indices)


def _gather_nd(self, indices, name=None) -> Tensor:
    """`tf.gather_nd(v, indices)`.

    Example:
        >>> import tapeflow as tf
        >>> tf.Variable([[1.0, 2.0], [3.0, 4.0]]).gather_nd([[1, 0]]).numpy()
        array([3.], dtype=float32)
    """
    return gather_nd(self, indices)


def _rows(method: str, sparse_delta) -> tuple:
    """(indices as index tuples `[..., 1]`, values) of an IndexedSlices update."""
    if not isinstance(sparse_delta, IndexedSlices):
        raise TypeError(f"Variable.{method}: `sparse_delta` must be a tf.IndexedSlices, got "
                        f"{type(sparse_delta).__name__}: {sparse_delta!r}")
    return expand_dims(sparse_delta.indices, -1), sparse_delta.values


# What each write gives for v = [[1, 2], [3, 4]] and rows [[2, 2]] at index 1 (TF's values).
_ROW_EXAMPLES = {"scatter_add": [[1.0, 2.0], [5.0, 6.0]], "scatter_sub": [[1.0, 2.0], [1.0, 2.0]],
                 "scatter_max": [[1.0, 2.0], [3.0, 4.0]], "scatter_min": [[1.0, 2.0], [2.0, 2.0]],
                 "scatter_update": [[1.0, 2.0], [2.0, 2.0]],
                 "scatter_mul": [[1.0, 2.0], [6.0, 8.0]], "scatter_div": [[1.0, 2.0], [1.5, 2.0]]}


def _row_scatter(method: str, combine):
    def scatter(self, sparse_delta, use_locking=False, name=None):
        indices, values = _rows(method, sparse_delta)
        return self.assign(combine(self.read_value(), indices, values))
    scatter.__name__ = method
    scatter.__doc__ = f"""Writes the rows of the IndexedSlices `sparse_delta` into the variable
        at its indices ({method[8:]}; every repeated index applies). Returns the variable
        (inside a tf.function, its value after the write).

        Raises:
            TypeError: `sparse_delta` is not an IndexedSlices.
            InvalidArgumentError: an index out of range or rows of another shape; the
                variable is unchanged.

        Example:
            >>> import tapeflow as tf
            >>> v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
            >>> _ = v.{method}(tf.IndexedSlices(tf.constant([[2.0, 2.0]]), tf.constant([1])))
            >>> v.numpy().tolist()
            {_ROW_EXAMPLES[method]}
        """
    return scatter


def _per_row_product(combine):
    """`value combine prod(updates of each row)`: the rows an update names are multiplied
    or divided by every update they get; the others by 1."""
    def scattered(value, indices, values):
        n = value.shape[0]
        if n is None:
            raise errors.InvalidArgumentError(
                None, "ResourceScatter", "scatter_mul/scatter_div need the variable's first "
                "dimension to be known")
        return combine(value, unsorted_segment_prod(values, indices[..., 0], n))
    return scattered


def _divide(value, factors):
    return truncatediv(value, factors) if value.dtype.is_integer else realdiv(value, factors)


# What each write gives for v = [1, 2, 3], indices [[0], [2]] and updates [5, 5] (TF's).
_ND_EXAMPLES = {"scatter_nd_add": [6.0, 2.0, 8.0], "scatter_nd_sub": [-4.0, 2.0, -2.0],
                "scatter_nd_max": [5.0, 2.0, 5.0], "scatter_nd_min": [1.0, 2.0, 3.0],
                "scatter_nd_update": [5.0, 2.0, 5.0]}


def _nd_scatter(method: str, combine):
    def scatter(self, indices, updates, name=None):
        return self.assign(combine(self.read_value(), indices, updates))
    scatter.__name__ = method
    scatter.__doc__ = f"""Writes `updates` into the slices at the index tuples `indices` (on
        their last axis), as `tf.tensor_{method}`, and assigns the result. Returns the
        variable.

        Raises:
            InvalidArgumentError: as `tf.tensor_scatter_nd_update`; the variable is unchanged.

        Example:
            >>> import tapeflow as tf
            >>> v = tf.Variable([1.0, 2.0, 3.0])
            >>> _ = v.{method}([[0], [2]], [5.0, 5.0])
            >>> v.numpy().tolist()
            {_ND_EXAMPLES[method]}
        """
    return scatter


def _batch_scatter_update(self, sparse_delta, use_locking=False, name=None):
    """Scatters along the axis after the batch dimensions: `sparse_delta.indices` of shape
    `batch + [k]` names, in each batch, the positions its `values` (shape `batch + [k] +
    rest`) replace.

    Raises:
        TypeError: `sparse_delta` is not an IndexedSlices.
        ValueError: the indices' shape is not known while the graph is built.

    Example:
        >>> import tapeflow as tf
        >>> v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
        >>> _ = v.batch_scatter_update(tf.IndexedSlices(tf.constant([[9.0], [8.0]]),
        ...                                             tf.constant([[1], [0]])))
        >>> v.numpy().tolist()
        [[1.0, 9.0], [8.0, 4.0]]
    """
    indices, values = _rows("batch_scatter_update", sparse_delta)
    dims = indices.shape.as_list() if indices.shape.rank is not None else None
    if dims is None or None in dims:
        raise ValueError("batch_scatter_update needs indices of a known shape, got "
                         f"{indices.shape}")
    batch = dims[:-2]
    if not batch:
        return self.assign(tensor_scatter_nd_update(self.read_value(), indices, values))
    grid = np.stack(np.meshgrid(*[np.arange(d) for d in batch + [dims[-2]]],
                                indexing="ij")[:-1], axis=-1)
    positions = concat([Tensor(grid.astype(indices.dtype.as_numpy_dtype)), indices], -1)
    return self.assign(tensor_scatter_nd_update(self.read_value(), positions, values))


def _install() -> None:
    Variable.sparse_read = _sparse_read
    Variable.gather_nd = _gather_nd
    Variable.batch_scatter_update = _batch_scatter_update
    for method, combine in (
            ("scatter_add", tensor_scatter_nd_add), ("scatter_sub", tensor_scatter_nd_sub),
            ("scatter_max", tensor_scatter_nd_max), ("scatter_min", tensor_scatter_nd_min),
            ("scatter_update", tensor_scatter_nd_update),
            ("scatter_mul", _per_row_product(multiply)),
            ("scatter_div", _per_row_product(_divide))):
        setattr(Variable, method, _row_scatter(method, combine))
    for method, combine in (
            ("scatter_nd_add", tensor_scatter_nd_add), ("scatter_nd_sub", tensor_scatter_nd_sub),
            ("scatter_nd_max", tensor_scatter_nd_max), ("scatter_nd_min", tensor_scatter_nd_min),
            ("scatter_nd_update", tensor_scatter_nd_update)):
        setattr(Variable, method, _nd_scatter(method, combine))


_install()
