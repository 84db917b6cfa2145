"""keras.optimizers against Keras 3 (tf.keras): 20 steps on a small least-squares Dense
problem, eagerly and inside tf.function; the variables, every optimizer variable (in order,
with Keras's names) and the config must agree."""
import re

import numpy as np
import pytest

import tapeflow

pytestmark = pytest.mark.parity

rng = np.random.default_rng(2)
X = rng.standard_normal((6, 3)).astype(np.float32)
Y = rng.standard_normal((6, 2)).astype(np.float32)
W0 = rng.standard_normal((3, 2)).astype(np.float32)
B0 = rng.standard_normal((2,)).astype(np.float32)
STEPS = 20

CASES = [  # (class name, keyword arguments)
    ("SGD", {"learning_rate": 0.02, "momentum": 0.9, "nesterov": True}),
    ("Adam", {"learning_rate": 0.05, "amsgrad": True}),
    ("AdamW", {"learning_rate": 0.05, "weight_decay": 0.1}),
    ("RMSprop", {"learning_rate": 0.01, "momentum": 0.5, "centered": True}),
    ("Adagrad", {"learning_rate": 0.1}),
    ("Nadam", {"learning_rate": 0.05}),
    ("Adamax", {"learning_rate": 0.05}),
    ("Adadelta", {"learning_rate": 1.0}),
    ("Ftrl", {"learning_rate": 0.1, "l1_regularization_strength": 0.01,
              "l2_regularization_strength": 0.02, "l2_shrinkage_regularization_strength": 0.01,
              "beta": 0.1}),
    ("Lion", {"learning_rate": 0.01}),
    ("Lamb", {"learning_rate": 0.05}),
    ("Adafactor", {"learning_rate": 0.05}),
    ("Adam", {"learning_rate": 0.05, "use_ema": True, "ema_momentum": 0.8,
              "ema_overwrite_frequency": 7}),
    ("SGD", {"learning_rate": 0.05, "gradient_accumulation_steps": 3, "clipnorm": 0.5}),
    ("Nadam", {"learning_rate": 0.05, "gradient_accumulation_steps": 2, "weight_decay": 0.05}),
    ("Adam", {"learning_rate": 0.05, "loss_scale_factor": 8.0, "global_clipnorm": 1.0}),
    ("RMSprop", {"learning_rate": 0.01, "clipvalue": 0.3, "use_ema": True}),
]


def _trajectory(module, name, kwargs, graph, scale_from=None, dtype=np.float32):
    x, y = X.astype(dtype), Y.astype(dtype)
    w = module.Variable(W0.astype(dtype), name="w")
    b = module.Variable(B0.astype(dtype), name="b")
    opt = getattr(module.keras.optimizers, name)(**kwargs)

    def step(blow_up):
        with module.GradientTape() as tape:
            loss = module.reduce_sum(module.square(module.matmul(x, w) + b - y))
            loss = opt.scale_loss(loss)
        grads = tape.gradient(loss, [w, b])
        grads = [g * module.cast(blow_up, g.dtype) for g in grads]
        opt.apply_gradients(zip(grads, [w, b]))

    if graph:
        step = module.function(step)
    for i in range(STEPS):
        step(module.constant(np.float32("inf") if i in (4, 5, 11) and scale_from else 1.0))
    names = [re.sub(r"_\d+$", "", (v.path if hasattr(v, "path") else v.name).split(":")[0]
                    .split("/")[-1].replace("_0_", "_"))     # TF names a raw tf.Variable w:0
             for v in opt.variables]
    return w.numpy(), b.numpy(), [np.asarray(v.numpy()) for v in opt.variables], names, opt


def _plain(config: dict) -> dict:
    """The config without Keras's uniquifying name suffix ('sgd_3')."""
    return {**config, "name": re.sub(r"_\d+$", "", config["name"])}


def _assert_same(ours, theirs):
    np.testing.assert_allclose(ours[0], theirs[0], rtol=2e-5, atol=1e-5)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=2e-5, atol=1e-5)
    assert len(ours[2]) == len(theirs[2])
    for mine, keras in zip(ours[2], theirs[2]):
        np.testing.assert_allclose(mine, keras, rtol=2e-5, atol=1e-5)


@pytest.mark.parametrize("graph", [False, True], ids=["eager", "function"])
@pytest.mark.parametrize("name, kwargs", CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_optimizer_trajectories_match_keras(tensorflow, name, kwargs, graph):
    ours = _trajectory(tapeflow, name, kwargs, graph)
    # Keras's Adafactor cannot build slots for a raw tf.Variable inside tf.function.
    theirs = _trajectory(tensorflow, name, kwargs, graph and name != "Adafactor")
    _assert_same(ours, theirs)
    if name != "Adafactor":     # Keras names Adafactor's factored moments after the variable
        assert ours[3] == theirs[3]
    config = ours[4].get_config()
    assert config == _plain(theirs[4].get_config())
    assert type(ours[4]).from_config(config).get_config() == config


@pytest.mark.parametrize("graph", [False, True], ids=["eager", "function"])
@pytest.mark.parametrize("name, kwargs", CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_float64_trajectories_match_keras_bit_for_bit(tensorflow, name, kwargs, graph):
    """On float64 variables Keras casts the learning rate (a float32 variable) and some
    hyperparameters (betas, momentum, weight decay, constant slot fills) through float32,
    and uses the others as exact Python floats: the trajectories agree to float64
    rounding."""
    ours = _trajectory(tapeflow, name, kwargs, graph, dtype=np.float64)
    theirs = _trajectory(tensorflow, name, kwargs, graph and name != "Adafactor",
                         dtype=np.float64)
    for mine, keras in zip(ours[:2] + tuple(ours[2]), theirs[:2] + tuple(theirs[2])):
        assert mine.dtype == keras.dtype
        np.testing.assert_allclose(mine, keras, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("graph", [False, True], ids=["eager", "function"])
def test_loss_scale_optimizer_matches_keras(tensorflow, graph):
    kwargs = {"initial_scale": 64.0, "dynamic_growth_steps": 3}
    runs = []
    for module in (tapeflow, tensorflow):
        keras_opt = module.keras.optimizers
        inner = keras_opt.Adam(learning_rate=0.05)
        wrapper = lambda inner=inner, keras_opt=keras_opt, **kw: \
            keras_opt.LossScaleOptimizer(inner, **kwargs)  # noqa: E731
        module_opts = type("Opts", (), {"LossScaleOptimizer": staticmethod(wrapper)})
        fake = type("M", (), {})()
        fake.__dict__.update({k: getattr(module, k) for k in (
            "Variable", "GradientTape", "reduce_sum", "square", "matmul", "function", "cast",
            "constant")})
        fake.keras = type("K", (), {"optimizers": module_opts})
        runs.append(_trajectory(fake, "LossScaleOptimizer", {}, graph, scale_from=True))
    ours, theirs = runs
    _assert_same(ours, theirs)
    assert int(ours[4].iterations.numpy()) == int(theirs[4].iterations.numpy()) == STEPS - 3
    assert float(ours[4].dynamic_scale.numpy()) == float(theirs[4].dynamic_scale.numpy())
    assert ours[3] == theirs[3]
    config, keras_config = ours[4].get_config(), theirs[4].get_config()
    assert config["inner_optimizer"]["config"] == \
        _plain(keras_config["inner_optimizer"]["config"])
    assert {k: v for k, v in config.items() if k != "inner_optimizer"} == \
        {k: v for k, v in _plain(keras_config).items() if k != "inner_optimizer"}


def test_ema_finalize_and_defaults_match_keras(tensorflow):
    results = []
    for module in (tapeflow, tensorflow):
        w = module.Variable(W0)
        opt = module.keras.optimizers.SGD(0.1, use_ema=True, ema_momentum=0.5)
        for _ in range(3):
            opt.apply_gradients([(module.constant(W0), w)])
        opt.finalize_variable_values([w])
        results.append(w.numpy())
        results.append({name: _plain(getattr(module.keras.optimizers, name)().get_config())
                        for name, _ in CASES})
    np.testing.assert_allclose(results[0], results[2], rtol=1e-6)
    assert results[1] == results[3]


SLICED_OPTIMIZERS = ["SGD", "Adam", "AdamW", "Nadam", "Adamax", "RMSprop", "Adagrad",
                     "Adadelta", "Ftrl", "Lion", "Lamb", "Adafactor"]


def _sliced_steps(module, name, graph, dtype):
    """Three steps on a [4, 3] table whose gradient is IndexedSlices with repeated rows."""
    table = module.Variable(np.arange(12, dtype=dtype).reshape(4, 3) / 10, name="table")
    opt = getattr(module.keras.optimizers, name)(learning_rate=0.1)
    weights = module.constant(np.arange(15, dtype=dtype).reshape(5, 3) - 7)

    def step():
        with module.GradientTape() as tape:
            loss = module.reduce_sum(module.gather(table, [0, 2, 2, 0, 2]) * weights)
        gradient = tape.gradient(loss, table)
        assert type(gradient).__name__ == "IndexedSlices"
        opt.apply_gradients([(gradient, table)])

    if graph:
        step = module.function(step)
    for _ in range(3):
        step()
    return table.numpy()


@pytest.mark.parametrize("graph", [False, True], ids=["eager", "function"])
@pytest.mark.parametrize("name", SLICED_OPTIMIZERS)
def test_indexed_slices_gradients_match_keras(tensorflow, name, graph):
    """Keras squares (or takes abs of) an IndexedSlices gradient slice by slice: a row
    gathered twice gets g1**2 + g2**2 in its second moment."""
    ours = _sliced_steps(tapeflow, name, graph, np.float64)
    # Keras's Adafactor cannot build slots for a raw tf.Variable inside tf.function.
    theirs = _sliced_steps(tensorflow, name, graph and name != "Adafactor", np.float64)
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-15)
