"""Kernels of the sparse (COO) ops: a SparseTensor is three tensors, `indices` [nnz, rank]
(int64), `values` [nnz] and `dense_shape` [rank] (int64).

Differentiable primitives: `SparseTensorDenseMatMul`, `SparseToDense`, and the pair
`SparseValuesGather` / `SparseValuesScatter` (each the other's adjoint) through which every
sparse function moves values, so values' gradients are dense as TF's sparse ops give them.
The other ops compute coordinates only (integers, no gradient): where each output value
comes from. `SparseConcat`, `SparseSplit` and `SparseReduceMaxSparse` move values themselves
and, as TF's, have no gradient (None for concat; LookupError for the others).
Rules live in `sparse_grad.py`; the public functions in `tapeflow.sparse`.
"""
from __future__ import annotations

import numpy as np

from ..framework import errors
from ..framework.registry import LINEAR, MULTILINEAR, define_op
from ..framework.shape_inference import constant_shape, unless_known

__all__ = ["SparseTensorDenseMatMul", "SparseToDense", "SparseValuesGather",
           "SparseValuesScatter"]

# Above this many multiply-adds (stored values x columns of the dense operand) SciPy's CSR
# product beats NumPy's scatter-add (measured: even at about 8k, 15x at 60k, 30x at 2.5M),
# when SciPy is installed; the core does without it.
_SCIPY_MATMUL_WORK = 8192


# -- shared checks and orderings -------------------------------------------------------------
def _check_indices(op_name: str, indices, shape) -> None:
    if indices.ndim != 2 or indices.shape[1] != len(shape):
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: indices must be a matrix with one column per dimension "
            f"of the dense shape {[int(d) for d in shape]}, got shape {list(indices.shape)}")
    bad = (indices < 0) | (indices >= np.asarray(shape, np.int64))
    if bad.any():
        row = int(np.argwhere(bad.any(axis=1))[0, 0])
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: indices[{row}] = {indices[row].tolist()} is out of "
            f"bounds: need 0 <= index < {[int(d) for d in shape]}")


def _order(indices):
    """The positions of `indices`' rows in row-major (lexicographic) order, stable."""
    if indices.shape[1] == 0:
        return np.arange(indices.shape[0])
    return np.lexsort(indices.T[::-1])


def _linear(indices, shape):
    """Each row of `indices` as one number, its row-major position in `shape`."""
    if not len(shape):
        return np.zeros(indices.shape[0], np.int64)
    return np.ravel_multi_index(tuple(indices.T), tuple(int(d) for d in shape))


def _positions(found, keys):
    """For each of `keys`, its position in `found` (sorted, unique), or -1."""
    at = np.searchsorted(found, keys)
    hit = at < len(found)
    hit[hit] = found[at[hit]] == keys[hit]
    return np.where(hit, at, -1)


# -- differentiable primitives ---------------------------------------------------------------
def _scipy_sparse():
    try:
        from scipy import sparse
    except ImportError:
        return None
    return sparse


def _sparse_dense_matmul(a_indices, a_values, a_shape, b, adjoint_a, adjoint_b):
    name = "SparseTensorDenseMatMul"
    if len(a_shape) != 2 or b.ndim != 2:
        raise errors.InvalidArgumentError(
            None, name, f"{name}: the sparse and dense operands must be matrices, got dense "
            f"shapes {a_shape.tolist()} and {list(b.shape)}")
    if a_values.dtype != b.dtype:
        raise errors.InvalidArgumentError(
            None, name, f"{name}: the SparseTensor holds {a_values.dtype} and the dense matrix "
            f"{b.dtype}; cast one with tf.cast")
    _check_indices(name, a_indices, a_shape)
    rows, cols = a_indices[:, 0], a_indices[:, 1]
    values, (m, k) = a_values, (int(a_shape[0]), int(a_shape[1]))
    if adjoint_a:
        rows, cols, m, k = cols, rows, k, m
        values = values.conj() if values.dtype.kind == "c" else values
    if adjoint_b:
        b = b.T.conj() if b.dtype.kind == "c" else b.T
    if b.shape[0] != k:
        raise errors.InvalidArgumentError(
            None, name, f"{name}: cannot multiply A and B because inner dimension does not "
            f"match: {k} vs. {b.shape[0]} (sparse shape {a_shape.tolist()}, dense shape "
            f"{list(b.shape[::-1] if adjoint_b else b.shape)}, adjoint_a={adjoint_a}, "
            f"adjoint_b={adjoint_b})")
    sparse = _scipy_sparse() if values.size * b.shape[1] > _SCIPY_MATMUL_WORK else None
    if sparse is not None:
        matrix = sparse.csr_matrix((values, (rows, cols)), shape=(m, k))
        return np.asarray(matrix @ b, dtype=b.dtype)
    out = np.zeros((m, b.shape[1]), dtype=b.dtype)
    np.add.at(out, rows, values[:, None] * b[cols])
    return out


def _sparse_to_dense(sparse_indices, output_shape, sparse_values, default_value,
                     validate_indices):
    name = "SparseToDense"
    shape = tuple(int(d) for d in output_shape)
    indices = sparse_indices.reshape(-1, 1) if sparse_indices.ndim < 2 else sparse_indices
    if sparse_values.ndim and sparse_values.shape[0] != indices.shape[0]:
        raise errors.InvalidArgumentError(
            None, name, f"{name}: sparse_values has {sparse_values.shape[0]} entries but "
            f"sparse_indices has {indices.shape[0]} rows")
    if np.ndim(default_value):
        raise errors.InvalidArgumentError(
            None, name, f"{name}: default_value must be a scalar, got shape "
            f"{list(np.shape(default_value))}")
    _check_indices(name, indices, shape)
    if validate_indices and indices.shape[0] > 1:
        step = np.diff(_linear(indices, shape))
        if (step <= 0).any():
            row = int(np.argmax(step <= 0)) + 1
            why = "repeated" if step[row - 1] == 0 else "out of order"
            raise errors.InvalidArgumentError(
                None, name, f"{name}: indices[{row}] = {indices[row].tolist()} is {why}. Many "
                "sparse ops require sorted indices; use tf.sparse.reorder to create a "
                "correctly ordered copy.")
    out = np.full(shape, default_value, dtype=sparse_values.dtype)
    if shape:
        out[tuple(indices.T)] = sparse_values
    elif len(indices):  # a scalar: the one position holds the (last) value
        out[()] = sparse_values[-1] if sparse_values.ndim else sparse_values
    return out


def _values_gather(values, positions):
    """`values[positions]`, zero where a position is -1 (an entry the input lacks)."""
    missing = positions < 0
    out = values[np.where(missing, 0, positions)] if len(values) else \
        np.zeros(positions.shape + values.shape[1:], values.dtype)
    if missing.any():
        out[missing] = 0
    return out


def _values_scatter(updates, positions, like):
    """The adjoint of the gather: `out[positions[i]] += updates[i]`, `out` as long as `like`
    (positions -1 dropped)."""
    out = np.zeros((like.shape[0],) + updates.shape[1:], dtype=updates.dtype)
    keep = positions >= 0
    np.add.at(out, positions[keep], updates[keep])
    return out


SparseTensorDenseMatMul = define_op("SparseTensorDenseMatMul", _sparse_dense_matmul,
                                    family=MULTILINEAR)
SparseToDense = define_op("SparseToDense", _sparse_to_dense, family=LINEAR)
SparseValuesGather = define_op("SparseValuesGather", _values_gather, family=LINEAR)
SparseValuesScatter = define_op("SparseValuesScatter", _values_scatter, family=LINEAR)


# -- coordinates (no gradient) ---------------------------------------------------------------
def _canonical_order(indices):
    return _order(indices).astype(np.int64)


def _slice(indices, shape, start, size):
    start, size = start.astype(np.int64), size.astype(np.int64)
    if not len(start) == len(size) == len(shape):
        raise errors.InvalidArgumentError(
            None, "SparseSlice", f"SparseSlice: start {start.tolist()} and size "
            f"{size.tolist()} must each have one entry per dimension of {shape.tolist()}")
    begin = np.minimum(np.maximum(start, 0), shape)
    end = np.minimum(shape, np.maximum(start + size, begin))
    keep = np.nonzero(((indices >= begin) & (indices < end)).all(axis=1))[0]
    return indices[keep] - begin, keep.astype(np.int64), (end - begin).astype(np.int64)


def _union(a_indices, a_shape, b_indices, b_shape):
    if a_shape.shape != b_shape.shape or (a_shape != b_shape).any():
        raise errors.InvalidArgumentError(
            None, "SparseUnion", f"SparseUnion (of sparse add, maximum, minimum): the two "
            f"SparseTensors' dense shapes differ: {a_shape.tolist()} and {b_shape.tolist()}")
    a_keys, b_keys = _linear(a_indices, a_shape), _linear(b_indices, a_shape)
    keys = np.union1d(a_keys, b_keys)
    at_a, at_b = np.full(len(keys), -1, np.int64), np.full(len(keys), -1, np.int64)
    at_a[np.searchsorted(keys, a_keys)] = np.arange(len(a_keys))
    at_b[np.searchsorted(keys, b_keys)] = np.arange(len(b_keys))
    out = np.stack(np.unravel_index(keys, tuple(int(d) for d in a_shape)), axis=1) \
        if len(a_shape) else np.zeros((len(keys), 0), np.int64)
    return out.astype(np.int64), at_a, at_b


def _fill_empty_rows(indices, shape):
    name = "SparseFillEmptyRows"
    if not len(shape):
        raise errors.InvalidArgumentError(None, name, f"{name}: the dense shape must have rank "
                                                      "at least 1")
    rows = int(shape[0])
    if indices.shape[0] and (indices[:, 0].min() < 0 or indices[:, 0].max() >= rows):
        raise errors.InvalidArgumentError(
            None, name, f"{name}: a row index is outside [0, {rows})")
    empty = np.bincount(indices[:, 0], minlength=rows)[:rows] == 0
    new = np.zeros((int(empty.sum()), len(shape)), np.int64)
    new[:, 0] = np.nonzero(empty)[0]
    both = np.concatenate([indices, new])
    order = np.argsort(both[:, 0], kind="stable")
    positions = np.concatenate([np.arange(len(indices)), np.full(len(new), -1)])[order]
    return both[order], positions.astype(np.int64), empty


def _groups(indices, shape, axes, keep_dims):
    """The coordinates left after reducing `axes`, the group of each entry, the shape."""
    kept = [d for d in range(len(shape)) if d not in axes]
    coords = indices[:, kept]
    kept_shape = shape[kept]
    keys, groups = np.unique(_linear(coords, kept_shape), return_inverse=True)
    out = np.stack(np.unravel_index(keys, tuple(int(d) for d in kept_shape)), axis=1) \
        if kept else np.zeros((len(keys), 0), np.int64)
    out_shape = kept_shape
    if keep_dims:
        full = np.zeros((len(keys), len(shape)), np.int64)
        full[:, kept] = out
        out, out_shape = full, np.where(np.isin(np.arange(len(shape)), axes), 1, shape)
    return out.astype(np.int64), groups.reshape(-1).astype(np.int64), \
        np.asarray(out_shape, np.int64)


def _check_axes(op_name: str, axes, rank: int) -> tuple:
    for a in axes:
        if not -rank <= a < rank:
            raise errors.InvalidArgumentError(
                None, op_name, f"{op_name}: invalid reduction dimension {a} for a SparseTensor "
                f"of rank {rank}")
    return tuple(sorted({a % rank for a in axes}))


def _reduce_groups(indices, shape, axes, keep_dims):
    return _groups(indices, shape, _check_axes("SparseReduceSum", axes, len(shape)), keep_dims)


def _reduce_max_sparse(indices, values, shape, axes, keep_dims):
    out, groups, out_shape = _groups(indices, shape,
                                     _check_axes("SparseReduceMax", axes, len(shape)), keep_dims)
    if values.dtype.kind == "f":
        lowest = -np.inf
    else:
        lowest = np.iinfo(values.dtype).min
    best = np.full(len(out), lowest, values.dtype)
    np.maximum.at(best, groups, values)
    return out, best, out_shape


def _reshape(input_indices, input_shape, new_shape):
    name = "SparseReshape"
    new = new_shape.astype(np.int64).copy()
    total = int(np.prod(input_shape))
    unknown = np.nonzero(new == -1)[0]
    if len(unknown) > 1 or (new < -1).any():
        raise errors.InvalidArgumentError(
            None, name, f"{name}: at most one dimension may be -1 and none below it, got "
                        f"{new.tolist()}")
    if len(unknown):
        known = int(np.prod(np.delete(new, unknown[0])))
        if known == 0 or total % known:
            raise errors.InvalidArgumentError(
                None, name, f"{name}: input to reshape is a tensor with {total} dense values, "
                f"but the requested shape requires a multiple of {known}")
        new[unknown[0]] = total // known
    if int(np.prod(new)) != total:
        raise errors.InvalidArgumentError(
            None, name, f"{name}: input to reshape is a tensor with {total} dense values, but "
            f"the requested shape has {int(np.prod(new))} (shape {input_shape.tolist()} to "
            f"{new_shape.tolist()})")
    flat = _linear(input_indices, input_shape)
    out = np.stack(np.unravel_index(flat, tuple(int(d) for d in new)), axis=1) if len(new) \
        else np.zeros((len(flat), 0), np.int64)
    return out.astype(np.int64), new


def _concat(*parts, concat_dim: int, n: int):
    name = "SparseConcat"
    indices, values, shapes = parts[:n], parts[n:2 * n], parts[2 * n:]
    rank = len(shapes[0])
    if any(len(s) != rank for s in shapes):
        raise errors.InvalidArgumentError(
            None, name, f"{name}: the inputs' ranks differ: {[len(s) for s in shapes]}")
    axis = concat_dim % rank if -rank <= concat_dim < rank else None
    if axis is None:
        raise errors.InvalidArgumentError(
            None, name, f"{name}: concat_dim {concat_dim} is out of range for rank {rank}")
    for s in shapes[1:]:
        if (np.delete(s, axis) != np.delete(shapes[0], axis)).any():
            raise errors.InvalidArgumentError(
                None, name, f"{name}: the inputs' shapes {[x.tolist() for x in shapes]} differ "
                f"outside the concatenation axis {axis}")
    offsets = np.cumsum([0] + [int(s[axis]) for s in shapes])
    moved = []
    for ind, offset in zip(indices, offsets):
        ind = ind.copy()
        ind[:, axis] += offset
        moved.append(ind)
    out_indices = np.concatenate(moved)
    out_values = np.concatenate(values)
    order = _order(out_indices)
    shape = shapes[0].copy()
    shape[axis] = offsets[-1]
    return out_indices[order], out_values[order], shape


def _split(indices, values, shape, split_dim: int, num_split: int):
    name = "SparseSplit"
    rank = len(shape)
    if not -rank <= split_dim < rank:
        raise errors.InvalidArgumentError(
            None, name, f"{name}: split_dim {split_dim} is out of range for rank {rank}")
    axis = split_dim % rank
    size = int(shape[axis])
    if num_split < 1 or num_split > max(size, 1):
        raise errors.InvalidArgumentError(
            None, name, f"{name}: num_split {num_split} must be in [1, {size}] (dimension "
            f"{axis} of shape {shape.tolist()})")
    sizes = [size // num_split + (1 if i < size % num_split else 0) for i in range(num_split)]
    bounds = np.cumsum([0] + sizes)
    out = []
    for lo, hi, n in zip(bounds[:-1], bounds[1:], sizes):
        keep = (indices[:, axis] >= lo) & (indices[:, axis] < hi)
        ind = indices[keep].copy()
        ind[:, axis] -= lo
        part_shape = shape.copy()
        part_shape[axis] = n
        out.append((ind, values[keep], part_shape))
    return tuple(a for part in out for a in part)


def _list_diff(x, y, out_idx):
    keep = np.nonzero(~np.isin(x, y))[0]
    return x[keep], keep.astype(out_idx)


def _count(indices, values, dense_shape, weights, binary_output, minlength, maxlength,
           per_row):
    """Counts (or sums `weights`) of each value, per row of a 2-D input when `per_row`."""
    name = "SparseCountSparseOutput"
    if values.size and values.min() < 0:
        raise errors.InvalidArgumentError(
            None, name, f"{name}: the values to count must be non-negative, got {values.min()}")
    keep = np.ones(values.shape, bool) if maxlength < 0 else values < maxlength
    size = max(int(values[keep].max()) + 1 if keep.any() else 0, minlength)
    if maxlength >= 0:
        size = min(size, maxlength)
    rows = indices[:, 0] if per_row else np.zeros(len(values), np.int64)
    n_rows = int(dense_shape[0]) if per_row else 1
    keys = rows[keep] * size + values[keep]
    weighted = weights.size > 0
    found, inverse = np.unique(keys, return_inverse=True)
    if binary_output:
        counts = np.ones(len(found), weights.dtype if weighted else values.dtype)
    else:
        counts = np.zeros(len(found), weights.dtype if weighted else values.dtype)
        np.add.at(counts, inverse.reshape(-1), weights[keep] if weighted else 1)
    out = np.stack([found // size, found % size], axis=1) if per_row else found[:, None]
    shape = [n_rows, size] if per_row else [size]
    return out.astype(np.int64), counts, np.asarray(shape, np.int64)


_FINGERPRINT_MUL = np.uint64(0xC6A4A7935BD1E995)


def _shift_mix(v):
    return v ^ (v >> np.uint64(47))


def _fingerprint_cat(fp1, fp2):
    """TF's FingerprintCat64: mixes two 64-bit fingerprints into one (wrapping uint64)."""
    mixed = fp1 ^ _FINGERPRINT_MUL
    mixed = mixed ^ (_shift_mix(fp2 * _FINGERPRINT_MUL) * _FINGERPRINT_MUL)
    return _shift_mix(_shift_mix(mixed * _FINGERPRINT_MUL) * _FINGERPRINT_MUL)


def _cross_hashed(*parts, n_sparse: int, num_buckets: int, hash_key: int):
    """Per batch row, the hashes of every combination of one feature from each input
    (sparse `indices, values, shape` triples, then dense [batch, k] matrices)."""
    name = "SparseCrossHashed"
    sparse = [parts[3 * i:3 * i + 3] for i in range(n_sparse)]
    dense = parts[3 * n_sparse:]
    batches = {int(s[0]) for _, _, s in sparse} | {d.shape[0] for d in dense}
    if len(batches) != 1:
        raise errors.InvalidArgumentError(
            None, name, f"{name}: the inputs' batch sizes (first dimensions) differ: "
            f"{sorted(batches)}")
    batch = batches.pop()
    columns = [[values[indices[:, 0] == row] for row in range(batch)]
               for indices, values, _ in sparse] + [list(d) for d in dense]
    rows, hashes = [], []
    with np.errstate(over="ignore"):
        for row in range(batch):
            crossed = np.array([hash_key], np.uint64)
            for column in columns:
                features = column[row].astype(np.int64).view(np.uint64)
                crossed = _fingerprint_cat(crossed[:, None], features[None, :]).ravel()
            rows.append(np.full(len(crossed), row, np.int64))
            hashes.append(crossed)
    limit = np.uint64(num_buckets if num_buckets > 0 else np.iinfo(np.int64).max)
    values = (np.concatenate(hashes) % limit).astype(np.int64)
    rows = np.concatenate(rows)
    positions = np.concatenate([np.arange(len(h)) for h in hashes]).astype(np.int64)
    width = max((len(h) for h in hashes), default=0)
    return np.stack([rows, positions], axis=1), values, np.array([batch, width], np.int64)


SparseCanonicalOrder = define_op("SparseCanonicalOrder", _canonical_order)
SparseSlicePositions = define_op("SparseSlicePositions", _slice, num_outputs=3)
SparseUnion = define_op("SparseUnion", _union, num_outputs=3)
SparseFillEmptyRowsPositions = define_op("SparseFillEmptyRowsPositions", _fill_empty_rows,
                                         num_outputs=3)
SparseReduceGroups = define_op("SparseReduceGroups", _reduce_groups, num_outputs=3)
SparseReduceMaxSparse = define_op("SparseReduceMaxSparse", _reduce_max_sparse, num_outputs=3)
SparseReshape = define_op("SparseReshape", _reshape, num_outputs=2)
SparseConcat = define_op("SparseConcat", _concat, num_outputs=3)
SparseSplit = define_op("SparseSplit", _split, num_outputs=None)
ListDiff = define_op("ListDiff", _list_diff, num_outputs=2)
SparseCrossHashed = define_op("SparseCrossHashed", _cross_hashed, num_outputs=3)
SparseCountSparseOutput = define_op("SparseCountSparseOutput", _count, num_outputs=3)


# -- static shapes in graphs (sizes that depend on the values are unknown) -------------------
def _dims(x, i):
    dims = x._dims
    return None if dims is None or i >= len(dims) else dims[i]


_I64 = np.dtype(np.int64)


def _matmul_dims(inputs, attrs):
    shape = constant_shape(inputs[2]) or (None, None)
    b = inputs[3]._dims or (None, None)
    rows = shape[1] if attrs["adjoint_a"] else shape[0]
    cols = b[0] if attrs["adjoint_b"] else b[1]
    return [(inputs[3]._value.dtype, (rows, cols))]


def _to_dense_dims(inputs, attrs):
    return [(inputs[2]._value.dtype, constant_shape(inputs[1]))]


def _rank_of(shape_input):
    return _dims(shape_input, 0)


SparseTensorDenseMatMul.shape_fn = unless_known(_matmul_dims)
SparseToDense.shape_fn = unless_known(_to_dense_dims)
SparseValuesGather.shape_fn = unless_known(lambda inputs, attrs: [(
    inputs[0]._value.dtype, None if inputs[0]._dims is None else
    (_dims(inputs[1], 0),) + tuple(inputs[0]._dims[1:]))])
SparseValuesScatter.shape_fn = unless_known(lambda inputs, attrs: [(
    inputs[0]._value.dtype, None if inputs[0]._dims is None else
    (_dims(inputs[2], 0),) + tuple(inputs[0]._dims[1:]))])
SparseCanonicalOrder.shape_fn = unless_known(lambda inputs, attrs: [
    (_I64, (_dims(inputs[0], 0),))])
SparseSlicePositions.shape_fn = unless_known(lambda inputs, attrs: [
    (_I64, (None, _dims(inputs[0], 1))), (_I64, (None,)), (_I64, (_rank_of(inputs[1]),))])
SparseUnion.shape_fn = unless_known(lambda inputs, attrs: [
    (_I64, (None, _dims(inputs[0], 1))), (_I64, (None,)), (_I64, (None,))])
SparseFillEmptyRowsPositions.shape_fn = unless_known(lambda inputs, attrs: [
    (_I64, (None, _dims(inputs[0], 1))), (_I64, (None,)), (np.dtype(bool), (None,))])


def _reduced_dims(inputs, attrs, values_dtype):
    rank = _rank_of(inputs[1])
    kept = None if rank is None else rank if attrs["keep_dims"] else \
        rank - len(set(a % rank for a in attrs["axes"]))
    return [(_I64, (None, kept)), (values_dtype, (None,)), (_I64, (kept,))]


def _groups_dims(inputs, attrs):
    out_indices, _, out_shape = _reduced_dims(inputs, attrs, _I64)
    return [out_indices, (_I64, (_dims(inputs[0], 0),)), out_shape]


SparseReduceGroups.shape_fn = unless_known(_groups_dims)
SparseReduceMaxSparse.shape_fn = unless_known(lambda inputs, attrs: _reduced_dims(
    [inputs[0], inputs[2]], attrs, inputs[1]._value.dtype))
SparseReshape.shape_fn = unless_known(lambda inputs, attrs: [
    (_I64, (_dims(inputs[0], 0), _dims(inputs[2], 0))), (_I64, (_dims(inputs[2], 0),))])
SparseConcat.shape_fn = unless_known(lambda inputs, attrs: [
    (_I64, (None, _dims(inputs[0], 1))), (inputs[attrs["n"]]._value.dtype, (None,)),
    (_I64, (_rank_of(inputs[2 * attrs["n"]]),))])
SparseSplit.shape_fn = unless_known(lambda inputs, attrs: [
    (_I64, (None, _dims(inputs[0], 1))), (inputs[1]._value.dtype, (None,)),
    (_I64, (_rank_of(inputs[2]),))] * attrs["num_split"])
SparseCrossHashed.shape_fn = unless_known(lambda inputs, attrs: [
    (_I64, (None, 2)), (_I64, (None,)), (_I64, (2,))])
ListDiff.shape_fn = unless_known(lambda inputs, attrs: [
    (inputs[0]._value.dtype, (None,)), (np.dtype(attrs["out_idx"]), (None,))])
SparseCountSparseOutput.shape_fn = unless_known(lambda inputs, attrs: [
    (_I64, (None, 2 if attrs["per_row"] else 1)),
    ((inputs[3] if inputs[3]._dims != (0,) else inputs[1])._value.dtype, (None,)),
    (_I64, (2 if attrs["per_row"] else 1,))])
