"""Gradient-check rows for slicing, n-d gathers and scatters, where, sorting, einsum,
embedding lookups and the random ops' differentiable parameters."""
import tapeflow as tf
from tapeflow.ops import indexing_ops, tensor_array_ops

from ._table import EXEMPT, case, normal, uniform

case("Slice", lambda x: tf.slice(x, [1, 0], [1, -1]), normal(3, 4))
case("Slice", lambda x: tf.slice(x, [1], [2]), normal(4), label="1-D")
case("StridedSlice", lambda x: x[1:, ::-1], normal(3, 4), label="negative step")
case("StridedSlice", lambda x: x[..., 0], normal(2, 3, 2), label="ellipsis, int")
case("StridedSlice", lambda x: x[None, -1, 1:3], normal(3, 4), label="newaxis")
case("StridedSlice", lambda x: x[::2, tf.constant(1)], normal(5, 3), label="tensor index")
case("StridedSlice", lambda x: x[2] * x[0], normal(4), label="to scalar")
case("StridedSlice", lambda x: x[...], normal(), label="scalar")
case("StridedSlice", lambda x: tf.strided_slice(x, [0, 3], [2, 0], [1, -2], end_mask=1),
     normal(3, 4), label="strided_slice masks")
case("StridedSliceGrad",
     lambda g: indexing_ops.StridedSliceGrad(g, shape=(4, 3), index=(slice(1, None),
                                                                      slice(None, None, -1))),
     normal(3, 3))
case("DynamicStridedSlice",
     lambda x, t: indexing_ops.DynamicStridedSlice(x, t, spec=(indexing_ops.Bound(0),)),
     normal(4, 3), 2, label="x[t]")
case("DynamicStridedSlice",
     lambda x, t: indexing_ops.DynamicStridedSlice(
         x, t, spec=(slice(None, None, -1), indexing_ops.Bound(0), None)),
     normal(2, 5), 3, label="x[::-1, t, newaxis]")
case("DynamicStridedSliceGrad",
     lambda g, t: indexing_ops.DynamicStridedSliceGrad(g, [4, 3], t,
                                                       spec=(indexing_ops.Bound(0),)),
     normal(3), 1)
case("TensorArrayWrite", lambda b, v: tf.TensorArray(tf.float64, size=3).unstack(b).write(
    1, v).stack(), normal(3, 2), normal(2))
case("TensorArrayWrite", lambda v, t: tensor_array_ops.TensorArrayWrite(
    tf.zeros([3, 0], tf.float64), t, v), normal(2), 2, label="first write sizes the elements")
case("TensorArrayWriteGrad", lambda g, t: tensor_array_ops.TensorArrayWriteGrad(
    g, tf.zeros([3, 2], tf.float64), t), normal(3, 2), 1)
case("GatherNd", lambda p: tf.gather_nd(p, [[1, 0], [0, 1], [1, 0]]), normal(2, 2),
     label="elements, repeated")
case("GatherNd", lambda p: tf.gather_nd(p, [[2], [0]]), normal(3, 2), label="rows")
case("GatherNd", lambda p: tf.gather_nd(p, [[[1]], [[0]]], batch_dims=1), normal(2, 3),
     label="batch_dims=1")
case("ScatterNd", lambda u: tf.scatter_nd([[1], [3], [1]], u, [5]), normal(3),
     label="repeated")
case("ScatterNd", lambda u: tf.scatter_nd([[0, 1], [1, 0]], u, [2, 2, 3]), normal(2, 3),
     label="slices")
case("TensorScatterUpdate", lambda t, u: tf.tensor_scatter_nd_update(t, [[0], [2]], u),
     normal(3, 2), normal(2, 2))
case("TensorScatterAdd", lambda t, u: tf.tensor_scatter_nd_add(t, [[1], [1]], u), normal(3),
     normal(2))
# Indices as arguments: inside tf.function they are graph inputs, unknown while it is traced.
case("GatherNd", lambda p, i: tf.gather_nd(p, i), normal(3, 2), [[2, 1], [0, 0], [2, 1]],
     label="index argument")
case("GatherNd", lambda p, i: tf.gather_nd(p, i), normal(3, 2), [[2], [0], [2]],
     label="row argument")
case("ScatterNd", lambda u, i: tf.scatter_nd(i, u, [5]), normal(3), [[1], [3], [1]],
     label="index argument")
case("TensorScatterUpdate", lambda t, u, i: tf.tensor_scatter_nd_update(t, i, u),
     normal(3, 2), normal(2, 2), [[0], [2]], label="index argument")
case("TensorScatterAdd", lambda t, u, i: tf.tensor_scatter_nd_add(t, i, u), normal(3),
     normal(2), [[1], [1]], label="index argument")
case("Where", lambda x: tf.where(x), normal(2, 3), differentiable=False)
case("SelectV2", lambda x, y: tf.where([True, False, True], x, y), normal(3), normal(3))
case("SelectV2", lambda x, y: tf.where([[True], [False]], x, y), normal(3), normal(),
     label="broadcast")
case("Select", lambda x, y: tf.compat.v1.where([True, False], x, y), normal(2, 3),
     normal(2, 3), label="rows")
case("GatherV2", lambda x: tf.boolean_mask(x, [[True, False], [True, True]]), normal(2, 2, 3),
     label="boolean_mask")
case("GatherV2", lambda x: tf.boolean_mask(x, [False, True, True], axis=1), normal(2, 3),
     label="boolean_mask axis=1")
case("GatherV2", lambda x: x[tf.constant([True, False, True])], normal(3, 2),
     label="mask index")
case("Tile", lambda x: tf.repeat(x, 2, axis=1), normal(2, 3), label="repeat")
case("GatherV2", lambda x: tf.repeat(x, [2, 0, 1]), normal(3), label="repeat counts")

case("TopKV2", lambda x: tf.math.top_k(x, k=2).values, normal(3, 4))
case("TopKV2", lambda x: tf.sort(x), normal(5), label="sort")
case("TopKV2", lambda x: tf.sort(x, axis=0, direction="DESCENDING"), normal(3, 2),
     label="sort axis=0")
case("TopKV2", tf.argsort, normal(4), differentiable=False, label="argsort")

for _eq, _shapes, _label in [
        ("ij,jk->ik", [(2, 3), (3, 4)], "matmul"), ("ii->", [(3, 3)], "trace"),
        ("ii->i", [(3, 3)], "diagonal"), ("i,j->ij", [(2,), (3,)], "outer"),
        ("ij->", [(2, 3)], "sum"), ("ij->ji", [(2, 3)], "transpose"),
        ("ij,jk", [(2, 3), (3, 2)], "implicit"),
        ("ij,jk,kl->il", [(2, 3), (3, 2), (2, 2)], "three"),
        ("...ij,...jk->...ik", [(2, 2, 3), (2, 3, 2)], "ellipsis"),
        ("...ij,...jk->...ik", [(1, 2, 3), (4, 3, 2)], "ellipsis broadcast"),
        ("iij,k->jk", [(2, 2, 3), (2,)], "repeated and summed")]:
    case("Einsum", lambda *xs, e=_eq: tf.einsum(e, *xs), *[normal(*s) for s in _shapes],
         label=_label)
case("Einsum", lambda a, b: tf.tensordot(a, b, axes=1), normal(2, 3), normal(3, 2),
     label="tensordot axes=1")
case("Einsum", lambda a, b: tf.tensordot(a, b, axes=[[1, 0], [0, 2]]), normal(2, 3),
     normal(3, 4, 2), label="tensordot pairs")
case("Einsum", lambda a, b: tf.tensordot(a, b, axes=0), normal(2), normal(3),
     label="tensordot outer")

case("GatherV2", lambda t: tf.nn.embedding_lookup(t, [[1, 3], [3, 0]]), normal(4, 2),
     label="embedding_lookup")
case("GatherV2", lambda a, b: tf.nn.embedding_lookup([a, b], [4, 0, 2, 3]), normal(3, 2),
     normal(2, 2), label="embedding_lookup shards")
case("GatherV2", lambda t: tf.nn.embedding_lookup(t, [0, 1, 2], max_norm=1.0),
     uniform(0.3, 1.0, 3, 2), label="embedding_lookup max_norm")


def _seeded(fn):
    """Resets the global seed first, so every call draws the same random values."""
    def run(*args):
        tf.random.set_seed(0)
        return fn(*args)
    return run


case("Mul", _seeded(lambda x: tf.nn.dropout(x, 0.4, seed=1)), normal(3, 4), label="dropout")
case("Mul", _seeded(lambda x: tf.nn.dropout(x, 0.5, noise_shape=[3, 1], seed=2)), normal(3, 4),
     label="dropout noise_shape")
case("Mul", _seeded(lambda m, s: tf.random.normal([3], m, s, dtype=tf.float64, seed=1)),
     normal(), normal(), label="random.normal mean, stddev")
case("Mul", _seeded(lambda lo, hi: tf.random.uniform([3], lo, hi, dtype=tf.float64, seed=1)),
     normal(), normal(), label="random.uniform minval, maxval")
case("AddV2", _seeded(lambda m: tf.random.truncated_normal([2], m, 2.0, tf.float64, seed=1)),
     normal(2), label="truncated_normal mean")
case("Multinomial", lambda logits: tf.random.categorical(logits, 3, seed=1), normal(2, 4),
     differentiable=False)
for _op in ("RandomStandardNormal", "RandomUniform", "RandomUniformInt", "TruncatedNormal"):
    EXEMPT[_op] = "tests/ops/test_random_ops.py (no tensor inputs: never recorded)"
EXEMPT["RandomShuffle"] = "tests/ops/test_random_ops.py (no gradient rule, as TF: LookupError)"
case("TensorScatterSub", lambda t, u: tf.tensor_scatter_nd_sub(t, [[1], [1]], u), normal(3, 2),
     normal(2, 2), label="repeated index")
case("TensorScatterMax", lambda t, u: tf.tensor_scatter_nd_max(t, [[1], [1], [3]], u),
     normal(4, 2), normal(3, 2), label="repeated index")
case("TensorScatterMin", lambda t, u: tf.tensor_scatter_nd_min(t, [[0, 1], [2, 0]], u),
     normal(3, 2), normal(2), label="element indices")

from tapeflow.ops import xla_ops  # noqa: E402

case("XlaDynamicSlice", lambda x: xla_ops.dynamic_slice(x, [1, 3], [2, 2]), normal(3, 4),
     label="start clamped")
case("XlaDynamicUpdateSlice", lambda x, u: xla_ops.dynamic_update_slice(x, u, [-1, 1]),
     normal(3, 4), normal(2, 2), label="start clamped")
case("XlaDynamicUpdateSlice", lambda x, u: xla_ops.dynamic_update_slice(x, u, [2]),
     normal(4), normal(4), label="update the whole")
