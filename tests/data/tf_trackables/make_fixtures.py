"""Writes the TF-made checkpoints beside this file (run with TensorFlow 2.21 / Keras 3.15:
`TF_CPP_MIN_LOG_LEVEL=3 python make_fixtures.py`); tests/train/test_tf_checkpoints.py reads
them without TensorFlow.

- module/: tf.train.Checkpoint(net=<tf.Module tree>, step=int64 5).save, once.
- mlp/: a Keras 3 Sequential (Input 3, Dense 4 tanh, BatchNormalization, Dense 1) and Adam(0.01)
  after 2 steps of a custom loop, saved with tf.train.Checkpoint(model=, optimizer=);
  mlp_step3.npz: the weights (model.get_weights order) and the Adam variables after one more
  step, and that step's loss.
- saver/: TF1's Saver (relative paths) of dense/kernel, dense/bias and global_step = 7.
"""
import os
import shutil

import numpy as np

tf = None   # TensorFlow, imported by main() (pytest imports this file for doctests)

HERE = os.path.dirname(os.path.abspath(__file__))
X = np.linspace(-1.0, 1.0, 15, dtype=np.float32).reshape(5, 3)
Y = np.linspace(0.5, -0.5, 5, dtype=np.float32).reshape(5, 1)


def initial_weights():
    """The MLP's starting weights (Keras's get_weights order), fixed numbers."""
    return [np.linspace(-0.5, 0.5, 12, dtype=np.float32).reshape(3, 4),
            np.array([0.1, -0.1, 0.2, 0.0], np.float32),
            np.ones(4, np.float32), np.zeros(4, np.float32),
            np.zeros(4, np.float32), np.ones(4, np.float32),
            np.linspace(0.3, -0.3, 4, dtype=np.float32).reshape(4, 1),
            np.array([0.05], np.float32)]


def mlp():
    keras = tf.keras
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="tanh"),
                              keras.layers.BatchNormalization(), keras.layers.Dense(1)])
    model.set_weights(initial_weights())
    return model, keras.optimizers.Adam(0.01)


def step(model, optimizer):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(X, training=True) - Y))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return float(loss)


def fresh(name):
    path = os.path.join(HERE, name)
    shutil.rmtree(path, ignore_errors=True)
    return path


def module_tree():
    class Net(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(np.arange(6, dtype=np.float32).reshape(2, 3), name="w")
            self.layers = [tf.Variable(1.5), {"b": tf.Variable(2.5), "a.x/y": tf.Variable(3.5)}]
    return Net()


def main():
    global tf
    import tensorflow
    tf = tensorflow
    tf.train.Checkpoint(net=module_tree(), step=tf.Variable(5, dtype=tf.int64)).save(
        os.path.join(fresh("module"), "ckpt"))

    model, optimizer = mlp()
    step(model, optimizer)
    step(model, optimizer)
    tf.train.Checkpoint(model=model, optimizer=optimizer).save(
        os.path.join(fresh("mlp"), "ckpt"))
    loss = step(model, optimizer)
    np.savez(os.path.join(HERE, "mlp_step3.npz"), loss=np.float32(loss),
             *[np.asarray(w) for w in model.get_weights()],
             **{f"optimizer_{i}": np.asarray(v) for i, v in enumerate(optimizer.variables)})

    tf1 = tf.compat.v1
    with tf.Graph().as_default():
        with tf1.variable_scope("dense"):
            tf1.get_variable("kernel", initializer=np.arange(6, dtype=np.float32).reshape(3, 2))
            tf1.get_variable("bias", initializer=np.array([0.5, -0.5], np.float32))
        step_var = tf1.train.get_or_create_global_step()
        saver = tf1.train.Saver(save_relative_paths=True)
        with tf1.Session() as session:
            session.run(tf1.global_variables_initializer())
            session.run(step_var.assign(7))
            saver.save(session, os.path.join(fresh("saver"), "model.ckpt"), global_step=7,
                       write_meta_graph=False)


if __name__ == "__main__":
    main()
