"""One process: the strategies' API, contexts, reductions, datasets and loss scaling."""
import subprocess
import sys

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.distribute import input_lib

STRATEGIES = [tf.distribute.MirroredStrategy, lambda: tf.distribute.OneDeviceStrategy("/cpu:0"),
              tf.distribute.MultiWorkerMirroredStrategy]


@pytest.mark.parametrize("make", STRATEGIES, ids=["mirrored", "one_device", "multi_worker"])
def test_a_strategy_has_one_replica_and_runs_functions(make):
    strategy = make()
    assert strategy.num_replicas_in_sync == 1
    assert float(strategy.run(lambda x, y: x * y, args=(tf.constant(2.0),),
                              kwargs={"y": 3.0})) == 6.0
    assert strategy.experimental_local_results(5) == (5,)


def test_scope_sets_the_current_strategy_and_contexts():
    strategy = tf.distribute.MirroredStrategy()
    assert not tf.distribute.has_strategy()
    assert tf.distribute.get_replica_context() is not None
    assert not tf.distribute.in_cross_replica_context()
    with strategy.scope():
        assert tf.distribute.get_strategy() is strategy and tf.distribute.has_strategy()
        assert tf.distribute.in_cross_replica_context()
        assert tf.distribute.get_replica_context() is None
        context = strategy.run(tf.distribute.get_replica_context)
    assert context.strategy is strategy and int(context.replica_id_in_sync_group) == 0
    assert context.num_replicas_in_sync == 1
    assert tf.distribute.get_strategy() is not strategy


def test_mixing_two_strategies_raises():
    with tf.distribute.MirroredStrategy().scope():
        with pytest.raises(ValueError, match="Mixing different"):
            with tf.distribute.OneDeviceStrategy("/cpu:0").scope():
                pass
    assert not tf.distribute.has_strategy()      # the failed entry left nothing behind


def test_variables_made_in_scope_or_run_are_mirrored():
    strategy = tf.distribute.MirroredStrategy()
    outside = tf.Variable(1.0)
    with strategy.scope():
        inside = tf.Variable([1.0, 2.0], name="w")
    in_run = strategy.run(lambda: tf.Variable(3.0))
    assert strategy.mirrors(inside) and strategy.mirrors(in_run)
    assert not strategy.mirrors(outside)
    assert inside.name == "w:0" and inside.numpy().tolist() == [1.0, 2.0]


def test_a_one_device_mirrored_strategy_makes_distributed_variables():
    # TF 2.21 on one CPU: a MirroredVariable (ON_WRITE, aggregation NONE) with one component
    # in `values` and `_values`; ON_READ gives a SyncOnReadVariable, not trainable by
    # default; NONE synchronization is a ValueError; OneDeviceStrategy makes plain ones.
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        v = tf.Variable(1.0)
        w = tf.Variable(2.0, synchronization=tf.VariableSynchronization.ON_READ,
                        aggregation=tf.VariableAggregation.ONLY_FIRST_REPLICA)
        with pytest.raises(ValueError, match="`NONE` variable synchronization mode is not "
                                             "supported with tf.distribute strategy"):
            tf.Variable(1.0, synchronization=tf.VariableSynchronization.NONE)
    assert type(v).__name__ == "MirroredVariable" and isinstance(v, tf.Variable)
    assert isinstance(v, tf.distribute.DistributedValues)
    assert v.synchronization == tf.VariableSynchronization.ON_WRITE
    assert v.aggregation == tf.VariableAggregation.NONE and v.trainable
    assert len(v.values) == 1 and v._values == v.values
    assert type(v.values[0]) is tf.Variable and v.values[0].name == "Variable:0"
    assert v.values[0].synchronization == tf.VariableSynchronization.ON_WRITE
    assert repr(v) == ("MirroredVariable:{\n  0: <tf.Variable 'Variable:0' shape=() "
                       "dtype=float32, numpy=1.0>\n}")
    assert type(w).__name__ == "SyncOnReadVariable" and not w.trainable
    assert w.values[0].synchronization == tf.VariableSynchronization.ON_READ
    assert w.aggregation == tf.VariableAggregation.ONLY_FIRST_REPLICA
    assert strategy.experimental_local_results(v) == v.values
    v.assign(5.0)
    strategy.run(lambda: v.assign_add(1.0))
    assert float(v.values[0].numpy()) == 6.0 and float(strategy.run(v.read_value)) == 6.0
    w.assign(4.0)
    assert float(w.values[0].numpy()) == 4.0 and float(w.read_value()) == 4.0
    with tf.distribute.OneDeviceStrategy("/cpu:0").scope():
        plain = tf.Variable(1.0)
    assert type(plain) is tf.Variable


def test_a_sync_on_read_variable_without_aggregation_cannot_be_read_across_replicas():
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        w = tf.Variable(1.0, synchronization=tf.VariableSynchronization.ON_READ)
    message = "Could not convert from `tf.VariableAggregation` VariableAggregation.NONE to"
    for use in (w.read_value, w.numpy, lambda: w + 1.0, lambda: w.assign(2.0)):
        with pytest.raises(ValueError, match=message):
            use()
    strategy.run(lambda: w.assign(3.0))      # a replica has its own component
    assert float(w.values[0].numpy()) == 3.0 and float(strategy.run(w.read_value)) == 3.0


def test_run_enters_the_strategys_own_scope_and_its_variable_creators():
    # TF: `run` enters `scope()` (a subclass's override too), so a creator it adds sees the
    # variables the replica function makes.
    import contextlib
    seen = []

    def first_replica_only(next_creator, **kwargs):
        kwargs["synchronization"] = tf.VariableSynchronization.ON_READ
        kwargs["aggregation"] = tf.VariableAggregation.ONLY_FIRST_REPLICA
        seen.append(kwargs["name"])
        return next_creator(**kwargs)

    class Replicating(tf.distribute.MirroredStrategy):
        @contextlib.contextmanager
        def scope(self):
            with super().scope(), tf.variable_creator_scope(first_replica_only):
                yield

    made = Replicating().run(lambda: tf.Variable(1.0, name="r"))
    assert seen == ["r"] and type(made).__name__ == "SyncOnReadVariable"
    assert made.aggregation == tf.VariableAggregation.ONLY_FIRST_REPLICA
    assert made.values[0].synchronization == tf.VariableSynchronization.ON_READ


@pytest.mark.parametrize("op,axis,expected", [
    ("SUM", None, [1.0, 2.0, 6.0]), ("MEAN", None, [1.0, 2.0, 6.0]), ("sum", 0, 9.0),
    (tf.distribute.ReduceOp.MEAN, 0, 3.0)])
def test_reduce(op, axis, expected):
    strategy = tf.distribute.MirroredStrategy()
    result = strategy.reduce(op, tf.constant([1.0, 2.0, 6.0]), axis=axis)
    np.testing.assert_allclose(result.numpy(), expected)
    assert result.dtype == tf.float32


def test_reduce_of_a_structure_and_a_bad_op():
    strategy = tf.distribute.MirroredStrategy()
    out = strategy.reduce("SUM", {"a": tf.constant(1.0), "b": [tf.constant(2)]}, axis=None)
    assert float(out["a"]) == 1.0 and int(out["b"][0]) == 2
    with pytest.raises(ValueError, match="ReduceOp"):
        strategy.reduce("MAX", tf.constant(1.0), axis=None)


def test_gather_and_replica_collectives():
    strategy = tf.distribute.MirroredStrategy()
    assert strategy.gather(tf.constant([[1.0], [2.0]]), axis=1).shape == [2, 1]

    def replica():
        context = tf.distribute.get_replica_context()
        return (context.all_reduce("mean", [tf.constant(4.0)]),
                context.all_gather(tf.constant([1, 2]), axis=0),
                context.merge_call(lambda s, x: (s, x), args=(7,)))

    reduced, gathered, (merged_strategy, seven) = strategy.run(replica)
    assert float(reduced[0]) == 4.0 and gathered.numpy().tolist() == [1, 2]
    assert merged_strategy is strategy and seven == 7


def test_the_replica_all_reduce_is_differentiable_inside_a_function():
    strategy = tf.distribute.MirroredStrategy()
    x = tf.Variable(3.0)

    @tf.function
    def grad():
        with tf.GradientTape() as tape:
            y = strategy.run(lambda: tf.distribute.get_replica_context().all_reduce(
                "sum", x * x))
        return tape.gradient(y, x)

    assert float(grad()) == 6.0


def test_optimizer_applies_mirrored_gradients_under_a_function():
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        w = tf.Variable([1.0, 2.0])
        optimizer = tf.keras.optimizers.SGD(0.5)

    @tf.function
    def step():
        def replica():
            with tf.GradientTape() as tape:
                loss = tf.nn.compute_average_loss(w * w)
            optimizer.apply_gradients([(tape.gradient(loss, w), w)])
        strategy.run(replica)

    step()
    np.testing.assert_allclose(w.numpy(), [0.5, 1.0])   # w -= 0.5 * w (mean of w^2 over 2)


def test_experimental_distribute_dataset_gives_the_batches_as_tensors():
    strategy = tf.distribute.MirroredStrategy()
    batches = [(np.arange(6.0).reshape(3, 2), np.arange(3)), (np.ones((1, 2)), np.zeros(1))]
    shares = list(strategy.experimental_distribute_dataset(batches))
    assert [x.shape for x, _ in shares] == [[3, 2], [1, 2]]
    assert isinstance(shares[0][1], tf.Tensor)


@pytest.mark.parametrize("length,parts,expected", [
    (8, 2, [[0, 1, 2, 3], [4, 5, 6, 7]]), (7, 2, [[0, 1, 2, 3], [4, 5, 6]]),
    (1, 2, [[0], []]), (5, 3, [[0, 1], [2, 3], [4]])])
def test_a_global_batch_is_cut_into_contiguous_parts(length, parts, expected):
    data = [np.arange(length)]
    got = [list(input_lib.DistributedDataset(data, rank, parts))[0].numpy().tolist()
           for rank in range(parts)]
    assert got == expected


def test_a_distributed_iterator_ends_with_out_of_range():
    iterator = iter(tf.distribute.MirroredStrategy().experimental_distribute_dataset(
        [np.arange(2.0)]))
    assert next(iterator).numpy().tolist() == [0.0, 1.0]
    with pytest.raises(tf.errors.OutOfRangeError):
        iterator.get_next()


def test_uneven_tensors_in_one_batch_raise():
    dataset = input_lib.DistributedDataset([(np.ones(3), np.ones(2))], 0, 2)
    with pytest.raises(ValueError, match="same batch size"):
        list(dataset)


def test_distribute_datasets_from_function_passes_an_input_context():
    strategy = tf.distribute.MirroredStrategy()
    seen = []

    def dataset_fn(context):
        seen.append(context)
        return [np.arange(4.0)]

    assert len(list(strategy.distribute_datasets_from_function(dataset_fn))) == 1
    context, = seen
    assert (context.num_input_pipelines, context.input_pipeline_id,
            context.num_replicas_in_sync) == (1, 0, 1)


def test_input_context_batch_size():
    context = tf.distribute.InputContext(2, 1, 4)
    assert context.get_per_replica_batch_size(64) == 16
    with pytest.raises(ValueError, match="divisible"):
        context.get_per_replica_batch_size(10)


def test_communication_options():
    options = tf.distribute.experimental.CommunicationOptions(
        bytes_per_pack=1024, timeout_seconds=5.0,
        implementation=tf.distribute.experimental.CommunicationImplementation.RING)
    assert (options.bytes_per_pack, options.timeout_seconds) == (1024, 5.0)
    assert tf.distribute.experimental.CollectiveCommunication.NCCL.value == "NCCL"
    with pytest.raises(ValueError, match="non-negative"):
        tf.distribute.experimental.CommunicationOptions(bytes_per_pack=-1)


def test_experimental_set_strategy():
    strategy = tf.distribute.MirroredStrategy()
    tf.distribute.experimental_set_strategy(strategy)
    try:
        assert tf.distribute.get_strategy() is strategy
    finally:
        tf.distribute.experimental_set_strategy(None)
    assert not tf.distribute.has_strategy()


@pytest.mark.parametrize("kwargs,expected", [
    ({}, 2.5), ({"global_batch_size": 8}, 1.25), ({"sample_weight": [1.0, 0.0, 1.0, 0.0]}, 1.0)])
def test_compute_average_loss(kwargs, expected):
    loss = tf.nn.compute_average_loss(tf.constant([1.0, 2.0, 3.0, 4.0]), **kwargs)
    assert float(loss) == expected


def test_compute_average_loss_rejects_a_bad_batch_size():
    with pytest.raises(ValueError, match="positive integer"):
        tf.nn.compute_average_loss(tf.constant([1.0]), global_batch_size=0)


def test_scale_regularization_loss():
    assert float(tf.nn.scale_regularization_loss([1.0, 2.0])) == 3.0


def test_tf_distribute_and_mpi_load_on_first_use():
    code = ("import sys, tapeflow as tf; tf.keras.Sequential; "
            "print('tapeflow.distribute' in sys.modules, 'mpi4py' in sys.modules); "
            "tf.distribute.MirroredStrategy(); print('mpi4py' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["False", "False", "False"]


def test_unwrap_is_tf1s_name_of_experimental_local_results():
    strategy = tf.distribute.MirroredStrategy()
    value = strategy.run(lambda: tf.constant(3.0))
    unwrapped = strategy.unwrap(value)
    assert [float(v) for v in unwrapped] == [float(v) for v in
                                             strategy.experimental_local_results(value)] == [3.0]


def test_sync_on_read_variables_combine_their_replicas_by_aggregation():
    # TF 2.21, two logical CPUs, each replica assigning 2 + its id: read outside the
    # replicas SUM gives 5, MEAN 2.5, ONLY_FIRST_REPLICA 2; assigning 6 outside gives SUM's
    # components 3 each, the others 6.
    code = """if True:
        import tapeflow as tf
        cpu, = tf.config.list_physical_devices("CPU")
        tf.config.set_logical_device_configuration(
            cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
        s = tf.distribute.MirroredStrategy()
        A = tf.VariableAggregation
        with s.scope():
            vs = [tf.Variable(1.0, synchronization=tf.VariableSynchronization.ON_READ,
                              aggregation=a) for a in (A.SUM, A.MEAN, A.ONLY_FIRST_REPLICA)]
        def step():
            i = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group,
                        tf.float32)
            for v in vs:
                v.assign(i + 2.0)
        s.run(step)
        print(type(vs[0]).__name__, [v.values[1].name for v in vs][0])
        print([float(v.read_value()) for v in vs], [float(v.values[1].numpy()) for v in vs])
        for v in vs:
            v.assign(6.0)
        print([[float(c.numpy()) for c in v.values] for v in vs])
    """
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.splitlines() == [
        "SyncOnReadVariable Variable/replica_1:0", "[5.0, 2.5, 2.0] [3.0, 3.0, 3.0]",
        "[[3.0, 3.0], [6.0, 6.0], [6.0, 6.0]]"]


def test_the_default_strategy_hands_datasets_through_and_updates_in_place():
    strategy = tf.distribute.get_strategy()
    ds = tf.data.Dataset.range(4).batch(2)
    assert strategy.experimental_distribute_dataset(ds) is ds  # as TF's default strategy
    v = tf.Variable(1.0)
    assert float(strategy.extended.update(v, lambda var, x: var.assign_add(x), args=(2.0,),
                                          group=False)) == 3.0
    with strategy.extended.colocate_vars_with(v):
        slot = tf.Variable(0.0)
    assert slot.device == v.device
    assert float(strategy.extended.call_for_each_replica(lambda x: x * 2, args=(3.0,))) == 6.0
