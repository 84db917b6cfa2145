"""What unmodified programs and libraries read first, against TensorFlow: versions, devices
and device strings, variable and module names under scopes, variables made in tf.function,
raw ops (names, signatures, values), tf.nest, tf.debugging and tf.test, each case written
once against a module `tf`."""
import collections
import inspect

import numpy as np
import pytest

import tapeflow

pytestmark = pytest.mark.parity


def _devices(tf):
    return ([(d.name, d.device_type) for d in tf.config.list_physical_devices()],
            tf.config.list_physical_devices("GPU"),
            [(d.name, d.device_type) for d in tf.config.list_logical_devices()],
            tf.constant(1.0).device, tf.Variable(1.0).device, tf.test.is_gpu_available(),
            tf.test.is_built_with_cuda(), tf.test.gpu_device_name())


def _graph_devices(tf):
    seen = []

    @tf.function
    def f(x):
        with tf.device("cpu"):
            seen.append((x + 1.0).device)
            with tf.device("GPU:1"):
                seen.append((x * 2.0).device)
        with tf.device("/job:localhost/replica:0/task:0/device:CPU:0"):
            seen.append(tf.identity(x).device)
        return x

    f(tf.constant(1.0))
    return seen




def _scoped_names(tf):
    class Dense(tf.Module):
        def __init__(self, name=None):
            super().__init__(name=name)
            with self.name_scope:
                self.w = tf.Variable(1.0, name="w")

    with tf.name_scope("outer"):
        dense = Dense()
        plain = tf.Variable(2.0, name="v")
    graph = tf.Graph()
    with graph.as_default():
        a, b = Dense(name="m"), Dense(name="m")
    return (dense.name_scope.name, dense.w.name, plain.name, a.name_scope.name,
            b.name_scope.name)


def _lifted_variables(tf):
    made = []

    @tf.function
    def f(x):
        if not made:
            made.append(tf.Variable(tf.fill([2], 3.0) * 2.0, name="lifted"))
            made.append(tf.Variable(x * 2.0))
        return made[0] * x + made[1]

    first, second = f(tf.constant(1.0)), f(tf.constant(5.0))
    return first, second, f.experimental_get_tracing_count(), made[0].name


def _singleton_rule(tf):
    @tf.function
    def every_call():
        return tf.Variable(1.0).read_value()

    return every_call()


def _function_presentation(tf):
    printed = []

    @tf.function
    def f(a, num_steps):
        printed.append(str(a))
        return a * tf.cast(num_steps, tf.float32)

    f(tf.constant(1.0), tf.constant(2))
    f(tf.constant(2.0), tf.constant(3))
    concrete = f.get_concrete_function(tf.TensorSpec([None], tf.float32),
                                       tf.TensorSpec([], tf.int32))
    return (printed, f.experimental_get_tracing_count(), [t.name for t in concrete.inputs],
            concrete.output_shapes, concrete.output_dtypes)


def _raw_ops(tf):
    raw = tf.raw_ops
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    y, mean, variance, *_ = raw.FusedBatchNormV3(
        x=np.linspace(-1, 1, 24, dtype=np.float32).reshape(1, 2, 3, 4),
        scale=np.ones(4, np.float32), offset=np.zeros(4, np.float32),
        mean=np.zeros(0, np.float32), variance=np.zeros(0, np.float32), is_training=True)
    return (raw.MatMul(a=a, b=a.T, transpose_a=False), raw.AddV2(x=a, y=a),
            raw.Sum(input=a, axis=[1], keep_dims=True), raw.Relu(features=a - 2.0),
            y, mean, variance)


def _raw_op_signatures(tf):
    names = sorted(n for n in dir(tapeflow.raw_ops) if not n.startswith("_"))
    return [(name, str(inspect.signature(getattr(tf.raw_ops, name)))) for name in names]


Point = collections.namedtuple("Point", "x y")


def _nest(tf):
    structure = {"b": [1, (2, 3)], "a": Point(4, {"d": 5, "c": 6})}
    flat = tf.nest.flatten(structure)
    doubled = tf.nest.map_structure(lambda v: v * 2, structure)
    packed = tf.nest.pack_sequence_as(structure, list(range(len(flat))))
    return (flat, tf.nest.flatten(doubled), tf.nest.flatten(packed), list(doubled),
            tf.nest.is_nested([]), tf.nest.is_nested("ab"), tf.nest.flatten(None))


def _nest_errors(tf):
    found = []
    for call in (lambda: tf.nest.assert_same_structure([1, 2], [1]),
                 lambda: tf.nest.assert_same_structure([1, 2], (1, 2)),
                 lambda: tf.nest.pack_sequence_as([1, 2], [1]),
                 lambda: tf.nest.map_structure(lambda a, b: a, {"a": 1}, {"b": 1})):
        try:
            call()
            found.append(None)
        except Exception as e:  # noqa: BLE001  (the class is compared)
            found.append(type(e).__name__)
    return found


def _debugging(tf):
    found = []
    for call in (lambda: tf.debugging.assert_equal(tf.constant([1, 2]), tf.constant([1, 3])),
                 lambda: tf.debugging.assert_positive(tf.constant([1.0, -1.0])),
                 lambda: tf.debugging.assert_rank_at_least(tf.constant([1.0]), 2),
                 lambda: tf.debugging.check_numerics(tf.constant([1.0, np.inf]), "bad"),
                 lambda: tf.debugging.assert_type(tf.constant(1), tf.float32),
                 lambda: tf.debugging.assert_shapes([(tf.ones([2, 3]), ("N", "M")),
                                                     (tf.ones([3]), ("N",))])):
        try:
            call()
            found.append(None)
        except Exception as e:  # noqa: BLE001
            found.append(type(e).__name__)
    return found, tf.debugging.is_numeric_tensor(tf.constant(1.0))


def _test_case(tf):
    case = tf.test.TestCase()
    found = []
    for call in (lambda: case.assertAllClose([1.0, 2.0], [1.0, 2.0 + 1e-7]),
                 lambda: case.assertAllClose({"a": [1.0]}, {"a": [1.5]}),
                 lambda: case.assertAllEqual([[1, 2]], np.array([[1, 2]])),
                 lambda: case.assertAllInRange([1, 2], 0, 1),
                 lambda: case.assertShapeEqual(np.ones([2, 3]), tf.ones([2, 3])),
                 lambda: case.assertDTypeEqual(np.ones(2, np.float32), np.float64)):
        try:
            call()
            found.append(None)
        except Exception as e:  # noqa: BLE001
            found.append(type(e).__name__)
    return found, case.evaluate({"x": tf.constant([1.0]), "y": (tf.constant(2),)})["x"]


def _mirrored_over_virtual_cpus(tf):
    strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
    with strategy.scope():
        v = tf.Variable(2.0)
    result = strategy.run(lambda: v * 3.0)
    return (strategy.num_replicas_in_sync, strategy.experimental_local_results(result),
            strategy.reduce("SUM", result, axis=None), type(v).__name__)


CASES = {
    "versions": lambda tf: (tf.__version__, tf.version.VERSION,
                            tf.version.GRAPH_DEF_VERSION_MIN_CONSUMER),
    "devices": _devices,
    "devices in graphs": _graph_devices,
    "names under scopes": _scoped_names,
    "variables lifted from a first trace": _lifted_variables,
    "a variable on every call": _singleton_rule,
    "function presentation": _function_presentation,
    "raw ops": _raw_ops,
    "raw op signatures": _raw_op_signatures,
    "raw op positional argument": lambda tf: tf.raw_ops.AddV2(1.0, 2.0),
    "nest": _nest,
    "nest errors": _nest_errors,
    "debugging": _debugging,
    "test case": _test_case,
    "mirrored strategy": _mirrored_over_virtual_cpus,
    "keras aliases": lambda tf: (tf.optimizers.SGD(0.1).learning_rate.numpy(),
                                 tf.losses.MeanSquaredError()([1.0], [3.0]),
                                 tf.initializers.Constant(2.0)([2])),
}


@pytest.mark.parametrize("label", list(CASES))
def test_matches_tensorflow(label, parity):
    parity.check_case(CASES[label], rtol=1e-5, atol=1e-6, where=label)
