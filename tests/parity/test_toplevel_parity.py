"""Top-level functions against TensorFlow: values, dtypes, gradients and error classes,
each case written once against a module `tf`."""
import numpy as np
import pytest


pytestmark = pytest.mark.parity


def _grad(tf, f, *values):
    xs = [tf.constant(v) for v in values]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = f(*xs)
    return y, tape.gradient(y, xs)


def _dtype_facts(tf):
    facts = []
    for name in ("bfloat16", "qint8", "qint16", "qint32", "quint8", "quint16", "uint16",
                 "uint32", "uint64", "string", "resource", "variant"):
        d = getattr(tf, name)
        facts.append((name, d.is_floating, d.is_integer, d.is_quantized, d.is_unsigned,
                      d.is_complex, d.is_bool, d.size, d.is_numpy_compatible,
                      d.real_dtype.name, repr(d), str(d), tf.as_dtype(name) == d))
    return facts


X4 = np.arange(32, dtype=np.float32).reshape(1, 4, 4, 2) / 10
W3 = np.linspace(-1, 1, 3 * 3 * 2 * 3, dtype=np.float32).reshape(3, 3, 2, 3)

CASES = {
    "dtype facts": _dtype_facts,
    "uint arithmetic": lambda tf: (tf.constant([1, 2], tf.uint32) * 3,
                                   tf.constant([7], tf.uint16) // 2,
                                   tf.constant([2 ** 63], tf.uint64) + 1),
    "uint limits": lambda tf: [getattr(tf, n).limits for n in ("uint16", "uint32", "uint64")],
    "variable modes": lambda tf: (
        [m.value for m in tf.VariableAggregation], [m.value for m in tf.VariableSynchronization],
        tf.Variable(1.0, synchronization=tf.VariableSynchronization.ON_READ).trainable,
        tf.Variable(1.0, aggregation=tf.VariableAggregation.MEAN).aggregation.name),
    "bad aggregation": lambda tf: tf.Variable(1.0, aggregation="mean"),
    "device spec": lambda tf: [
        tf.DeviceSpec.from_string(s).to_string()
        for s in ("/job:worker/replica:0/task:1/device:GPU:3", "/gpu:0", "CPU:0",
                  "/job:a/device:cpu:1", "/device:GPU:*")],
    "device spec bad": lambda tf: tf.DeviceSpec.from_string("foo"),
    "type specs": lambda tf: [repr(s) for s in (
        tf.TensorArraySpec([2]), tf.IndexedSlicesSpec([4, 3]), tf.NoneTensorSpec(),
        tf.OptionalSpec(tf.TensorSpec([2])), tf.type_spec_from_value(tf.constant([1.0])),
        tf.type_spec_from_value(None), tf.type_spec_from_value(3))],
    "assert": lambda tf: tf.Assert(tf.constant(False), [tf.constant([1.0, 2.0])]),
    "assert_equal": lambda tf: tf.assert_equal(tf.constant([1, 2]),
                                                         tf.constant([1, 3])),
    "assert_greater holds": lambda tf: tf.assert_greater(tf.constant([2.0]), 1.0),
    "assert_less fails": lambda tf: tf.assert_less(tf.constant([1, 2]),
                                                             tf.constant([1, 3])),
    "assert_rank static": lambda tf: tf.assert_rank(tf.constant([1, 2]), 2),
    "assert_rank not scalar": lambda tf: tf.assert_rank(tf.constant([1, 2]), [2]),
    "bitcast": lambda tf: (tf.bitcast(tf.constant([1.0, 2.0]), tf.int16),
                           tf.bitcast(tf.constant([[1, 2]], tf.int16), tf.int32),
                           tf.bitcast(tf.constant([-1], tf.int8), tf.uint8)),
    "bitcast bad": lambda tf: tf.bitcast(tf.constant([1, 2, 3], tf.int16), tf.int32),
    "saturate_cast": lambda tf: (
        tf.saturate_cast(tf.constant([-1.0, 300.0, 2.7]), tf.uint8),
        tf.saturate_cast(tf.constant([1e10, -1e10]), tf.int32),
        tf.saturate_cast(tf.constant([1e300], tf.float64), tf.float32),
        tf.saturate_cast(tf.constant([1 + 2j]), tf.float32),
        tf.saturate_cast(tf.constant([-5, 70000]), tf.uint16)),
    "saturate_cast gradient": lambda tf: _grad(
        tf, lambda x: tf.saturate_cast(x, tf.float16), np.array([0.5, 7e4], np.float32)),
    "broadcast shapes": lambda tf: (
        tf.broadcast_dynamic_shape([2, 1, 3], [4, 1]),
        tf.broadcast_dynamic_shape(tf.constant([5, 1], tf.int64), tf.constant([3], tf.int64)),
        tf.broadcast_static_shape(tf.TensorShape([2, 1, 3]), tf.TensorShape([4, None]))),
    "broadcast_dynamic_shape bad": lambda tf: tf.broadcast_dynamic_shape([2, 3], [4, 1]),
    "broadcast_static_shape bad": lambda tf: tf.broadcast_static_shape(
        tf.TensorShape([2, 3]), tf.TensorShape([4, 1])),
    "shape_n": lambda tf: tf.shape_n([tf.ones([2, 3]), tf.ones([4])], out_type=tf.int64),
    "unravel_index": lambda tf: (tf.unravel_index([1, 5, 7], [3, 3]),
                                 tf.unravel_index(tf.constant(5, tf.int64),
                                                  tf.constant([3, 3], tf.int64))),
    "unravel_index out of range": lambda tf: tf.unravel_index([9], [3, 3]),
    "required_space_to_batch_paddings": lambda tf: (
        tf.required_space_to_batch_paddings([5, 7], [2, 3]),
        tf.required_space_to_batch_paddings([5, 7], [2, 3], [[1, 0], [0, 2]])),
    "histograms": lambda tf: (
        tf.histogram_fixed_width([-1.0, 0.0, 1.5, 2.0, 5.0, 15.0], [0.0, 5.0], nbins=5),
        tf.histogram_fixed_width_bins([[-1.0, 0.0, 1.5], [2.0, 5.0, 15.0]], [0.0, 5.0],
                                      nbins=5),
        tf.histogram_fixed_width(tf.constant([1, 2, 3]), [0, 4], nbins=2, dtype=tf.int64)),
    "histogram bad range": lambda tf: tf.histogram_fixed_width([1.0], [5.0, 0.0], nbins=5),
    "truncatediv truncatemod": lambda tf: (
        tf.truncatediv(tf.constant([7, -7]), 2), tf.truncatemod(tf.constant([7, -7]), 2),
        tf.truncatediv(tf.constant([7.5, -7.5]), 2.0),
        tf.truncatemod(tf.constant([7.5, -7.5]), 2.0)),
    "truncatediv gradient": lambda tf: _grad(tf, lambda x: tf.truncatediv(x, 2.0),
                                             np.array([7.0, -7.0], np.float32)),
    "truncatemod gradient": lambda tf: _grad(tf, lambda x: tf.truncatemod(x, 2.0),
                                             np.array([7.0, -7.0], np.float32)),
    "guarantee_const gradient": lambda tf: _grad(tf, tf.guarantee_const, np.float32(2.0)),
    "parallel_stack eager": lambda tf: tf.parallel_stack([tf.constant([1, 2])]),
    "parallel_stack traced": lambda tf: tf.function(lambda a, b: tf.parallel_stack([a, b]))(
        tf.constant([1, 2]), tf.constant([3, 4])),
    "tuple": lambda tf: tf.tuple([tf.constant(1), None, tf.constant(2.0)]),
    "numpy_function": lambda tf: tf.numpy_function(np.sort, [tf.constant([3.0, 1.0])],
                                                   tf.float32),
    "name scope": lambda tf: tf.function(lambda: _scope(tf))(),
    "initializers": lambda tf: (
        tf.zeros_initializer()([2], tf.int32), tf.ones_initializer()([1, 2], tf.float64),
        tf.constant_initializer([1, 2, 3, 4])([2, 2]), tf.constant_initializer(3)([2]),
        tf.random_normal_initializer(seed=3).get_config(),
        tf.random_uniform_initializer(0, 10)([5], tf.int32).dtype),
    "random_normal_initializer int": lambda tf: tf.random_normal_initializer()([2], tf.int32),
    "conv": lambda tf: (
        tf.conv(X4, W3, [1, 1, 1, 1], "VALID"),
        tf.conv(np.stack([X4, X4 * 2]), W3, [1, 1, 1, 1], "SAME", batch_dims=2),
        tf.conv(X4, W3, [1, 1, 1, 1], "EXPLICIT", explicit_paddings=[0, 0, 1, 2, 2, 1, 0, 0]),
        tf.conv(np.tile(X4, [1, 2, 2, 1]), W3, [1, 2, 1, 1], "VALID", dilations=[1, 2, 2, 1]),
        tf.conv(X4[..., None, :].repeat(3, axis=3), W3[None], [1, 1, 1, 1, 1], "SAME")),
    "conv one spatial dimension": lambda tf: tf.conv(X4[0], W3[0], [1, 1, 1], "VALID"),
    "extract_volume_patches": lambda tf: [
        tf.extract_volume_patches(tf.reshape(tf.range(float(2 * 5 * 4 * 3 * 2)),
                                             [2, 5, 4, 3, 2]), k, s, p)
        for k, s, p in (([1, 2, 2, 2, 1], [1, 2, 2, 2, 1], "VALID"),
                        ([1, 3, 2, 2, 1], [1, 2, 1, 2, 1], "SAME"),
                        ([1, 2, 3, 1, 1], [1, 3, 1, 1, 1], "SAME"))],
    "extract_volume_patches gradient": lambda tf: _grad(
        tf, lambda x: tf.extract_volume_patches(x, [1, 2, 2, 2, 1], [1, 1, 2, 1, 1], "SAME"),
        np.linspace(-1, 1, 3 * 4 * 3 * 2, dtype=np.float32).reshape(1, 3, 4, 3, 2)),
}


# (make_tensor_proto needs the tensorboard package, which the TF environment lacks: its
# round trips are in tests/test_tensor_util.py.)
CASES["critical section"] = lambda tf: tf.CriticalSection().execute(
    lambda: (3, tf.constant(2.0)))
CASES["fingerprint"] = lambda tf: [tf.fingerprint(d) for d in (
    np.zeros((2, 0), np.uint8), np.array([[1]], np.uint8), np.array([True, False]),
    *(np.arange(3 * n, dtype=np.uint8).reshape(3, n) for n in (3, 5, 12, 20, 40, 64, 65, 100,
                                                                 200, 333)),
    np.linspace(-1, 1, 24, dtype=np.float32).reshape(2, 3, 4), np.zeros((0, 3)))]
CASES["fingerprint method"] = lambda tf: tf.fingerprint([[1.0]], method="md5")
CASES["fingerprint scalar"] = lambda tf: tf.fingerprint(1.0)
CASES["check_pinned"] = lambda tf: tf.check_pinned(tf.constant([1.0]))
CASES["batch function"] = lambda tf: tf.nondifferentiable_batch_function(1, 4, 100)(
    lambda x: x * 2)(tf.constant([[1.0], [2.0]]))
CASES["batch function gradient"] = lambda tf: _grad(
    tf, tf.nondifferentiable_batch_function(1, 4, 100)(lambda x: x * 2),
    np.array([[1.0], [2.0]], np.float32))


def _scope(tf):
    with tf.name_scope("a"):
        with tf.name_scope("b"):
            return tf.constant([tf.get_current_name_scope() == "a/b", tf.inside_function()])


@pytest.mark.parametrize("label", list(CASES))
def test_matches_tensorflow(label, parity):
    parity.check_case(CASES[label], rtol=1e-5, atol=1e-6, where=label)
