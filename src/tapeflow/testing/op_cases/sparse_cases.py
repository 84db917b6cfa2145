"""Gradient-check rows for sparse_ops: SparseTensor values flowing through the sparse
functions (checked to second order), and the ops that only compute coordinates."""
import numpy as np

import tapeflow as tf

from ._table import EXEMPT, case, normal

# Out of row-major order on purpose, so that reordering rows move values.
_IDX = [[2, 1], [0, 3], [1, 0], [0, 0]]
_OTHER = [[0, 0], [1, 1], [2, 1]]
_SORTED = [[0, 0], [0, 3], [1, 0], [2, 1]]


def _st(values, indices=_IDX, shape=(3, 4)):
    return tf.SparseTensor(indices, values, shape)


case("SparseTensorDenseMatMul", lambda v, b: tf.sparse.sparse_dense_matmul(_st(v), b),
     normal(4), normal(4, 2))
case("SparseTensorDenseMatMul", lambda v, b: tf.sparse.sparse_dense_matmul(
    _st(v), b, adjoint_a=True, adjoint_b=True), normal(4), normal(2, 3), label="adjoints")
case("SparseTensorDenseMatMul", lambda a, v: tf.sparse.sparse_dense_matmul(a, _st(v)),
     normal(2, 3), normal(4), label="dense first")
case("SparseToDense", lambda v, d: tf.sparse.to_dense(tf.sparse.reorder(_st(v)), d),
     normal(4), normal(), label="default_value")
case("SparseValuesGather", lambda v: tf.sparse.reorder(_st(v)).values, normal(4),
     label="reorder")
case("SparseValuesGather", lambda v: tf.sparse.transpose(_st(v)).values, normal(4),
     label="transpose")
case("SparseValuesGather", lambda v: tf.sparse.slice(_st(v), [0, 0], [2, 4]).values, normal(4),
     label="slice")
case("SparseValuesGather", lambda v, d: tf.sparse.fill_empty_rows(
    _st(v, [[0, 1], [2, 3]], (4, 4)), d)[0].values, normal(2), normal(),
     label="fill_empty_rows")
case("SparseValuesGather", lambda a, b: tf.sparse.add(_st(a, _SORTED), _st(b, _OTHER)).values,
     normal(4), normal(3), label="add")
case("SparseValuesGather", lambda a, b: tf.sparse.add(_st(a, _SORTED), _st(b, _OTHER),
                                                     threshold=0.1).values,
     normal(4), normal(3), label="add threshold")
case("SparseValuesGather", lambda a, b: tf.sparse.maximum(_st(a, _SORTED), _st(b, _OTHER)).values,
     normal(4), normal(3), label="maximum")
case("SparseValuesGather", lambda a, b: tf.sparse.minimum(_st(a, _SORTED), _st(b, _OTHER)).values,
     normal(4), normal(3), label="minimum")
case("SparseValuesScatter", lambda v: tf.sparse.reduce_sum(_st(v), axis=1), normal(4),
     label="reduce_sum")
case("SparseValuesScatter", lambda v: tf.sparse.reduce_sum(
    _st(v), axis=[0, 1], keepdims=True, output_is_sparse=True).values, normal(4),
     label="reduce_sum sparse keepdims")
case("SparseValuesScatter", lambda v: tf.sparse.softmax(_st(v)).values, normal(4),
     label="softmax")
case("GatherNd", lambda v, d: (_st(v) * d).values, normal(4), normal(4),
     label="SparseTensor * dense row")
case("GatherV2", lambda p, w: tf.nn.embedding_lookup_sparse(
    p, _st(np.array([1, 0, 2, 1], np.int64), _SORTED), _st(w, _SORTED), combiner="sqrtn"),
     normal(3, 2),
     normal(4), label="embedding_lookup_sparse")
case("SparseConcat", lambda a, b: tf.sparse.concat(1, [_st(a), _st(b, _OTHER, (3, 2))]).values,
     normal(4), normal(3), differentiable=False)

EXEMPT.update({
    op: "tests/sparse/ (integer coordinates only: never recorded)"
    for op in ("SparseCanonicalOrder", "SparseSlicePositions", "SparseUnion",
               "SparseFillEmptyRowsPositions", "SparseReduceGroups", "SparseReshape",
               "ListDiff", "SparseCrossHashed")})
EXEMPT.update({
    op: "tests/sparse/ (no gradient rule, as TF: LookupError)"
    for op in ("SparseSplit", "SparseReduceMaxSparse", "SparseCountSparseOutput")})
EXEMPT.update({
    op: "tests/ops/test_sets_ops.py (integer or string sets: never recorded)"
    for op in ("SetSize", "DenseToDenseSetOperation", "DenseToSparseSetOperation",
               "SparseToSparseSetOperation")})
