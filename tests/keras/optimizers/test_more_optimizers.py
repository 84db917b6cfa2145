"""Nadam, Adamax, Adadelta, Ftrl, Lion, Lamb, Adafactor and the Keras 3 base options (EMA,
gradient accumulation, loss scaling) against their formulas written out in NumPy, in eager
mode and inside tf.function."""
import numpy as np
import pytest

import tapeflow as tf

O = tf.keras.optimizers
rng = np.random.default_rng(9)
W0 = rng.standard_normal((3, 2)).astype(np.float32)
GRADS = [rng.standard_normal((3, 2)).astype(np.float32) for _ in range(5)]


def run(optimizer, graph=False, w0=W0, grads=GRADS):
    w = tf.Variable(w0)

    def step(g):
        optimizer.apply_gradients([(g, w)])

    if graph:
        step = tf.function(step)
    for g in grads:
        step(tf.constant(g))
    return w.numpy()


def nadam_ref(lr, b1=0.9, b2=0.999, eps=1e-7):
    w, m, v, product = W0.astype(np.float64), 0.0, 0.0, 1.0
    for t, g in enumerate(GRADS, start=1):
        u_t, u_next = b1 * (1 - 0.5 * 0.96 ** t), b1 * (1 - 0.5 * 0.96 ** (t + 1))
        product *= u_t
        m = m + (g - m) * (1 - b1)
        v = v + (g * g - v) * (1 - b2)
        m_hat = u_next * m / (1 - product * u_next) + (1 - u_t) * g / (1 - product)
        w = w - lr * m_hat / (np.sqrt(v / (1 - b2 ** t)) + eps)
    return w


def adamax_ref(lr, b1=0.9, b2=0.999, eps=1e-7):
    w, m, u = W0.astype(np.float64), 0.0, np.zeros(W0.shape)
    for t, g in enumerate(GRADS, start=1):
        m = m + (g - m) * (1 - b1)
        u = np.maximum(b2 * u, np.abs(g))
        w = w - lr * m / ((1 - b1 ** t) * (u + eps))
    return w


def adadelta_ref(lr, rho=0.95, eps=1e-7):
    w, acc_g, acc_d = W0.astype(np.float64), 0.0, 0.0
    for g in GRADS:
        acc_g = rho * acc_g + (1 - rho) * g * g
        d = -np.sqrt(acc_d + eps) / np.sqrt(acc_g + eps) * g
        acc_d = rho * acc_d + (1 - rho) * d * d
        w = w + lr * d
    return w


def ftrl_ref(lr, power=-0.5, initial=0.1, l1=0.0, l2=0.0, shrink=0.0, beta=0.0):
    w, acc, lin = W0.astype(np.float64), np.full(W0.shape, initial), np.zeros(W0.shape)
    for g in GRADS:
        new_acc = acc + g * g
        lin = lin + g + 2 * shrink * w - (new_acc ** -power - acc ** -power) / lr * w
        quadratic = new_acc ** -power / lr + 2 * (l2 + beta / (2 * lr))
        w = (np.clip(lin, -l1, l1) - lin) / quadratic
        acc = new_acc
    return w


def lion_ref(lr, b1=0.9, b2=0.99):
    w, m = W0.astype(np.float64), 0.0
    for g in GRADS:
        w = w - lr * np.sign(b1 * m + (1 - b1) * g)
        m = b2 * m + (1 - b2) * g
    return w


def lamb_ref(lr, b1=0.9, b2=0.999, eps=1e-7):
    w, m, v = W0.astype(np.float64), 0.0, 0.0
    for t, g in enumerate(GRADS, start=1):
        m = m + (g - m) * (1 - b1)
        v = v + (g * g - v) * (1 - b2)
        update = m / (1 - b1 ** t) / (np.sqrt(v / (1 - b2 ** t)) + eps)
        w = w - np.linalg.norm(w) / np.linalg.norm(update) * lr * update
    return w


def adafactor_ref(lr, w0, grads, decay=-0.8, eps1=1e-30, eps2=1e-3, clip=1.0):
    w = w0.astype(np.float64)
    r, c, v = np.zeros(w.shape[:-1]), np.zeros(w.shape[-1:]), np.zeros(w.shape)
    for t, g in enumerate(grads, start=1):
        alpha = max(eps2, np.sqrt(np.mean(w * w))) * min(lr, 1 / np.sqrt(t))
        squared = g * g + eps1
        b2 = 1 - t ** decay
        if w.ndim >= 2:
            r = b2 * r + (1 - b2) * squared.mean(-1)
            c = b2 * c + (1 - b2) * squared.mean(-2)
            v = (r / r.mean(-1, keepdims=True))[..., None] * c[None, :]
        else:
            v = b2 * v + (1 - b2) * squared
        u = g / np.sqrt(v)
        u = u / max(1.0, np.sqrt(np.mean(u * u)) / clip)
        w = w - alpha * u
    return w


CASES = [
    (lambda: O.Nadam(0.05), lambda: nadam_ref(0.05)),
    (lambda: O.Nadam(0.1, beta_1=0.8, beta_2=0.9), lambda: nadam_ref(0.1, 0.8, 0.9)),
    (lambda: O.Adamax(0.05), lambda: adamax_ref(0.05)),
    (lambda: O.Adadelta(1.0, rho=0.9), lambda: adadelta_ref(1.0, 0.9)),
    (lambda: O.Ftrl(0.2), lambda: ftrl_ref(0.2)),
    (lambda: O.Ftrl(0.2, learning_rate_power=-0.7, l1_regularization_strength=0.05,
                    l2_regularization_strength=0.1, l2_shrinkage_regularization_strength=0.02,
                    beta=0.3),
     lambda: ftrl_ref(0.2, -0.7, 0.1, 0.05, 0.1, 0.02, 0.3)),
    (lambda: O.Lion(0.01), lambda: lion_ref(0.01)),
    (lambda: O.Lion(0.01, beta_1=0.5, beta_2=0.9), lambda: lion_ref(0.01, 0.5, 0.9)),
    (lambda: O.Lamb(0.05), lambda: lamb_ref(0.05)),
    (lambda: O.Adafactor(0.05), lambda: adafactor_ref(0.05, W0, GRADS)),
]


@pytest.mark.parametrize("graph", [False, True], ids=["eager", "function"])
@pytest.mark.parametrize("optimizer, expected", CASES)
def test_update_formulas(optimizer, expected, graph):
    np.testing.assert_allclose(run(optimizer(), graph), expected(), rtol=2e-5, atol=2e-6)


def test_adafactor_keeps_factored_moments_for_matrices_and_full_ones_for_vectors():
    vector, grads = W0[:, 0], [g[:, 0] for g in GRADS]
    np.testing.assert_allclose(run(O.Adafactor(0.05), w0=vector, grads=grads),
                               adafactor_ref(0.05, vector, grads), rtol=2e-5, atol=2e-6)
    opt = O.Adafactor()
    w, b = tf.Variable(np.ones((4, 3), np.float32)), tf.Variable(np.ones(3, np.float32))
    opt.build([w, b])
    assert [opt.get_slot(w, name).shape for name in ("r", "c", "velocity")] == [[4], [3], [4, 3]]
    assert [opt.get_slot(b, name).shape for name in ("r", "c", "velocity")] == [[], [], [3]]


def test_ema_averages_and_overwrites_the_variables():
    opt = O.SGD(0.1, use_ema=True, ema_momentum=0.5, ema_overwrite_frequency=3)
    w = tf.Variable(W0)
    weights, average = W0.astype(np.float64), np.zeros(W0.shape)
    for step, g in enumerate(GRADS):
        opt.apply_gradients([(tf.constant(g), w)])
        weights = weights - 0.1 * g
        momentum = 0.5 if step else 0.0
        average = momentum * average + (1 - momentum) * weights
        if (step + 1) % 3 == 0:
            weights = average.copy()
        np.testing.assert_allclose(w.numpy(), weights, rtol=1e-6)
        np.testing.assert_allclose(opt.get_slot(w, "average").numpy(), average, rtol=1e-6)
    opt.finalize_variable_values([w])
    np.testing.assert_allclose(w.numpy(), average, rtol=1e-6)


@pytest.mark.parametrize("graph", [False, True], ids=["eager", "function"])
def test_gradient_accumulation_updates_every_n_calls_with_the_mean(graph):
    opt = O.Adam(0.1, gradient_accumulation_steps=2)
    got = run(opt, graph, grads=GRADS[:4])
    w = tf.Variable(W0)
    reference = O.Adam(0.1)
    for i in (0, 2):
        reference.apply_gradients([(tf.constant((GRADS[i] + GRADS[i + 1]) / 2), w)])
    np.testing.assert_allclose(got, w.numpy(), rtol=1e-6)
    assert int(opt._iterations) == 4 and int(opt.iterations) == 2
    assert [v.name.split(":")[0] for v in opt.variables][2:] == [
        "Variable_gradient_accumulator", "Variable_momentum", "Variable_velocity"]


def test_loss_scale_factor_scales_the_loss_and_unscales_the_gradients():
    opt = O.SGD(0.5, loss_scale_factor=4.0)
    assert float(opt.scale_loss(tf.constant(2.0))) == 8.0
    w = tf.Variable(1.0)
    opt.apply_gradients([(tf.constant(8.0), w)])
    assert float(w) == 0.0


@pytest.mark.parametrize("graph", [False, True], ids=["eager", "function"])
def test_loss_scale_optimizer_skips_non_finite_steps_and_adapts_the_scale(graph):
    opt = O.LossScaleOptimizer(O.SGD(0.1), initial_scale=8.0, dynamic_growth_steps=2)
    w = tf.Variable([1.0, 1.0])

    def step(g):
        opt.apply_gradients([(g, w)])

    if graph:
        step = tf.function(step)
    expected_w, scale, counter = np.array([1.0, 1.0]), 8.0, 0
    for g in ([8.0, 16.0], [np.inf, 0.0], [4.0, 4.0], [2.0, 2.0], [np.nan, 1.0], [8.0, 8.0]):
        step(tf.constant(np.array(g, np.float32)))
        if np.isfinite(g).all():
            expected_w = expected_w - 0.1 * np.array(g) / scale
            counter, scale = (0, scale * 2) if counter == 1 else (counter + 1, scale)
        else:
            counter, scale = 0, scale / 2
        np.testing.assert_allclose(w.numpy(), expected_w, rtol=1e-6)
        assert float(opt.dynamic_scale) == scale
    assert float(opt.dynamic_scale) == 4.0 and int(opt.step_counter) == 1
    assert int(opt.iterations) == 4
    assert float(opt.scale_loss(tf.constant(1.5))) == 6.0
    names = [v.name.split(":")[0] for v in opt.variables]
    assert names[:4] == ["iteration", "learning_rate", "step_counter", "dynamic_scale"]
    restored = O.LossScaleOptimizer.from_config(opt.get_config())
    assert isinstance(restored.inner_optimizer, O.SGD)
    assert restored.get_config() == opt.get_config()
    with pytest.raises(ValueError, match="does not support `clipnorm`"):
        O.LossScaleOptimizer(O.SGD(), clipnorm=1.0)
    with pytest.raises(ValueError, match="dynamic=False"):
        O.LossScaleOptimizer(O.SGD(), dynamic=False)


def test_configs_round_trip_and_names():
    for cls in (O.Nadam, O.Adamax, O.Adadelta, O.Ftrl, O.Lion, O.Lamb, O.Adafactor):
        config = cls(learning_rate=0.25, use_ema=True).get_config()
        restored = cls.from_config(config)
        assert restored.get_config() == config
        assert isinstance(O.get(cls.__name__.lower()), cls)
        assert isinstance(O.get(O.serialize(restored)), cls)
    assert O.Adam().get_config()["gradient_accumulation_steps"] is None
    assert O.Nadam().name == "nadam" and O.AdamW().name == "adam_w"


def test_bad_options_are_value_errors():
    with pytest.raises(ValueError, match="ema_momentum"):
        O.Adam(use_ema=True, ema_momentum=1.5)
    with pytest.raises(ValueError, match="ema_overwrite_frequency"):
        O.Adam(use_ema=True, ema_overwrite_frequency=0)
    with pytest.raises(ValueError, match="gradient_accumulation_steps"):
        O.Adam(gradient_accumulation_steps=1)
    with pytest.raises(ValueError, match="not recognized"):
        O.Adam(lr=0.1)
    with pytest.raises(ValueError, match="beta_1"):
        O.Lion(beta_1=0.0)
    with pytest.raises(ValueError, match="learning_rate_power"):
        O.Ftrl(learning_rate_power=0.5)
    with pytest.raises(ValueError, match="l1_regularization_strength"):
        O.Ftrl(l1_regularization_strength=-1.0)


def test_fit_scales_the_loss_and_finalizes_the_moving_averages():
    x = rng.standard_normal((32, 3)).astype(np.float32)
    y = x @ np.array([[1.0], [-2.0], [0.5]], np.float32)
    plain = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    plain.compile(O.SGD(0.05), "mse")
    scaled = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    scaled.compile(O.LossScaleOptimizer(O.SGD(0.05), initial_scale=1024.0), "mse")
    plain.build((None, 3))
    scaled.build((None, 3))
    scaled.set_weights(plain.get_weights())
    for model in (plain, scaled):
        model.fit(x, y, batch_size=8, epochs=2, verbose=0, shuffle=False)
    for a, b in zip(plain.get_weights(), scaled.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    assert int(scaled.optimizer.iterations) == 8
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(O.SGD(0.05, use_ema=True, ema_momentum=0.9), "mse")
    model.fit(x, y, batch_size=8, epochs=1, verbose=0)
    averages = [model.optimizer.get_slot(v, "average").numpy()
                for v in model.trainable_variables]
    for weight, average in zip(model.get_weights(), averages):
        np.testing.assert_array_equal(weight, average)


def test_apply_takes_gradients_and_variables_as_two_lists():
    w, b = tf.Variable([1.0, 2.0]), tf.Variable(3.0)
    opt = O.SGD(0.5)
    with pytest.raises(ValueError, match="build"):
        opt.apply([tf.constant([1.0, 1.0])])
    opt.apply([tf.constant([1.0, 1.0]), tf.constant(2.0)], [w, b])
    opt.apply([tf.constant([2.0, 2.0]), tf.constant(0.0)])     # the variables it was built on
    assert w.numpy().tolist() == [-0.5, 0.5] and float(b) == 2.0
    with pytest.raises(ValueError, match="1 gradients for 2 variables"):
        opt.apply([tf.constant(1.0)])


def test_a_schedule_is_serialized_in_the_config_and_rebuilt():
    schedule = O.schedules.ExponentialDecay(0.1, 10, 0.5)
    config = O.Adam(schedule).get_config()
    assert config["learning_rate"] == {
        "module": "keras.optimizers.schedules", "class_name": "ExponentialDecay",
        "config": schedule.get_config(), "registered_name": None}
    restored = O.Adam.from_config(config)
    assert isinstance(restored._learning_rate, O.schedules.ExponentialDecay)
    assert float(restored.learning_rate) == pytest.approx(0.1)
    with pytest.raises(ValueError, match="Unknown learning rate schedule"):
        O.schedules.deserialize({"class_name": "Warmup", "config": {}})


def test_checkpoints_hold_every_optimizer_variable(tmp_path):
    def make():
        w = tf.Variable(np.ones((2, 2), np.float32), name="w")
        inner = O.Nadam(0.1, use_ema=True, gradient_accumulation_steps=2)
        return w, O.LossScaleOptimizer(inner, initial_scale=8.0)

    w, opt = make()
    for i in range(3):
        opt.apply_gradients([(tf.constant(np.full((2, 2), i + 1.0, np.float32)), w)])
    path = tf.train.Checkpoint(w=w, opt=opt).save(str(tmp_path / "ckpt"))
    w2, opt2 = make()
    status = tf.train.Checkpoint(w=w2, opt=opt2).restore(path)
    opt2.build([w2])                       # the slots take their saved values on creation
    status.assert_consumed()
    assert len(opt2.variables) == len(opt.variables) == 11
    for saved, restored in zip(opt.variables, opt2.variables):
        np.testing.assert_array_equal(saved.numpy(), restored.numpy())
