"""tf.compat.v1.layers, losses and metrics."""
import numpy as np
import pytest

import tapeflow as tf
import tapeflow.compat.v1 as tf1


def test_dense_names_reuse_and_values(graph_mode, initialized_session):
    x = tf1.placeholder(tf.float32, [None, 3])
    y = tf1.layers.dense(x, 2, activation=tf.nn.relu,
                         kernel_initializer=tf1.constant_initializer(1.0),
                         bias_initializer=tf1.constant_initializer(-1.0))
    z = tf1.layers.dense(y, 1, use_bias=False)
    shared = tf1.layers.dense(x, 2, name="dense", reuse=True)
    seq = tf1.layers.dense(tf1.ones([2, 4, 3]), 5)
    assert [v.name for v in tf1.trainable_variables()] == [
        "dense/kernel:0", "dense/bias:0", "dense_1/kernel:0", "dense_2/kernel:0",
        "dense_2/bias:0"]
    assert z.shape.as_list() == [None, 1] and seq.shape.as_list() == [2, 4, 5]
    sess = initialized_session()
    out, again = sess.run([y, shared], {x: [[1.0, 2.0, -4.0], [1.0, 1.0, 1.0]]})
    assert out.tolist() == [[0.0, 0.0], [2.0, 2.0]] and again.tolist() == [[-2.0, -2.0],
                                                                           [2.0, 2.0]]


def test_conv_pool_flatten(graph_mode, initialized_session):
    x = tf1.placeholder(tf.float32, [None, 6, 6, 1])
    c = tf1.layers.conv2d(x, 2, 3, padding="same",
                          kernel_initializer=tf1.ones_initializer())
    p = tf1.layers.max_pooling2d(c, 2, 2)
    a = tf1.layers.average_pooling2d(c, 3, 3)
    f = tf1.layers.flatten(p)
    assert c.shape.as_list() == [None, 6, 6, 2] and p.shape.as_list() == [None, 3, 3, 2]
    assert f.shape.as_list() == [None, 18] and a.shape.as_list() == [None, 2, 2, 2]
    sess = initialized_session()
    images = np.ones((1, 6, 6, 1), np.float32)
    conv, pooled = sess.run([c, p], {x: images})
    assert conv[0, 0, 0, 0] == 4.0 and conv[0, 2, 2, 1] == 9.0 and pooled.max() == 9.0


def test_dropout_follows_training(graph_mode):
    training = tf1.placeholder(tf.bool, [])
    x = tf1.ones([1000])
    y = tf1.layers.dropout(x, 0.5, training=training, seed=1)
    sess = tf1.Session()
    assert (sess.run(y, {training: False}) == 1.0).all()
    dropped = sess.run(y, {training: True})
    assert set(np.unique(dropped)) == {0.0, 2.0} and 400 < (dropped == 0).sum() < 600
    assert (sess.run(tf1.layers.dropout(x, training=False)) == 1.0).all()


def test_batch_normalization_training_and_update_ops(graph_mode, initialized_session):
    x = tf1.placeholder(tf.float32, [None, 2])
    training = tf1.placeholder_with_default(False, [])
    y = tf1.layers.batch_normalization(x, momentum=0.5, training=training)
    names = [v.name for v in tf1.global_variables()]
    assert names == ["batch_normalization/gamma:0", "batch_normalization/beta:0",
                     "batch_normalization/moving_mean:0",
                     "batch_normalization/moving_variance:0"]
    assert len(tf1.trainable_variables()) == 2
    updates = tf1.get_collection(tf1.GraphKeys.UPDATE_OPS)
    assert len(updates) == 2
    sess = initialized_session()
    batch = np.array([[0.0, 10.0], [2.0, 30.0]], np.float32)
    out, _ = sess.run([y, updates], {x: batch, training: True})
    np.testing.assert_allclose(out, [[-1.0, -1.0], [1.0, 1.0]], atol=1e-3)
    mean, variance = sess.run(tf1.global_variables()[2:])
    np.testing.assert_allclose(mean, [0.5, 10.0])
    np.testing.assert_allclose(variance, [1.0, 50.5])
    sess.run(updates, {x: batch})  # not training: the moving statistics stay
    np.testing.assert_allclose(sess.run(tf1.global_variables()[2]), [0.5, 10.0])
    inference = sess.run(y, {x: [[0.5, 10.0]]})
    np.testing.assert_allclose(inference, [[0.0, 0.0]], atol=1e-6)


LOSSES = [  # (loss function, arguments, expected value)
    (tf1.losses.mean_squared_error, ([1.0, 2.0], [2.0, 4.0]), 2.5),
    (tf1.losses.absolute_difference, ([1.0, 2.0], [2.0, 4.0]), 1.5),
    (tf1.losses.huber_loss, ([0.0, 0.0], [0.5, 3.0]), (0.125 + 2.5) / 2),
    (tf1.losses.sparse_softmax_cross_entropy, ([0, 1], [[0.0, 0.0], [0.0, 0.0]]),
     np.log(2.0)),
    (tf1.losses.softmax_cross_entropy, ([[1.0, 0.0]], [[np.log(3.0), 0.0]]),
     np.log(4.0 / 3.0)),
    (tf1.losses.sigmoid_cross_entropy, ([[1.0]], [[0.0]]), np.log(2.0)),
]


@pytest.mark.parametrize("loss, args, expected", LOSSES)
def test_losses(graph_mode, loss, args, expected):
    value = loss(*args)
    assert tf1.losses.get_losses() == [value]
    assert tf1.Session().run(value) == pytest.approx(expected, rel=1e-5)


REDUCTIONS = [  # (reduction, expected for losses [1, 2, 3, 4] and weights [0, 1, 2, 1])
    (tf1.losses.Reduction.NONE, [0.0, 2.0, 6.0, 4.0]),
    (tf1.losses.Reduction.SUM, 12.0),
    (tf1.losses.Reduction.MEAN, 3.0),
    (tf1.losses.Reduction.SUM_OVER_BATCH_SIZE, 3.0),
    (tf1.losses.Reduction.SUM_BY_NONZERO_WEIGHTS, 4.0),
]


@pytest.mark.parametrize("reduction, expected", REDUCTIONS)
def test_weighted_reductions(reduction, expected):
    value = tf1.losses.compute_weighted_loss([1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 2.0, 1.0],
                                             reduction=reduction)
    np.testing.assert_allclose(value.numpy(), expected)


def test_label_smoothing_total_loss_and_errors(graph_mode):
    smoothed = tf1.losses.softmax_cross_entropy([[1.0, 0.0]], [[0.0, 0.0]],
                                                label_smoothing=0.2, loss_collection=None)
    assert tf1.losses.get_losses() == []
    with pytest.raises(ValueError, match="No losses"):
        tf1.losses.get_total_loss()
    a = tf1.losses.mean_squared_error([0.0], [1.0])
    tf1.get_variable("w", [1], initializer=tf1.ones_initializer(),
                     regularizer=lambda w: 0.5 * tf1.reduce_sum(w))
    sess = tf1.Session()
    sess.run(tf1.global_variables_initializer())
    assert sess.run(smoothed) == pytest.approx(np.log(2.0))
    assert sess.run(tf1.losses.get_total_loss()) == pytest.approx(1.5)
    assert sess.run(tf1.losses.get_total_loss(add_regularization_losses=False)) == 1.0
    assert sess.run(tf1.losses.get_regularization_loss()) == 0.5 and a in tf1.losses.get_losses()
    with pytest.raises(ValueError, match="Reduction"):
        tf1.losses.compute_weighted_loss([1.0], reduction="bad")


def test_streaming_metrics(graph_mode):
    labels = tf1.placeholder(tf.int64, [None])
    predictions = tf1.placeholder(tf.int64, [None])
    accuracy, update_accuracy = tf1.metrics.accuracy(labels, predictions)
    values = tf1.placeholder(tf.float32, [None])
    mean, update_mean = tf1.metrics.mean(values, weights=[1.0, 3.0], name="weighted",
                                         metrics_collections=["my_metrics"])
    assert [v.name for v in tf1.local_variables()] == [
        "accuracy/total:0", "accuracy/count:0", "weighted/total:0", "weighted/count:0"]
    assert tf1.global_variables() == [] and tf1.get_collection("my_metrics") == [mean]
    sess = tf1.Session()
    sess.run(tf1.local_variables_initializer())
    assert sess.run(accuracy) == 0.0
    sess.run(update_accuracy, {labels: [1, 2], predictions: [1, 0]})
    assert sess.run(update_accuracy, {labels: [3, 3], predictions: [3, 3]}) == 0.75
    assert sess.run(update_mean, {values: [1.0, 5.0]}) == 4.0
    sess.run(tf1.local_variables_initializer())  # resets the totals
    assert sess.run([accuracy, mean]) == [0.0, 0.0]


def test_metrics_are_graph_only():
    with pytest.raises(RuntimeError, match="eager"):
        tf1.metrics.mean([1.0])


def test_v1_nn_signatures(graph_mode):
    x = tf1.ones([1000])
    kept = tf1.nn.dropout(x, keep_prob=0.75, seed=2)
    with pytest.raises(ValueError, match="exactly one"):
        tf1.nn.dropout(x, keep_prob=0.5, rate=0.5)
    labels = tf1.constant([[0.0, 1.0]])
    logits = tf1.constant([[1.0, 0.0]])
    v1_loss = tf1.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    v2_loss = tf1.nn.softmax_cross_entropy_with_logits_v2(labels, logits)
    assert tf1.gradients(v1_loss, labels) == [None]
    assert tf1.gradients(v2_loss, labels)[0] is not None
    pooled = tf1.nn.max_pool(tf1.ones([1, 4, 4, 1]), [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
    averaged = tf1.nn.avg_pool(tf1.ones([1, 4, 4, 1]), [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
    assert tf1.nn.relu is tf.nn.relu
    sess = tf1.Session()
    values = sess.run(kept)
    assert set(np.unique(values)) == {0.0, np.float32(1 / 0.75)}
    assert sess.run(v1_loss) == sess.run(v2_loss)
    assert sess.run(pooled).shape == (1, 2, 2, 1) and sess.run(averaged).max() == 1.0
