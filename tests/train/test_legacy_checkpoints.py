"""Checkpoints tapeflow wrote before TF's format (one `.npz`, keyed by attribute paths;
tests/data/tapeflow_npz, written by tapeflow 0.x's Checkpoint.write) still restore: a
tf.Module tree, and a Keras model with Adam's slots ('.OPTIMIZER_SLOT/...' keys)."""
import os

import numpy as np
import pytest

import tapeflow as tf

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "tapeflow_npz")


class Net(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(np.zeros((2, 3), np.float32), name="w")
        self.layers = [tf.Variable(0.0), {"b": tf.Variable(0.0)}]


def test_a_module_tree_of_the_former_format_restores():
    net, step = Net(), tf.Variable(0, dtype=tf.int64)
    tf.train.Checkpoint(net=net, step=step).restore(os.path.join(DATA, "module")) \
        .assert_consumed()
    assert net.w.numpy().tolist() == [[0, 1, 2], [3, 4, 5]]
    assert float(net.layers[0]) == 1.5 and float(net.layers[1]["b"]) == 2.5 and int(step) == 5
    assert ("net/layers/1/b/.ATTRIBUTES/VARIABLE_VALUE", []) in \
        tf.train.list_variables(os.path.join(DATA, "module"))


def test_a_keras_model_and_adam_of_the_former_format_restore_with_their_slots():
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
    optimizer = tf.keras.optimizers.Adam(0.1)
    status = tf.train.Checkpoint(model=model, optimizer=optimizer).restore(
        os.path.join(DATA, "keras"))
    status.assert_consumed()
    expected = np.load(os.path.join(DATA, "keras_values.npz"))
    np.testing.assert_array_equal(model.layers[0].kernel.numpy(), expected["kernel"])
    np.testing.assert_array_equal(model.layers[0].bias.numpy(), expected["bias"])
    assert int(optimizer.iterations) == 1
    momentum = tf.train.load_variable(os.path.join(DATA, "keras"),
                                      "model/layer-0/kernel/.OPTIMIZER_SLOT/optimizer/momentum/"
                                      ".ATTRIBUTES/VARIABLE_VALUE")
    np.testing.assert_array_equal(optimizer.variables[2].numpy(), momentum)
    assert np.any(momentum != 0)


def test_a_damaged_former_file_is_data_loss_naming_it(tmp_path):
    (tmp_path / "broken.npz").write_bytes(b"not a checkpoint")
    with pytest.raises(tf.errors.DataLossError, match="broken.npz"):
        tf.train.Checkpoint(v=tf.Variable(1.0)).restore(tmp_path / "broken")
