"""Optimizers against their update formulas written out in NumPy, and their failure modes."""
import warnings

import numpy as np
import pytest

import tapeflow as tf

O = tf.keras.optimizers
rng = np.random.default_rng(4)
W0 = rng.standard_normal((3, 2)).astype(np.float32)
GRADS = [rng.standard_normal((3, 2)).astype(np.float32) for _ in range(4)]


def run(optimizer):
    w = tf.Variable(W0)
    for g in GRADS:
        optimizer.apply_gradients([(tf.constant(g), w)])
    return w.numpy()


def sgd_ref(lr, momentum=0.0, nesterov=False):
    w, m = W0.astype(np.float64), np.zeros(W0.shape)
    for g in GRADS:
        if momentum:
            m = momentum * m - lr * g
            w = w + (momentum * m - lr * g if nesterov else m)
        else:
            w = w - lr * g
    return w


def adam_ref(lr, b1=0.9, b2=0.999, eps=1e-7, amsgrad=False, decay=0.0):
    w, m, v, vhat = W0.astype(np.float64), np.zeros(W0.shape), np.zeros(W0.shape), np.zeros(W0.shape)
    for t, g in enumerate(GRADS, start=1):
        w = w - w * decay * lr
        m = m + (g - m) * (1 - b1)
        v = v + (g * g - v) * (1 - b2)
        if amsgrad:
            vhat = np.maximum(vhat, v)
        alpha = lr * np.sqrt(1 - b2 ** t) / (1 - b1 ** t)
        w = w - m * alpha / (np.sqrt(vhat if amsgrad else v) + eps)
    return w


def rmsprop_ref(lr, rho=0.9, momentum=0.0, eps=1e-7, centered=False):
    w, v, mg, mom = W0.astype(np.float64), np.zeros(W0.shape), np.zeros(W0.shape), np.zeros(W0.shape)
    for g in GRADS:
        v = rho * v + (1 - rho) * g * g
        if centered:
            mg = rho * mg + (1 - rho) * g
            step = lr * g / np.sqrt(v - mg * mg + eps)
        else:
            step = lr * g / np.sqrt(v + eps)
        if momentum:
            mom = momentum * mom + step
            step = mom
        w = w - step
    return w


def adagrad_ref(lr, initial=0.1, eps=1e-7):
    w, acc = W0.astype(np.float64), np.full(W0.shape, initial)
    for g in GRADS:
        acc = acc + g * g
        w = w - lr * g / np.sqrt(acc + eps)
    return w


@pytest.mark.parametrize("optimizer, expected", [
    (lambda: O.SGD(), lambda: sgd_ref(0.01)),
    (lambda: O.SGD(0.1, momentum=0.9), lambda: sgd_ref(0.1, 0.9)),
    (lambda: O.SGD(0.1, momentum=0.5, nesterov=True), lambda: sgd_ref(0.1, 0.5, True)),
    (lambda: O.Adam(), lambda: adam_ref(0.001)),
    (lambda: O.Adam(0.1, beta_1=0.8, beta_2=0.9, epsilon=1e-3), lambda: adam_ref(0.1, 0.8, 0.9, 1e-3)),
    (lambda: O.Adam(0.1, amsgrad=True), lambda: adam_ref(0.1, amsgrad=True)),
    (lambda: O.AdamW(0.1), lambda: adam_ref(0.1, decay=0.004)),
    (lambda: O.AdamW(0.1, weight_decay=0.3, amsgrad=True), lambda: adam_ref(0.1, amsgrad=True, decay=0.3)),
    (lambda: O.RMSprop(), lambda: rmsprop_ref(0.001)),
    (lambda: O.RMSprop(0.01, rho=0.8, momentum=0.5), lambda: rmsprop_ref(0.01, 0.8, 0.5)),
    (lambda: O.RMSprop(0.01, centered=True), lambda: rmsprop_ref(0.01, centered=True)),
    (lambda: O.Adagrad(), lambda: adagrad_ref(0.001)),
    (lambda: O.Adagrad(0.5, initial_accumulator_value=1.0), lambda: adagrad_ref(0.5, 1.0)),
])
def test_update_formulas(optimizer, expected):
    opt = optimizer()
    np.testing.assert_allclose(run(opt), expected(), rtol=2e-5, atol=2e-6)
    assert int(opt.iterations) == len(GRADS)


def test_defaults_match_keras():
    adam = O.Adam()
    assert (float(adam.learning_rate), adam.beta_1, adam.beta_2, adam.epsilon, adam.amsgrad) == \
        (pytest.approx(0.001), 0.9, 0.999, 1e-7, False)
    assert float(O.SGD().learning_rate) == pytest.approx(0.01)
    rms = O.RMSprop()
    assert (rms.rho, rms.momentum, rms.epsilon, rms.centered) == (0.9, 0.0, 1e-7, False)
    assert O.Adagrad().initial_accumulator_value == 0.1
    assert O.AdamW().weight_decay == 0.004
    assert [opt.name for opt in (O.SGD(), O.Adam(), O.AdamW(), O.RMSprop(), O.Adagrad())] == \
        ["sgd", "adam", "adam_w", "rm_sprop", "adagrad"]               # Keras 3's names


def test_updates_happen_in_place_without_disturbing_earlier_reads():
    w = tf.Variable(np.ones(3, np.float32))
    opt = O.Adam(0.1)
    opt.apply_gradients([(tf.constant([1.0, 1.0, 1.0]), w)])
    snapshot = w.read_value()                 # a tensor read now must keep its value
    opt.apply_gradients([(tf.constant([1.0, 1.0, 1.0]), w)])
    assert snapshot.numpy().tolist() == pytest.approx([0.9, 0.9, 0.9], rel=1e-5)
    del snapshot
    array_id, m_id = id(w._value), id(opt.get_slot(w, "momentum")._value)
    opt.apply_gradients([(tf.constant([1.0, 1.0, 1.0]), w)])
    assert id(w._value) == array_id                     # no reader left: updated in place
    assert id(opt.get_slot(w, "momentum")._value) == m_id      # slots too


def test_none_gradients_are_skipped_with_a_warning():
    a, b = tf.Variable(1.0, name="a"), tf.Variable(1.0, name="b")
    opt = O.SGD(0.5)
    with pytest.warns(UserWarning, match=r"Gradients do not exist for variables \['b:0'\]"):
        opt.apply_gradients([(tf.constant(2.0), a), (None, b)])
    assert (float(a), float(b)) == (0.0, 1.0)
    with pytest.raises(ValueError, match="No gradients provided for any variable"):
        opt.apply_gradients([(None, a), (None, b)])
    assert int(opt.iterations) == 1


def test_a_gradient_of_the_wrong_shape_or_dtype_changes_nothing():
    a, b = tf.Variable([1.0, 2.0], name="a"), tf.Variable([[1.0]], name="b")
    opt = O.Adam(0.1)
    opt.apply_gradients([(tf.constant([1.0, 1.0]), a), (tf.constant([[1.0]]), b)])
    state = [v.numpy() for v in (a, b, *opt.variables)]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"gradient for variable 'b:0' has shape \[2\].*shape \[1, 1\]"):
        opt.apply_gradients([(tf.constant([1.0, 1.0]), a), (tf.constant([1.0, 1.0]), b)])
    with pytest.raises(tf.errors.InvalidArgumentError, match="dtype float64"):
        opt.apply_gradients([(tf.constant([1.0, 1.0], tf.float64), a)])
    after = [v.numpy() for v in (a, b, *opt.variables)]
    assert all(np.array_equal(x, y) for x, y in zip(state, after))
    with pytest.raises(TypeError, match="tf.Variable"):
        opt.apply_gradients([(tf.constant(1.0), tf.constant(1.0))])


def test_indexed_slices_gradients_sum_duplicate_rows():
    w = tf.Variable(np.zeros((3, 2), np.float32))
    grad = tf.IndexedSlices(tf.constant([[1.0, 1.0], [2.0, 2.0], [4.0, 4.0]]),
                            tf.constant([0, 2, 0]), tf.constant([3, 2]))
    O.SGD(1.0).apply_gradients([(grad, w)])
    np.testing.assert_array_equal(w.numpy(), [[-5, -5], [0, 0], [-2, -2]])


def test_gradient_clipping():
    w = tf.Variable([0.0, 0.0])
    O.SGD(1.0, clipvalue=0.5).apply_gradients([(tf.constant([3.0, -0.2]), w)])
    np.testing.assert_allclose(w.numpy(), [-0.5, 0.2])
    w.assign([0.0, 0.0])
    O.SGD(1.0, clipnorm=1.0).apply_gradients([(tf.constant([3.0, 4.0]), w)])
    np.testing.assert_allclose(w.numpy(), [-0.6, -0.8], rtol=1e-6)
    a, b = tf.Variable(0.0), tf.Variable(0.0)
    O.SGD(1.0, global_clipnorm=1.0).apply_gradients([(tf.constant(3.0), a), (tf.constant(4.0), b)])
    np.testing.assert_allclose([float(a), float(b)], [-0.6, -0.8], rtol=1e-6)
    with pytest.raises(ValueError, match="At most one"):
        O.SGD(clipnorm=1.0, global_clipnorm=1.0)
    with pytest.raises(ValueError, match="At most one"):
        O.Adam(clipnorm=1.0, clipvalue=0.5)


@pytest.mark.parametrize("eager", [True, False])
def test_clipping_matches_the_formulas_per_variable_and_globally(eager):
    rng = np.random.default_rng(4)
    g1 = rng.standard_normal((3, 2)).astype(np.float32) * 3
    g2 = rng.standard_normal(4).astype(np.float32) * 0.1            # below any threshold
    cases = {
        "clipvalue": lambda g: [np.clip(x, -0.7, 0.7) for x in g],
        "clipnorm": lambda g: [x * 0.7 / max(np.linalg.norm(x), 0.7) for x in g],
        "global_clipnorm": lambda g: [x * 0.7 / max(np.sqrt(sum((y ** 2).sum() for y in g)),
                                                    0.7) for x in g],
    }
    for option, formula in cases.items():
        v1, v2 = tf.Variable(np.zeros((3, 2), np.float32)), tf.Variable(np.zeros(4, np.float32))
        opt = O.SGD(1.0, **{option: 0.7})

        def step():
            opt.apply_gradients([(tf.constant(g1), v1), (tf.constant(g2), v2)])

        step() if eager else tf.function(step)()
        for got, want in zip([v1, v2], formula([g1, g2])):
            np.testing.assert_allclose(-got.numpy(), want, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(np.linalg.norm(cases["clipnorm"]([g1])[0]), 0.7, rtol=1e-6)


def test_learning_rate_schedules_callables_and_assignment():
    schedule = O.schedules.ExponentialDecay(1.0, decay_steps=1, decay_rate=0.5)
    w = tf.Variable(0.0)
    opt = O.SGD(schedule)
    for _ in range(3):
        opt.apply_gradients([(tf.constant(1.0), w)])       # rates 1, 0.5, 0.25
    assert float(w) == -1.75
    assert float(opt.learning_rate) == 0.125                 # at iterations == 3
    opt = O.SGD(lambda: 0.25)
    opt.apply_gradients([(tf.constant(1.0), w)])
    assert float(w) == -2.0
    opt = O.SGD(0.1)
    opt.learning_rate = 0.5
    assert isinstance(opt.learning_rate, tf.Variable) and float(opt.lr) == 0.5
    opt.apply_gradients([(tf.constant(2.0), w)])
    assert float(w) == -3.0


def test_minimize_with_a_callable_or_a_tape():
    x = tf.Variable(3.0)
    opt = O.SGD(0.1)
    opt.minimize(lambda: x * x, [x])
    assert float(x) == pytest.approx(2.4)
    with tf.GradientTape() as tape:
        loss = x * x
    opt.minimize(loss, lambda: [x], tape=tape)
    assert float(x) == pytest.approx(1.92)
    with pytest.raises(ValueError, match="`tape` is required"):
        opt.minimize(x * x, [x])


def test_constraints_weight_decay_exclusions_and_lookup():
    w = tf.Variable([2.0, -2.0], constraint=lambda v: tf.nn.relu(v))
    O.SGD(1.0).apply_gradients([(tf.constant([1.0, 1.0]), w)])
    assert w.numpy().tolist() == [1.0, 0.0]
    a, b = tf.Variable(1.0, name="dense/kernel"), tf.Variable(1.0, name="dense/bias")
    opt = O.SGD(0.5, weight_decay=0.2)
    opt.exclude_from_weight_decay(var_names=["bias"])
    opt.apply_gradients([(tf.constant(0.0), a), (tf.constant(0.0), b)])
    assert (float(a), float(b)) == (pytest.approx(0.9), 1.0)
    assert isinstance(O.get("adam"), O.Adam) and isinstance(O.get("RMSprop"), O.RMSprop)
    with pytest.raises(ValueError, match="Unknown optimizer: .adamx.. Known names: adadelta"):
        O.get("adamx")
    with pytest.raises(ValueError, match="momentum"):
        O.SGD(momentum=1.5)
    with pytest.raises(ValueError, match="weight_decay"):
        O.AdamW(weight_decay=None)


def test_slots_are_created_per_variable_and_listed():
    a, b = tf.Variable([1.0]), tf.Variable([[1.0, 2.0]])
    opt = O.Adam(amsgrad=True)
    opt.build([a, b])
    assert opt.get_slot(b, "velocity_hat").shape == [1, 2]
    assert len(opt.variables) == 2 + 6
    with pytest.raises(KeyError, match="no slot 'm'"):
        opt.get_slot(a, "m")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        opt.apply_gradients([(tf.constant([1.0]), a), (tf.constant([[1.0, 1.0]]), b)])
