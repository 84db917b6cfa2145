"""The numpy namespace's shape, joining, indexing and linear-algebra functions, composed of
tapeflow ops."""
from __future__ import annotations

import numpy as np

import tapeflow as tf

from .np_arrays import asarray, moveaxis
from .np_math import promote


def _rank(a) -> int:
    return a.shape.rank


def ndim(a) -> int:
    """The number of dimensions of `a`."""
    return _rank(asarray(a))


def shape(a) -> tuple:
    """The shape of `a` as a tuple of ints."""
    return tuple(asarray(a).shape.as_list())


def size(x, axis=None) -> int:
    """The number of elements of `x` (along `axis` when given)."""
    dims = shape(x)
    return int(np.prod(dims)) if axis is None else dims[axis]


def isscalar(num) -> bool:
    """Whether `num` has no dimensions."""
    return ndim(num) == 0


def iscomplexobj(x) -> bool:
    """Whether `x` has a complex dtype."""
    return asarray(x).dtype.is_complex


def isrealobj(x) -> bool:
    """Whether `x` does not have a complex dtype."""
    return not iscomplexobj(x)


def reshape(a, newshape, order="C") -> tf.Tensor:
    """`a` with shape `newshape` (one entry may be -1); order "C" or "F".

    Example:
        >>> import tapeflow as tf
        >>> tf.experimental.numpy.reshape([1, 2, 3, 4], (2, -1)).shape
        TensorShape([2, 2])
    """
    a = asarray(a)
    newshape = [newshape] if isinstance(newshape, int) else list(newshape)
    if order == "F":
        reversed_axes = list(range(_rank(a)))[::-1]
        return tf.transpose(tf.reshape(tf.transpose(a, reversed_axes), newshape[::-1]),
                            list(range(len(newshape)))[::-1])
    if order != "C":
        raise ValueError(f"reshape: order must be 'C' or 'F', got {order!r}")
    return tf.reshape(a, newshape)


def ravel(a) -> tf.Tensor:
    """`a` flattened to one dimension."""
    return tf.reshape(asarray(a), [-1])


def flatten(a, order="C") -> tf.Tensor:
    """`a` flattened to one dimension, in "C" or "F" order."""
    return reshape(a, [-1], order)


def transpose(a, axes=None) -> tf.Tensor:
    """`a` with its axes reversed, or permuted by `axes`."""
    return tf.transpose(asarray(a), axes)


def swapaxes(a, axis1, axis2) -> tf.Tensor:
    """`a` with axes `axis1` and `axis2` exchanged."""
    a = asarray(a)
    order = list(range(_rank(a)))
    order[axis1], order[axis2] = order[axis2], order[axis1]
    return tf.transpose(a, order)


def expand_dims(a, axis) -> tf.Tensor:
    """`a` with a new axis of length 1 at `axis`."""
    return tf.expand_dims(asarray(a), axis)


def squeeze(a, axis=None) -> tf.Tensor:
    """`a` without its length-1 axes (those in `axis` when given)."""
    return tf.squeeze(asarray(a), axis)


def atleast_1d(*arys):
    """Each argument with at least one dimension (a list when several)."""
    return _atleast(arys, 1)


def atleast_2d(*arys):
    """Each argument with at least two dimensions (a list when several)."""
    return _atleast(arys, 2)


def atleast_3d(*arys):
    """Each argument with at least three dimensions, as NumPy places the new axes."""
    return _atleast(arys, 3)


def _atleast(arys, n: int):
    results = []
    for a in arys:
        a = asarray(a)
        rank = _rank(a)
        if rank < n:
            if n == 3 and rank == 1:
                a = a[None, :, None]
            elif n == 3 and rank == 2:
                a = a[:, :, None]
            else:
                a = tf.reshape(a, [1] * (n - rank) + a.shape.as_list())
        results.append(a)
    return results[0] if len(results) == 1 else results


def broadcast_to(array, shape) -> tf.Tensor:  # noqa: A002  (NumPy's name)
    """`array` broadcast to `shape`."""
    return tf.broadcast_to(asarray(array), shape)


def broadcast_arrays(*args) -> list:
    """The arguments broadcast against each other."""
    arrays = [asarray(a) for a in args]
    shape = tf.TensorShape([])
    for a in arrays:
        shape = tf.broadcast_static_shape(shape, a.shape)
    return [tf.broadcast_to(a, shape) for a in arrays]


def concatenate(arys, axis=0) -> tf.Tensor:
    """The arrays joined along `axis` (flattened first when axis is None), promoted."""
    arys = promote(*arys)
    if axis is None:
        arys, axis = [tf.reshape(a, [-1]) for a in arys], 0
    return tf.concat(arys, axis)


def stack(arrays, axis=0) -> tf.Tensor:
    """The arrays stacked along a new axis `axis`, promoted."""
    return tf.stack(promote(*arrays), axis)


def hstack(tup) -> tf.Tensor:
    """The arrays joined along axis 1 (axis 0 for 1-D arrays)."""
    arrays = [atleast_1d(a) for a in tup]
    return concatenate(arrays, 0 if _rank(arrays[0]) == 1 else 1)


def vstack(tup) -> tf.Tensor:
    """The arrays (at least 2-D) joined along axis 0."""
    return concatenate([atleast_2d(a) for a in tup], 0)


def dstack(tup) -> tf.Tensor:
    """The arrays (at least 3-D) joined along axis 2."""
    return concatenate([atleast_3d(a) for a in tup], 2)


def append(arr, values, axis=None) -> tf.Tensor:
    """`values` appended to `arr` along `axis` (both flattened when None)."""
    return concatenate([arr, values], axis)


def split(ary, indices_or_sections, axis=0) -> list:
    """`ary` split along `axis` into equal sections or at the given indices."""
    ary = asarray(ary)
    if isinstance(indices_or_sections, int):
        return tf.split(ary, indices_or_sections, axis)
    length = ary.shape[axis]
    bounds = [0] + [min(int(i), length) for i in indices_or_sections] + [length]
    return tf.split(ary, [max(b - a, 0) for a, b in zip(bounds[:-1], bounds[1:])], axis)


def hsplit(ary, indices_or_sections) -> list:
    """`split` along axis 1 (axis 0 for 1-D arrays)."""
    ary = asarray(ary)
    return split(ary, indices_or_sections, 0 if _rank(ary) == 1 else 1)


def vsplit(ary, indices_or_sections) -> list:
    """`split` along axis 0."""
    return split(ary, indices_or_sections, 0)


def dsplit(ary, indices_or_sections) -> list:
    """`split` along axis 2."""
    return split(ary, indices_or_sections, 2)


def flip(m, axis=None) -> tf.Tensor:
    """`m` with the order of elements along `axis` (all axes when None) reversed."""
    m = asarray(m)
    axes = list(range(_rank(m))) if axis is None else [axis] if isinstance(axis, int) else list(
        axis)
    return tf.reverse(m, axes)


def fliplr(m) -> tf.Tensor:
    """`m` reversed along axis 1."""
    return flip(m, 1)


def flipud(m) -> tf.Tensor:
    """`m` reversed along axis 0."""
    return flip(m, 0)


def rot90(m, k=1, axes=(0, 1)) -> tf.Tensor:
    """`m` rotated by 90 degrees `k` times in the plane of `axes`."""
    m = asarray(m)
    k %= 4
    first, second = axes
    if k == 1:
        return swapaxes(flip(m, second), first, second)
    if k == 2:
        return flip(flip(m, first), second)
    if k == 3:
        return flip(swapaxes(m, first, second), second)
    return m


def roll(a, shift, axis=None) -> tf.Tensor:
    """`a` with elements shifted by `shift` along `axis` (of the flattened `a` when None)."""
    a = asarray(a)
    if axis is None:
        return tf.reshape(tf.roll(tf.reshape(a, [-1]), shift, 0), tf.shape(a))
    return tf.roll(a, shift, axis)


def repeat(a, repeats, axis=None) -> tf.Tensor:
    """Each element of `a` repeated `repeats` times along `axis` (flattened when None)."""
    a = asarray(a)
    if axis is None:
        a, axis = tf.reshape(a, [-1]), 0
    return tf.repeat(a, repeats, axis)


def tile(a, reps) -> tf.Tensor:
    """`a` repeated `reps` times along each axis (leading axes added as needed)."""
    a = asarray(a)
    reps = [reps] if isinstance(reps, int) else list(reps)
    rank = max(_rank(a), len(reps))
    a = tf.reshape(a, [1] * (rank - _rank(a)) + a.shape.as_list())
    return tf.tile(a, [1] * (rank - len(reps)) + reps)


def pad(array, pad_width, mode="constant", constant_values=0) -> tf.Tensor:  # noqa: A002
    """`array` padded by `pad_width` per axis ("constant", "reflect" or "symmetric")."""
    array = asarray(array)
    widths = np.broadcast_to(np.asarray(pad_width), (_rank(array), 2)).tolist()
    return tf.pad(array, widths, mode.upper(), constant_values)


def take(a, indices, axis=None) -> tf.Tensor:
    """The elements of `a` at `indices` along `axis` (of the flattened `a` when None)."""
    a = asarray(a)
    if axis is None:
        a, axis = tf.reshape(a, [-1]), 0
    return tf.gather(a, asarray(indices), axis=axis)


def take_along_axis(arr, indices, axis) -> tf.Tensor:
    """The elements of `arr` at `indices`, matched along every axis but `axis`."""
    arr, indices = asarray(arr), asarray(indices)
    if axis is None:
        arr, axis = tf.reshape(arr, [-1]), 0
    axis %= _rank(arr)
    shape = tf.broadcast_static_shape(
        tf.TensorShape([1 if i == axis else d for i, d in enumerate(arr.shape.as_list())]),
        tf.TensorShape([1 if i == axis else d for i, d in enumerate(indices.shape.as_list())]))
    indices = tf.broadcast_to(indices, [indices.shape[axis] if i == axis else d
                                        for i, d in enumerate(shape.as_list())])
    grids = tf.meshgrid(*[tf.range(d) for d in indices.shape.as_list()], indexing="ij")
    grids[axis] = tf.cast(indices, grids[0].dtype)
    arr = tf.broadcast_to(arr, [arr.shape[axis] if i == axis else d
                                for i, d in enumerate(shape.as_list())])
    return tf.gather_nd(arr, tf.stack(grids, -1))


def where(condition, x=None, y=None):
    """Elements of `x` where `condition`, else of `y` (promoted); with only `condition`,
    `nonzero(condition)`."""
    condition = tf.cast(asarray(condition), tf.bool)
    if x is None and y is None:
        return nonzero(condition)
    x, y = promote(x, y)
    return tf.where(condition, x, y)


def nonzero(a) -> tuple:
    """The indices of the nonzero elements, one int64 tensor per axis."""
    a = asarray(a)
    indices = tf.where(tf.cast(a, tf.bool))
    return tuple(indices[:, i] for i in range(_rank(a)))


def compress(condition, a, axis=None) -> tf.Tensor:
    """The slices of `a` along `axis` where `condition` is true."""
    a = asarray(a)
    if axis is None:
        a, axis = tf.reshape(a, [-1]), 0
    condition = tf.cast(asarray(condition), tf.bool)
    n = condition.shape[0]
    a = tf.gather(a, tf.range(n), axis=axis)
    return tf.boolean_mask(a, condition, axis=axis)


def select(condlist, choicelist, default=0) -> tf.Tensor:
    """The element of the first choice whose condition holds, else `default`."""
    choices = promote(*choicelist, default)
    result = choices[-1]
    for condition, choice in reversed(list(zip(condlist, choices[:-1]))):
        result = tf.where(tf.cast(asarray(condition), tf.bool), choice, result)
    return result


def sort(a, axis=-1, kind="quicksort", order=None) -> tf.Tensor:
    """`a` sorted along `axis` (the flattened `a` when None)."""
    a = asarray(a)
    if axis is None:
        a, axis = tf.reshape(a, [-1]), 0
    return tf.sort(a, axis)


def argsort(a, axis=-1, kind="quicksort", order=None) -> tf.Tensor:
    """The indices that sort `a` along `axis` (stable, int64)."""
    a = asarray(a)
    if axis is None:
        a, axis = tf.reshape(a, [-1]), 0
    return tf.cast(tf.argsort(a, axis, stable=True), tf.int64)


def diag(v, k=0) -> tf.Tensor:
    """The diagonal `k` of a matrix, or a matrix with 1-D `v` on diagonal `k`."""
    v = asarray(v)
    if _rank(v) == 1:
        n = v.shape[0] + abs(k)
        return tf.linalg.diag(v, k=k, num_rows=n, num_cols=n)
    return diagonal(v, k)


def diagflat(v, k=0) -> tf.Tensor:
    """A matrix with the flattened `v` on diagonal `k`."""
    return diag(ravel_input(v), k)


def ravel_input(v) -> tf.Tensor:
    return tf.reshape(asarray(v), [-1])


def diagonal(a, offset=0, axis1=0, axis2=1) -> tf.Tensor:
    """The diagonal `offset` of `a` in the plane of `axis1` and `axis2` (last axis)."""
    a = asarray(a)
    rank = _rank(a)
    axis1, axis2 = axis1 % rank, axis2 % rank
    order = [i for i in range(rank) if i not in (axis1, axis2)] + [axis1, axis2]
    return tf.linalg.diag_part(tf.transpose(a, order), k=offset)


def diag_indices(n, ndim=2) -> tuple:
    """The indices of the main diagonal of an n x ... x n array."""
    return (tf.range(n, dtype=tf.int64),) * ndim


def trace(a, offset=0, axis1=0, axis2=1, dtype=None) -> tf.Tensor:
    """The sum of the diagonal `offset` of `a`."""
    result = tf.reduce_sum(diagonal(a, offset, axis1, axis2), axis=-1)
    return result if dtype is None else tf.cast(result, asarray(0, dtype).dtype)


def tril(m, k=0) -> tf.Tensor:
    """`m` with the elements above diagonal `k` zeroed."""
    m = asarray(m)
    rows, cols = m.shape[-2], m.shape[-1]
    mask = tf.range(cols)[None, :] - tf.range(rows)[:, None] <= k
    return tf.where(mask, m, tf.zeros_like(m))


def triu(m, k=0) -> tf.Tensor:
    """`m` with the elements below diagonal `k` zeroed."""
    m = asarray(m)
    rows, cols = m.shape[-2], m.shape[-1]
    mask = tf.range(cols)[None, :] - tf.range(rows)[:, None] >= k
    return tf.where(mask, m, tf.zeros_like(m))


def vander(x, N=None, increasing=False) -> tf.Tensor:  # noqa: N803
    """The Vandermonde matrix of `x`: its columns are powers of `x`."""
    x = asarray(x)
    n = x.shape[0] if N is None else N
    powers = tf.range(n) if increasing else tf.range(n - 1, -1, -1)
    return tf.pow(x[:, None], tf.cast(powers, x.dtype)[None, :])


def diff(a, n=1, axis=-1) -> tf.Tensor:
    """The `n`-th discrete difference of `a` along `axis`."""
    a = asarray(a)
    axis %= _rank(a)
    for _ in range(n):
        head = [slice(None)] * _rank(a)
        tail = [slice(None)] * _rank(a)
        head[axis], tail[axis] = slice(1, None), slice(None, -1)
        a = tf.not_equal(a[tuple(head)], a[tuple(tail)]) if a.dtype == tf.bool else \
            a[tuple(head)] - a[tuple(tail)]
    return a


def meshgrid(*xi, **kwargs) -> list:
    """Coordinate matrices from coordinate vectors (`indexing` "xy" or "ij")."""
    return tf.meshgrid(*promote(*xi), indexing=kwargs.get("indexing", "xy"))


def ix_(*args) -> tuple:
    """Open meshes from 1-D sequences, each shaped to index one axis."""
    arrays = [asarray(a) for a in args]
    n = len(arrays)
    return tuple(tf.reshape(a, [1] * i + [-1] + [1] * (n - i - 1))
                 for i, a in enumerate(arrays))


# -- products ----------------------------------------------------------------------------------
def matmul(x1, x2) -> tf.Tensor:
    """The matrix product of `x1` and `x2` (1-D operands as vectors), promoted."""
    a, b = promote(x1, x2)
    if _rank(a) == 0 or _rank(b) == 0:
        raise ValueError("matmul: the operands must not be scalars")
    if _rank(a) == 1 and _rank(b) == 1:
        return tf.reduce_sum(a * b)
    if _rank(a) == 1:
        return tf.squeeze(tf.matmul(a[None, :], b), -2)
    if _rank(b) == 1:
        return tf.squeeze(tf.matmul(a, b[:, None]), -1)
    return tf.matmul(a, b)


def dot(a, b) -> tf.Tensor:
    """NumPy's dot: a product for scalars, else the sum over the last axis of `a` and the
    second-to-last of `b`."""
    a, b = promote(a, b)
    if _rank(a) == 0 or _rank(b) == 0:
        return a * b
    return tf.tensordot(a, b, [[_rank(a) - 1], [max(_rank(b) - 2, 0)]])


def inner(a, b) -> tf.Tensor:
    """The sum over the last axes of `a` and `b`."""
    a, b = promote(a, b)
    if _rank(a) == 0 or _rank(b) == 0:
        return a * b
    return tf.tensordot(a, b, [[-1], [-1]])


def outer(a, b) -> tf.Tensor:
    """The outer product of the flattened `a` and `b`."""
    a, b = promote(a, b)
    return tf.reshape(a, [-1, 1]) * tf.reshape(b, [1, -1])


def vdot(a, b) -> tf.Tensor:
    """The dot product of the flattened `a` (conjugated) and `b`."""
    a, b = promote(a, b)
    return tf.reduce_sum(tf.math.conj(tf.reshape(a, [-1])) * tf.reshape(b, [-1]))


def tensordot(a, b, axes=2) -> tf.Tensor:
    """The sum of products over `axes` of `a` and `b`."""
    a, b = promote(a, b)
    return tf.tensordot(a, b, axes)


def kron(a, b) -> tf.Tensor:
    """The Kronecker product of `a` and `b`."""
    a, b = promote(a, b)
    rank = max(_rank(a), _rank(b))
    a = tf.reshape(a, [1] * (rank - _rank(a)) + a.shape.as_list())
    b = tf.reshape(b, [1] * (rank - _rank(b)) + b.shape.as_list())
    product = tf.reshape(a, [d for s in a.shape.as_list() for d in (s, 1)]) * \
        tf.reshape(b, [d for s in b.shape.as_list() for d in (1, s)])
    return tf.reshape(product, [x * y for x, y in zip(a.shape.as_list(), b.shape.as_list())])


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None) -> tf.Tensor:
    """The cross product of 3-vectors (2-vectors get a zero third component)."""
    a, b = promote(a, b)
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = moveaxis(a, axisa, -1), moveaxis(b, axisb, -1)
    two = a.shape[-1] == 2 and b.shape[-1] == 2
    if a.shape[-1] == 2:
        a = tf.concat([a, tf.zeros_like(a[..., :1])], -1)
    if b.shape[-1] == 2:
        b = tf.concat([b, tf.zeros_like(b[..., :1])], -1)
    a, b = broadcast_arrays(a, b)
    result = tf.linalg.cross(a, b)
    if two:
        return result[..., 2]
    return moveaxis(result, -1, axisc)


def einsum(subscripts, *operands, **kwargs) -> tf.Tensor:
    """Einstein summation over the promoted operands."""
    return tf.einsum(subscripts, *promote(*operands))


def polyval(p, x) -> tf.Tensor:
    """The polynomial with coefficients `p` (highest power first) at `x`."""
    values = promote(*list(p) if isinstance(p, (list, tuple)) else [p], x)
    x = values[-1]
    coefficients = values[:-1] if isinstance(p, (list, tuple)) else tf.unstack(values[0])
    result = tf.zeros_like(x)
    for c in coefficients:
        result = result * x + c
    return result
