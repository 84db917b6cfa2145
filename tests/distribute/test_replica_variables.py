"""A Variable made inside `MirroredStrategy.run` (the replica context): one
MirroredVariable, made from the first replica's initial value, that every replica gets
(TF 2.21 gives the same for this program)."""
import tapeflow as tf


def test_a_variable_made_in_the_replicas_is_one_mirrored_variable():
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    made = []

    def fn():
        context = tf.distribute.get_replica_context()
        v = tf.Variable(tf.cast(context.replica_id_in_sync_group, tf.float32) + 1.0)
        made.append(v)
        return v.read_value()

    with strategy.scope():
        result = strategy.run(fn)
    assert len(made) == 2 and made[0] is made[1]
    assert type(made[0]).__name__ == "MirroredVariable"
    assert [float(c) for c in made[0].values] == [1.0, 1.0]
    assert [float(t) for t in strategy.experimental_local_results(result)] == [1.0, 1.0]
