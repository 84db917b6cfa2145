"""keras.losses against Keras's formulas in NumPy: values, reductions, gradients, errors."""
import numpy as np
import pytest

import tapeflow as tf

L = tf.keras.losses
rng = np.random.default_rng(3)
EPS = 1e-7


def softmax(z):
    e = np.exp(z - z.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


y_true = rng.standard_normal((4, 3)).astype(np.float32)
y_pred = rng.standard_normal((4, 3)).astype(np.float32)


@pytest.mark.parametrize("loss, per_example", [
    (L.MeanSquaredError(), ((y_pred - y_true) ** 2).mean(-1)),
    (L.MeanAbsoluteError(), np.abs(y_pred - y_true).mean(-1)),
    (L.Huber(delta=0.7), np.where(np.abs(y_pred - y_true) <= 0.7,
                                  0.5 * (y_pred - y_true) ** 2,
                                  0.7 * np.abs(y_pred - y_true) - 0.5 * 0.7 ** 2).mean(-1)),
])
def test_regression_losses_and_reductions(loss, per_example):
    np.testing.assert_allclose(float(loss(y_true, y_pred)), per_example.mean(), rtol=1e-5)
    weights = np.array([1.0, 0.0, 2.0, 0.5], np.float32)
    np.testing.assert_allclose(float(loss(y_true, y_pred, sample_weight=weights)),
                               (per_example * weights).sum() / 4, rtol=1e-5)
    loss.reduction = "sum"
    np.testing.assert_allclose(float(loss(y_true, y_pred)), per_example.sum(), rtol=1e-5)
    loss.reduction = "none"
    np.testing.assert_allclose(loss(y_true, y_pred).numpy(), per_example, rtol=1e-5)


def test_binary_crossentropy_probabilities_logits_and_smoothing():
    labels = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], np.float32)
    logits = np.array([[2.0, -1.0], [0.5, 30.0], [-40.0, 0.0]], np.float32)
    probs = 1 / (1 + np.exp(-logits.astype(np.float64)))
    p = np.clip(probs, EPS, 1 - EPS)
    expected = -(labels * np.log(p + EPS) + (1 - labels) * np.log(1 - p + EPS)).mean(-1)
    np.testing.assert_allclose(float(L.BinaryCrossentropy()(labels, probs.astype(np.float32))),
                               expected.mean(), rtol=1e-4)
    exact = (np.maximum(logits, 0) - logits * labels + np.log1p(np.exp(-np.abs(logits))))
    np.testing.assert_allclose(float(L.BinaryCrossentropy(from_logits=True)(labels, logits)),
                               exact.mean(), rtol=1e-5)
    smoothed = labels * 0.8 + 0.1
    exact = (np.maximum(logits, 0) - logits * smoothed + np.log1p(np.exp(-np.abs(logits))))
    np.testing.assert_allclose(
        float(L.BinaryCrossentropy(from_logits=True, label_smoothing=0.2)(labels, logits)),
        exact.mean(), rtol=1e-5)
    # A trailing axis of 1 on one side is squeezed away.
    assert L.binary_crossentropy([1.0, 0.0], [[0.9], [0.2]]).shape == []


def test_categorical_crossentropy_probabilities_and_logits():
    labels = np.eye(3, dtype=np.float32)[[0, 2, 1, 1]]
    logits = rng.standard_normal((4, 3)).astype(np.float32)
    probs = softmax(logits.astype(np.float64))
    expected = -(labels * np.log(probs)).sum(-1)
    np.testing.assert_allclose(float(L.CategoricalCrossentropy(from_logits=True)(labels, logits)),
                               expected.mean(), rtol=1e-5)
    unnormalized = (probs * 3).astype(np.float32)     # Keras renormalizes probabilities
    np.testing.assert_allclose(float(L.CategoricalCrossentropy()(labels, unnormalized)),
                               expected.mean(), rtol=1e-5)
    smoothed = labels * 0.7 + 0.1
    np.testing.assert_allclose(
        float(L.CategoricalCrossentropy(from_logits=True, label_smoothing=0.3)(labels, logits)),
        (-(smoothed * np.log(probs)).sum(-1)).mean(), rtol=1e-5)


def test_sparse_categorical_crossentropy_values_and_gradient():
    labels = np.array([2, 0, 1, 2])
    logits = rng.standard_normal((4, 3)).astype(np.float32)
    probs = softmax(logits.astype(np.float64))
    expected = -np.log(probs[np.arange(4), labels])
    loss = L.SparseCategoricalCrossentropy(from_logits=True)
    np.testing.assert_allclose(float(loss(labels, logits)), expected.mean(), rtol=1e-5)
    np.testing.assert_allclose(float(loss(labels[:, None].astype(np.float32), logits)),
                               expected.mean(), rtol=1e-5)   # [batch, 1] float labels
    np.testing.assert_allclose(float(L.SparseCategoricalCrossentropy()(labels, probs)),
                               expected.mean(), rtol=1e-5)
    x = tf.constant(logits)
    with tf.GradientTape() as tape:
        tape.watch(x)
        value = loss(labels, x)
    np.testing.assert_allclose(tape.gradient(value, x).numpy(),
                               (probs - np.eye(3)[labels]) / 4, rtol=1e-5, atol=1e-7)


def test_bad_labels_and_shapes_name_the_loss():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"sparse_categorical_crossentropy: .*label value of 3 .*\[0, 3\)"):
        L.SparseCategoricalCrossentropy(from_logits=True)([0, 3], np.zeros((2, 3), np.float32))
    with pytest.raises(ValueError, match=r"sparse_categorical_crossentropy: Shape mismatch.*"
                                         r"\(3,\).*\(2, 3\)"):
        L.SparseCategoricalCrossentropy()([0, 1, 2], np.full((2, 3), 1 / 3, np.float32))
    with pytest.raises(ValueError, match=r"mean_squared_error: .*\(4, 3\) and \(4, 2\)"):
        L.MeanSquaredError()(np.zeros((4, 3)), np.zeros((4, 2)))
    with pytest.raises(ValueError, match=r"categorical_crossentropy: Shapes \(2,\) and \(2, 3\)"):
        L.CategoricalCrossentropy()([0, 1], np.full((2, 3), 1 / 3, np.float32))
    with pytest.raises(ValueError, match="Invalid Reduction Key"):
        L.MeanSquaredError(reduction="mean_of_means")
    with pytest.raises(NotImplementedError, match="ignore_class"):
        L.SparseCategoricalCrossentropy(ignore_class=0)


def test_lookup_by_name_and_function_aliases():
    assert L.get("mse") is L.mean_squared_error is L.MSE
    assert isinstance(L.get("SparseCategoricalCrossentropy"), L.SparseCategoricalCrossentropy)
    assert L.get(None) is None
    with pytest.raises(ValueError, match="Unknown loss"):
        L.get("mean_square_error")
    assert L.MeanSquaredError().get_config() == {"reduction": "auto",
                                                 "name": "mean_squared_error"}


def test_sample_weights_scale_each_loss_and_the_mean_divides_by_the_count():
    y_true = np.array([[1.0], [2.0], [3.0]], np.float32)
    y_pred = np.zeros((3, 1), np.float32)
    weights = np.array([1.0, 0.0, 2.0], np.float32)
    per_example = (y_true[:, 0] - y_pred[:, 0]) ** 2             # [1, 4, 9]
    mse = tf.keras.losses.MeanSquaredError
    assert float(mse()(y_true, y_pred, sample_weight=weights)) == pytest.approx(
        (per_example * weights).sum() / 3)                           # 19 / 3, not 19 / 3.0w
    assert float(mse(reduction="sum")(y_true, y_pred, sample_weight=weights)) == 19.0
    np.testing.assert_allclose(
        mse(reduction="none")(y_true, y_pred, sample_weight=weights).numpy(), [1.0, 0.0, 18.0])
    assert float(mse()(y_true, y_pred, sample_weight=2.0)) == pytest.approx(2 * 14 / 3)
    assert float(mse()(y_true, y_pred, sample_weight=weights[:, None])) == pytest.approx(19 / 3)


def test_one_weight_per_example_broadcasts_over_per_timestep_losses():
    y_true = np.zeros((2, 3, 1), np.float32)                  # [batch, steps, 1]
    y_pred = np.arange(6, dtype=np.float32).reshape(2, 3, 1)
    weights = np.array([1.0, 10.0], np.float32)
    losses = y_pred[..., 0] ** 2                              # per step: [[0 1 4] [9 16 25]]
    got = tf.keras.losses.MeanSquaredError()(y_true, y_pred, sample_weight=weights)
    assert float(got) == pytest.approx((losses * weights[:, None]).sum() / 6)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.keras.losses.MeanSquaredError()(y_true, y_pred, sample_weight=np.ones(4))
