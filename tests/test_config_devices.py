"""tf.config's devices, tf.device and Tensor.device, MirroredStrategy over virtual CPUs and
the TPU names, against the values, strings and errors TF 2.21 gives on a CPU machine."""
import subprocess
import sys
import textwrap

import pytest

import tapeflow as tf
from tapeflow.framework.devices import runtime

LOCAL_CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"
CPU = tf.config.PhysicalDevice(name="/physical_device:CPU:0", device_type="CPU")
GPU = tf.config.PhysicalDevice(name="/physical_device:GPU:0", device_type="GPU")


@pytest.fixture
def fresh_runtime(monkeypatch):
    """The device configuration as in a process that has not used its devices yet."""
    monkeypatch.setattr(runtime, "initialized", False)
    monkeypatch.setattr(runtime, "visible", list(runtime.visible))
    monkeypatch.setattr(runtime, "virtual", {})
    return runtime


def run_fresh(code: str) -> str:
    """`code` run by a new Python process (devices are configured once per process)."""
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                            capture_output=True, text=True, check=True)
    return result.stdout


# -- physical and logical devices ----------------------------------------------------------
def test_a_cpu_machine_lists_one_cpu():
    assert tf.config.list_physical_devices() == [CPU]
    assert repr(CPU) == "PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')"
    assert tf.config.list_physical_devices("GPU") == []
    assert tf.config.list_physical_devices("cpu") == []      # the type matches exactly
    assert tf.config.list_logical_devices() == [
        tf.config.LogicalDevice(name="/device:CPU:0", device_type="CPU")]
    assert tf.config.list_logical_devices("TPU") == []
    assert tf.config.experimental.list_logical_devices is tf.config.list_logical_devices
    assert tf.config.get_visible_devices() == [CPU]
    assert tf.config.get_visible_devices("GPU") == []


def test_logical_device_configuration_is_tfs_namedtuple():
    config = tf.config.LogicalDeviceConfiguration()
    assert repr(config) == ("LogicalDeviceConfiguration(memory_limit=None, "
                            "experimental_priority=None, experimental_device_ordinal=None)")
    assert tf.config.LogicalDeviceConfiguration._fields == (
        "memory_limit", "experimental_priority", "experimental_device_ordinal")
    assert tf.config.experimental.VirtualDeviceConfiguration is tf.config.LogicalDeviceConfiguration
    assert (tf.config.experimental.set_virtual_device_configuration
            is tf.config.set_logical_device_configuration)


def test_virtual_cpus_before_initialization(fresh_runtime):
    tf.config.set_logical_device_configuration(CPU, [tf.config.LogicalDeviceConfiguration()] * 2)
    tf.config.set_logical_device_configuration(CPU, [tf.config.LogicalDeviceConfiguration()] * 3)
    assert len(tf.config.get_logical_device_configuration(CPU)) == 3
    assert [d.name for d in tf.config.list_logical_devices("CPU")] == [
        "/device:CPU:0", "/device:CPU:1", "/device:CPU:2"]
    # Listing initialized the runtime: the same configuration is accepted, another is not.
    tf.config.set_logical_device_configuration(CPU, [tf.config.LogicalDeviceConfiguration()] * 3)
    with pytest.raises(RuntimeError, match="Virtual devices cannot be modified after being "
                                           "initialized"):
        tf.config.set_logical_device_configuration(CPU, [tf.config.LogicalDeviceConfiguration()])


def test_logical_configuration_errors(fresh_runtime):
    assert tf.config.get_logical_device_configuration(CPU) is None
    with pytest.raises(ValueError, match="Setting memory limit on CPU virtual devices"):
        tf.config.set_logical_device_configuration(
            CPU, [tf.config.LogicalDeviceConfiguration(memory_limit=10)])
    with pytest.raises(TypeError):
        tf.config.set_logical_device_configuration(CPU, None)
    with pytest.raises(ValueError, match="Unrecognized device"):
        tf.config.set_logical_device_configuration(GPU, [tf.config.LogicalDeviceConfiguration()])
    with pytest.raises(ValueError, match="Unrecognized device: 'CPU:0'"):
        tf.config.set_logical_device_configuration("CPU:0", [])
    assert not runtime.initialized


def test_visible_devices_rules(fresh_runtime):
    with pytest.raises(ValueError, match="Unrecognized device"):
        tf.config.set_visible_devices([CPU], "GPU")
    with pytest.raises(ValueError, match="Unrecognized device"):
        tf.config.set_visible_devices([GPU])
    tf.config.set_visible_devices([], "CPU")
    assert tf.config.get_visible_devices() == []
    with pytest.raises(tf.errors.NotFoundError, match="No CPU devices"):
        tf.config.list_logical_devices()
    tf.config.set_visible_devices(CPU)        # a single device is taken too
    tf.config.list_logical_devices()
    tf.config.set_visible_devices([CPU])      # unchanged after initialization: allowed
    with pytest.raises(RuntimeError, match="Visible devices cannot be modified after being "
                                           "initialized"):
        tf.config.set_visible_devices([], "CPU")


def test_reading_a_device_or_entering_a_scope_initializes(fresh_runtime):
    tf.constant(1.0) + 1.0                    # executing ops does not
    assert not runtime.initialized
    assert tf.constant(1.0).device == LOCAL_CPU0
    assert runtime.initialized
    runtime.initialized = False
    with tf.device("CPU:0"):
        pass
    assert runtime.initialized


def test_memory_and_details():
    assert tf.config.experimental.get_memory_info("CPU:0") == {"current": 0, "peak": 0}
    assert tf.config.experimental.get_memory_info("/device:CPU:0") == {"current": 0, "peak": 0}
    with pytest.raises(ValueError, match="No matching devices found for 'GPU:0'"):
        tf.config.experimental.get_memory_info("GPU:0")
    with pytest.raises(ValueError, match="Failed parsing device name: 'cpu'"):
        tf.config.experimental.get_memory_info("cpu")
    assert tf.config.experimental.reset_memory_stats("CPU:0") is None
    with pytest.raises(ValueError, match="No matching devices found for 'GPU:0'"):
        tf.config.experimental.reset_memory_stats("GPU:0")
    with pytest.raises(ValueError, match="Cannot set memory growth on non-GPU"):
        tf.config.experimental.set_memory_growth(CPU, True)
    with pytest.raises(ValueError, match="Unrecognized device"):
        tf.config.experimental.set_memory_growth(GPU, True)
    with pytest.raises(KeyError):
        tf.config.experimental.get_memory_growth(CPU)
    assert tf.config.experimental.get_device_details(CPU) == {}
    with pytest.raises(ValueError, match="must be a tf.config.PhysicalDevice"):
        tf.config.experimental.get_device_details("CPU:0")


def test_memory_growth_with_virtual_devices(fresh_runtime):
    tf.config.set_logical_device_configuration(CPU, [tf.config.LogicalDeviceConfiguration()] * 2)
    with pytest.raises(ValueError, match="when virtual devices configured"):
        tf.config.experimental.set_memory_growth(CPU, True)


# -- switches ------------------------------------------------------------------------------
def test_switches_default_and_round_trip():
    experimental = tf.config.experimental
    assert experimental.get_device_policy() == "silent"
    experimental.set_device_policy("explicit")
    assert experimental.get_device_policy() == "explicit"
    experimental.set_device_policy(None)
    assert experimental.get_device_policy() == "silent"
    with pytest.raises(ValueError, match="bogus"):
        experimental.set_device_policy("bogus")
    assert experimental.tensor_float_32_execution_enabled() is True
    experimental.enable_tensor_float_32_execution(False)
    assert experimental.tensor_float_32_execution_enabled() is False
    experimental.enable_tensor_float_32_execution(True)
    assert experimental.get_synchronous_execution() is True
    assert tf.config.get_soft_device_placement() is True
    options = tf.config.optimizer.get_experimental_options()
    assert {k: options[k] for k in ("disable_model_pruning", "disable_meta_optimizer")} == {
        "disable_model_pruning": False, "disable_meta_optimizer": False}
    tf.config.optimizer.set_experimental_options({"layout_optimizer": False})
    assert tf.config.optimizer.get_experimental_options()["layout_optimizer"] is False
    assert tf.config.optimizer.get_jit() == ""


def test_thread_counts_are_fixed_once_initialized(fresh_runtime, monkeypatch):
    from tapeflow.config import threading as config_threading
    monkeypatch.setattr(config_threading, "_threads", {"Inter": 0, "Intra": 0})
    tf.config.threading.set_inter_op_parallelism_threads(2)
    assert tf.config.threading.get_inter_op_parallelism_threads() == 2
    tf.config.list_logical_devices()
    tf.config.threading.set_inter_op_parallelism_threads(2)
    with pytest.raises(RuntimeError, match="Intra op parallelism cannot be modified"):
        tf.config.threading.set_intra_op_parallelism_threads(4)


def test_soft_placement_off_rejects_missing_devices():
    tf.config.set_soft_device_placement(False)
    try:
        with pytest.raises(tf.errors.InvalidArgumentError, match="Could not satisfy device "
                           "specification '/job:localhost/replica:0/task:0/device:GPU:0'"):
            with tf.device("GPU:0"):
                pass
        with tf.device("CPU:0"):
            assert float(tf.constant(1.0) + 1.0) == 2.0
    finally:
        tf.config.set_soft_device_placement(True)


def test_run_functions_eagerly_runs_the_python_function():
    calls = []

    @tf.function
    def f(x):
        calls.append(tf.executing_eagerly())
        return x * 2.0

    tf.config.run_functions_eagerly(True)
    try:
        assert tf.config.functions_run_eagerly() is True
        assert float(f(tf.constant(3.0))) == 6.0
        assert float(f(tf.constant(4.0))) == 8.0
    finally:
        tf.config.run_functions_eagerly(False)
    assert calls == [True, True]
    assert f.experimental_get_tracing_count() == 0
    f(tf.constant(1.0))
    assert calls == [True, True, False] and tf.config.experimental_functions_run_eagerly() is False


# -- tf.device and the devices of tensors --------------------------------------------------
@pytest.mark.parametrize("name", [
    "cpu", "CPU", "CPU:0", "/CPU:0", "/cpu:0", "/device:CPU:0", LOCAL_CPU0, "GPU:0", "/gpu:0",
    "TPU:0", None, "", "CPU:5", "cpu:*"])
def test_eager_device_strings_tf_accepts(name):
    with tf.device(name):
        x = tf.constant(1.0)
        y = x + 1.0
        v = tf.Variable(1.0)
    assert x.device == y.device == v.device == LOCAL_CPU0


def test_device_scope_errors():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="/job:worker/replica:0/task:0/device:CPU:0 unknown device"):
        with tf.device("/job:worker"):
            pass
    with pytest.raises(ValueError, match="Unknown attribute 'bogus'"):
        with tf.device("bogus"):
            pass
    with pytest.raises(ValueError, match=r"Expecting a string device name. Got <class 'int'>"):
        with tf.device(5):
            pass
    with pytest.raises(RuntimeError, match="tf.device does not support functions"):
        tf.device(lambda op: "/cpu:0")


def test_graph_devices_are_the_requested_ones():
    seen = []

    @tf.function
    def f(x):
        with tf.device("cpu"):
            seen.append((x + 1).device)
        with tf.device("GPU:0"):
            seen.append((x + 1).device)
        with tf.device(LOCAL_CPU0):
            seen.append((x + 1).device)
        with tf.device("CPU:0"):
            with tf.device("/job:localhost"):
                seen.append((x + 1).device)
            with tf.device(None):
                seen.append((x + 1).device)
            with tf.device(""):
                seen.append((x + 1).device)
        with tf.device("GPU:1"):
            with tf.device("cpu"):
                seen.append((x + 1).device)
        seen.append((x + 1).device)
        seen.append(x.device)
        return x

    assert f(tf.constant(1.0)).device == LOCAL_CPU0
    assert seen == ["/device:CPU:*", "/device:GPU:0", LOCAL_CPU0,
                    "/job:localhost/device:CPU:0", "", "/device:CPU:0", "/device:CPU:1", "", ""]


def test_tf1_graph_devices_and_device_functions():
    with tf.Graph().as_default():
        with tf.compat.v1.device(lambda op: "/cpu:3"):
            c = tf.constant(1.0)
        with tf.device("gpu:1"):
            d = tf.constant(1.0)
            v = tf.compat.v1.Variable(1.0)
        e = tf.constant(1.0)
    assert (c.device, c.op.device) == ("/cpu:3", "/cpu:3")
    assert (d.device, d.op.device, v.device) == ("/device:GPU:1",) * 3
    assert e.device == ""


def test_device_spec_parses_bare_types():
    assert tf.DeviceSpec.from_string("cpu").to_string() == "/device:CPU:*"
    assert tf.DeviceSpec.from_string("/CPU:0").to_string() == "/device:CPU:0"
    assert tf.DeviceSpec.from_string("gpu:0").device_type == "GPU"
    with pytest.raises(ValueError, match="Unknown attribute 'xla_cpu'"):
        tf.DeviceSpec.from_string("xla_cpu:0")


# -- MirroredStrategy over virtual CPUs ----------------------------------------------------
def test_mirrored_strategy_over_two_virtual_cpus():
    out = run_fresh("""
        import tapeflow as tf
        cpu, = tf.config.list_physical_devices("CPU")
        tf.config.set_logical_device_configuration(
            cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
        s = tf.distribute.MirroredStrategy()
        print(s.num_replicas_in_sync, s.extended.worker_devices)
        with s.scope():
            v = tf.Variable(1.0)
        print(type(v).__name__, v.device)
        print(repr(v))
        r = s.run(lambda: tf.distribute.get_replica_context().replica_id_in_sync_group)
        print(r)
        print(repr(r))
        print(s.experimental_local_results(r))
        print(s.reduce("SUM", r, axis=None))
        def step():
            ctx = tf.distribute.get_replica_context()
            return ctx.all_reduce("sum", tf.cast(ctx.replica_id_in_sync_group, tf.float32) + 1.)
        print(s.run(step))
        def update():
            v.assign_add(1.0)
            return v.read_value()
        print(s.run(update))
        print(v)
        ones = lambda: tf.ones([2]) * tf.cast(
            tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)
        print(s.reduce("MEAN", s.run(ones), axis=0))
        for batch in s.experimental_distribute_dataset(tf.data.Dataset.range(8).batch(4)):
            print(batch)
            break
        s2 = tf.distribute.MirroredStrategy(cross_device_ops=tf.distribute.NcclAllReduce())
        print(s2.reduce("SUM", s2.run(lambda: tf.constant(2.0)), axis=None))
        print(tf.distribute.MirroredStrategy(["/cpu:0"]).num_replicas_in_sync)
    """)
    device = "/job:localhost/replica:0/task:0/device:CPU:"
    assert out == textwrap.dedent(f"""\
        2 ('{device}0', '{device}1')
        MirroredVariable {device}0
        MirroredVariable:{{
          0: <tf.Variable 'Variable:0' shape=() dtype=float32, numpy=1.0>,
          1: <tf.Variable 'Variable/replica_1:0' shape=() dtype=float32, numpy=1.0>
        }}
        PerReplica:{{
          0: tf.Tensor(0, shape=(), dtype=int32),
          1: tf.Tensor(1, shape=(), dtype=int32)
        }}
        PerReplica:{{
          0: <tf.Tensor: shape=(), dtype=int32, numpy=0>,
          1: <tf.Tensor: shape=(), dtype=int32, numpy=1>
        }}
        (<tf.Tensor: shape=(), dtype=int32, numpy=0>, <tf.Tensor: shape=(), dtype=int32, numpy=1>)
        tf.Tensor(1, shape=(), dtype=int32)
        PerReplica:{{
          0: tf.Tensor(3.0, shape=(), dtype=float32),
          1: tf.Tensor(3.0, shape=(), dtype=float32)
        }}
        PerReplica:{{
          0: tf.Tensor(2.0, shape=(), dtype=float32),
          1: tf.Tensor(2.0, shape=(), dtype=float32)
        }}
        MirroredVariable:{{
          0: <tf.Variable 'Variable:0' shape=() dtype=float32, numpy=2.0>,
          1: <tf.Variable 'Variable/replica_1:0' shape=() dtype=float32, numpy=2.0>
        }}
        tf.Tensor(0.5, shape=(), dtype=float32)
        PerReplica:{{
          0: tf.Tensor([0 1], shape=(2,), dtype=int64),
          1: tf.Tensor([2 3], shape=(2,), dtype=int64)
        }}
        tf.Tensor(4.0, shape=(), dtype=float32)
        1
    """)


def test_a_failing_replica_stops_the_others():
    out = run_fresh("""
        import tapeflow as tf
        cpu, = tf.config.list_physical_devices("CPU")
        tf.config.set_logical_device_configuration(
            cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
        s = tf.distribute.MirroredStrategy()
        def step():
            ctx = tf.distribute.get_replica_context()
            if int(ctx.replica_id_in_sync_group) == 1:
                raise KeyError("replica 1 failed")
            return ctx.all_reduce("sum", tf.constant(1.0))
        try:
            s.run(step)
        except KeyError as e:
            print("KeyError", e)
        print(s.run(lambda: tf.distribute.get_replica_context().all_reduce(
            "sum", tf.constant(1.0))).values[0].numpy())
    """)
    assert out == "KeyError 'replica 1 failed'\n2.0\n"


# -- what a CPU machine lacks --------------------------------------------------------------
def test_tpu_names_fail_as_without_a_tpu():
    with pytest.raises(ValueError, match="Please provide a TPU Name to connect to."):
        tf.distribute.TPUStrategy()
    with pytest.raises(ValueError, match="Please provide a TPU Name to connect to."):
        tf.distribute.experimental.TPUStrategy()
    with pytest.raises(ValueError, match="Please provide a TPU Name to connect to."):
        tf.distribute.cluster_resolver.TPUClusterResolver()
    with pytest.raises(ValueError, match="Please provide a TPU Name to connect to."):
        tf.tpu.experimental.initialize_tpu_system()
    resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="local")
    assert resolver.master() == ""
    with pytest.raises(tf.errors.NotFoundError, match="TPUs not found in the cluster"):
        tf.tpu.experimental.initialize_tpu_system(resolver)
    with pytest.raises(tf.errors.NotFoundError):
        tf.distribute.TPUStrategy(resolver)


def test_cross_device_ops_reduce():
    from tapeflow.distribute.values import PerReplica
    values = PerReplica([tf.constant([1.0, 2.0]), tf.constant([3.0, 6.0])])
    for ops in (tf.distribute.ReductionToOneDevice(), tf.distribute.NcclAllReduce(),
                tf.distribute.HierarchicalCopyAllReduce()):
        assert ops.reduce("sum", values, "/cpu:0").numpy().tolist() == [4.0, 8.0]
        assert ops.reduce(tf.distribute.ReduceOp.MEAN, values, None).numpy().tolist() == [2.0, 4.0]
    with pytest.raises(ValueError, match="requires num_packs >= 0, but -1 is specified"):
        tf.distribute.HierarchicalCopyAllReduce(num_packs=-1)
    assert tf.distribute.MirroredStrategy(
        cross_device_ops=tf.distribute.HierarchicalCopyAllReduce()).num_replicas_in_sync == 1


def test_connecting_to_a_cluster_is_unimplemented():
    with pytest.raises(tf.errors.UnimplementedError, match="MultiWorkerMirroredStrategy"):
        tf.config.experimental_connect_to_cluster(tf.train.ClusterSpec({"worker": ["a:1"]}))
