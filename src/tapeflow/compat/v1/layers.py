"""tf.compat.v1.layers: TF1's functional layers, built on `variable_scope`/`get_variable`.

Each call opens the variable scope `name` (default "dense", "conv2d" …, made unique), so its
variables are `dense/kernel`, `dense_1/kernel` …; `reuse=True` shares them. Batch
normalization adds its moving-average updates to the UPDATE_OPS collection.
"""
from __future__ import annotations

import tapeflow as tf

from ...framework.context import executing_eagerly
from ...framework.graph import GraphKeys, get_default_graph
from .scopes import get_variable, ones_initializer, variable_scope, zeros_initializer

__all__ = ["dense", "conv2d", "max_pooling2d", "average_pooling2d", "flatten", "dropout",
           "batch_normalization"]


def _activate(outputs, activation):
    return outputs if activation is None else activation(outputs)


def _pair(value) -> list:
    return [int(value)] * 2 if isinstance(value, int) else [int(v) for v in value]


def dense(inputs, units, activation=None, use_bias=True, kernel_initializer=None,
          bias_initializer=zeros_initializer(), kernel_regularizer=None, bias_regularizer=None,
          activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
          trainable=True, name=None, reuse=None):
    """activation(inputs @ kernel + bias) over the last axis of `inputs`.

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> with tf1.Graph().as_default():
        ...     y = tf1.layers.dense(tf1.ones([2, 3]), 4, name="fc")
        ...     print(y.shape, [v.name for v in tf1.trainable_variables()])
        (2, 4) ['fc/kernel:0', 'fc/bias:0']
    """
    inputs = tf.convert_to_tensor(inputs)
    with variable_scope(name, default_name="dense", reuse=reuse):
        kernel = get_variable("kernel", [int(inputs.shape[-1]), units], inputs.dtype,
                              kernel_initializer, kernel_regularizer, trainable)
        if inputs.shape.rank == 2:
            outputs = tf.matmul(inputs, kernel)
        else:
            outputs = tf.tensordot(inputs, kernel, [[inputs.shape.rank - 1], [0]])
        if use_bias:
            bias = get_variable("bias", [units], inputs.dtype, bias_initializer,
                                bias_regularizer, trainable)
            outputs = tf.nn.bias_add(outputs, bias)
        return _activate(outputs, activation)


def conv2d(inputs, filters, kernel_size, strides=(1, 1), padding="valid",
           data_format="channels_last", dilation_rate=(1, 1), activation=None, use_bias=True,
           kernel_initializer=None, bias_initializer=zeros_initializer(),
           kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
           kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
           reuse=None):
    """A 2-D convolution (NHWC, or NCHW with data_format="channels_first"), plus bias and
    activation.

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> with tf1.Graph().as_default():
        ...     y = tf1.layers.conv2d(tf1.ones([1, 5, 5, 2]), 3, 3)
        ...     print(y.shape, tf1.global_variables()[0].shape)
        (1, 3, 3, 3) (3, 3, 2, 3)
    """
    inputs = tf.convert_to_tensor(inputs)
    nchw = data_format == "channels_first"
    channels = int(inputs.shape[1] if nchw else inputs.shape[-1])
    with variable_scope(name, default_name="conv2d", reuse=reuse):
        kernel = get_variable("kernel", _pair(kernel_size) + [channels, filters], inputs.dtype,
                              kernel_initializer, kernel_regularizer, trainable)
        outputs = tf.nn.conv2d(inputs, kernel, _pair(strides), padding.upper(),
                               data_format="NCHW" if nchw else "NHWC",
                               dilations=_pair(dilation_rate))
        if use_bias:
            bias = get_variable("bias", [filters], inputs.dtype, bias_initializer,
                                bias_regularizer, trainable)
            outputs = tf.nn.bias_add(outputs, bias, data_format="NCHW" if nchw else "NHWC")
        return _activate(outputs, activation)


def max_pooling2d(inputs, pool_size, strides, padding="valid", data_format="channels_last",
                  name=None):
    """The maximum over `pool_size` windows.

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> tf1.layers.max_pooling2d(tf1.ones([1, 4, 4, 1]), 2, 2).shape
        TensorShape([1, 2, 2, 1])
    """
    return tf.nn.max_pool2d(inputs, _pair(pool_size), _pair(strides), padding.upper(),
                            "NCHW" if data_format == "channels_first" else "NHWC", name=name)


def average_pooling2d(inputs, pool_size, strides, padding="valid",
                      data_format="channels_last", name=None):
    """The mean over `pool_size` windows."""
    return tf.nn.avg_pool2d(inputs, _pair(pool_size), _pair(strides), padding.upper(),
                            "NCHW" if data_format == "channels_first" else "NHWC", name=name)


def flatten(inputs, name=None, data_format="channels_last"):
    """`inputs` reshaped to [batch, -1]."""
    inputs = tf.convert_to_tensor(inputs)
    return tf.reshape(inputs, [-1, int(tf.reduce_prod(inputs.shape[1:]))]
                      if inputs.shape[1:].is_fully_defined()
                      else tf.stack([tf.shape(inputs)[0], -1]), name=name)


def dropout(inputs, rate=0.5, noise_shape=None, seed=None, training=False, name=None):
    """`tf.nn.dropout(inputs, rate)` when `training` (a bool or a bool tensor), else the
    inputs.

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> tf1.layers.dropout(tf1.ones([3]), 0.5).numpy()
        array([1., 1., 1.], dtype=float32)
    """
    inputs = tf.convert_to_tensor(inputs)
    if isinstance(training, bool):
        if not training:
            return tf.identity(inputs, name=name)
        return tf.nn.dropout(inputs, rate=rate, noise_shape=noise_shape, seed=seed, name=name)
    return tf.cond(tf.convert_to_tensor(training),
                   lambda: tf.nn.dropout(inputs, rate=rate, noise_shape=noise_shape, seed=seed),
                   lambda: tf.identity(inputs), name=name)


def batch_normalization(inputs, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                        beta_initializer=zeros_initializer(),
                        gamma_initializer=ones_initializer(),
                        moving_mean_initializer=zeros_initializer(),
                        moving_variance_initializer=ones_initializer(), beta_regularizer=None,
                        gamma_regularizer=None, beta_constraint=None, gamma_constraint=None,
                        training=False, trainable=True, name=None, reuse=None, renorm=False,
                        renorm_clipping=None, renorm_momentum=0.99, fused=None,
                        virtual_batch_size=None, adjustment=None):
    """Normalizes over every axis but `axis`: with the batch's statistics when `training`
    (adding the moving-average updates to UPDATE_OPS), else with the moving statistics.
    For 4-D inputs normalized over channels (unless fused=False) the moving variance
    averages the unbiased batch variance, as TF1's fused kernel does.

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> with tf1.Graph().as_default():
        ...     y = tf1.layers.batch_normalization(tf1.constant([[0.0], [2.0]]), training=True)
        ...     updates = tf1.get_collection(tf1.GraphKeys.UPDATE_OPS)
        ...     sess = tf1.Session()
        ...     _ = sess.run(tf1.global_variables_initializer())
        ...     out, _ = sess.run([y, updates])
        ...     print(out.round(4).ravel(), sess.run(tf1.global_variables()[2]))
        [-0.9995  0.9995] [0.01]
    """
    inputs = tf.convert_to_tensor(inputs)
    rank = inputs.shape.rank
    axis = axis % rank
    reduce_axes = [i for i in range(rank) if i != axis]
    size = int(inputs.shape[axis])
    shape = [size if i == axis else 1 for i in range(rank)]
    dtype = inputs.dtype
    with variable_scope(name, default_name="batch_normalization", reuse=reuse):
        gamma = (get_variable("gamma", [size], dtype, gamma_initializer, gamma_regularizer,
                              trainable) if scale else None)
        beta = (get_variable("beta", [size], dtype, beta_initializer, beta_regularizer,
                             trainable) if center else None)
        moving_mean = get_variable("moving_mean", [size], dtype, moving_mean_initializer,
                                   trainable=False)
        moving_variance = get_variable("moving_variance", [size], dtype,
                                       moving_variance_initializer, trainable=False)
        if isinstance(training, bool) and not training:
            mean, variance = moving_mean, moving_variance
        else:
            batch_mean, batch_variance = tf.nn.moments(inputs, reduce_axes)
            update_variance = batch_variance
            if fused is not False and rank == 4 and axis in (1, 3):
                # The fused kernel TF1 uses for images corrects the variance it averages.
                n = tf.cast(tf.size(inputs) // size, dtype)
                update_variance = batch_variance * n / tf.maximum(n - 1.0, 1.0)
            if isinstance(training, bool):
                mean, variance, decay = batch_mean, batch_variance, 1.0 - momentum
            else:
                training = tf.convert_to_tensor(training)
                mean = tf.where(training, batch_mean, tf.identity(moving_mean))
                variance = tf.where(training, batch_variance, tf.identity(moving_variance))
                decay = tf.where(training, 1.0 - momentum, 0.0)
            updates = [moving_mean.assign_sub((moving_mean - batch_mean) * decay),
                       moving_variance.assign_sub((moving_variance - update_variance) * decay)]
            if not executing_eagerly():
                for update in updates:
                    get_default_graph().add_to_collection(GraphKeys.UPDATE_OPS, update)
        return tf.nn.batch_normalization(
            inputs, tf.reshape(mean, shape), tf.reshape(variance, shape),
            None if beta is None else tf.reshape(beta, shape),
            None if gamma is None else tf.reshape(gamma, shape), epsilon)
