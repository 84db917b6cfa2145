"""keras.metrics: running means and accuracies, state, reset, lookup."""
import numpy as np
import pytest

import tapeflow as tf

M = tf.keras.metrics


def test_mean_and_sum_accumulate_weighted_values():
    mean = M.Mean()
    assert float(mean.result()) == 0.0                    # no division by zero
    mean.update_state([1.0, 2.0])
    mean.update_state(tf.constant([[3.0], [10.0]]), sample_weight=[[1.0], [0.0]])
    assert float(mean.result()) == pytest.approx(2.0)
    assert [v.name for v in mean.variables] == ["mean/total:0", "mean/count:0"]   # as made
    assert all(not v.trainable for v in mean.variables)
    mean.reset_state()
    assert float(mean(5.0)) == 5.0                         # calling updates and returns
    total = M.Sum(name="seen")
    total.update_state([1.0, 2.0], sample_weight=[2.0, 0.5])
    assert float(total.result()) == 3.0 and total.name == "seen"


def test_sparse_categorical_accuracy():
    metric = M.SparseCategoricalAccuracy()
    preds = np.array([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7]], np.float32)
    metric.update_state([1, 1, 1], preds)
    assert float(metric.result()) == pytest.approx(2 / 3)
    metric.update_state(np.array([[0.0]], np.float32), np.array([[0.6, 0.4]], np.float32))
    assert float(metric.result()) == pytest.approx(3 / 4)   # float labels shaped [b, 1]
    metric.reset_states()
    metric.update_state([0, 1], [[0.9, 0.1], [0.9, 0.1]], sample_weight=[0.0, 1.0])
    assert float(metric.result()) == 0.0


def test_categorical_binary_and_exact_accuracy():
    categorical = M.CategoricalAccuracy()
    categorical.update_state([[0, 0, 1], [0, 1, 0]], [[0.1, 0.2, 0.7], [0.5, 0.3, 0.2]])
    assert float(categorical.result()) == 0.5
    binary = M.BinaryAccuracy(threshold=0.7)
    binary.update_state([[1.0, 0.0], [1.0, 1.0]], [[0.8, 0.6], [0.65, 0.9]])
    assert float(binary.result()) == 0.75
    exact = M.Accuracy()
    exact.update_state([1, 2, 3], [1, 2, 4])
    assert float(exact.result()) == pytest.approx(2 / 3)


def test_error_metrics_and_lookup():
    mse = M.MeanSquaredError()
    mse.update_state([[0.0, 0.0]], [[1.0, 3.0]])
    assert float(mse.result()) == 5.0
    assert isinstance(M.get("sparse_categorical_accuracy"), M.SparseCategoricalAccuracy)
    assert M.get("mae").name == "mean_absolute_error"
    wrapped = M.get(lambda y_true, y_pred: tf.reduce_sum(y_pred, axis=-1))
    wrapped.update_state(None, [[1.0, 2.0], [3.0, 4.0]])
    assert float(wrapped.result()) == 5.0
    with pytest.raises(ValueError, match="Unknown metric"):
        M.get("accuracyy")


rng = np.random.default_rng(7)


def _np_counts(y_true, y_pred, thresholds, weight=None):
    """tp, fp, tn, fn at each threshold, from NumPy (prediction > threshold is positive)."""
    y_true, y_pred = y_true.ravel().astype(bool), y_pred.ravel()
    weight = np.ones_like(y_pred) if weight is None else np.broadcast_to(weight, y_pred.shape)
    above = y_pred[None, :] > np.asarray(thresholds)[:, None]
    return {"tp": (above & y_true) @ weight, "fp": (above & ~y_true) @ weight,
            "tn": (~above & ~y_true) @ weight, "fn": (~above & y_true) @ weight}


def _np_auc_roc(counts):
    tpr = counts["tp"] / np.maximum(counts["tp"] + counts["fn"], 1e-300)
    fpr = counts["fp"] / np.maximum(counts["fp"] + counts["tn"], 1e-300)
    return np.sum((fpr[:-1] - fpr[1:]) * (tpr[:-1] + tpr[1:]) / 2)


def test_auc_roc_over_batches_with_weights_against_numpy():
    y_true = rng.integers(0, 2, (3, 20)).astype(np.float32)
    y_pred = rng.uniform(0.01, 0.99, (3, 20)).astype(np.float32)
    weight = rng.uniform(0, 2, (3, 20)).astype(np.float32)
    auc = M.AUC(num_thresholds=50)
    for i in range(3):
        auc.update_state(y_true[i], y_pred[i], sample_weight=weight[i])
    thresholds = [-1e-7] + [(i + 1) / 49 for i in range(48)] + [1 + 1e-7]
    counts = _np_counts(y_true, y_pred, thresholds, weight.ravel())
    np.testing.assert_allclose(auc.true_positives.numpy(), counts["tp"], rtol=1e-5)
    np.testing.assert_allclose(float(auc.result()), _np_auc_roc(counts), rtol=1e-5)
    assert auc.thresholds[0] == -1e-7 and len(auc.thresholds) == 50
    assert [v.name for v in auc.variables] == [
        "auc/true_positives:0", "auc/false_positives:0", "auc/true_negatives:0",
        "auc/false_negatives:0"]
    auc.reset_state()
    assert float(auc.result()) == 0.0


def test_auc_perfect_and_reversed_rankings_and_multi_label():
    y_true = np.array([0, 0, 1, 1], np.float32)
    assert float(M.AUC()(y_true, [0.1, 0.2, 0.8, 0.9])) == pytest.approx(1.0)
    assert float(M.AUC()(y_true, [0.9, 0.8, 0.2, 0.1])) == pytest.approx(0.0, abs=1e-6)
    assert float(M.AUC(curve="PR")(y_true, [0.1, 0.2, 0.8, 0.9])) == pytest.approx(1.0)
    labels = np.array([[0, 1], [1, 1], [0, 0], [1, 0]], np.float32)
    scores = np.array([[0.2, 0.9], [0.7, 0.6], [0.1, 0.3], [0.9, 0.2]], np.float32)
    multi = M.AUC(multi_label=True, label_weights=[1.0, 3.0])
    per_label = [float(M.AUC()(labels[:, j], scores[:, j])) for j in range(2)]
    assert float(multi(labels, scores)) == pytest.approx((per_label[0] + 3 * per_label[1]) / 4)
    assert multi.true_positives.shape == [200, 2]
    logits = M.AUC(from_logits=True)(y_true, np.log([0.1, 0.2, 0.8, 0.9]) - np.log([0.9, 0.8,
                                                                                    0.2, 0.1]))
    assert float(logits) == pytest.approx(1.0)


def test_auc_arguments_are_checked():
    with pytest.raises(ValueError, match="num_thresholds"):
        M.AUC(num_thresholds=1)
    with pytest.raises(ValueError, match="curve"):
        M.AUC(curve="PRGAIN2")
    with pytest.raises(ValueError, match="Threshold values must be in"):
        M.AUC(thresholds=[0.5, 1.5])
    with pytest.raises(ValueError, match="num_labels"):
        M.AUC(num_labels=3)
    with pytest.raises(ValueError, match="rank 2"):
        M.AUC(multi_label=True).update_state([1.0, 0.0], [0.4, 0.6])
    config = M.AUC(thresholds=[0.3, 0.6], curve="PR").get_config()
    assert config["thresholds"] == [0.3, 0.6] and config["num_thresholds"] == 4
    assert M.AUC.from_config(config).get_config() == config


def test_precision_recall_and_counts_with_thresholds_top_k_and_class_id():
    y_true = rng.integers(0, 2, (6, 4)).astype(np.float32)
    y_pred = rng.uniform(0, 1, (6, 4)).astype(np.float32)
    weight = rng.uniform(0, 1, 6).astype(np.float32)
    counts = _np_counts(y_true, y_pred, [0.3, 0.5, 0.7], np.repeat(weight, 4))
    precision = M.Precision(thresholds=[0.3, 0.5, 0.7])
    precision.update_state(y_true, y_pred, sample_weight=weight)
    np.testing.assert_allclose(precision.result().numpy(),
                               counts["tp"] / (counts["tp"] + counts["fp"]), rtol=1e-5)
    recall = M.Recall(thresholds=[0.3, 0.5, 0.7])
    recall.update_state(y_true, y_pred, sample_weight=weight)
    np.testing.assert_allclose(recall.result().numpy(),
                               counts["tp"] / (counts["tp"] + counts["fn"]), rtol=1e-5)
    for cls, key in [(M.TruePositives, "tp"), (M.FalsePositives, "fp"),
                     (M.TrueNegatives, "tn"), (M.FalseNegatives, "fn")]:
        metric = cls(thresholds=0.5)
        metric.update_state(y_true, y_pred, sample_weight=weight)
        assert float(metric.result()) == pytest.approx(counts[key][1], rel=1e-5)
    top = np.argsort(-y_pred, axis=-1)[:, :2]
    in_top = np.zeros_like(y_true, bool)
    np.put_along_axis(in_top, top, True, axis=-1)
    expected = (in_top & (y_true > 0)).sum() / in_top.sum()
    assert float(M.Precision(top_k=2)(y_true, y_pred)) == pytest.approx(expected)
    column = M.Recall(class_id=1)(y_true, y_pred)
    assert float(column) == pytest.approx(((y_pred[:, 1] > 0.5) & (y_true[:, 1] > 0)).sum()
                                          / (y_true[:, 1] > 0).sum())
    with pytest.raises(ValueError, match="Threshold values must be in"):
        M.Precision(thresholds=[-0.1])
    with pytest.raises(ValueError, match="class_id"):
        M.Recall(class_id=0)([1.0, 0.0], [0.7, 0.2])


def test_at_constraint_metrics_against_numpy():
    y_true = rng.integers(0, 2, 40).astype(np.float32)
    y_pred = rng.uniform(0, 1, 40).astype(np.float32)
    thresholds = np.arange(200) / 199
    c = _np_counts(y_true, y_pred, thresholds)
    recall = c["tp"] / np.maximum(c["tp"] + c["fn"], 1e-30)
    precision = np.where(c["tp"] + c["fp"] > 0, c["tp"] / np.maximum(c["tp"] + c["fp"], 1e-30),
                         0)
    specificity = c["tn"] / np.maximum(c["tn"] + c["fp"], 1e-30)
    cases = [(M.PrecisionAtRecall(0.6), recall >= 0.6, precision),
             (M.RecallAtPrecision(0.5), precision >= 0.5, recall),
             (M.SensitivityAtSpecificity(0.4), specificity >= 0.4, recall),
             (M.SpecificityAtSensitivity(0.7), recall >= 0.7, specificity)]
    for metric, feasible, value in cases:
        assert float(metric(y_true, y_pred)) == pytest.approx(
            max(np.where(feasible, value, 0).max(), 0), rel=1e-5)
    with pytest.raises(ValueError, match="recall"):
        M.PrecisionAtRecall(1.5)


def test_top_k_accuracies_count_ties_as_in():
    y_pred = np.array([[0.1, 0.5, 0.4], [0.3, 0.3, 0.4], [0.6, 0.3, 0.1]], np.float32)
    assert float(M.SparseTopKCategoricalAccuracy(k=1)([1, 0, 1], y_pred)) == pytest.approx(1 / 3)
    assert float(M.SparseTopKCategoricalAccuracy(k=2)([1, 0, 1], y_pred)) == pytest.approx(1.0)
    assert float(M.TopKCategoricalAccuracy(k=2)(np.eye(3)[[2, 1, 2]], y_pred)) == \
        pytest.approx(2 / 3)
    sorted_ids = M.SparseTopKCategoricalAccuracy(k=2, from_sorted_ids=True)
    assert float(sorted_ids([1, 0], [[1, 2, 0], [2, 1, 0]])) == 0.5
    assert sorted_ids.get_config()["from_sorted_ids"] is True
    assert "from_sorted_ids" not in M.SparseTopKCategoricalAccuracy().get_config()


def test_iou_metrics_against_numpy_confusion_matrix():
    labels, preds = rng.integers(0, 3, 30), rng.integers(0, 3, 30)
    weight = rng.integers(0, 3, 30)
    cm = np.zeros((3, 3))
    np.add.at(cm, (labels, preds), weight)
    iou = np.diag(cm) / (cm.sum(0) + cm.sum(1) - np.diag(cm))
    mean_iou = M.MeanIoU(num_classes=3)
    mean_iou.update_state(labels, preds, sample_weight=weight)
    np.testing.assert_array_equal(mean_iou.total_cm.numpy(), cm)
    assert float(mean_iou.result()) == pytest.approx(iou.mean(), rel=1e-5)
    assert mean_iou.total_cm.dtype.name == "int64"
    some = M.IoU(num_classes=3, target_class_ids=[0, 2])
    assert float(some(labels, preds, sample_weight=weight)) == pytest.approx(
        iou[[0, 2]].mean(), rel=1e-5)
    one_hot = M.OneHotMeanIoU(num_classes=3)
    assert float(one_hot(np.eye(3)[labels], np.eye(3)[preds] * 0.9, sample_weight=weight)) == \
        pytest.approx(iou.mean(), rel=1e-5)
    assert float(M.BinaryIoU(target_class_ids=[1])([0, 1, 1], [0.2, 0.7, 0.4])) == \
        pytest.approx(0.5)
    with pytest.raises(ValueError, match="out of range"):
        M.IoU(num_classes=2, target_class_ids=[2])


def test_f_scores_and_r2_against_numpy():
    y_true = rng.integers(0, 2, (10, 3)).astype(np.float32)
    y_pred = rng.uniform(0, 1, (10, 3)).astype(np.float32)
    positive = y_pred > 0.5
    tp = (positive & (y_true > 0)).sum(0)
    fp = (positive & (y_true == 0)).sum(0)
    fn = (~positive & (y_true > 0)).sum(0)
    p, r = tp / (tp + fp + 1e-7), tp / (tp + fn + 1e-7)
    f2 = 5 * p * r / (4 * p + r + 1e-7)
    np.testing.assert_allclose(M.FBetaScore(beta=2.0, threshold=0.5)(y_true, y_pred).numpy(),
                               f2, rtol=1e-5)
    f1 = 2 * p * r / (p + r + 1e-7)
    assert float(M.F1Score(average="macro", threshold=0.5)(y_true, y_pred)) == \
        pytest.approx(f1.mean(), rel=1e-5)
    assert "beta" not in M.F1Score().get_config()
    with pytest.raises(ValueError, match="beta"):
        M.FBetaScore(beta=2)
    targets = rng.standard_normal((12, 2)).astype(np.float32)
    predictions = targets + 0.3 * rng.standard_normal((12, 2)).astype(np.float32)
    r2 = 1 - ((targets - predictions) ** 2).sum(0) / ((targets - targets.mean(0)) ** 2).sum(0)
    metric = M.R2Score(class_aggregation=None)
    metric.update_state(targets[:6], predictions[:6])
    metric.update_state(targets[6:], predictions[6:])
    np.testing.assert_allclose(metric.result().numpy(), r2, rtol=1e-4)
    adjusted = M.R2Score(num_regressors=3)(targets, predictions)
    assert float(adjusted) == pytest.approx(1 - (1 - r2.mean()) * 23 / 20, rel=1e-4)
    with pytest.raises(ValueError, match="2D inputs"):
        M.R2Score()([1.0, 2.0], [1.0, 2.0])


def test_regression_and_probabilistic_means():
    y_true = rng.standard_normal((5, 3)).astype(np.float32)
    y_pred = rng.standard_normal((5, 3)).astype(np.float32)
    weight = rng.uniform(0, 1, 5).astype(np.float32)
    mse = ((y_true - y_pred) ** 2).mean(-1)
    rmse = M.RootMeanSquaredError()
    rmse.update_state(y_true, y_pred, sample_weight=weight)
    assert float(rmse.result()) == pytest.approx(np.sqrt((mse * weight).sum() / weight.sum()),
                                                 rel=1e-5)
    unit = lambda x: x / np.linalg.norm(x, axis=-1, keepdims=True)  # noqa: E731
    assert float(M.CosineSimilarity()(y_true, y_pred)) == pytest.approx(
        (unit(y_true) * unit(y_pred)).sum(-1).mean(), rel=1e-5)
    assert float(M.LogCoshError()(y_true, y_pred)) == pytest.approx(
        np.log(np.cosh(y_pred - y_true)).mean(), rel=1e-5)
    assert M.LogCoshError().name == "logcosh"
    probs = rng.uniform(0.05, 0.95, (5, 3)).astype(np.float32)
    labels = rng.integers(0, 2, (5, 3)).astype(np.float32)
    bce = -(labels * np.log(probs) + (1 - labels) * np.log(1 - probs)).mean(-1)
    assert float(M.BinaryCrossentropy()(labels, probs)) == pytest.approx(bce.mean(), rel=1e-5)
    assert M.BinaryCrossentropy().get_config() == {
        "name": "binary_crossentropy", "dtype": "float32", "from_logits": False,
        "label_smoothing": 0}


def test_correlation_metrics_against_numpy():
    y_true = rng.standard_normal((4, 6)).astype(np.float32)
    y_pred = (y_true + rng.standard_normal((4, 6))).astype(np.float32)
    pearson = [np.corrcoef(t, p)[0, 1] for t, p in zip(y_true, y_pred)]
    assert float(M.PearsonCorrelation()(y_true, y_pred)) == pytest.approx(np.mean(pearson),
                                                                          rel=1e-5)
    t_mean, p_mean = y_true.mean(1, keepdims=True), y_pred.mean(1, keepdims=True)
    norm = y_true.var(1, keepdims=True) + y_pred.var(1, keepdims=True) + (t_mean - p_mean) ** 2
    concordance = (2 * (y_true - p_mean) * (y_pred - p_mean) / (norm + 1e-7)).mean(1)
    np.testing.assert_allclose(M.concordance_correlation(y_true, y_pred).numpy(), concordance,
                               rtol=1e-5)
    assert M.get("pearson_correlation").get_config() == {
        "name": "pearson_correlation", "dtype": "float32", "axis": -1}


def test_metrics_update_inside_tf_function_and_by_name():
    auc, precision = M.get("auc"), M.get("precision")
    assert isinstance(auc, M.AUC) and isinstance(precision, M.Precision)

    @tf.function
    def step(y_true, y_pred):
        auc.update_state(y_true, y_pred)
        precision.update_state(y_true, y_pred)

    y_true = np.array([0, 1, 1, 0], np.float32)
    y_pred = np.array([0.2, 0.7, 0.4, 0.6], np.float32)
    step(y_true, y_pred)
    step(y_true, y_pred)
    assert float(auc.result()) == pytest.approx(float(M.AUC()(y_true, y_pred)))
    assert float(precision.result()) == pytest.approx(0.5)
    f1 = M.F1Score(threshold=0.5)

    @tf.function
    def lazy(y_true, y_pred):
        f1.update_state(y_true, y_pred)

    lazy(np.eye(2, dtype=np.float32), np.array([[0.9, 0.1], [0.8, 0.3]], np.float32))
    np.testing.assert_allclose(f1.result().numpy(), [2 / 3, 0.0], atol=1e-6)


def test_compile_accepts_the_new_metric_names():
    tf.keras.utils.set_random_seed(1)
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, activation="sigmoid")])
    model.compile("sgd", "binary_crossentropy",
                  metrics=["auc", "precision", "recall", tf.keras.metrics.TruePositives(),
                           "f1_score"])
    x = rng.standard_normal((16, 3)).astype(np.float32)
    y = (x[:, :1] > 0).astype(np.float32)
    history = model.fit(x, y, epochs=2, verbose=0)
    assert {"auc", "precision", "recall", "true_positives"} <= set(history.history)
    assert history.history["f1_score"][-1].shape == (1,)      # one score per class
    logs = model.evaluate(x, y, verbose=0, return_dict=True)
    assert 0.0 <= logs["auc"] <= 1.0


def test_progress_lines_show_the_mean_of_a_result_with_several_values():
    from tapeflow.keras.callbacks import format_logs
    assert format_logs({"loss": 0.5, "f1_score": np.array([0.25, 0.75])}) == \
        "loss: 0.5000 - f1_score: 0.5000"
