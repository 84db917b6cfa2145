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
    """The number of dimensions of `a`.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.ndim([[1, 2]])
        2
    """
    return _rank(asarray(a))


def shape(a) -> tf.TensorShape:
    """The shape of `a`.

    Example:
        >>> import tapeflow as tf
        >>> tf.experimental.numpy.shape([[1, 2, 3]])
        TensorShape([1, 3])
    """
    return asarray(a).shape


def size(x, axis=None):
    """The number of elements of `x` (along `axis` when given), a NumPy integer.

    Example:
        >>> import tapeflow as tf
        >>> tf.experimental.numpy.size([[1, 2, 3]])
        np.int64(3)
    """
    dims = asarray(x).shape.as_list()
    return np.prod(dims, dtype=np.int64) if axis is None else np.int64(dims[axis])


def isscalar(num) -> bool:
    """Whether `num` has no dimensions.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.isscalar(3.0)
        True
    """
    return ndim(num) == 0


def iscomplexobj(x) -> bool:
    """Whether `x` has a complex dtype.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.iscomplexobj([1j])
        True
    """
    return asarray(x).dtype.is_complex


def isrealobj(x) -> bool:
    """Whether `x` does not have a complex dtype.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.isrealobj([1.0])
        True
    """
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
    """`a` flattened to one dimension.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.ravel([[1, 2], [3, 4]]).numpy()
        array([1, 2, 3, 4])
    """
    return tf.reshape(asarray(a), [-1])


def flatten(a, order="C") -> tf.Tensor:
    """`a` flattened to one dimension, in "C" or "F" order.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.flatten([[1, 2], [3, 4]], order='F').numpy()
        array([1, 3, 2, 4])
    """
    return reshape(a, [-1], order)


def transpose(a, axes=None) -> tf.Tensor:
    """`a` with its axes reversed, or permuted by `axes`.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.transpose([[1, 2, 3]]).shape
        TensorShape([3, 1])
    """
    return tf.transpose(asarray(a), axes)


def swapaxes(a, axis1, axis2) -> tf.Tensor:
    """`a` with axes `axis1` and `axis2` exchanged.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.swapaxes(tnp.zeros((2, 3)), 0, 1).shape
        TensorShape([3, 2])
    """
    a = asarray(a)
    order = list(range(_rank(a)))
    order[axis1], order[axis2] = order[axis2], order[axis1]
    return tf.transpose(a, order)


def expand_dims(a, axis) -> tf.Tensor:
    """`a` with a new axis of length 1 at `axis`.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.expand_dims([1, 2], 0).shape
        TensorShape([1, 2])
    """
    return tf.expand_dims(asarray(a), axis)


def squeeze(a, axis=None) -> tf.Tensor:
    """`a` without its length-1 axes (those in `axis` when given).

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.squeeze([[1], [2]]).shape
        TensorShape([2])
    """
    return tf.squeeze(asarray(a), axis)


def atleast_1d(*arys):
    """Each argument with at least one dimension (a list when several).

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.atleast_1d(3).shape
        TensorShape([1])
    """
    return _atleast(arys, 1)


def atleast_2d(*arys):
    """Each argument with at least two dimensions (a list when several).

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.atleast_2d([1, 2]).shape
        TensorShape([1, 2])
    """
    return _atleast(arys, 2)


def atleast_3d(*arys):
    """Each argument with at least three dimensions, as NumPy places the new axes.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.atleast_3d([1, 2]).shape
        TensorShape([1, 2, 1])
    """
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
    """`array` broadcast to `shape`.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.broadcast_to([1, 2], (2, 2)).numpy()
        array([[1, 2],
               [1, 2]])
    """
    return tf.broadcast_to(asarray(array), shape)


def broadcast_arrays(*args) -> list:
    """The arguments broadcast against each other.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> [a.shape for a in tnp.broadcast_arrays([[1], [2]], [3, 4, 5])]
        [TensorShape([2, 3]), TensorShape([2, 3])]
    """
    arrays = [asarray(a) for a in args]
    shape = tf.TensorShape([])
    for a in arrays:
        shape = tf.broadcast_static_shape(shape, a.shape)
    return [tf.broadcast_to(a, shape) for a in arrays]


def concatenate(arys, axis=0) -> tf.Tensor:
    """The arrays joined along `axis` (flattened first when axis is None), promoted.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.concatenate([[1, 2], [3.5]]).numpy()
        array([1. , 2. , 3.5])
    """
    arys = promote(*arys)
    if axis is None:
        arys, axis = [tf.reshape(a, [-1]) for a in arys], 0
    return tf.concat(arys, axis)


def stack(arrays, axis=0) -> tf.Tensor:
    """The arrays stacked along a new axis `axis`, promoted.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.stack([[1, 2], [3, 4]], axis=1).numpy()
        array([[1, 3],
               [2, 4]])
    """
    return tf.stack(promote(*arrays), axis)


def hstack(tup) -> tf.Tensor:
    """The arrays joined along axis 1 (axis 0 for 1-D arrays).

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.hstack([[1, 2], [3]]).numpy()
        array([1, 2, 3])
    """
    arrays = [atleast_1d(a) for a in tup]
    return concatenate(arrays, 0 if _rank(arrays[0]) == 1 else 1)


def vstack(tup) -> tf.Tensor:
    """The arrays (at least 2-D) joined along axis 0.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.vstack([[1, 2], [3, 4]]).numpy()
        array([[1, 2],
               [3, 4]])
    """
    return concatenate([atleast_2d(a) for a in tup], 0)


def dstack(tup) -> tf.Tensor:
    """The arrays (at least 3-D) joined along axis 2.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.dstack([[1, 2], [3, 4]]).shape
        TensorShape([1, 2, 2])
    """
    return concatenate([atleast_3d(a) for a in tup], 2)


def append(arr, values, axis=None) -> tf.Tensor:
    """`values` appended to `arr` along `axis` (both flattened when None).

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.append([1, 2], [[3, 4]]).numpy()
        array([1, 2, 3, 4])
    """
    return concatenate([arr, values], axis)


def split(ary, indices_or_sections, axis=0) -> list:
    """`ary` split along `axis` into equal sections or at the given indices.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> [t.numpy() for t in tnp.split([1, 2, 3, 4, 5], [2, 3])]
        [array([1, 2]), array([3]), array([4, 5])]
    """
    ary = asarray(ary)
    if isinstance(indices_or_sections, int):
        return tf.split(ary, indices_or_sections, axis)
    length = ary.shape[axis]
    bounds = [0] + [min(int(i), length) for i in indices_or_sections] + [length]
    return tf.split(ary, [max(b - a, 0) for a, b in zip(bounds[:-1], bounds[1:])], axis)


def hsplit(ary, indices_or_sections) -> list:
    """`split` along axis 1 (axis 0 for 1-D arrays).

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> [t.numpy() for t in tnp.hsplit([1, 2, 3, 4], 2)]
        [array([1, 2]), array([3, 4])]
    """
    ary = asarray(ary)
    return split(ary, indices_or_sections, 0 if _rank(ary) == 1 else 1)


def vsplit(ary, indices_or_sections) -> list:
    """`split` along axis 0.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> [t.shape for t in tnp.vsplit(tnp.zeros((4, 2)), 2)]
        [TensorShape([2, 2]), TensorShape([2, 2])]
    """
    return split(ary, indices_or_sections, 0)


def dsplit(ary, indices_or_sections) -> list:
    """`split` along axis 2.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> [t.shape for t in tnp.dsplit(tnp.zeros((1, 1, 4)), 2)]
        [TensorShape([1, 1, 2]), TensorShape([1, 1, 2])]
    """
    return split(ary, indices_or_sections, 2)


def flip(m, axis=None) -> tf.Tensor:
    """`m` with the order of elements along `axis` (all axes when None) reversed.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.flip([[1, 2], [3, 4]]).numpy()
        array([[4, 3],
               [2, 1]])
    """
    m = asarray(m)
    axes = list(range(_rank(m))) if axis is None else [axis] if isinstance(axis, int) else list(
        axis)
    return tf.reverse(m, axes)


def fliplr(m) -> tf.Tensor:
    """`m` reversed along axis 1.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.fliplr([[1, 2], [3, 4]]).numpy()
        array([[2, 1],
               [4, 3]])
    """
    return flip(m, 1)


def flipud(m) -> tf.Tensor:
    """`m` reversed along axis 0.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.flipud([[1, 2], [3, 4]]).numpy()
        array([[3, 4],
               [1, 2]])
    """
    return flip(m, 0)


def rot90(m, k=1, axes=(0, 1)) -> tf.Tensor:
    """`m` rotated by 90 degrees `k` times in the plane of `axes`.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.rot90([[1, 2], [3, 4]]).numpy()
        array([[2, 4],
               [1, 3]])
    """
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
    """`a` with elements shifted by `shift` along `axis` (of the flattened `a` when None).

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.roll([1, 2, 3], 1).numpy()
        array([3, 1, 2])
    """
    a = asarray(a)
    if axis is None:
        return tf.reshape(tf.roll(tf.reshape(a, [-1]), shift, 0), tf.shape(a))
    return tf.roll(a, shift, axis)


def repeat(a, repeats, axis=None) -> tf.Tensor:
    """Each element of `a` repeated `repeats` times along `axis` (flattened when None).

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.repeat([1, 2], 2).numpy()
        array([1, 1, 2, 2])
    """
    a = asarray(a)
    if axis is None:
        a, axis = tf.reshape(a, [-1]), 0
    return tf.repeat(a, repeats, axis)


def tile(a, reps) -> tf.Tensor:
    """`a` repeated `reps` times along each axis (leading axes added as needed).

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.tile([1, 2], 2).numpy()
        array([1, 2, 1, 2])
    """
    a = asarray(a)
    reps = [reps] if isinstance(reps, int) else list(reps)
    rank = max(_rank(a), len(reps))
    a = tf.reshape(a, [1] * (rank - _rank(a)) + a.shape.as_list())
    return tf.tile(a, [1] * (rank - len(reps)) + reps)


def pad(array, pad_width, mode="constant", constant_values=0) -> tf.Tensor:  # noqa: A002
    """`array` padded by `pad_width` per axis ("constant", "reflect" or "symmetric").

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.pad([1, 2], 1).numpy()
        array([0, 1, 2, 0])
    """
    array = asarray(array)
    widths = np.broadcast_to(np.asarray(pad_width), (_rank(array), 2)).tolist()
    return tf.pad(array, widths, mode.upper(), constant_values)


def take(a, indices, axis=None) -> tf.Tensor:
    """The elements of `a` at `indices` along `axis` (of the flattened `a` when None).

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.take([[1, 2], [3, 4]], [0, 3]).numpy()
        array([1, 4])
    """
    a = asarray(a)
    if axis is None:
        a, axis = tf.reshape(a, [-1]), 0
    return tf.gather(a, asarray(indices), axis=axis)


def take_along_axis(arr, indices, axis) -> tf.Tensor:
    """The elements of `arr` at `indices`, matched along every axis but `axis`.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.take_along_axis(tnp.asarray([[10, 30, 20]]), tnp.asarray([[0, 2, 1]]), 1).numpy()
        array([[10, 20, 30]])
    """
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
    `nonzero(condition)`.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.where([True, False], [1, 2], [10.5, 20.5]).numpy()
        array([ 1. , 20.5])
    """
    condition = tf.cast(asarray(condition), tf.bool)
    if x is None and y is None:
        return nonzero(condition)
    x, y = promote(x, y)
    return tf.where(condition, x, y)


def nonzero(a) -> tuple:
    """The indices of the nonzero elements, one int64 tensor per axis.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> [t.numpy() for t in tnp.nonzero([[0, 1], [2, 0]])]
        [array([0, 1]), array([1, 0])]
    """
    a = asarray(a)
    indices = tf.where(tf.cast(a, tf.bool))
    return tuple(indices[:, i] for i in range(_rank(a)))


def compress(condition, a, axis=None) -> tf.Tensor:
    """The slices of `a` along `axis` where `condition` is true.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.compress([True, False, True], [10, 20, 30]).numpy()
        array([10, 30])
    """
    a = asarray(a)
    if axis is None:
        a, axis = tf.reshape(a, [-1]), 0
    condition = tf.cast(asarray(condition), tf.bool)
    n = condition.shape[0]
    a = tf.gather(a, tf.range(n), axis=axis)
    return tf.boolean_mask(a, condition, axis=axis)


def select(condlist, choicelist, default=0) -> tf.Tensor:
    """The element of the first choice whose condition holds, else `default`.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.select([[True, False], [False, True]], [[1, 2], [3, 4]], 0).numpy()
        array([1, 4])
    """
    choices = promote(*choicelist, default)
    result = choices[-1]
    for condition, choice in reversed(list(zip(condlist, choices[:-1]))):
        result = tf.where(tf.cast(asarray(condition), tf.bool), choice, result)
    return result


def sort(a, axis=-1, kind="quicksort", order=None) -> tf.Tensor:
    """`a` sorted along `axis` (the flattened `a` when None).

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.sort([[3, 1], [2, 0]], axis=None).numpy()
        array([0, 1, 2, 3])
    """
    a = asarray(a)
    if axis is None:
        a, axis = tf.reshape(a, [-1]), 0
    return tf.sort(a, axis)


def argsort(a, axis=-1, kind="quicksort", order=None) -> tf.Tensor:
    """The indices that sort `a` along `axis` (stable, int64).

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.argsort([3, 1, 2]).numpy()
        array([1, 2, 0])
    """
    a = asarray(a)
    if axis is None:
        a, axis = tf.reshape(a, [-1]), 0
    return tf.cast(tf.argsort(a, axis, stable=True), tf.int64)


def diag(v, k=0) -> tf.Tensor:
    """The diagonal `k` of a matrix, or a matrix with 1-D `v` on diagonal `k`.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.diag([1, 2]).numpy()
        array([[1, 0],
               [0, 2]])
    """
    v = asarray(v)
    if _rank(v) == 1:
        n = v.shape[0] + abs(k)
        return tf.linalg.diag(v, k=k, num_rows=n, num_cols=n)
    return diagonal(v, k)


def diagflat(v, k=0) -> tf.Tensor:
    """A matrix with the flattened `v` on diagonal `k`.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.diagflat([[1, 2]]).numpy()
        array([[1, 0],
               [0, 2]])
    """
    return diag(ravel_input(v), k)


def ravel_input(v) -> tf.Tensor:
    return tf.reshape(asarray(v), [-1])


def diagonal(a, offset=0, axis1=0, axis2=1) -> tf.Tensor:
    """The diagonal `offset` of `a` in the plane of `axis1` and `axis2` (last axis).

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.diagonal([[1, 2], [3, 4]]).numpy()
        array([1, 4])
    """
    a = asarray(a)
    rank = _rank(a)
    axis1, axis2 = axis1 % rank, axis2 % rank
    order = [i for i in range(rank) if i not in (axis1, axis2)] + [axis1, axis2]
    return tf.linalg.diag_part(tf.transpose(a, order), k=offset)


def diag_indices(n, ndim=2) -> tuple:
    """The indices of the main diagonal of an n x ... x n array (int32 tensors, as TF's).

    Example:
        >>> import tapeflow as tf
        >>> [i.numpy() for i in tf.experimental.numpy.diag_indices(2)]
        [array([0, 1], dtype=int32), array([0, 1], dtype=int32)]
    """
    return (tf.range(n, dtype=tf.int32),) * ndim


def trace(a, offset=0, axis1=0, axis2=1, dtype=None) -> tf.Tensor:
    """The sum of the diagonal `offset` of `a`.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> int(tnp.trace([[1, 2], [3, 4]]))
        5
    """
    result = tf.reduce_sum(diagonal(a, offset, axis1, axis2), axis=-1)
    return result if dtype is None else tf.cast(result, asarray(0, dtype).dtype)


def tril(m, k=0) -> tf.Tensor:
    """`m` with the elements above diagonal `k` zeroed.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.tril([[1, 2], [3, 4]]).numpy()
        array([[1, 0],
               [3, 4]])
    """
    m = asarray(m)
    rows, cols = m.shape[-2], m.shape[-1]
    mask = tf.range(cols)[None, :] - tf.range(rows)[:, None] <= k
    return tf.where(mask, m, tf.zeros_like(m))


def triu(m, k=0) -> tf.Tensor:
    """`m` with the elements below diagonal `k` zeroed.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.triu([[1, 2], [3, 4]]).numpy()
        array([[1, 2],
               [0, 4]])
    """
    m = asarray(m)
    rows, cols = m.shape[-2], m.shape[-1]
    mask = tf.range(cols)[None, :] - tf.range(rows)[:, None] >= k
    return tf.where(mask, m, tf.zeros_like(m))


def vander(x, N=None, increasing=False) -> tf.Tensor:  # noqa: N803
    """The Vandermonde matrix of `x`: its columns are powers of `x`.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.vander([1, 2, 3]).numpy()
        array([[1, 1, 1],
               [4, 2, 1],
               [9, 3, 1]])
    """
    x = asarray(x)
    n = x.shape[0] if N is None else N
    powers = tf.range(n) if increasing else tf.range(n - 1, -1, -1)
    return tf.pow(x[:, None], tf.cast(powers, x.dtype)[None, :])


def diff(a, n=1, axis=-1) -> tf.Tensor:
    """The `n`-th discrete difference of `a` along `axis`.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.diff([1, 4, 9, 16]).numpy()
        array([3, 5, 7])
    """
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
    """Coordinate matrices from coordinate vectors (`indexing` "xy" or "ij").

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> [t.shape for t in tnp.meshgrid([1, 2, 3], [4, 5])]
        [TensorShape([2, 3]), TensorShape([2, 3])]
    """
    return tf.meshgrid(*promote(*xi), indexing=kwargs.get("indexing", "xy"))


def ix_(*args) -> tuple:
    """Open meshes from 1-D sequences, each shaped to index one axis.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> [t.shape for t in tnp.ix_([0, 1], [2, 1, 0])]
        [TensorShape([2, 1]), TensorShape([1, 3])]
    """
    arrays = [asarray(a) for a in args]
    n = len(arrays)
    return tuple(tf.reshape(a, [1] * i + [-1] + [1] * (n - i - 1))
                 for i, a in enumerate(arrays))


# -- products ----------------------------------------------------------------------------------
def matmul(x1, x2) -> tf.Tensor:
    """The matrix product of `x1` and `x2` (1-D operands as vectors), promoted.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.matmul([[1, 2], [3, 4]], [[1], [1]]).numpy()
        array([[3],
               [7]])
    """
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
    second-to-last of `b`.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.dot([[1, 2], [3, 4]], [1, 1]).numpy()
        array([3, 7])
    """
    a, b = promote(a, b)
    if _rank(a) == 0 or _rank(b) == 0:
        return a * b
    return tf.tensordot(a, b, [[_rank(a) - 1], [max(_rank(b) - 2, 0)]])


def inner(a, b) -> tf.Tensor:
    """The sum over the last axes of `a` and `b`.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> int(tnp.inner([1, 2], [3, 4]))
        11
    """
    a, b = promote(a, b)
    if _rank(a) == 0 or _rank(b) == 0:
        return a * b
    return tf.tensordot(a, b, [[-1], [-1]])


def outer(a, b) -> tf.Tensor:
    """The outer product of the flattened `a` and `b`.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.outer([1, 2], [1, 10]).numpy()
        array([[ 1, 10],
               [ 2, 20]])
    """
    a, b = promote(a, b)
    return tf.reshape(a, [-1, 1]) * tf.reshape(b, [1, -1])


def vdot(a, b) -> tf.Tensor:
    """The dot product of the flattened `a` (conjugated) and `b`.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> complex(tnp.vdot([1j, 2], [1j, 1]))
        (3+0j)
    """
    a, b = promote(a, b)
    return tf.reduce_sum(tf.math.conj(tf.reshape(a, [-1])) * tf.reshape(b, [-1]))


def tensordot(a, b, axes=2) -> tf.Tensor:
    """The sum of products over `axes` of `a` and `b`.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> int(tnp.tensordot([[1, 2], [3, 4]], [[1, 0], [0, 1]]))
        5
    """
    a, b = promote(a, b)
    return tf.tensordot(a, b, axes)


def kron(a, b) -> tf.Tensor:
    """The Kronecker product of `a` and `b`.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.kron([1, 2], [1, 10]).numpy()
        array([ 1, 10,  2, 20])
    """
    a, b = promote(a, b)
    rank = max(_rank(a), _rank(b))
    a = tf.reshape(a, [1] * (rank - _rank(a)) + a.shape.as_list())
    b = tf.reshape(b, [1] * (rank - _rank(b)) + b.shape.as_list())
    product = tf.reshape(a, [d for s in a.shape.as_list() for d in (s, 1)]) * \
        tf.reshape(b, [d for s in b.shape.as_list() for d in (1, s)])
    return tf.reshape(product, [x * y for x, y in zip(a.shape.as_list(), b.shape.as_list())])


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None) -> tf.Tensor:
    """The cross product of 3-vectors (2-vectors get a zero third component).

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.cross([1.0, 0.0, 0.0], [0.0, 1.0, 0.0]).numpy()
        array([0., 0., 1.])
    """
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
    """Einstein summation over the promoted operands.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.einsum('ij,j->i', [[1, 2], [3, 4]], [1, 1]).numpy()
        array([3, 7])
    """
    return tf.einsum(subscripts, *promote(*operands))


def polyval(p, x) -> tf.Tensor:
    """The polynomial with coefficients `p` (highest power first) at `x`.

    Example:
        >>> import tapeflow as tf
        >>> tnp = tf.experimental.numpy
        >>> tnp.polyval([1, 2, 3], [0, 1]).numpy()
        array([3, 6])
    """
    values = promote(*list(p) if isinstance(p, (list, tuple)) else [p], x)
    x = values[-1]
    coefficients = values[:-1] if isinstance(p, (list, tuple)) else tf.unstack(values[0])
    result = tf.zeros_like(x)
    for c in coefficients:
        result = result * x + c
    return result
