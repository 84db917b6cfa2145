"""keras.metrics against Keras 3 (tf.keras): results over several batches with and without
sample weights, configs and state variable names."""
import re
import warnings

import numpy as np
import pytest

import tapeflow

pytestmark = pytest.mark.parity

rng = np.random.default_rng(5)
BATCHES, N, C = 3, 8, 4


def _softmax(z):
    e = np.exp(z - z.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _batches(kind):
    """[(y_true, y_pred, sample_weight)] for one kind of data."""
    out = []
    for _ in range(BATCHES):
        weight = rng.uniform(0, 2, N).astype(np.float32)
        if kind == "binary":
            y_true = rng.integers(0, 2, (N, 1)).astype(np.float32)
            y_pred = rng.uniform(0, 1, (N, 1)).astype(np.float32)
        elif kind == "binary_edges":       # values on thresholds, outside [0, 1]
            y_true = rng.integers(0, 2, (N,)).astype(np.float32)
            y_pred = rng.choice([-0.5, 0.0, 0.25, 0.5, 1.0, 1.5], N).astype(np.float32)
        elif kind == "multilabel":
            y_true = rng.integers(0, 2, (N, C)).astype(np.float32)
            y_pred = rng.uniform(0, 1, (N, C)).astype(np.float32)
        elif kind == "logits":
            y_true = rng.integers(0, 2, (N, C)).astype(np.float32)
            y_pred = (2 * rng.standard_normal((N, C))).astype(np.float32)
        elif kind == "onehot":
            y_true = np.eye(C, dtype=np.float32)[rng.integers(0, C, N)]
            y_pred = _softmax(rng.standard_normal((N, C))).astype(np.float32)
        elif kind == "sparse":
            y_true = rng.integers(0, C, (N,))
            y_pred = _softmax(rng.standard_normal((N, C))).astype(np.float32)
        elif kind == "labels":             # class ids on both sides (IoU)
            y_true = rng.integers(0, C, (N,))
            y_pred = rng.integers(0, C, (N,))
            weight = rng.integers(0, 3, N).astype(np.float32)
        elif kind == "positive":
            y_true = rng.uniform(0.1, 3, (N, C)).astype(np.float32)
            y_pred = rng.uniform(0.1, 3, (N, C)).astype(np.float32)
        else:                              # real
            y_true = rng.standard_normal((N, C)).astype(np.float32)
            y_pred = (y_true + 0.5 * rng.standard_normal((N, C))).astype(np.float32)
        out.append((y_true, y_pred, weight))
    return out


CASES = [  # (class name, keyword arguments, data kind)
    ("AUC", {}, "binary"),
    ("AUC", {}, "binary_edges"),
    ("AUC", {"curve": "PR"}, "binary"),
    ("AUC", {"curve": "PR", "summation_method": "minoring"}, "multilabel"),
    ("AUC", {"summation_method": "majoring", "num_thresholds": 17}, "multilabel"),
    ("AUC", {"multi_label": True, "from_logits": True}, "logits"),
    ("AUC", {"multi_label": True, "label_weights": [1.0, 2.0, 0.0, 0.5], "curve": "PR"},
     "multilabel"),
    ("AUC", {"thresholds": [0.1, 0.35, 0.6, 0.8]}, "multilabel"),
    ("AUC", {"label_weights": [1.0, 2.0, 0.0, 0.5]}, "multilabel"),
    ("Precision", {}, "binary"),
    ("Precision", {"thresholds": [0.2, 0.5, 0.7]}, "multilabel"),
    ("Precision", {"thresholds": [0.0, 0.5, 1.0]}, "binary_edges"),
    ("Precision", {"top_k": 2}, "multilabel"),
    ("Precision", {"class_id": 1}, "multilabel"),
    ("Recall", {}, "multilabel"),
    ("Recall", {"top_k": 1, "class_id": 2}, "onehot"),
    ("Recall", {"thresholds": [0.3, 0.6]}, "binary"),
    ("TruePositives", {}, "binary"),
    ("TrueNegatives", {"thresholds": [0.25, 0.75]}, "multilabel"),
    ("FalsePositives", {}, "multilabel"),
    ("FalseNegatives", {"thresholds": 0.3}, "binary"),
    ("PrecisionAtRecall", {"recall": 0.6}, "binary"),
    ("RecallAtPrecision", {"precision": 0.5, "num_thresholds": 50}, "multilabel"),
    ("SensitivityAtSpecificity", {"specificity": 0.4}, "multilabel"),
    ("SpecificityAtSensitivity", {"sensitivity": 0.7, "class_id": 1}, "multilabel"),
    ("TopKCategoricalAccuracy", {"k": 2}, "onehot"),
    ("SparseTopKCategoricalAccuracy", {"k": 2}, "sparse"),
    ("SparseTopKCategoricalAccuracy", {}, "sparse"),
    ("BinaryAccuracy", {"threshold": 0.4}, "multilabel"),
    ("CategoricalAccuracy", {}, "onehot"),
    ("SparseCategoricalAccuracy", {}, "sparse"),
    ("MeanIoU", {"num_classes": C}, "labels"),
    ("IoU", {"num_classes": C, "target_class_ids": [0, 2]}, "labels"),
    ("MeanIoU", {"num_classes": C, "ignore_class": 1}, "labels"),
    ("OneHotMeanIoU", {"num_classes": C}, "onehot"),
    ("OneHotIoU", {"num_classes": C, "target_class_ids": [1, 3]}, "onehot"),
    ("BinaryIoU", {}, "binary"),
    ("F1Score", {}, "onehot"),
    ("F1Score", {"average": "macro", "threshold": 0.4}, "multilabel"),
    ("FBetaScore", {"average": "weighted", "beta": 2.0, "threshold": 0.5}, "multilabel"),
    ("FBetaScore", {"average": "micro", "beta": 0.5}, "onehot"),
    ("R2Score", {}, "real"),
    ("R2Score", {"class_aggregation": "variance_weighted_average"}, "real"),
    ("R2Score", {"class_aggregation": None}, "real"),
    ("R2Score", {"num_regressors": 2}, "real"),
    ("RootMeanSquaredError", {}, "real"),
    ("MeanSquaredError", {}, "real"),
    ("MeanAbsoluteError", {}, "real"),
    ("MeanAbsolutePercentageError", {}, "positive"),
    ("MeanSquaredLogarithmicError", {}, "positive"),
    ("CosineSimilarity", {}, "real"),
    ("LogCoshError", {}, "real"),
    ("BinaryCrossentropy", {}, "multilabel"),
    ("BinaryCrossentropy", {"from_logits": True, "label_smoothing": 0.1}, "logits"),
    ("CategoricalCrossentropy", {"label_smoothing": 0.1}, "onehot"),
    ("SparseCategoricalCrossentropy", {}, "sparse"),
    ("SparseCategoricalCrossentropy", {"ignore_class": 0}, "sparse"),
    ("KLDivergence", {}, "onehot"),
    ("Poisson", {}, "positive"),
    ("Hinge", {}, "multilabel"),
    ("SquaredHinge", {}, "multilabel"),
    ("CategoricalHinge", {}, "onehot"),
    ("PearsonCorrelation", {}, "real"),
    ("ConcordanceCorrelation", {}, "real"),
    ("PearsonCorrelation", {"axis": 0}, "real"),
]


def _plain(config: dict) -> dict:
    """The config with Keras's uniquifying name suffix ('auc_3') and tensors removed."""
    plain = {}
    for key, value in config.items():
        if key == "name":
            value = re.sub(r"_\d+$", "", value)
        elif hasattr(value, "shape"):
            value = np.asarray(value).tolist()
        plain[key] = value
    return plain


def _run(module, name, kwargs, batches, weighted):
    metric = getattr(module.keras.metrics, name)(**kwargs)
    for y_true, y_pred, weight in batches:
        metric.update_state(y_true, y_pred, sample_weight=weight if weighted else None)
    result = np.asarray(metric.result())
    names = [(v.path if hasattr(v, "path") else v.name).split(":")[0].split("/")[-1]
             for v in metric.variables]
    return result, _plain(metric.get_config()), names


@pytest.mark.parametrize("name, kwargs, kind", CASES,
                         ids=[f"{c[0]}-{c[2]}-{i}" for i, c in enumerate(CASES)])
def test_metric_results_configs_and_state_match_keras(tensorflow, name, kwargs, kind):
    batches = _batches(kind)
    for weighted in (False, kwargs.get("axis") != 0):     # axis 0 leaves no example axis
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ours = _run(tapeflow, name, kwargs, batches, weighted)
            theirs = _run(tensorflow, name, kwargs, batches, weighted)
        np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-5, atol=1e-6,
                                   err_msg=f"weighted={weighted}")
        assert ours[1] == theirs[1]
        assert ours[2] == theirs[2]


def test_mean_reduces_per_example_as_keras(tensorflow):
    values = rng.standard_normal((4, 3, 2)).astype(np.float32)
    for weight in (None, np.array([1.0, 0.0, 2.0, 0.5], np.float32),
                   rng.uniform(0, 1, (4, 3)).astype(np.float32)):
        results = []
        for module in (tapeflow, tensorflow):
            mean, total = module.keras.metrics.Mean(), module.keras.metrics.Sum()
            mean.update_state(values, sample_weight=weight)
            total.update_state(values, sample_weight=weight)
            results.append([float(mean.result()), float(mean.count.numpy()),
                            float(total.result())])
        np.testing.assert_allclose(results[0], results[1], rtol=1e-5)


@pytest.mark.parametrize("name", ["auc", "precision", "recall", "true_positives", "f1_score",
                                  "r2_score", "root_mean_squared_error", "mse", "MAPE",
                                  "top_k_categorical_accuracy", "cosine_similarity",
                                  "binary_crossentropy", "kl_divergence", "poisson"])
def test_metric_names_resolve_as_keras(tensorflow, name):
    ours, theirs = tapeflow.keras.metrics.get(name), tensorflow.keras.metrics.get(name)
    assert type(ours).__name__ == type(theirs).__name__
    assert _plain(ours.get_config()) == _plain(theirs.get_config())
