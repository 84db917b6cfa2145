"""Checkpoints TensorFlow 2.21 wrote (tests/data/tf_trackables, made by make_fixtures.py
there) restore in tapeflow without TensorFlow: a tf.Module tree, a Keras 3 model with
Adam's state after two steps of a custom loop (the third step then gives TF's numbers),
and TF1's Saver; and the object graph tapeflow writes for the same objects is TF's, byte
for byte."""
import os
import shutil

import numpy as np
import pytest

import tapeflow as tf
import tapeflow.compat.v1 as tf1

pytest.importorskip("crc32c")
pytest.importorskip("tensorboard")

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "tf_trackables")
X = np.linspace(-1.0, 1.0, 15, dtype=np.float32).reshape(5, 3)
Y = np.linspace(0.5, -0.5, 5, dtype=np.float32).reshape(5, 1)


class Net(tf.Module):
    def __init__(self, fill=0.0):
        super().__init__()
        self.w = tf.Variable(np.full((2, 3), fill, np.float32), name="w")
        self.layers = [tf.Variable(fill), {"b": tf.Variable(fill), "a.x/y": tf.Variable(fill)}]


def copy(name, tmp_path):
    target = tmp_path / name
    shutil.copytree(os.path.join(DATA, name), target)
    return target


def test_a_module_tree_tf_saved_restores_by_edge_names(tmp_path):
    directory = copy("module", tmp_path)
    assert tf.train.latest_checkpoint(directory) == str(directory / "ckpt-1")
    net, step = Net(), tf.Variable(0, dtype=tf.int64)
    ckpt = tf.train.Checkpoint(net=net, step=step)
    ckpt.restore(tf.train.latest_checkpoint(directory)).assert_consumed()
    assert net.w.numpy().tolist() == [[0, 1, 2], [3, 4, 5]]
    assert [float(net.layers[0]), float(net.layers[1]["b"]), float(net.layers[1]["a.x/y"])] \
        == [1.5, 2.5, 3.5]
    assert int(step) == 5 and int(ckpt.save_counter) == 1
    assert tf.train.list_variables(directory) == [
        ("_CHECKPOINTABLE_OBJECT_GRAPH", []),
        ("net/layers/0/.ATTRIBUTES/VARIABLE_VALUE", []),
        ("net/layers/1/a..x.Sy/.ATTRIBUTES/VARIABLE_VALUE", []),   # TF's escaping
        ("net/layers/1/b/.ATTRIBUTES/VARIABLE_VALUE", []),
        ("net/w/.ATTRIBUTES/VARIABLE_VALUE", [2, 3]),
        ("save_counter/.ATTRIBUTES/VARIABLE_VALUE", []),
        ("step/.ATTRIBUTES/VARIABLE_VALUE", [])]


def test_the_object_graph_written_is_tfs_byte_for_byte(tmp_path):
    tf_reader = tf.train.load_checkpoint(os.path.join(DATA, "module", "ckpt-1"))
    net = Net()
    net.w.assign(np.arange(6, dtype=np.float32).reshape(2, 3))
    ckpt = tf.train.Checkpoint(net=net, step=tf.Variable(5, dtype=tf.int64))
    path = ckpt.save(tmp_path / "ckpt")
    ours = tf.train.load_checkpoint(path)
    assert ours.get_tensor("_CHECKPOINTABLE_OBJECT_GRAPH") == \
        tf_reader.get_tensor("_CHECKPOINTABLE_OBJECT_GRAPH")
    assert (tmp_path / "checkpoint").read_text() == \
        open(os.path.join(DATA, "module", "checkpoint")).read()


def test_restore_on_create_of_a_tf_checkpoint():
    net = tf.Module()
    status = tf.train.Checkpoint(net=net, step=tf.Variable(0, dtype=tf.int64)).restore(
        os.path.join(DATA, "module", "ckpt-1"))
    net.layers = [tf.Variable(0.0)]
    net.layers.append({"b": tf.Variable(0.0)})
    net.w = tf.Variable(np.zeros((2, 3), np.float32))
    assert float(net.layers[0]) == 1.5 and float(net.layers[1]["b"]) == 2.5
    assert net.w.numpy().tolist() == [[0, 1, 2], [3, 4, 5]]
    with pytest.raises(AssertionError, match=r"Unresolved object in checkpoint "
                                             r"\(root\)\.net\.layers\.1\.a\.x/y"):
        status.assert_consumed()
    status.assert_existing_objects_matched()


def mlp():
    layers = tf.keras.layers
    model = tf.keras.Sequential([tf.keras.Input((3,)), layers.Dense(4, activation="tanh"),
                                 layers.BatchNormalization(), layers.Dense(1)])
    return model, tf.keras.optimizers.Adam(0.01)


def step(model, optimizer):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(X, training=True) - Y))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return float(loss)


@pytest.mark.parametrize("built", [True, False])
def test_keras_model_and_adam_continue_training_from_tfs_checkpoint(built):
    path = os.path.join(DATA, "mlp", "ckpt-1")
    reader = tf.train.load_checkpoint(path)
    model, optimizer = mlp()
    if built:
        optimizer.build(model.trainable_variables)
    status = tf.train.Checkpoint(model=model, optimizer=optimizer).restore(path)
    if built:
        status.assert_consumed()
    assert int(optimizer.iterations) == 2
    kernel = reader.get_tensor("optimizer/_trainable_variables/0/.ATTRIBUTES/VARIABLE_VALUE")
    moving = reader.get_tensor("model/_functional/_operations/2/moving_mean/.ATTRIBUTES/"
                               "VARIABLE_VALUE")
    np.testing.assert_array_equal(model.layers[0].kernel.numpy(), kernel)       # bit-equal
    np.testing.assert_array_equal(model.layers[1].moving_mean.numpy(), moving)
    loss = step(model, optimizer)              # unbuilt: Adam's slots restore on creation
    status.assert_consumed()
    expected = np.load(os.path.join(DATA, "mlp_step3.npz"))
    assert loss == pytest.approx(float(expected["loss"]), rel=1e-6)
    weights = [model.layers[0].kernel, model.layers[0].bias, model.layers[1].gamma,
               model.layers[1].beta, model.layers[1].moving_mean, model.layers[1].moving_variance,
               model.layers[2].kernel, model.layers[2].bias]
    for i, weight in enumerate(weights):
        np.testing.assert_allclose(weight.numpy(), expected[f"arr_{i}"], rtol=1e-5, atol=1e-7)
    for i, variable in enumerate(optimizer.variables):
        np.testing.assert_allclose(variable.numpy(), expected[f"optimizer_{i}"], rtol=1e-5,
                                   atol=1e-7)


def test_a_mismatched_model_names_the_key():
    layers = tf.keras.layers
    model = tf.keras.Sequential([tf.keras.Input((3,)), layers.Dense(5),
                                 layers.BatchNormalization(), layers.Dense(1)])
    # The kernel's key is the first path TF reached it by: through the optimizer.
    with pytest.raises(ValueError, match=r"shape \(3, 4\).*shape \(3, 5\).*checkpoint key "
                                         r"optimizer/_trainable_variables/0/"):
        tf.train.Checkpoint(model=model).restore(os.path.join(DATA, "mlp", "ckpt-1"))


def test_tf1_saver_checkpoint_restores_by_variable_name(tmp_path):
    directory = copy("saver", tmp_path)
    latest = tf1.train.latest_checkpoint(str(directory))
    assert latest == str(directory / "model.ckpt-7")
    assert tf.train.list_variables(latest) == [("dense/bias", [2]), ("dense/kernel", [3, 2]),
                                               ("global_step", [])]
    reader = tf1.train.NewCheckpointReader(latest)
    assert reader.has_tensor("dense/kernel") and not reader.has_tensor("dense/other")
    assert reader.get_variable_to_shape_map() == {"dense/bias": [2], "dense/kernel": [3, 2],
                                                  "global_step": []}
    assert reader.get_variable_to_dtype_map()["global_step"] == tf.int64
    with tf1.Graph().as_default():
        with tf1.variable_scope("dense"):
            kernel = tf1.get_variable("kernel", shape=[3, 2])
            bias = tf1.get_variable("bias", shape=[2])
        global_step = tf1.train.get_or_create_global_step()
        saver = tf1.train.Saver()
        with tf1.Session() as session:
            saver.restore(session, latest)
            values = session.run([kernel, bias, global_step])
            missing = tf1.get_variable("missing", shape=[1])
            with pytest.raises(tf.errors.NotFoundError, match="Key missing not found"):
                tf1.train.Saver([missing]).restore(session, latest)
    assert values[0].tolist() == [[0, 1], [2, 3], [4, 5]] and values[1].tolist() == [0.5, -0.5]
    assert values[2] == 7
