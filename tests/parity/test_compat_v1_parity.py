"""tf.compat.v1 against TF's: 20-step trajectories of each TF1 optimizer on a small graph
(with a decaying learning rate and global step), the variables they create (names in
order), schedules and moving averages; the same TF1 code runs on both libraries."""
import numpy as np
import pytest

import tapeflow
import tapeflow.compat.v1 as tapeflow_v1

pytestmark = pytest.mark.parity

rng = np.random.default_rng(7)
X = rng.standard_normal((8, 3)).astype(np.float32)
Y = rng.standard_normal((8, 2)).astype(np.float32)
W0 = rng.standard_normal((3, 2)).astype(np.float32)
B0 = rng.standard_normal((2,)).astype(np.float32)
STEPS = 20

CASES = [  # (class name, keyword arguments)
    ("GradientDescentOptimizer", {"learning_rate": 0.1}),
    ("MomentumOptimizer", {"learning_rate": 0.05, "momentum": 0.9}),
    ("MomentumOptimizer", {"learning_rate": 0.05, "momentum": 0.9, "use_nesterov": True}),
    ("AdamOptimizer", {"learning_rate": 0.05}),
    ("RMSPropOptimizer", {"learning_rate": 0.01}),
    ("RMSPropOptimizer", {"learning_rate": 0.01, "momentum": 0.5, "centered": True}),
    ("AdagradOptimizer", {"learning_rate": 0.1}),
    ("AdadeltaOptimizer", {"learning_rate": 1.0}),
    ("FtrlOptimizer", {"learning_rate": 0.1}),
    ("ProximalGradientDescentOptimizer", {"learning_rate": 0.1}),
    ("ProximalGradientDescentOptimizer", {"learning_rate": 0.1,
                                          "l1_regularization_strength": 0.05,
                                          "l2_regularization_strength": 0.1}),
    ("ProximalAdagradOptimizer", {"learning_rate": 0.1, "l2_regularization_strength": 0.1}),
    ("ProximalAdagradOptimizer", {"learning_rate": 0.1, "initial_accumulator_value": 0.5,
                                  "l1_regularization_strength": 0.02,
                                  "l2_regularization_strength": 0.1}),
    ("FtrlOptimizer", {"learning_rate": 0.1, "learning_rate_power": -0.7,
                       "l1_regularization_strength": 0.01, "l2_regularization_strength": 0.02,
                       "l2_shrinkage_regularization_strength": 0.01}),
]


def trajectory(v1, name, kwargs):
    """Runs 20 steps of `name` under `v1` (a compat.v1 module); returns the variables after
    each step and the names of the graph's variables."""
    with v1.Graph().as_default():
        x = v1.placeholder(v1.float32, [None, 3])
        y = v1.placeholder(v1.float32, [None, 2])
        with v1.variable_scope("dense"):
            w = v1.get_variable("kernel", initializer=W0)
            b = v1.get_variable("bias", initializer=B0)
        loss = v1.reduce_mean(v1.square(v1.matmul(x, w) + b - y))
        optimizer = getattr(v1.train, name)(**kwargs)
        step = optimizer.minimize(loss)
        names = [v.name for v in v1.global_variables()]
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            values = []
            for _ in range(STEPS):
                sess.run(step, {x: X, y: Y})
                values.append(sess.run([w, b]))
        return values, names, sorted(optimizer.get_slot_names())


@pytest.mark.parametrize("name, kwargs", CASES, ids=[f"{n}-{i}" for i, (n, _) in
                                                       enumerate(CASES)])
def test_optimizer_trajectories_match(tensorflow, name, kwargs):
    ours, our_names, our_slots = trajectory(tapeflow_v1, name, kwargs)
    theirs, their_names, their_slots = trajectory(tensorflow.compat.v1, name, kwargs)
    assert our_names == their_names and our_slots == their_slots
    for step, (a, b) in enumerate(zip(ours, theirs)):
        for mine, reference in zip(a, b):
            np.testing.assert_allclose(mine, reference, rtol=2e-5, atol=2e-6,
                                       err_msg=f"{name} step {step + 1}")


def schedules_and_averages(v1):
    """Values of each schedule at several steps, a moving average's trajectory, and the
    names of the variables Adam and a global step create."""
    with v1.Graph().as_default():
        step = v1.placeholder(v1.int64, [])
        schedules = [v1.train.exponential_decay(0.1, step, 7, 0.6),
                     v1.train.exponential_decay(0.1, step, 7, 0.6, staircase=True),
                     v1.train.piecewise_constant(step, [3, 9], [0.3, 0.2, 0.1]),
                     v1.train.polynomial_decay(0.1, step, 12, 0.01, power=0.5),
                     v1.train.polynomial_decay(0.1, step, 12, 0.01, power=2.0, cycle=True),
                     v1.train.cosine_decay(0.1, step, 12, alpha=0.1),
                     v1.train.inverse_time_decay(0.1, step, 7, 0.6),
                     v1.train.inverse_time_decay(0.1, step, 7, 0.6, staircase=True),
                     v1.train.natural_exp_decay(0.1, step, 7, 0.6),
                     v1.train.natural_exp_decay(0.1, step, 7, 0.6, staircase=True),
                     v1.train.piecewise_constant_decay(step, [3, 9], [0.3, 0.2, 0.1]),
                     v1.train.cosine_decay_restarts(0.1, step, 4, m_mul=0.7, alpha=0.1),
                     v1.train.cosine_decay_restarts(0.1, step, 3, t_mul=1.0, m_mul=0.5),
                     v1.train.cosine_decay_restarts(0.1, step, 2, t_mul=3.0),
                     v1.train.linear_cosine_decay(0.1, step, 12, num_periods=1.5, alpha=0.2,
                                                  beta=0.01),
                     v1.train.noisy_linear_cosine_decay(0.1, step, 12, initial_variance=0.0)]
        w = v1.get_variable("w", initializer=v1.constant([1.0, -2.0]))
        global_step = v1.train.get_or_create_global_step()
        ema = v1.train.ExponentialMovingAverage(0.8, num_updates=global_step)
        train = v1.train.AdamOptimizer(0.1).minimize(v1.reduce_sum(w * w), global_step)
        with v1.control_dependencies([train]):
            average = ema.apply([w])
        names = [v.name for v in v1.global_variables()]
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            values = [sess.run(schedules, {step: s}) for s in (0, 1, 3, 4, 9, 10, 12, 30)]
            averages = []
            for _ in range(10):
                sess.run(average)
                averages.append(sess.run(ema.average(w)))
        return values, averages, names, sorted(ema.variables_to_restore())


def test_schedules_moving_averages_and_variable_names_match(tensorflow):
    ours = schedules_and_averages(tapeflow_v1)
    theirs = schedules_and_averages(tensorflow.compat.v1)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-6)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-5)
    assert ours[2] == theirs[2] and ours[3] == theirs[3]


class ReferenceLayers:
    """TF1's layers as TF 1.15 built them, written with TF's ops: TF 2.21 with Keras 3 no
    longer has tf.compat.v1.layers."""

    def __init__(self, v1):
        self.v1 = v1

    def conv2d(self, x, filters, size, padding, activation, kernel_initializer):
        v1 = self.v1
        with v1.variable_scope(None, default_name="conv2d"):
            kernel = v1.get_variable("kernel", [size, size, x.shape[-1], filters],
                                     initializer=kernel_initializer)
            bias = v1.get_variable("bias", [filters], initializer=v1.zeros_initializer())
            return activation(v1.nn.bias_add(v1.nn.conv2d(x, kernel, [1, 1, 1, 1],
                                                          padding.upper()), bias))

    def max_pooling2d(self, x, size, strides):
        return self.v1.nn.max_pool2d(x, size, strides, "VALID")

    def batch_normalization(self, x, training, momentum):
        v1 = self.v1
        channels = x.shape[-1]
        with v1.variable_scope(None, default_name="batch_normalization"):
            gamma = v1.get_variable("gamma", [channels], initializer=v1.ones_initializer())
            beta = v1.get_variable("beta", [channels], initializer=v1.zeros_initializer())
            mean = v1.get_variable("moving_mean", [channels], trainable=False,
                                   initializer=v1.zeros_initializer())
            variance = v1.get_variable("moving_variance", [channels], trainable=False,
                                       initializer=v1.ones_initializer())
            trained, batch_mean, batch_variance = v1.nn.fused_batch_norm(
                x, gamma, beta, epsilon=1e-3, is_training=True)
            inferred, _, _ = v1.nn.fused_batch_norm(x, gamma, beta, mean, variance,
                                                    epsilon=1e-3, is_training=False)
            decay = v1.where(training, 1.0 - momentum, 0.0)
            for moving, value in ((mean, batch_mean), (variance, batch_variance)):
                v1.add_to_collection(v1.GraphKeys.UPDATE_OPS,
                                     moving.assign_sub((moving - value) * decay))
            return v1.where(training, trained, inferred)

    def flatten(self, x):
        return self.v1.reshape(x, [-1, int(np.prod(x.shape[1:]))])

    def dense(self, x, units, kernel_initializer):
        v1 = self.v1
        with v1.variable_scope(None, default_name="dense"):
            kernel = v1.get_variable("kernel", [x.shape[-1], units],
                                     initializer=kernel_initializer)
            bias = v1.get_variable("bias", [units], initializer=v1.zeros_initializer())
            return v1.matmul(x, kernel) + bias


def layers_losses_metrics(v1, layers):
    """A small network of TF1 layers (constant initial values), its losses, one Adam step
    with the batch-normalization updates, and streaming metrics."""
    rng = np.random.default_rng(3)
    images = rng.standard_normal((4, 6, 6, 2)).astype(np.float32)
    labels = np.array([0, 2, 1, 2])
    with v1.Graph().as_default():
        x = v1.placeholder(v1.float32, [None, 6, 6, 2])
        y = v1.placeholder(v1.int64, [None])
        training = v1.placeholder_with_default(True, [])
        h = layers.conv2d(x, 3, 3, padding="same", activation=v1.nn.relu,
                          kernel_initializer=v1.constant_initializer(
                              rng.standard_normal(54).tolist()))
        h = layers.max_pooling2d(h, 2, 2)
        h = layers.batch_normalization(h, training=training, momentum=0.9)
        h = layers.flatten(h)
        logits = layers.dense(h, 3, kernel_initializer=v1.constant_initializer(
            rng.standard_normal(81).tolist()))
        losses = [v1.losses.sparse_softmax_cross_entropy(y, logits, weights=[1.0, 0.0, 2.0,
                                                                              1.0]),
                  v1.losses.softmax_cross_entropy(v1.one_hot(y, 3), logits,
                                                  label_smoothing=0.1),
                  v1.losses.mean_squared_error(v1.one_hot(y, 3), v1.nn.softmax(logits)),
                  v1.losses.compute_weighted_loss(logits, reduction=v1.losses.Reduction.MEAN)]
        with v1.control_dependencies(v1.get_collection(v1.GraphKeys.UPDATE_OPS)):
            train = v1.train.AdamOptimizer(0.01).minimize(losses[0])
        accuracy = v1.metrics.accuracy(y, v1.argmax(logits, 1))
        mean = v1.metrics.mean(losses[0])
        names = [v.name for v in v1.global_variables() + v1.local_variables()]
        with v1.Session() as sess:
            sess.run([v1.global_variables_initializer(), v1.local_variables_initializer()])
            feed = {x: images, y: labels}
            first = sess.run(losses, feed)
            sess.run(train, feed)
            after = sess.run(losses + v1.global_variables()[4:6], feed)
            inference = sess.run(logits, {x: images, training: False})
            metrics = [sess.run([accuracy[1], mean[1]], feed) for _ in range(2)]
        return [first, after, inference, metrics], names


def eager_moving_averages(module):
    """An eager ExponentialMovingAverage applied three times (a variable listed twice), in
    float32 and float64, with and without num_updates."""
    out = []
    for dtype in ("float32", "float64"):
        for num_updates in (None, 3):
            w = module.Variable(np.array([1.0, 2.0], dtype))
            ema = module.train.ExponentialMovingAverage(0.9, num_updates=num_updates)
            ema.apply([w])
            out.append(ema.average(w).numpy().copy())
            for value in ([3.0, 0.0], [5.0, 1.0]):
                w.assign(np.array(value, dtype))
                ema.apply([w, w])
                out.append(ema.average(w).numpy().copy())
    return out


def test_eager_moving_average_matches(tensorflow):
    for ours, theirs in zip(eager_moving_averages(tapeflow), eager_moving_averages(tensorflow)):
        assert ours.dtype == theirs.dtype
        np.testing.assert_array_equal(ours, theirs)


def test_layers_losses_and_metrics_match(tensorflow):
    ours, our_names = layers_losses_metrics(tapeflow_v1, tapeflow_v1.layers)
    theirs, their_names = layers_losses_metrics(tensorflow.compat.v1,
                                                ReferenceLayers(tensorflow.compat.v1))
    assert our_names == their_names
    for mine, reference in zip(ours, theirs):
        for a, b in zip(mine, reference):
            np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("space", ["", "train", "losses", "metrics", "summary", "nn"])
def test_compat_v1_exports_only_tf1_names(tensorflow, space):
    ours = tapeflow_v1 if not space else getattr(tapeflow_v1, space)
    theirs = tensorflow.compat.v1 if not space else getattr(tensorflow.compat.v1, space)
    missing = [name for name in ours.__all__ if not hasattr(theirs, name)]
    assert missing in ([], ["IndexedSlicesValue"])  # Session.run's value of an IndexedSlices


def sparse_trajectory(v1, name, kwargs):
    """20 steps on an embedding table whose gradient is an IndexedSlices (duplicate ids,
    rows untouched in a step or in all): TF1's sparse kernels leave the untouched rows and
    their slots alone."""
    table = np.arange(12, dtype=np.float32).reshape(4, 3) / 10.0
    with v1.Graph().as_default():
        ids = v1.placeholder(v1.int32, [3])
        emb = v1.get_variable("emb", initializer=table)
        loss = v1.reduce_sum(v1.square(v1.nn.embedding_lookup(emb, ids) - 1.0))
        step = getattr(v1.train, name)(**kwargs).minimize(loss)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            values = []
            for i in range(STEPS):
                sess.run(step, {ids: [0, 2, 0] if i % 2 else [1, 1, 0]})
                values.append(sess.run(emb))
        return values


@pytest.mark.parametrize("name, kwargs", CASES, ids=[f"{n}-{i}" for i, (n, _) in
                                                       enumerate(CASES)])
def test_sparse_gradient_trajectories_match(tensorflow, name, kwargs):
    ours = sparse_trajectory(tapeflow_v1, name, kwargs)
    theirs = sparse_trajectory(tensorflow.compat.v1, name, kwargs)
    for step, (mine, reference) in enumerate(zip(ours, theirs)):
        np.testing.assert_allclose(mine, reference, rtol=2e-5, atol=2e-6,
                                   err_msg=f"{name} step {step + 1}")
