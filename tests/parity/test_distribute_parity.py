"""tf.distribute against TensorFlow on one CPU: the signatures and defaults of the strategy
API, and the values of reductions and loss scaling."""
import inspect

import numpy as np
import pytest

import tapeflow

pytestmark = pytest.mark.parity

SIGNATURES = ["MirroredStrategy.__init__", "MultiWorkerMirroredStrategy.__init__",
              "OneDeviceStrategy.__init__", "Strategy.run", "Strategy.reduce",
              "Strategy.gather", "Strategy.scope", "Strategy.experimental_distribute_dataset",
              "Strategy.distribute_datasets_from_function", "ReplicaContext.all_reduce",
              "ReplicaContext.all_gather", "InputContext.__init__",
              "experimental.CommunicationOptions.__init__", "experimental.ValueContext.__init__",
              "Strategy.experimental_distribute_values_from_function"]


def _resolve(root, path: str):
    for name in path.split("."):
        root = getattr(root, name)
    return root


def _parameters(fn) -> list:
    return [(p.name, p.default if p.default is inspect.Parameter.empty else repr(p.default))
            for p in inspect.signature(fn).parameters.values()]


@pytest.mark.parametrize("path", SIGNATURES)
def test_signature_matches_tf(tensorflow, path):
    ours = _parameters(_resolve(tapeflow.distribute, path))
    theirs = _parameters(_resolve(tensorflow.distribute, path))
    assert [name for name, _ in ours] == [name for name, _ in theirs]
    for (name, mine), (_, tf_default) in zip(ours, theirs):
        if "Implementation" not in str(tf_default):       # an enum: compared below
            assert mine == tf_default, name


def test_enums_match_tf(tensorflow):
    assert [op.value for op in tapeflow.distribute.ReduceOp] == \
        [op.value for op in tensorflow.distribute.ReduceOp]
    assert [c.value for c in tapeflow.distribute.experimental.CommunicationImplementation] == \
        [c.value for c in tensorflow.distribute.experimental.CommunicationImplementation]


@pytest.mark.parametrize("op,axis", [("SUM", None), ("MEAN", None), ("SUM", 0), ("MEAN", 0),
                                     ("MEAN", 1)])
def test_reduce_matches_tf(tensorflow, op, axis):
    value = np.arange(6.0, dtype="float32").reshape(2, 3)
    ours = tapeflow.distribute.MirroredStrategy().reduce(op, tapeflow.constant(value), axis)
    theirs = tensorflow.distribute.MirroredStrategy().reduce(op, tensorflow.constant(value),
                                                             axis)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy())


@pytest.mark.parametrize("kwargs", [{}, {"global_batch_size": 8},
                                    {"sample_weight": [1.0, 0.0, 2.0, 1.0]},
                                    {"sample_weight": 0.5, "global_batch_size": 3}])
def test_compute_average_loss_matches_tf(tensorflow, kwargs):
    losses = np.array([1.0, 2.0, 3.0, 6.0], "float32")
    ours = tapeflow.nn.compute_average_loss(tapeflow.constant(losses), **kwargs)
    theirs = tensorflow.nn.compute_average_loss(tensorflow.constant(losses), **kwargs)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)


def test_input_context_matches_tf(tensorflow):
    for module in (tapeflow, tensorflow):
        context = module.distribute.InputContext(3, 1, 6)
        assert (context.num_input_pipelines, context.input_pipeline_id,
                context.num_replicas_in_sync, context.get_per_replica_batch_size(12)) == \
            (3, 1, 6, 2)
