"""VariableAggregation and VariableSynchronization: recorded, checked, and ON_READ variables
untrainable by default."""
import pytest

import tapeflow as tf


def test_enum_members_as_tf():
    assert [m.name for m in tf.VariableAggregation] == ["NONE", "SUM", "MEAN",
                                                        "ONLY_FIRST_REPLICA"]
    assert [m.value for m in tf.VariableSynchronization] == [0, 1, 2, 3]
    assert tf.VariableSynchronization.ON_READ.name == "ON_READ"


def test_variables_record_their_modes():
    v = tf.Variable(1.0, aggregation=tf.VariableAggregation.SUM,
                    synchronization=tf.VariableSynchronization.ON_WRITE)
    assert v.aggregation is tf.VariableAggregation.SUM
    assert v.synchronization is tf.VariableSynchronization.ON_WRITE and v.trainable
    plain = tf.Variable(1.0)
    assert plain.aggregation is tf.VariableAggregation.NONE
    assert plain.synchronization is tf.VariableSynchronization.AUTO


def test_on_read_variables_are_not_trainable_by_default():
    on_read = tf.VariableSynchronization.ON_READ
    assert not tf.Variable(1.0, synchronization=on_read).trainable
    assert tf.Variable(1.0, synchronization=on_read, trainable=True).trainable


@pytest.mark.parametrize("kwargs,match", [({"aggregation": "sum"}, "aggregation mode: sum"),
                                          ({"synchronization": 1}, "synchronization mode")])
def test_modes_must_be_enum_members(kwargs, match):
    with pytest.raises(ValueError, match=match):
        tf.Variable(1.0, **kwargs)


def test_graph_variables_record_modes():
    with tf.Graph().as_default():
        v = tf.Variable(1.0, aggregation=tf.VariableAggregation.MEAN,
                        synchronization=tf.VariableSynchronization.ON_READ)
    assert v.aggregation is tf.VariableAggregation.MEAN and not v.trainable
