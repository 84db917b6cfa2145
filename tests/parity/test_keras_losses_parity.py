"""keras.losses against Keras 3 (tf.keras): every loss class and function, each reduction,
sample weights, and the gradient with respect to y_pred."""
import numpy as np
import pytest

import tapeflow

pytestmark = pytest.mark.parity

rng = np.random.default_rng(11)
SHAPE = (5, 4)


def _softmax(z):
    e = np.exp(z - z.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


DATA = {  # kind: (y_true, y_pred)
    "real": (rng.standard_normal(SHAPE), rng.standard_normal(SHAPE)),
    "positive": (rng.uniform(0.1, 3, SHAPE), rng.uniform(0.1, 3, SHAPE)),
    "binary": (rng.integers(0, 2, SHAPE).astype(float), rng.uniform(0.02, 0.98, SHAPE)),
    "logits": (rng.integers(0, 2, SHAPE).astype(float), 3 * rng.standard_normal(SHAPE)),
    "signed": (2.0 * rng.integers(0, 2, SHAPE) - 1, rng.standard_normal(SHAPE)),
    "onehot": (np.eye(4)[rng.integers(0, 4, 5)], _softmax(rng.standard_normal(SHAPE))),
    "onehot_logits": (np.eye(4)[rng.integers(0, 4, 5)], 2 * rng.standard_normal(SHAPE)),
    "distribution": (_softmax(rng.standard_normal(SHAPE)), _softmax(rng.standard_normal(SHAPE))),
    "sparse": (rng.integers(0, 4, 5), _softmax(rng.standard_normal(SHAPE))),
}

CLASSES = [  # (class name, keyword arguments, data kind)
    ("MeanSquaredError", {}, "real"),
    ("MeanAbsoluteError", {}, "real"),
    ("MeanAbsolutePercentageError", {}, "positive"),
    ("MeanSquaredLogarithmicError", {}, "positive"),
    ("Huber", {"delta": 0.6}, "real"),
    ("LogCosh", {}, "real"),
    ("CosineSimilarity", {}, "real"),
    ("CosineSimilarity", {"axis": 0}, "real"),
    ("KLDivergence", {}, "distribution"),
    ("Poisson", {}, "positive"),
    ("Hinge", {}, "binary"),
    ("Hinge", {}, "signed"),
    ("SquaredHinge", {}, "signed"),
    ("CategoricalHinge", {}, "onehot"),
    ("BinaryCrossentropy", {}, "binary"),
    ("BinaryCrossentropy", {"from_logits": True, "label_smoothing": 0.1}, "logits"),
    ("CategoricalCrossentropy", {"label_smoothing": 0.2}, "onehot"),
    ("SparseCategoricalCrossentropy", {}, "sparse"),
    ("SparseCategoricalCrossentropy", {"ignore_class": 2}, "sparse"),
    ("BinaryFocalCrossentropy", {}, "binary"),
    ("BinaryFocalCrossentropy", {"apply_class_balancing": True, "alpha": 0.4, "gamma": 1.5,
                                 "from_logits": True, "label_smoothing": 0.1}, "logits"),
    ("CategoricalFocalCrossentropy", {}, "onehot"),
    ("CategoricalFocalCrossentropy", {"alpha": 0.5, "gamma": 3.0, "from_logits": True,
                                      "label_smoothing": 0.1}, "onehot_logits"),
    ("Dice", {}, "binary"),
    ("Dice", {"axis": 1}, "binary"),
    ("Tversky", {}, "binary"),
    ("Tversky", {"alpha": 0.3, "beta": 0.7, "axis": 1}, "binary"),
]
REDUCTIONS = ["sum_over_batch_size", "sum", None, "mean_with_sample_weight"]


def _run(module, name, kwargs, kind, reduction, weighted):
    y_true, y_pred = DATA[kind]
    loss = getattr(module.keras.losses, name)(reduction=reduction, **kwargs)
    x = module.constant(y_pred, dtype="float32")
    weight = np.linspace(0.0, 2.0, 5).astype(np.float32) if weighted else None
    with module.GradientTape() as tape:
        tape.watch(x)
        value = loss(y_true.astype(np.float32) if kind != "sparse" else y_true, x,
                     sample_weight=weight)
    return value.numpy(), tape.gradient(value, x).numpy(), loss.get_config()


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("name, kwargs, kind", CLASSES,
                         ids=[f"{c[0]}-{c[2]}-{len(c[1])}" for c in CLASSES])
def test_loss_classes_match_keras(tensorflow, name, kwargs, kind, reduction):
    for weighted in (False, kwargs.get("axis") != 0):     # axis 0 leaves no example axis
        ours = _run(tapeflow, name, kwargs, kind, reduction, weighted)
        theirs = _run(tensorflow, name, kwargs, kind, reduction, weighted)
        np.testing.assert_allclose(ours[0], theirs[0], rtol=2e-5, atol=1e-6)
        np.testing.assert_allclose(ours[1], theirs[1], rtol=2e-4, atol=1e-6)
        assert ours[2].items() >= theirs[2].items()


FUNCTIONS = ["mean_squared_error", "mean_absolute_error", "mean_absolute_percentage_error",
             "mean_squared_logarithmic_error", "huber", "log_cosh", "cosine_similarity",
             "kl_divergence", "poisson", "hinge", "squared_hinge", "categorical_hinge",
             "binary_crossentropy", "categorical_crossentropy", "binary_focal_crossentropy",
             "categorical_focal_crossentropy", "dice", "tversky"]


@pytest.mark.parametrize("name", FUNCTIONS)
def test_loss_functions_and_names_match_keras(tensorflow, name):
    y_true, y_pred = DATA["onehot"]
    ours = getattr(tapeflow.keras.losses, name)(y_true.astype(np.float32),
                                                y_pred.astype(np.float32))
    theirs = tensorflow.keras.losses.get(name)(y_true.astype(np.float32),
                                               y_pred.astype(np.float32))
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=2e-5, atol=1e-6)
    assert tapeflow.keras.losses.get(name).__name__ == tensorflow.keras.losses.get(name).__name__


def test_reduction_names_and_errors_match_keras(tensorflow):
    for module in (tapeflow, tensorflow):
        with pytest.raises(ValueError):
            module.keras.losses.MeanSquaredError(reduction="auto")


@pytest.mark.parametrize("alias", ["mse", "MSE", "mae", "MAE", "mape", "MAPE", "msle", "MSLE",
                                   "kld", "KLD", "kullback_leibler_divergence", "logcosh"])
def test_tf_keras_aliases_match(tensorflow, alias):
    assert getattr(tapeflow.keras.losses, alias).__name__ == \
        getattr(tensorflow.keras.losses, alias).__name__
