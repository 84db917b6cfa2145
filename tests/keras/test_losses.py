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
    expected = -(labels * np.log(p) + (1 - labels) * np.log(1 - p)).mean(-1)   # Keras 3
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
    with pytest.raises(ValueError, match="Invalid value for argument `reduction`"):
        L.MeanSquaredError(reduction="auto")


def test_lookup_by_name_and_function_aliases():
    assert L.get("mse") is L.mean_squared_error is L.MSE
    assert isinstance(L.get("SparseCategoricalCrossentropy"), L.SparseCategoricalCrossentropy)
    assert L.get(None) is None
    with pytest.raises(ValueError, match="Unknown loss"):
        L.get("mean_square_error")
    assert L.MeanSquaredError().get_config() == {"reduction": "sum_over_batch_size",
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


def _np_softmax_normalized(p):
    return np.clip(p / p.sum(-1, keepdims=True), EPS, 1 - EPS)


pos_true = rng.uniform(0.1, 3, (4, 3))
pos_pred = rng.uniform(0.1, 3, (4, 3))
bin_true = rng.integers(0, 2, (4, 3)).astype(np.float64)
prob_pred = rng.uniform(0.05, 0.95, (4, 3))
onehot = np.eye(3)[[0, 2, 1, 1]]
dist_true = softmax(rng.standard_normal((4, 3)))
dist_pred = softmax(rng.standard_normal((4, 3)))


def _bce(t, p):
    p = np.clip(p, EPS, 1 - EPS)
    return -(t * np.log(p) + (1 - t) * np.log(1 - p))


def _focal_cce(t, p, alpha=0.25, gamma=2.0):
    p = _np_softmax_normalized(p)
    return (alpha * (1 - p) ** gamma * -t * np.log(p)).sum(-1)


def _unit(x):
    return x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-7)


NEW_LOSSES = [  # (name, function, loss class kwargs, y_true, y_pred, NumPy per example)
    ("mape", L.mean_absolute_percentage_error, {}, pos_true, pos_pred,
     100 * (np.abs(pos_true - pos_pred) / pos_true).mean(-1)),
    ("msle", L.mean_squared_logarithmic_error, {}, pos_true, pos_pred,
     ((np.log1p(pos_pred) - np.log1p(pos_true)) ** 2).mean(-1)),
    ("log_cosh", L.log_cosh, {}, y_true.astype(np.float64), y_pred.astype(np.float64),
     np.log(np.cosh(y_pred.astype(np.float64) - y_true)).mean(-1)),
    ("cosine_similarity", L.cosine_similarity, {}, y_true.astype(np.float64),
     y_pred.astype(np.float64), -(_unit(y_true) * _unit(y_pred)).sum(-1)),
    ("kl_divergence", L.kl_divergence, {}, dist_true, dist_pred,
     (dist_true * np.log(dist_true / dist_pred)).sum(-1)),
    ("poisson", L.poisson, {}, pos_true, pos_pred,
     (pos_pred - pos_true * np.log(pos_pred + EPS)).mean(-1)),
    ("hinge", L.hinge, {}, bin_true, y_pred.astype(np.float64),
     np.maximum(1 - (2 * bin_true - 1) * y_pred, 0).mean(-1)),
    ("squared_hinge", L.squared_hinge, {}, 2 * bin_true - 1, y_pred.astype(np.float64),
     (np.maximum(1 - (2 * bin_true - 1) * y_pred, 0) ** 2).mean(-1)),
    ("categorical_hinge", L.categorical_hinge, {}, onehot, y_pred.astype(np.float64),
     np.maximum(((1 - onehot) * y_pred).max(-1) - (onehot * y_pred).sum(-1) + 1, 0)),
    ("binary_focal_crossentropy", L.binary_focal_crossentropy, {}, bin_true, prob_pred,
     ((1 - (bin_true * prob_pred + (1 - bin_true) * (1 - prob_pred))) ** 2
      * _bce(bin_true, prob_pred)).mean(-1)),
    ("categorical_focal_crossentropy", L.categorical_focal_crossentropy, {}, onehot,
     dist_pred, _focal_cce(onehot, dist_pred)),
    ("dice", L.dice, {"axis": 1}, bin_true, prob_pred,
     1 - 2 * (bin_true * prob_pred).sum(1) / (bin_true.sum(1) + prob_pred.sum(1) + EPS)),
    ("tversky", L.tversky, {"alpha": 0.3, "beta": 0.7, "axis": 1}, bin_true, prob_pred,
     1 - (bin_true * prob_pred).sum(1) / ((bin_true * prob_pred).sum(1)
                                          + 0.3 * ((1 - prob_pred) * bin_true).sum(1)
                                          + 0.7 * (prob_pred * (1 - bin_true)).sum(1) + EPS)),
]
CLASS_OF = {"mape": L.MeanAbsolutePercentageError, "msle": L.MeanSquaredLogarithmicError,
            "log_cosh": L.LogCosh, "cosine_similarity": L.CosineSimilarity,
            "kl_divergence": L.KLDivergence, "poisson": L.Poisson, "hinge": L.Hinge,
            "squared_hinge": L.SquaredHinge, "categorical_hinge": L.CategoricalHinge,
            "binary_focal_crossentropy": L.BinaryFocalCrossentropy,
            "categorical_focal_crossentropy": L.CategoricalFocalCrossentropy, "dice": L.Dice,
            "tversky": L.Tversky}


@pytest.mark.parametrize("name, fn, kwargs, t, p, expected", NEW_LOSSES,
                         ids=[case[0] for case in NEW_LOSSES])
def test_new_losses_against_numpy_with_reductions_and_gradients(name, fn, kwargs, t, p,
                                                                expected):
    np.testing.assert_allclose(fn(t, p, **kwargs).numpy(), expected, rtol=1e-6, atol=1e-9)
    weights = np.array([1.0, 0.0, 2.0, 0.5])
    for reduction, reduce in [("sum_over_batch_size", lambda v: v.sum() / 4),
                              ("sum", np.sum), (None, lambda v: v),
                              ("mean_with_sample_weight", lambda v: v.sum() / weights.sum())]:
        loss = CLASS_OF[name](reduction=reduction, **kwargs)
        np.testing.assert_allclose(np.asarray(loss(t, p, sample_weight=weights)),
                                   reduce(expected * weights), rtol=1e-6, atol=1e-9)
    theoretical, numerical = tf.test.compute_gradient(
        lambda x: fn(t, x, **kwargs), [tf.constant(p)], delta=1e-6)
    np.testing.assert_allclose(theoretical[0], numerical[0], rtol=1e-5, atol=1e-6)


def test_focal_options_and_ignore_class():
    logits = rng.standard_normal((4, 3))
    probs = 1 / (1 + np.exp(-logits))
    smooth = bin_true * 0.9 + 0.05
    p_t = smooth * probs + (1 - smooth) * (1 - probs)
    balance = smooth * 0.4 + (1 - smooth) * 0.6
    expected = (balance * (1 - p_t) ** 1.5 * _bce(smooth, probs)).mean(-1)
    got = L.binary_focal_crossentropy(bin_true, logits, apply_class_balancing=True, alpha=0.4,
                                      gamma=1.5, from_logits=True, label_smoothing=0.1)
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-6)
    got = L.CategoricalFocalCrossentropy(from_logits=True, alpha=1.0, gamma=0.0)(onehot, logits)
    np.testing.assert_allclose(float(got), (-(onehot * np.log(softmax(logits))).sum(-1)).mean(),
                               rtol=1e-6)
    labels = np.array([2, -1, 1, -1])
    per_example = -np.log(softmax(logits)[np.arange(4), np.maximum(labels, 0)])
    kept = labels != -1
    loss = L.SparseCategoricalCrossentropy(from_logits=True, ignore_class=-1)
    assert float(loss(labels, logits)) == pytest.approx(per_example[kept].mean())
    assert float(loss(labels, logits, sample_weight=[1.0, 1.0, 3.0, 1.0])) == pytest.approx(
        (per_example[kept] * [1.0, 3.0]).sum() / 2)
    loss = L.SparseCategoricalCrossentropy(from_logits=True, ignore_class=-1, reduction="sum")
    assert float(loss(labels, logits)) == pytest.approx(per_example[kept].sum())
    assert loss.get_config()["ignore_class"] == -1


def test_new_names_look_up_functions_and_classes():
    assert L.get("kld") is L.kl_divergence is L.KLD is L.kullback_leibler_divergence
    assert L.get("logcosh") is L.log_cosh
    assert L.get("mape") is L.mean_absolute_percentage_error
    assert isinstance(L.get("CategoricalFocalCrossentropy"), L.CategoricalFocalCrossentropy)
    assert L.Dice(axis=1).get_config() == {"name": "dice", "reduction": "sum_over_batch_size",
                                           "axis": 1}
    config = L.BinaryFocalCrossentropy(gamma=3.0).get_config()
    assert config["gamma"] == 3.0 and config["name"] == "binary_focal_crossentropy"
    assert L.BinaryFocalCrossentropy.from_config(config).get_config() == config


def test_a_loss_dtype_casts_the_inputs():
    y = np.array([[1.0, 2.0]], np.float32)
    assert L.MeanSquaredError()(y.astype(np.float64), y.astype(np.float64)).dtype == tf.float64
    loss = L.MeanSquaredError(dtype="float64")(y, y + 1)
    assert loss.dtype == tf.float64 and float(loss) == 1.0
    assert L.SparseCategoricalCrossentropy(dtype="float64")([0], [[0.5, 0.5]]).dtype == tf.float64


def test_the_legacy_reduction_names_tf_keras_still_lists():
    assert L.Reduction.all() == ("auto", "none", "sum", "sum_over_batch_size")
    with pytest.raises(ValueError, match="Invalid Reduction Key"):
        L.Reduction.validate("mean_of_means")
    per_example = L.MeanSquaredError(reduction=L.Reduction.NONE)([[0.0], [1.0]], [[1.0], [1.0]])
    assert per_example.numpy().tolist() == [1.0, 0.0]


def test_bce_is_a_lookup_name_only():
    assert L.get("bce") is L.get("BCE") is L.binary_crossentropy
    assert not hasattr(L, "bce")
