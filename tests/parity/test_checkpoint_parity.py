"""Checkpoints both ways with TensorFlow 2.21 (run in a subprocess): tf.train.Checkpoint of
a tf.Module tree and of a Keras model with Adam after two steps of a custom loop, the
CheckpointManager directory, and TF1's Saver. Each side restores what the other wrote,
bit-equal, and the restored model and optimizer continue training as the writer's do."""
import os

import numpy as np
import pytest

import tapeflow as tf
import tapeflow.compat.v1 as tf1

pytestmark = pytest.mark.parity
pytest.importorskip("crc32c")
pytest.importorskip("tensorboard")

X = np.linspace(-1.0, 1.0, 15, dtype=np.float32).reshape(5, 3)
Y = np.linspace(0.5, -0.5, 5, dtype=np.float32).reshape(5, 1)

# Both sides' programs: the same source, `tf` being TensorFlow or tapeflow.
COMMON = """
X = np.linspace(-1.0, 1.0, 15, dtype=np.float32).reshape(5, 3)
Y = np.linspace(0.5, -0.5, 5, dtype=np.float32).reshape(5, 1)

class Net(tf.Module):
    def __init__(self, fill=0.0):
        super().__init__()
        self.w = tf.Variable(np.full((2, 3), fill, np.float32), name="w")
        self.layers = [tf.Variable(fill), {"b": tf.Variable(fill), "a.x/y": tf.Variable(fill)}]

def values(net):
    return [net.w.numpy().tolist(), float(net.layers[0]), float(net.layers[1]["b"]),
            float(net.layers[1]["a.x/y"])]

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

def state(model, optimizer):
    return ([w.numpy().tolist() for layer in model.layers for w in layer.weights],
            [v.numpy().tolist() for v in optimizer.variables])
"""
exec(COMMON)  # noqa: S102  (tapeflow's side of the same program)


def test_a_module_tree_both_ways(tf_subprocess, tmp_path):
    ours = Net(1.0)
    ours.w.assign(np.arange(6, dtype=np.float32).reshape(2, 3))
    ours.layers[1]["a.x/y"].assign(-4.0)
    tf.train.Checkpoint(net=ours, step=tf.Variable(3, dtype=tf.int64)).save(tmp_path / "a/ckpt")
    result = tf_subprocess(COMMON + """
net, step = Net(), tf.Variable(0, dtype=tf.int64)
ckpt = tf.train.Checkpoint(net=net, step=step)
ckpt.restore(tf.train.latest_checkpoint(ARGS["ours"])).assert_consumed()
mine = Net(2.0)
tf.train.Checkpoint(net=mine, step=tf.Variable(9, dtype=tf.int64)).save(ARGS["theirs"] + "/ckpt")
RESULT = [values(net), int(step), int(ckpt.save_counter)]
""", ours=str(tmp_path / "a"), theirs=str(tmp_path / "b"))
    assert result == [values(ours), 3, 1]
    net, step = Net(), tf.Variable(0, dtype=tf.int64)
    tf.train.Checkpoint(net=net, step=step).restore(
        tf.train.latest_checkpoint(tmp_path / "b")).assert_consumed()
    assert values(net) == values(Net(2.0)) and int(step) == 9


def test_a_custom_training_loop_continues_identically_both_ways(tf_subprocess, tmp_path):
    start = tf_subprocess(COMMON + """
model, optimizer = mlp()
RESULT = [w.tolist() for w in model.get_weights()]
""")
    initial = [np.array(w, np.float32) for w in start]
    model, optimizer = mlp()
    model.set_weights(initial)
    for _ in range(2):
        step(model, optimizer)
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(model=model, optimizer=optimizer),
                                         tmp_path / "ours", max_to_keep=2)
    manager.save()
    our_saved = state(model, optimizer)
    our_loss = step(model, optimizer)
    ours_after = state(model, optimizer)
    result = tf_subprocess(COMMON + """
initial = [np.array(w, np.float32) for w in ARGS["initial"]]
# TF restores tapeflow's checkpoint (bit-equal) and takes the third step
model, optimizer = mlp()
optimizer.build(model.trainable_variables)
manager = tf.train.CheckpointManager(tf.train.Checkpoint(model=model, optimizer=optimizer),
                                     ARGS["ours"], max_to_keep=2)
manager.checkpoint.restore(manager.latest_checkpoint).assert_consumed()
restored = state(model, optimizer)
loss = step(model, optimizer)
restored_third = [restored, loss, state(model, optimizer)]
# TF's own two steps, saved
model, optimizer = mlp()
model.set_weights(initial)
for _ in range(2):
    step(model, optimizer)
saved = state(model, optimizer)
tf.train.CheckpointManager(tf.train.Checkpoint(model=model, optimizer=optimizer),
                           ARGS["theirs"], max_to_keep=2).save()
RESULT = [restored_third, saved, [step(model, optimizer), state(model, optimizer)]]
""", initial=start, ours=str(tmp_path / "ours"), theirs=str(tmp_path / "theirs"))
    (tf_restored, tf_loss, tf_after), tf_saved, (tf_own_loss, tf_own_after) = result
    assert tf_restored == list(our_saved)             # every weight and Adam slot, bit-equal
    # One more step in each library: equal up to float32 rounding of the two libraries.
    assert tf_loss == pytest.approx(our_loss, rel=1e-5)
    for ours, theirs in zip(ours_after[0] + ours_after[1], tf_after[0] + tf_after[1]):
        np.testing.assert_allclose(ours, theirs, rtol=2e-5, atol=1e-6)

    model, optimizer = mlp()
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(model=model, optimizer=optimizer),
                                         tmp_path / "theirs", max_to_keep=2)
    optimizer.build(model.trainable_variables)
    assert manager.restore_or_initialize() == str(tmp_path / "theirs" / "ckpt-1")
    assert list(state(model, optimizer)) == tf_saved                    # bit-equal
    loss = step(model, optimizer)
    restored = state(model, optimizer)
    assert loss == pytest.approx(tf_own_loss, rel=1e-5)
    for ours, theirs in zip(restored[0] + restored[1], tf_own_after[0] + tf_own_after[1]):
        np.testing.assert_allclose(ours, theirs, rtol=2e-5, atol=1e-6)


def test_tf1_saver_both_ways(tf_subprocess, tmp_path):
    with tf1.Graph().as_default():
        with tf1.variable_scope("dense"):
            tf1.get_variable("kernel", initializer=np.arange(6, dtype=np.float32).reshape(3, 2))
        global_step = tf1.train.get_or_create_global_step()
        with tf1.Session() as session:
            session.run(tf1.global_variables_initializer())
            session.run(global_step.assign(4))
            tf1.train.Saver().save(session, str(tmp_path / "ours" / "model.ckpt"), global_step=4)
    result = tf_subprocess("""
tf1 = tf.compat.v1
with tf.Graph().as_default():
    with tf1.variable_scope("dense"):
        kernel = tf1.get_variable("kernel", shape=[3, 2])
    global_step = tf1.train.get_or_create_global_step()
    saver = tf1.train.Saver()
    with tf1.Session() as session:
        saver.restore(session, tf1.train.latest_checkpoint(ARGS["ours"]))
        restored = session.run([kernel, global_step])
        session.run(kernel.assign(np.ones([3, 2], np.float32) * 7))
        saver.save(session, ARGS["theirs"] + "/model.ckpt", global_step=9, write_meta_graph=False)
RESULT = [restored[0].tolist(), int(restored[1]), sorted(tf.train.list_variables(ARGS["ours"]))]
""", ours=str(tmp_path / "ours"), theirs=str(tmp_path / "theirs"))
    assert result == [[[0, 1], [2, 3], [4, 5]], 4, [["dense/kernel", [3, 2]], ["global_step", []]]]
    with tf1.Graph().as_default():
        with tf1.variable_scope("dense"):
            kernel = tf1.get_variable("kernel", shape=[3, 2])
        global_step = tf1.train.get_or_create_global_step()
        with tf1.Session() as session:
            latest = tf1.train.latest_checkpoint(str(tmp_path / "theirs"))
            tf1.train.Saver().restore(session, latest)
            values = session.run([kernel, global_step])
    assert values[0].tolist() == [[7.0] * 2] * 3 and values[1] == 4   # the step is a suffix only


def test_a_mismatched_checkpoint_raises_tfs_errors_on_both_sides(tf_subprocess, tmp_path):
    tf.train.Checkpoint(v=tf.Variable([1.0, 2.0])).write(str(tmp_path / "c"))
    result = tf_subprocess("""
out = []
for value in ([1.0, 2.0, 3.0], [1, 2]):
    try:
        tf.train.Checkpoint(v=tf.Variable(value)).read(ARGS["path"])
        out.append(None)
    except Exception as e:
        out.append(type(e).__name__)
try:
    tf.train.Checkpoint(v=tf.Variable(1.0)).restore(ARGS["path"] + "-missing")
except Exception as e:
    out.append(type(e).__name__)
RESULT = out
""", path=str(tmp_path / "c"))
    ours = []
    for value in ([1.0, 2.0, 3.0], [1, 2]):
        try:
            tf.train.Checkpoint(v=tf.Variable(value)).read(str(tmp_path / "c"))
            ours.append(None)
        except Exception as e:  # noqa: BLE001  (the class is what is compared)
            ours.append(type(e).__name__)
    with pytest.raises(tf.errors.NotFoundError) as missing:
        tf.train.Checkpoint(v=tf.Variable(1.0)).restore(str(tmp_path / "c") + "-missing")
    ours.append(type(missing.value).__name__)
    assert ours == result == ["ValueError", "InvalidArgumentError", "NotFoundError"]


MODELS = """
layers = tf.keras.layers

def functional():
    a, b = tf.keras.Input((3,)), tf.keras.Input((2,))
    joined = layers.Concatenate()([layers.Dense(4)(a), b])
    return tf.keras.Model([a, b], layers.Dense(1)(joined))

def conv():
    return tf.keras.Sequential([tf.keras.Input((8, 8, 1)), layers.Conv2D(2, 3),
                                layers.BatchNormalization(), layers.Dropout(0.5),
                                layers.Flatten(), layers.Dense(1)])

def lstm():
    return tf.keras.Sequential([tf.keras.Input((5, 3)), layers.LSTM(4), layers.Dense(1)])

def attention():
    query = tf.keras.Input((4, 6))
    return tf.keras.Model(query, layers.MultiHeadAttention(2, 3)(query, query))

class Sub(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.d1, self.d2 = layers.Dense(3), layers.Dense(1)

    def call(self, x):
        return self.d2(self.d1(x))

def subclassed():
    model = Sub()
    model(np.ones((1, 2), np.float32))
    return model

KINDS = {"functional": functional, "conv": conv, "lstm": lstm, "attention": attention,
         "subclassed": subclassed}

def numbered(model, start):
    return [np.arange(w.size, dtype=np.float32).reshape(w.shape) / 7.0 + start
            for w in model.get_weights()]
"""
exec(MODELS)  # noqa: S102


def test_keras_models_restore_both_ways(tf_subprocess, tmp_path):
    for name, make in KINDS.items():
        model = make()
        model.set_weights(numbered(model, 1.0))
        tf.train.Checkpoint(model=model).write(str(tmp_path / f"ours-{name}"))
    result = tf_subprocess(MODELS + """
out = {}
for name, make in KINDS.items():
    model = make()
    tf.train.Checkpoint(model=model).read(ARGS["directory"] + "/ours-" + name).assert_consumed()
    mine = make()
    mine.set_weights(numbered(mine, 2.0))
    tf.train.Checkpoint(model=mine).write(ARGS["directory"] + "/theirs-" + name)
    out[name] = [w.tolist() for w in model.get_weights()]
RESULT = out
""", directory=str(tmp_path))
    for name, make in KINDS.items():
        expected = make()
        expected.set_weights(numbered(expected, 1.0))
        assert result[name] == [w.tolist() for w in expected.get_weights()], name
        model = make()
        tf.train.Checkpoint(model=model).read(str(tmp_path / f"theirs-{name}")).assert_consumed()
        wanted = numbered(model, 2.0)
        for got, want in zip(model.get_weights(), wanted):
            np.testing.assert_array_equal(got, want)


def test_tf1_optimizer_slot_variables_both_ways(tf_subprocess, tmp_path):
    v = tf.Variable([1.0, 2.0])
    opt = tf1.train.AdamOptimizer(0.1)
    opt.apply_gradients([(tf.constant([1.0, 3.0]), v)])
    tf.train.Checkpoint(v=v, opt=opt).write(str(tmp_path / "ours"))
    result = tf_subprocess("""
v = tf.Variable([0.0, 0.0])
opt = tf.compat.v1.train.AdamOptimizer(0.1)
tf.train.Checkpoint(v=v, opt=opt).read(ARGS["ours"]).assert_existing_objects_matched()
got = [v.numpy().tolist(), opt.get_slot(v, "m").numpy().tolist(),
       opt.get_slot(v, "v").numpy().tolist()]
w = tf.Variable([5.0, 6.0])
theirs = tf.compat.v1.train.AdamOptimizer(0.1)
theirs.apply_gradients([(tf.constant([2.0, -1.0]), w)])
tf.train.Checkpoint(v=w, opt=theirs).write(ARGS["theirs"])
RESULT = [got, [w.numpy().tolist(), theirs.get_slot(w, "m").numpy().tolist(),
                [float(b) for b in theirs._get_beta_accumulators()]]]
""", ours=str(tmp_path / "ours"), theirs=str(tmp_path / "theirs"))
    assert result[0] == [v.numpy().tolist(), opt.get_slot(v, "m").numpy().tolist(),
                         opt.get_slot(v, "v").numpy().tolist()]
    w, theirs = tf.Variable([0.0, 0.0]), tf1.train.AdamOptimizer(0.1)
    tf.train.Checkpoint(v=w, opt=theirs).read(str(tmp_path / "theirs")).assert_consumed()
    assert [w.numpy().tolist(), theirs.get_slot(w, "m").numpy().tolist(),
            [float(b) for b in theirs._get_beta_accumulators()]] == result[1]
