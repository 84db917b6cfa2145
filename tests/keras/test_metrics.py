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
