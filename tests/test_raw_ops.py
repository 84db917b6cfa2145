"""tf.raw_ops: TF's op types with TF's keyword signatures and outputs, values recorded
from TF 2.21 (eager, CPU)."""
import inspect

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.raw_op_defs import RAW_OP_DEFS

A = [[1.0, -2.0, 3.0], [0.5, 4.0, -1.5]]
B = [[2.0, 1.0], [0.0, -1.0], [1.0, 3.0]]
I = [[3, 1, 2], [7, 5, 4]]
X4 = np.arange(32, dtype=np.float32).reshape(1, 4, 4, 2) / 10
W4 = (np.arange(16, dtype=np.float32).reshape(2, 2, 2, 2) - 8) / 7
CASES = [
    ("MatMul", dict(a=A, b=B)),
    ("MatMul", dict(a=A, b=A, transpose_b=True)),
    ("BatchMatMulV2", dict(x=[A], y=[B])),
    ("BatchMatMulV3", dict(x=[A], y=[A], adj_y=True, Tout="float32")),
    ("AddV2", dict(x=A, y=[1.0, 2.0, 3.0])),
    ("Add", dict(x=I, y=I)),
    ("Sub", dict(x=A, y=2.0)),
    ("Mul", dict(x=A, y=A)),
    ("RealDiv", dict(x=A, y=[2.0, 4.0, 8.0])),
    ("Pow", dict(x=[2.0, 3.0], y=[3.0, 0.5])),
    ("Maximum", dict(x=A, y=0.0)),
    ("Minimum", dict(x=I, y=4)),
    ("Neg", dict(x=A)),
    ("Exp", dict(x=[0.0, 1.0, -1.0])),
    ("Log", dict(x=[1.0, 2.0, 10.0])),
    ("Tanh", dict(x=[0.5, -2.0])),
    ("Sigmoid", dict(x=[0.5, -2.0])),
    ("Sqrt", dict(x=[4.0, 2.0])),
    ("Rsqrt", dict(x=[4.0, 2.0])),
    ("Square", dict(x=I)),
    ("Abs", dict(x=A)),
    ("FloorDiv", dict(x=[7, -7], y=[2, 2])),
    ("FloorMod", dict(x=[7, -7], y=[3, 3])),
    ("Greater", dict(x=A, y=0.5)),
    ("Equal", dict(x=I, y=[3, 5, 0])),
    ("LogicalAnd", dict(x=[True, False, True], y=[True, True, False])),
    ("Sum", dict(input=A, axis=1)),
    ("Sum", dict(input=I, axis=[0, 1], keep_dims=True)),
    ("Mean", dict(input=A, axis=0)),
    ("Max", dict(input=A, axis=-1)),
    ("Min", dict(input=I, axis=0, keep_dims=True)),
    ("Prod", dict(input=A, axis=1)),
    ("All", dict(input=[[True, False], [True, True]], axis=1)),
    ("ArgMax", dict(input=A, dimension=1)),
    ("ArgMin", dict(input=A, dimension=0, output_type="int32")),
    ("Cumsum", dict(x=A, axis=1, exclusive=True)),
    ("Cast", dict(x=A, DstT="int32")),
    ("Reshape", dict(tensor=A, shape=[3, 2])),
    ("Transpose", dict(x=A, perm=[1, 0])),
    ("ConcatV2", dict(values=[A, A], axis=0)),
    ("Pack", dict(values=[[1, 2], [3, 4]], axis=1)),
    ("Unpack", dict(value=A, num=2)),
    ("SplitV", dict(value=A, size_splits=[1, 2], axis=1, num_split=2)),
    ("ExpandDims", dict(input=[1.0, 2.0], axis=0)),
    ("Squeeze", dict(input=[[[1.0], [2.0]]], axis=[0, 2])),
    ("Tile", dict(input=[[1, 2]], multiples=[2, 2])),
    ("PadV2", dict(input=[[1.0, 2.0]], paddings=[[1, 0], [0, 2]], constant_values=9.0)),
    ("Shape", dict(input=A)),
    ("Size", dict(input=A, out_type="int64")),
    ("Fill", dict(dims=[2, 2], value=7.0)),
    ("OneHot", dict(indices=[0, 2], depth=3, on_value=5.0, off_value=-1.0)),
    ("GatherV2", dict(params=A, indices=[1, 0, 1], axis=0)),
    ("GatherNd", dict(params=A, indices=[[0, 1], [1, 2]])),
    ("Slice", dict(input=A, begin=[0, 1], size=[2, 2])),
    ("StridedSlice", dict(input=A, begin=[0, 0], end=[2, 3], strides=[1, 2])),
    ("SelectV2", dict(condition=[True, False, True], t=[1.0, 2.0, 3.0], e=[-1.0, -2.0, -3.0])),
    ("TopKV2", dict(input=[3.0, 1.0, 4.0, 1.5], k=2)),
    ("Relu", dict(features=A)),
    ("Relu6", dict(features=[-1.0, 3.0, 8.0])),
    ("Elu", dict(features=[-1.0, 2.0])),
    ("LeakyRelu", dict(features=[-1.0, 2.0], alpha=0.1)),
    ("Softplus", dict(features=[-1.0, 2.0])),
    ("Softmax", dict(logits=A)),
    ("LogSoftmax", dict(logits=A)),
    ("BiasAdd", dict(value=A, bias=[1.0, 2.0, 3.0])),
    ("Conv2D", dict(input=X4, filter=W4, strides=[1, 1, 1, 1], padding="SAME")),
    ("Conv2D", dict(input=X4, filter=W4, strides=[1, 2, 2, 1], padding="VALID")),
    ("MaxPool", dict(input=X4, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")),
    ("AvgPool", dict(value=X4, ksize=[1, 2, 2, 1], strides=[1, 1, 1, 1], padding="SAME")),
    ("SoftmaxCrossEntropyWithLogits", dict(features=A, labels=[[0.0, 1.0, 0.0], [0.5, 0.5, 0.0]])),
    ("SparseSoftmaxCrossEntropyWithLogits", dict(features=A, labels=[2, 0])),
    ("Einsum", dict(inputs=[A, B], equation="ij,jk->ik")),
    ("AddN", dict(inputs=[A, A, A])),
    ("ZerosLike", dict(x=A)),
    ("Unique", dict(x=[3, 1, 3, 2, 1])),
    ("ReverseV2", dict(tensor=A, axis=[1])),
    ("Range", dict(start=1, limit=10, delta=3)),
]

EXPECTED = [
    ('MatMul', 'Tensor', ('float32', [[5.0, 12.0], [-0.5, -8.0]])),
    ('MatMul', 'Tensor', ('float32', [[14.0, -12.0], [-12.0, 18.5]])),
    ('BatchMatMulV2', 'Tensor', ('float32', [[[5.0, 12.0], [-0.5, -8.0]]])),
    ('BatchMatMulV3', 'Tensor', ('float32', [[[14.0, -12.0], [-12.0, 18.5]]])),
    ('AddV2', 'Tensor', ('float32', [[2.0, 0.0, 6.0], [1.5, 6.0, 1.5]])),
    ('Add', 'Tensor', ('int32', [[6, 2, 4], [14, 10, 8]])),
    ('Sub', 'Tensor', ('float32', [[-1.0, -4.0, 1.0], [-1.5, 2.0, -3.5]])),
    ('Mul', 'Tensor', ('float32', [[1.0, 4.0, 9.0], [0.25, 16.0, 2.25]])),
    ('RealDiv', 'Tensor', ('float32', [[0.5, -0.5, 0.375], [0.25, 1.0, -0.1875]])),
    ('Pow', 'Tensor', ('float32', [8.0, 1.73205])),
    ('Maximum', 'Tensor', ('float32', [[1.0, 0.0, 3.0], [0.5, 4.0, 0.0]])),
    ('Minimum', 'Tensor', ('int32', [[3, 1, 2], [4, 4, 4]])),
    ('Neg', 'Tensor', ('float32', [[-1.0, 2.0, -3.0], [-0.5, -4.0, 1.5]])),
    ('Exp', 'Tensor', ('float32', [1.0, 2.71828, 0.36788])),
    ('Log', 'Tensor', ('float32', [0.0, 0.69315, 2.30259])),
    ('Tanh', 'Tensor', ('float32', [0.46212, -0.96403])),
    ('Sigmoid', 'Tensor', ('float32', [0.62246, 0.1192])),
    ('Sqrt', 'Tensor', ('float32', [2.0, 1.41421])),
    ('Rsqrt', 'Tensor', ('float32', [0.5, 0.70711])),
    ('Square', 'Tensor', ('int32', [[9, 1, 4], [49, 25, 16]])),
    ('Abs', 'Tensor', ('float32', [[1.0, 2.0, 3.0], [0.5, 4.0, 1.5]])),
    ('FloorDiv', 'Tensor', ('int32', [3, -4])),
    ('FloorMod', 'Tensor', ('int32', [1, 2])),
    ('Greater', 'Tensor', ('bool', [[True, False, True], [False, True, False]])),
    ('Equal', 'Tensor', ('bool', [[True, False, False], [False, True, False]])),
    ('LogicalAnd', 'Tensor', ('bool', [True, False, False])),
    ('Sum', 'Tensor', ('float32', [2.0, 3.0])),
    ('Sum', 'Tensor', ('int32', [[22]])),
    ('Mean', 'Tensor', ('float32', [0.75, 1.0, 0.75])),
    ('Max', 'Tensor', ('float32', [3.0, 4.0])),
    ('Min', 'Tensor', ('int32', [[3, 1, 2]])),
    ('Prod', 'Tensor', ('float32', [-6.0, -3.0])),
    ('All', 'Tensor', ('bool', [False, True])),
    ('ArgMax', 'Tensor', ('int64', [2, 1])),
    ('ArgMin', 'Tensor', ('int32', [1, 0, 1])),
    ('Cumsum', 'Tensor', ('float32', [[0.0, 1.0, -1.0], [0.0, 0.5, 4.5]])),
    ('Cast', 'Tensor', ('int32', [[1, -2, 3], [0, 4, -1]])),
    ('Reshape', 'Tensor', ('float32', [[1.0, -2.0], [3.0, 0.5], [4.0, -1.5]])),
    ('Transpose', 'Tensor', ('float32', [[1.0, 0.5], [-2.0, 4.0], [3.0, -1.5]])),
    ('ConcatV2', 'Tensor', ('float32', [[1.0, -2.0, 3.0], [0.5, 4.0, -1.5], [1.0, -2.0, 3.0], [0.5, 4.0, -1.5]])),
    ('Pack', 'Tensor', ('int32', [[1, 3], [2, 4]])),
    ('Unpack', 'list', [('float32', [1.0, -2.0, 3.0]), ('float32', [0.5, 4.0, -1.5])]),
    ('SplitV', 'list', [('float32', [[1.0], [0.5]]), ('float32', [[-2.0, 3.0], [4.0, -1.5]])]),
    ('ExpandDims', 'Tensor', ('float32', [[1.0, 2.0]])),
    ('Squeeze', 'Tensor', ('float32', [1.0, 2.0])),
    ('Tile', 'Tensor', ('int32', [[1, 2, 1, 2], [1, 2, 1, 2]])),
    ('PadV2', 'Tensor', ('float32', [[9.0, 9.0, 9.0, 9.0], [1.0, 2.0, 9.0, 9.0]])),
    ('Shape', 'Tensor', ('int32', [2, 3])),
    ('Size', 'Tensor', ('int64', 6)),
    ('Fill', 'Tensor', ('float32', [[7.0, 7.0], [7.0, 7.0]])),
    ('OneHot', 'Tensor', ('float32', [[5.0, -1.0, -1.0], [-1.0, -1.0, 5.0]])),
    ('GatherV2', 'Tensor', ('float32', [[0.5, 4.0, -1.5], [1.0, -2.0, 3.0], [0.5, 4.0, -1.5]])),
    ('GatherNd', 'Tensor', ('float32', [-2.0, -1.5])),
    ('Slice', 'Tensor', ('float32', [[-2.0, 3.0], [4.0, -1.5]])),
    ('StridedSlice', 'Tensor', ('float32', [[1.0, 3.0], [0.5, -1.5]])),
    ('SelectV2', 'Tensor', ('float32', [1.0, -2.0, 3.0])),
    ('TopKV2', 'TopKV2', [('float32', [4.0, 3.0]), ('int32', [2, 0])]),
    ('Relu', 'Tensor', ('float32', [[1.0, 0.0, 3.0], [0.5, 4.0, 0.0]])),
    ('Relu6', 'Tensor', ('float32', [0.0, 3.0, 6.0])),
    ('Elu', 'Tensor', ('float32', [-0.63212, 2.0])),
    ('LeakyRelu', 'Tensor', ('float32', [-0.1, 2.0])),
    ('Softplus', 'Tensor', ('float32', [0.31326, 2.12693])),
    ('Softmax', 'Tensor', ('float32', [[0.1185, 0.0059, 0.8756], [0.0292, 0.96685, 0.00395]])),
    ('LogSoftmax', 'Tensor', ('float32', [[-2.13285, -5.13285, -0.13285], [-3.53371, -0.03371, -5.53371]])),
    ('BiasAdd', 'Tensor', ('float32', [[2.0, 0.0, 6.0], [1.5, 6.0, 1.5]])),
    ('Conv2D', 'Tensor', ('float32', [[[[1.48571, 2.11429], [1.25714, 2.11429], [1.02857, 2.11429], [-0.85714, -0.25714]], [[0.57143, 2.11429], [0.34286, 2.11429], [0.11429, 2.11429], [-2.22857, -1.17143]], [[-0.34286, 2.11429], [-0.57143, 2.11429], [-0.8, 2.11429], [-3.6, -2.08571]], [[-7.14286, -5.68571], [-7.71429, -6.14286], [-8.28571, -6.6], [-6.08571, -5.21429]]]])),
    ('Conv2D', 'Tensor', ('float32', [[[[1.48571, 2.11429], [1.02857, 2.11429]], [[-0.34286, 2.11429], [-0.8, 2.11429]]]])),
    ('MaxPool', 'Tensor', ('float32', [[[[1.0, 1.1], [1.4, 1.5]], [[2.6, 2.7], [3.0, 3.1]]]])),
    ('AvgPool', 'Tensor', ('float32', [[[[0.5, 0.6], [0.7, 0.8], [0.9, 1.0], [1.0, 1.1]], [[1.3, 1.4], [1.5, 1.6], [1.7, 1.8], [1.8, 1.9]], [[2.1, 2.2], [2.3, 2.4], [2.5, 2.6], [2.6, 2.7]], [[2.5, 2.6], [2.7, 2.8], [2.9, 3.0], [3.0, 3.1]]]])),
    ('SoftmaxCrossEntropyWithLogits', 'SoftmaxCrossEntropyWithLogits', [('float32', [5.13285, 1.78371]), ('float32', [[0.1185, -0.9941, 0.8756], [-0.4708, 0.46685, 0.00395]])]),
    ('SparseSoftmaxCrossEntropyWithLogits', 'SparseSoftmaxCrossEntropyWithLogits', [('float32', [0.13285, 3.53371]), ('float32', [[0.1185, 0.0059, -0.1244], [-0.9708, 0.96685, 0.00395]])]),
    ('Einsum', 'Tensor', ('float32', [[5.0, 12.0], [-0.5, -8.0]])),
    ('AddN', 'Tensor', ('float32', [[3.0, -6.0, 9.0], [1.5, 12.0, -4.5]])),
    ('ZerosLike', 'Tensor', ('float32', [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]])),
    ('Unique', 'Unique', [('int32', [3, 1, 2]), ('int32', [0, 1, 0, 2, 1])]),
    ('ReverseV2', 'Tensor', ('float32', [[3.0, -2.0, 1.0], [-1.5, 4.0, 0.5]])),
    ('Range', 'Tensor', ('int32', [1, 4, 7])),
]


def _arguments(name, kwargs):
    kinds = {p[0]: p[1] for p in RAW_OP_DEFS[name][0]}
    out = {}
    for key, value in kwargs.items():
        if kinds[key] == "type":
            value = tf.as_dtype(value)
        elif kinds[key] == "inputs":
            value = [tf.constant(v) for v in value]
        elif kinds[key] == "input":
            value = tf.constant(value)
        out[key] = value
    return out


def _encoded(result):
    if isinstance(result, (list, tuple)):
        return [_encoded(r) for r in result]
    a = result.numpy()
    return a.dtype.name, (np.round(a.astype(np.float64), 5) if a.dtype.kind in "fc" else a).tolist()


@pytest.mark.parametrize("case,expected", list(zip(CASES, EXPECTED)),
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_raw_op_gives_tfs_values(case, expected):
    name, kwargs = case
    assert expected[0] == name
    result = getattr(tf.raw_ops, name)(**_arguments(name, kwargs))
    kind = type(result).__name__ if isinstance(result, tuple) else (
        "list" if isinstance(result, list) else "Tensor")
    assert kind == expected[1]
    got = _encoded(result)
    if isinstance(expected[2], list):
        assert len(got) == len(expected[2])
        for g, e in zip(got, expected[2]):
            assert g[0] == e[0]
            np.testing.assert_allclose(g[1], e[1], rtol=1e-4, atol=1e-5)
    else:
        assert got[0] == expected[2][0]
        np.testing.assert_allclose(got[1], expected[2][1], rtol=1e-4, atol=1e-5)


# inspect.signature(tf.raw_ops.X) in TF 2.21.
TF_SIGNATURES = {
    "MatMul": "(a, b, transpose_a=False, transpose_b=False, grad_a=False, grad_b=False, "
              "name=None)",
    "FusedBatchNormV3": "(x, scale, offset, mean, variance, epsilon=0.0001, "
                        "exponential_avg_factor=1, data_format='NHWC', is_training=True, "
                        "name=None)",
    "Sum": "(input, axis, keep_dims=False, name=None)",
    "Conv2D": "(input, filter, strides, padding, use_cudnn_on_gpu=True, explicit_paddings=[], "
              "data_format='NHWC', dilations=[1, 1, 1, 1], name=None)",
    "SplitV": "(value, size_splits, axis, num_split, name=None)",
    "Cast": "(x, DstT, Truncate=False, name=None)",
}


@pytest.mark.parametrize("name", sorted(TF_SIGNATURES))
def test_signatures_are_tfs(name):
    assert str(inspect.signature(getattr(tf.raw_ops, name))) == TF_SIGNATURES[name]


def test_positional_arguments_are_a_type_error():
    with pytest.raises(TypeError, match="MatMul only takes keyword args"):
        tf.raw_ops.MatMul(tf.ones([1, 1]), tf.ones([1, 1]))
    with pytest.raises(TypeError, match="unexpected keyword"):
        tf.raw_ops.MatMul(a=tf.ones([1, 1]), b=tf.ones([1, 1]), c=1)
    with pytest.raises(TypeError, match="missing required"):
        tf.raw_ops.MatMul(a=tf.ones([1, 1]))


def test_names_are_tfs_and_listed():
    names = dir(tf.raw_ops)
    assert {"MatMul", "Conv2D", "FusedBatchNormV3", "Relu", "Sum"} <= set(names)
    assert set(names) <= set(RAW_OP_DEFS) and len(names) > 150
    assert tf.raw_ops.Relu.__name__ == "Relu"
    for absent in ("BlockLSTMV2", "NotAnOp", "SumToShape"):
        assert not hasattr(tf.raw_ops, absent)


def test_an_attribute_tapeflow_lacks_is_unimplemented_unless_default():
    a = tf.ones([1, 1])
    assert tf.raw_ops.MatMul(a=a, b=a, grad_a=False).numpy().item() == 1.0
    with pytest.raises(tf.errors.UnimplementedError, match="grad_a"):
        tf.raw_ops.MatMul(a=a, b=a, grad_a=True)


def test_multi_output_ops_return_tfs_named_tuples():
    r = tf.raw_ops.Unique(x=[3, 1, 3])
    assert type(r).__name__ == "Unique" and r._fields == ("y", "idx")
    assert r.idx.numpy().tolist() == [0, 1, 0]


_X = tf.constant(np.arange(24, dtype=np.float32).reshape(2, 2, 2, 3) ** 1.5 / 10)
_SCALE, _OFFSET = tf.constant([1.0, 2.0, 0.5]), tf.constant([0.1, -0.2, 0.3])
_MEAN, _VAR = tf.constant([1.0, 2.0, 3.0]), tf.constant([0.5, 1.0, 2.0])
_WEIGHTS = tf.reshape(tf.range(24, dtype=tf.float32), [2, 2, 2, 3])


def _fbn(**kw):
    return tf.raw_ops.FusedBatchNormV3(x=_X, scale=_SCALE, offset=_OFFSET, mean=_MEAN,
                                       variance=_VAR, epsilon=0.001, **kw)


def test_fused_batch_norm_v3_training_values():
    r = _fbn(is_training=True)
    assert type(r).__name__ == "FusedBatchNormV3"
    assert r._fields == ("y", "batch_mean", "batch_variance", "reserve_space_1",
                         "reserve_space_2", "reserve_space_3")
    np.testing.assert_allclose(r.y.numpy().ravel()[:6], [-1.12855, -2.742999, -0.350347,
                                                         -0.968536, -2.333809, -0.233761],
                               rtol=1e-4)
    np.testing.assert_allclose(r.batch_mean, [3.989483, 4.450293, 4.941774], rtol=1e-5)
    np.testing.assert_allclose(r.batch_variance, [12.050311, 13.377021, 14.66157], rtol=1e-5)
    np.testing.assert_allclose(r.reserve_space_2, [10.544022, 11.704893, 12.828873], rtol=1e-5)
    assert r.reserve_space_3.shape == [0]
    blended = _fbn(is_training=True, exponential_avg_factor=0.25)
    np.testing.assert_allclose(blended.batch_mean, [1.747371, 2.612573, 3.485443], rtol=1e-5)
    np.testing.assert_allclose(blended.batch_variance, [3.387578, 4.094256, 5.165392],
                               rtol=1e-5)
    nchw = tf.raw_ops.FusedBatchNormV3(x=tf.transpose(_X, [0, 3, 1, 2]), scale=_SCALE,
                                       offset=_OFFSET, mean=_MEAN, variance=_VAR,
                                       epsilon=0.001, data_format="NCHW")
    np.testing.assert_allclose(nchw.y.numpy().ravel()[:6], [-1.12855, -0.968536, -0.675962,
                                                            -0.297093, -2.742999, -2.333808],
                               rtol=1e-4)


def test_fused_batch_norm_v2_and_inference_values():
    r = tf.raw_ops.FusedBatchNormV2(x=_X, scale=_SCALE, offset=_OFFSET, mean=tf.zeros([0]),
                                    variance=tf.zeros([0]), is_training=True)
    assert type(r).__name__ == "FusedBatchNormV2" and len(r) == 5
    np.testing.assert_allclose(r.y.numpy().ravel()[:3], [-1.128603, -2.743097, -0.35037],
                               rtol=1e-4)
    r = _fbn(is_training=False)
    np.testing.assert_allclose(r.y.numpy().ravel()[:6], [-1.312802, -3.998102, -0.66042,
                                                         -0.578688, -2.598801, -0.365209],
                               rtol=1e-4)
    np.testing.assert_allclose(r.batch_mean, [1.0, 2.0, 3.0])
    np.testing.assert_allclose(r.batch_variance, [0.5, 1.0, 2.0])


def test_fused_batch_norm_v3_gradients():
    with tf.GradientTape() as tape:
        tape.watch([_X, _SCALE, _OFFSET])
        r = _fbn(is_training=True)
        loss = (tf.reduce_sum(r.y * _WEIGHTS) + tf.reduce_sum(r.batch_mean * [1.0, 2, 3])
                + tf.reduce_sum(r.batch_variance))
    gx, gs, go = tape.gradient(loss, [_X, _SCALE, _OFFSET])
    np.testing.assert_allclose(gx.numpy().ravel()[:6], [-0.66831, -1.0825, -0.2283, -0.07857,
                                                        -0.14227, -0.03135], rtol=2e-3,
                               atol=1e-4)
    np.testing.assert_allclose(gs, [54.24144, 54.41248, 54.52184], rtol=1e-4)
    np.testing.assert_allclose(go, [84.0, 92.0, 100.0])
    with tf.GradientTape() as tape:
        tape.watch([_X, _SCALE, _OFFSET, _MEAN, _VAR])
        loss = tf.reduce_sum(_fbn(is_training=False).y * _WEIGHTS)
    gx, gs, go, gm, gv = tape.gradient(loss, [_X, _SCALE, _OFFSET, _MEAN, _VAR])
    np.testing.assert_allclose(gx.numpy().ravel()[:6], [0.0, 1.999, 0.70693, 4.2384, 7.996,
                                                        1.76733], rtol=1e-4)
    np.testing.assert_allclose(gs, [603.627, 411.3875, 275.32672], rtol=1e-4)
    np.testing.assert_allclose(go, [84.0, 92.0, 100.0])
    assert gm is None and gv is None


def test_every_listed_op_builds_with_tfs_keywords():
    for name in dir(tf.raw_ops):
        params = [p[0] for p in RAW_OP_DEFS[name][0]] + ["name"]
        assert list(inspect.signature(getattr(tf.raw_ops, name)).parameters) == params


def test_fused_batch_norm_with_an_unknown_batch_size_in_a_function():
    # TF 2.21: the Bessel-corrected variance uses the batch size the graph runs with.
    @tf.function(input_signature=[tf.TensorSpec([None, 1, 1, 2])])
    def f(x):
        out = tf.raw_ops.FusedBatchNormV3(x=x, scale=tf.ones([2]), offset=tf.zeros([2]),
                                          mean=tf.zeros([0]), variance=tf.zeros([0]),
                                          epsilon=0.0, is_training=True)
        return out[0], out[1], out[2]

    x = tf.reshape(tf.constant([1.0, 10.0, 2.0, 20.0, 4.0, 40.0]), [3, 1, 1, 2])
    y, mean, variance = f(x)
    np.testing.assert_allclose(y.numpy().ravel(), [-1.06904, -1.06905, -0.26726, -0.26726,
                                                   1.33631, 1.33631], atol=1e-5)
    np.testing.assert_allclose(mean.numpy(), [2.3333333, 23.333334], rtol=1e-6)
    np.testing.assert_allclose(variance.numpy(), [2.3333335, 233.33334], rtol=1e-6)
    _, mean, variance = f(x[:2])
    np.testing.assert_allclose(mean.numpy(), [1.5, 15.0])
    np.testing.assert_allclose(variance.numpy(), [0.5, 50.0])
