"""tf.compat.v1.metrics: streaming metrics over local variables (graph mode only).

Each returns `(value, update_op)`: `update_op` adds a batch to the running totals (local
variables `total` and `count` under the metric's scope, initialized by
`local_variables_initializer`) and returns the new value; `value` reads the current one.
"""
from __future__ import annotations

import tapeflow as tf

from ...framework.context import executing_eagerly
from ...framework.graph import GraphKeys, get_default_graph
from .scopes import absolute_name_scope, variable_scope

__all__ = ["mean", "accuracy"]


def _local(name: str, dtype):
    return tf.Variable(tf.zeros([], dtype), trainable=False, name=name,
                       collections=[GraphKeys.LOCAL_VARIABLES, GraphKeys.METRIC_VARIABLES])


def _streaming_mean(what: str, values, weights, metrics_collections, updates_collections,
                    name):
    if executing_eagerly():
        raise RuntimeError(f"tf.metrics.{what} is not supported when eager execution is "
                           "enabled.")
    values = tf.cast(values, tf.float32)
    weights = tf.ones_like(values) * (1.0 if weights is None else tf.cast(weights, tf.float32))
    graph = get_default_graph()
    with variable_scope(name, default_name=what) as scope:
        with absolute_name_scope(graph, scope.name):
            total, count = _local("total", tf.float32), _local("count", tf.float32)
        value = tf.math.divide_no_nan(total, count, name="value")
        update_total = total.assign_add(tf.reduce_sum(values * weights))
        update_count = count.assign_add(tf.reduce_sum(weights))
        update = tf.math.divide_no_nan(update_total, update_count, name="update_op")
    for key in metrics_collections or []:
        graph.add_to_collection(key, value)
    for key in updates_collections or []:
        graph.add_to_collection(key, update)
    return value, update


def mean(values, weights=None, metrics_collections=None, updates_collections=None,
         name=None):
    """The running (weighted) mean of `values`.

    Raises:
        RuntimeError: executing eagerly.

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> with tf1.Graph().as_default():
        ...     x = tf1.placeholder(tf1.float32, [None])
        ...     value, update = tf1.metrics.mean(x)
        ...     sess = tf1.Session()
        ...     _ = sess.run(tf1.local_variables_initializer())
        ...     _ = sess.run(update, {x: [1.0, 2.0]})
        ...     print(sess.run(update, {x: [6.0]}), sess.run(value))
        3.0 3.0
    """
    return _streaming_mean("mean", values, weights, metrics_collections, updates_collections,
                           name)


def accuracy(labels, predictions, weights=None, metrics_collections=None,
             updates_collections=None, name=None):
    """The running fraction of `predictions` equal to `labels`.

    Raises:
        RuntimeError: executing eagerly.

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> with tf1.Graph().as_default():
        ...     acc, update = tf1.metrics.accuracy([1, 2, 3, 4], [1, 2, 0, 4])
        ...     sess = tf1.Session()
        ...     _ = sess.run(tf1.local_variables_initializer())
        ...     print(sess.run(update), [v.name for v in tf1.local_variables()])
        0.75 ['accuracy/total:0', 'accuracy/count:0']
    """
    predictions = tf.convert_to_tensor(predictions)
    labels = tf.cast(labels, predictions.dtype)
    return _streaming_mean("accuracy", tf.equal(predictions, labels), weights,
                           metrics_collections, updates_collections, name)
