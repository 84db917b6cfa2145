"""tf.compat.v1.train: optimizers and their slots, global step, schedules, moving averages,
Saver, MonitoredTrainingSession and hooks."""
import logging
import os

import numpy as np
import pytest

import tapeflow as tf
import tapeflow.compat.v1 as tf1
from tapeflow.framework import errors


def quadratic(optimizer, steps=200):
    """Minimizes |w - [1, -2]|² from w = 0; returns the final w and the optimizer's
    variables' names."""
    w = tf1.get_variable("w", initializer=tf1.zeros_initializer(), shape=[2])
    loss = tf1.reduce_sum(tf1.square(w - tf1.constant([1.0, -2.0])))
    step = tf1.train.get_or_create_global_step()
    train = optimizer.minimize(loss, global_step=step)
    with tf1.Session() as sess:
        sess.run(tf1.global_variables_initializer())
        for _ in range(steps):
            sess.run(train)
        assert sess.run(step) == steps
        return sess.run(w), [v.name for v in optimizer.variables()]


OPTIMIZERS = [  # (optimizer, its variables' names)
    (lambda: tf1.train.MomentumOptimizer(0.05, 0.9), ["w/Momentum:0"]),
    (lambda: tf1.train.MomentumOptimizer(0.05, 0.9, use_nesterov=True), ["w/Momentum:0"]),
    (lambda: tf1.train.AdamOptimizer(0.1),
     ["beta1_power:0", "beta2_power:0", "w/Adam:0", "w/Adam_1:0"]),
    (lambda: tf1.train.RMSPropOptimizer(0.05), ["w/RMSProp:0", "w/RMSProp_1:0"]),
    (lambda: tf1.train.RMSPropOptimizer(0.02, momentum=0.5, centered=True),
     ["w/RMSProp:0", "w/RMSProp_1:0", "w/RMSProp_2:0"]),
    (lambda: tf1.train.AdagradOptimizer(0.5), ["w/Adagrad:0"]),
    (lambda: tf1.train.AdadeltaOptimizer(50.0), ["w/Adadelta:0", "w/Adadelta_1:0"]),
    (lambda: tf1.train.FtrlOptimizer(0.5), ["w/Ftrl:0", "w/Ftrl_1:0"]),
    (lambda: tf1.train.ProximalGradientDescentOptimizer(0.1), []),
    (lambda: tf1.train.ProximalAdagradOptimizer(0.5), ["w/ProximalAdagrad:0"]),
]


@pytest.mark.parametrize("make, names", OPTIMIZERS)
def test_optimizers_converge_and_name_their_slots(graph_mode, make, names):
    w, made = quadratic(make())
    np.testing.assert_allclose(w, [1.0, -2.0], atol=0.05)
    assert sorted(made) == sorted(names)


def test_slots_and_var_list(graph_mode):
    a = tf1.Variable(1.0, name="a")
    b = tf1.Variable(1.0, name="b")
    optimizer = tf1.train.AdamOptimizer(0.1)
    train = optimizer.minimize(a * a + b * b, var_list=[a])
    assert optimizer.get_slot_names() == ["m", "v"]
    assert optimizer.get_slot(a, "m").name == "a/Adam:0" and optimizer.get_slot(b, "m") is None
    beta1_power, _ = optimizer._get_beta_accumulators()
    with tf1.Session() as sess:
        sess.run(tf1.global_variables_initializer())
        sess.run(train)
        assert sess.run(b) == 1.0 and sess.run(a) == pytest.approx(0.9)
        assert sess.run(beta1_power) == pytest.approx(0.81)
    assert all(not v.trainable for v in optimizer.variables())
    assert tf1.trainable_variables() == [a, b]


def test_proximal_steps_shrink_toward_zero(graph_mode):
    # v = w - lr g = [0.4, -0.05, 2.0]; l1 = 0.5 takes lr * l1 = 0.1 off |v| (0 below it),
    # then l2 = 1 divides by 1 + lr * l2 = 1.2.
    w = tf1.Variable([0.5, 0.0, 2.0], name="w")
    proximal = tf1.train.ProximalGradientDescentOptimizer(
        0.2, l1_regularization_strength=0.5, l2_regularization_strength=1.0)
    step = proximal.apply_gradients([(tf1.constant([0.5, 0.25, 0.0]), w)])
    with tf1.Session() as sess:
        sess.run(tf1.global_variables_initializer())
        sess.run(step)
        np.testing.assert_allclose(sess.run(w), [0.3 / 1.2, 0.0, 1.9 / 1.2], rtol=1e-6)


def test_optimizer_argument_errors():
    with pytest.raises(ValueError, match="initial_accumulator_value"):
        tf1.train.AdagradOptimizer(0.1, initial_accumulator_value=0.0)
    with pytest.raises(ValueError, match="learning_rate_power"):
        tf1.train.FtrlOptimizer(0.1, learning_rate_power=0.5)
    with pytest.raises(ValueError, match="l1_regularization_strength"):
        tf1.train.FtrlOptimizer(0.1, l1_regularization_strength=-1.0)


def test_optimizers_eagerly_with_a_schedule():
    w = tf.Variable(5.0)
    step = tf.Variable(0, dtype=tf.int64)
    rate = tf1.train.exponential_decay(0.1, step, 10, 0.5)
    assert callable(rate)
    optimizer = tf1.train.AdamOptimizer(rate)
    for _ in range(3):
        optimizer.minimize(lambda: w * w, global_step=step)
    assert int(step) == 3 and float(w) < 5.0 - 0.25
    assert optimizer.get_slot(w, "m") is not None


def test_global_step(graph_mode):
    assert tf1.train.get_global_step() is None
    step = tf1.train.get_or_create_global_step()
    assert step.dtype == tf.int64 and step.name == "global_step:0" and not step.trainable
    assert tf1.train.get_global_step() is step
    with pytest.raises(ValueError, match="already exists"):
        tf1.train.create_global_step()
    other = tf1.Graph()
    assert tf1.train.get_or_create_global_step(other).graph is other


SCHEDULES = [  # (schedule of the step, values at steps 0, 5, 10, 15, 25)
    (lambda s: tf1.train.exponential_decay(1.0, s, 10, 0.5), [1.0, 0.5 ** 0.5, 0.5,
                                                              0.5 ** 1.5, 0.5 ** 2.5]),
    (lambda s: tf1.train.exponential_decay(1.0, s, 10, 0.5, staircase=True),
     [1.0, 1.0, 0.5, 0.5, 0.25]),
    (lambda s: tf1.train.piecewise_constant(s, [5, 15], [1.0, 0.5, 0.1]),
     [1.0, 1.0, 0.5, 0.5, 0.1]),
    (lambda s: tf1.train.polynomial_decay(1.0, s, 20, 0.0), [1.0, 0.75, 0.5, 0.25, 0.0]),
    (lambda s: tf1.train.polynomial_decay(1.0, s, 20, 0.0, power=2.0, cycle=True),
     [1.0, 0.5625, 0.25, 0.0625, 0.375 ** 2]),  # 25 steps: decay_steps 40
    (lambda s: tf1.train.cosine_decay(1.0, s, 20), [1.0, 0.8535534, 0.5, 0.1464466, 0.0]),
    (lambda s: tf1.train.cosine_decay(1.0, s, 20, alpha=0.5),
     [1.0, 0.9267767, 0.75, 0.5732233, 0.5]),
    (lambda s: tf1.train.inverse_time_decay(1.0, s, 10, 0.5),
     [1.0, 0.8, 1 / 1.5, 1 / 1.75, 1 / 2.25]),
    (lambda s: tf1.train.inverse_time_decay(1.0, s, 10, 0.5, staircase=True),
     [1.0, 1.0, 1 / 1.5, 1 / 1.5, 0.5]),
    (lambda s: tf1.train.natural_exp_decay(1.0, s, 10, 0.5),
     [1.0, 0.7788008, 0.6065307, 0.4723666, 0.2865048]),
    # periods of 10, 20, 40 steps: steps 10 and 30 restart
    (lambda s: tf1.train.cosine_decay_restarts(1.0, s, 10), [1.0, 0.5, 1.0, 0.8535534,
                                                             0.1464466]),
    (lambda s: tf1.train.cosine_decay_restarts(1.0, s, 10, t_mul=1.0, m_mul=0.5),
     [1.0, 0.5, 0.5, 0.25, 0.125]),
    (lambda s: tf1.train.linear_cosine_decay(1.0, s, 20),      # the step clipped at 20
     [1.001, 0.75 * 0.8535534 + 0.001, 0.251, 0.25 * 0.1464466 + 0.001, 0.001]),
    (lambda s: tf1.train.noisy_linear_cosine_decay(1.0, s, 20, initial_variance=0.0),
     [1.001, 0.75 * 0.8535534 + 0.001, 0.251, 0.25 * 0.1464466 + 0.001, 0.001]),
]


@pytest.mark.parametrize("schedule, expected", SCHEDULES)
def test_schedules(graph_mode, schedule, expected):
    step = tf1.placeholder(tf.int64, [])
    rate = schedule(step)
    sess = tf1.Session()
    got = [sess.run(rate, {step: s}) for s in (0, 5, 10, 15, 25)]
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_schedule_errors():
    with pytest.raises(ValueError, match="boundaries"):
        tf1.train.piecewise_constant(0, [1, 2], [1.0])
    assert tf1.train.piecewise_constant_decay is tf1.train.piecewise_constant


def test_noisy_linear_cosine_decay_varies_around_the_linear_cosine(graph_mode):
    noisy = tf1.train.noisy_linear_cosine_decay(1.0, 5, 20, initial_variance=0.1)
    plain = tf1.train.linear_cosine_decay(1.0, 5, 20)
    sess = tf1.Session()
    draws = np.array([sess.run(noisy) for _ in range(200)])
    # noise of stddev sqrt(0.1 / 6 ** 0.55) on the linear part, times the cosine 0.854
    assert len(set(draws.tolist())) > 100
    np.testing.assert_allclose(draws.mean(), sess.run(plain), atol=0.03)
    np.testing.assert_allclose(draws.std(), 0.8535534 * np.sqrt(0.1 / 6 ** 0.55), rtol=0.2)


@pytest.mark.parametrize("fail", [True, False])
def test_nan_tensor_hook_raises_or_stops(graph_mode, fail):
    loss = tf1.placeholder(tf.float32, [])
    hook = tf1.train.NanTensorHook(loss, fail_on_nan_loss=fail)
    with tf1.train.MonitoredSession(hooks=[hook]) as sess:
        sess.run(loss, {loss: 2.0})
        assert not sess.should_stop()
        if fail:
            with pytest.raises(tf1.train.NanLossDuringTrainingError,
                               match="NaN loss during training"):
                sess.run(loss, {loss: float("nan")})
        else:
            sess.run(loss, {loss: float("nan")})
            assert sess.should_stop()


def test_exponential_moving_average(graph_mode):
    w = tf1.Variable(0.0, name="w")
    step = tf1.Variable(0.0, trainable=False, name="n")
    ema = tf1.train.ExponentialMovingAverage(0.9, num_updates=step)
    update = ema.apply([w])
    shadow = ema.average(w)
    assert shadow.name == "w/ExponentialMovingAverage:0" and not shadow.trainable
    assert ema.average_name(w) == "w/ExponentialMovingAverage"
    assert set(ema.variables_to_restore()) == {"w/ExponentialMovingAverage", "n"}
    sess = tf1.Session()
    sess.run(tf1.global_variables_initializer())
    sess.run(w.assign(10.0))
    sess.run(update)  # decay min(0.9, 1/10)
    assert sess.run(shadow) == pytest.approx(9.0)
    again = ema.apply([w])          # as TF 2.21: the same shadow, updated again
    assert ema.average(w) is shadow and len(tf1.global_variables()) == 3
    sess.run(again)                  # decay still 1/10 (n = 0): 9 + 0.9 * (10 - 9)
    assert sess.run(shadow) == pytest.approx(9.9)
    with pytest.raises(TypeError, match="float"):
        ema.apply([tf1.Variable(1, name="i")])


def test_exponential_moving_average_executing_eagerly():
    w = tf.Variable([1.0, 2.0], dtype=tf.float64)
    ema = tf.train.ExponentialMovingAverage(0.75)
    assert ema.apply([w]) is None
    np.testing.assert_array_equal(ema.average(w).numpy(), [1.0, 2.0])
    w.assign([5.0, 2.0])
    ema.apply([w, w])                # listed twice: updated twice, as TF
    np.testing.assert_allclose(ema.average(w).numpy(), [1.0 + 4 * (1 - 0.75 ** 2), 2.0])


def test_saver_round_trip_and_max_to_keep(graph_mode, tmp_path):
    v = tf1.get_variable("v", initializer=tf1.constant([1.0, 2.0]))
    step = tf1.train.get_or_create_global_step()
    bump = tf1.assign_add(step, 1)
    saver = tf1.train.Saver(max_to_keep=2)
    sess = tf1.Session()
    sess.run(tf1.global_variables_initializer())
    prefix = str(tmp_path / "model.ckpt")
    paths = []
    for _ in range(3):
        sess.run(bump)
        paths.append(saver.save(sess, prefix, global_step=step))
    assert [os.path.basename(p) for p in paths] == ["model.ckpt-1", "model.ckpt-2",
                                                    "model.ckpt-3"]
    assert saver.last_checkpoints == paths[1:]
    assert not tf1.train.checkpoint_exists(paths[0]) and tf1.train.checkpoint_exists(paths[2])
    assert tf1.train.latest_checkpoint(str(tmp_path)) == paths[2]
    assert tf.train.list_variables(paths[2]) == [("global_step", []), ("v", [2])]  # TF1's keys
    sess.run(v.assign([0.0, 0.0]))
    saver.restore(sess, paths[1])
    assert sess.run(v).tolist() == [1.0, 2.0] and sess.run(step) == 2
    by_name = tf1.train.Saver({"renamed": v})
    with pytest.raises(errors.NotFoundError, match="renamed"):
        by_name.restore(sess, paths[2])
    with pytest.raises(errors.NotFoundError):
        saver.restore(sess, str(tmp_path / "missing"))
    with pytest.raises(ValueError, match="None"):
        saver.restore(sess, None)


def test_saver_shape_mismatch_changes_nothing(graph_mode, tmp_path):
    v = tf1.Variable([1.0, 2.0], name="v")
    w = tf1.Variable(3.0, name="w")
    sess = tf1.Session()
    sess.run(tf1.global_variables_initializer())
    path = tf1.train.Saver({"v": w, "w": w}).save(sess, str(tmp_path / "bad"))
    with pytest.raises(errors.InvalidArgumentError, match="shape"):
        tf1.train.Saver().restore(sess, path)  # 'w' first would fit; 'v' does not
    assert sess.run([v, w]) == [pytest.approx([1.0, 2.0]), 3.0]


def test_saver_eagerly(tmp_path):
    v = tf.Variable([1.0, 2.0], name="eager_v")
    saver = tf1.train.Saver([v])
    path = saver.save(None, str(tmp_path / "e"))
    v.assign([5.0, 5.0])
    saver.restore(None, path)
    assert v.numpy().tolist() == [1.0, 2.0]
    with pytest.raises(RuntimeError, match="var_list"):
        tf1.train.Saver()


class Recorder(tf1.train.SessionRunHook):
    def __init__(self, tensor):
        self.tensor, self.calls, self.seen = tensor, [], []

    def begin(self):
        self.calls.append("begin")

    def after_create_session(self, session, coord):
        self.calls.append("created")

    def before_run(self, run_context):
        return tf1.train.SessionRunArgs(self.tensor)

    def after_run(self, run_context, run_values):
        self.seen.append(int(run_values.results))

    def end(self, session):
        self.calls.append("end")


def test_monitored_training_session_hooks_and_checkpoints(graph_mode, tmp_path, caplog):
    step = tf1.train.get_or_create_global_step()
    w = tf1.get_variable("w", initializer=tf1.constant(4.0))
    train = tf1.train.GradientDescentOptimizer(0.1).minimize(w * w, global_step=step)
    recorder = Recorder(step)
    hooks = [tf1.train.StopAtStepHook(num_steps=5), recorder,
             tf1.train.LoggingTensorHook({"w": w}, every_n_iter=2)]
    with caplog.at_level(logging.INFO, logger="tapeflow"):
        with tf1.train.MonitoredTrainingSession(checkpoint_dir=str(tmp_path), hooks=hooks,
                                                save_checkpoint_steps=2) as sess:
            runs = 0
            while not sess.should_stop():
                assert sess.run(train) is None
                runs += 1
    assert runs == 5 and np.diff(recorder.seen).tolist() == [1, 1, 1, 1]
    assert recorder.calls == ["begin", "created", "end"]
    logged = [r.getMessage() for r in caplog.records if r.getMessage().startswith("w = ")]
    assert len(logged) == 3  # iterations 0, 2, 4
    saved = tf1.train.get_checkpoint_state(str(tmp_path)).all_model_checkpoint_paths
    assert [os.path.basename(p) for p in saved] == ["model.ckpt-0", "model.ckpt-2",
                                                    "model.ckpt-4", "model.ckpt-5"]
    # A new session restores step 5 and w from the checkpoint, then runs 2 more steps.
    with tf1.train.MonitoredTrainingSession(
            checkpoint_dir=str(tmp_path), hooks=[tf1.train.StopAtStepHook(last_step=7)]) as sess:
        assert sess.run(step) == 5
        while not sess.should_stop():
            sess.run(train)
        assert sess.run(step) == 7 and sess.run(w) == pytest.approx(4.0 * 0.8 ** 7)


def test_monitored_session_stops_quietly_on_out_of_range(graph_mode):
    tf1.train.get_or_create_global_step()
    with tf1.train.MonitoredTrainingSession() as sess:
        raise errors.OutOfRangeError(None, None, "end of input")
    with pytest.raises(ZeroDivisionError):
        with tf1.train.MonitoredTrainingSession():
            raise ZeroDivisionError
    assert sess.should_stop() is False


def test_hook_argument_errors(graph_mode, tmp_path):
    with pytest.raises(ValueError, match="num_steps or last_step"):
        tf1.train.StopAtStepHook()
    with pytest.raises(ValueError, match="exactly one"):
        tf1.train.CheckpointSaverHook(str(tmp_path))
    with pytest.raises(ValueError, match="every_n_iter"):
        tf1.train.LoggingTensorHook({})
    hook = tf1.train.StopAtStepHook(last_step=1)
    with pytest.raises(RuntimeError, match="Global step"):
        hook.begin()


def test_embedding_gradients_with_unknown_batch(graph_mode):
    emb = tf1.get_variable("emb", initializer=tf1.constant([[1.0, 2.0], [3.0, 4.0],
                                                            [5.0, 6.0]]))
    ids = tf1.placeholder(tf.int32, [None])
    loss = tf1.reduce_sum(tf.nn.embedding_lookup(emb, ids))
    train = tf1.train.AdamOptimizer(0.1).minimize(loss)
    sess = tf1.Session()
    sess.run(tf1.global_variables_initializer())
    sess.run(train, {ids: [0, 0, 2]})
    np.testing.assert_allclose(sess.run(emb), [[0.9, 1.9], [3.0, 4.0], [4.9, 5.9]], rtol=1e-6)


def test_sparse_gradients_leave_untouched_rows_alone(graph_mode):
    emb = tf1.get_variable("emb", initializer=tf1.ones([3, 2]))
    ids = tf1.placeholder(tf.int32, [2])
    loss = tf1.reduce_sum(tf.nn.embedding_lookup(emb, ids))
    optimizer = tf1.train.MomentumOptimizer(0.1, 0.9)
    train = optimizer.minimize(loss)
    sess = tf1.Session()
    sess.run(tf1.global_variables_initializer())
    sess.run(train, {ids: [0, 0]})
    sess.run(train, {ids: [1, 1]})  # row 0's momentum does not carry it further
    np.testing.assert_allclose(sess.run(emb), [[0.8, 0.8], [0.8, 0.8], [1.0, 1.0]], rtol=1e-6)
    np.testing.assert_allclose(sess.run(optimizer.get_slot(emb, "momentum")),
                               [[2.0, 2.0], [2.0, 2.0], [0.0, 0.0]])


def test_global_step_value_and_checks(graph_mode):
    step = tf1.train.get_or_create_global_step()
    sess = tf1.Session()
    sess.run(tf1.global_variables_initializer())
    sess.run(step.assign_add(3))
    assert tf1.train.global_step(sess, step) == 3
    tf1.train.assert_global_step(step)
    tf1.train.assert_global_step(tf1.placeholder(tf.int32, None))   # shape unknown: fine
    for bad, message in ((1.0, "must be a Variable or Tensor"),
                         (tf1.Variable(0.0), "does not have integer type"),
                         (tf1.Variable([1, 2]), "is not scalar")):
        with pytest.raises(TypeError, match=message):
            tf1.train.assert_global_step(bad)


def test_global_step_executing_eagerly():
    step = tf.Variable(7, dtype=tf.int64)
    assert tf1.train.global_step(None, step) == 7


def test_final_ops_and_feed_fn_hooks(graph_mode):
    x = tf1.placeholder(tf.float32, [])
    total = tf1.Variable(0.0)
    add = total.assign_add(x)
    fed = iter([1.0, 2.0, 3.0])
    final = tf1.train.FinalOpsHook({"total": total * 10.0})
    hooks = [tf1.train.FeedFnHook(lambda: {x: next(fed)}), final]
    with tf1.train.MonitoredSession(hooks=hooks) as sess:
        for _ in range(3):
            sess.run(add)
    assert final.final_ops_values == {"total": 60.0}


def test_checkpoint_state_files_and_removal(graph_mode, tmp_path):
    v = tf1.get_variable("v", initializer=tf1.constant([1.0]))
    saver = tf1.train.Saver()
    with tf1.Session() as sess:
        sess.run(tf1.global_variables_initializer())
        first = saver.save(sess, str(tmp_path / "model"), global_step=1)
        second = saver.save(sess, str(tmp_path / "model"), global_step=2)
    times = tf1.train.get_checkpoint_mtimes([first, str(tmp_path / "none"), second])
    assert len(times) == 2 and times[0] <= times[1]
    tf1.train.remove_checkpoint(first)
    tf1.train.remove_checkpoint(first)                       # gone already: no error
    assert not tf1.train.checkpoint_exists(first) and tf1.train.checkpoint_exists(second)
    tf1.train.update_checkpoint_state(str(tmp_path), second, latest_filename="kept")
    state = tf1.train.get_checkpoint_state(str(tmp_path), "kept")
    assert state.model_checkpoint_path == second and state.all_model_checkpoint_paths == [second]
    with pytest.raises(RuntimeError, match="conflicts with path used for checkpoint state"):
        tf1.train.update_checkpoint_state(str(tmp_path), str(tmp_path / "checkpoint"))
    relative = tf1.train.generate_checkpoint_state_proto("run", "run/m-2", ["run/m-1"])
    assert (relative.model_checkpoint_path, relative.all_model_checkpoint_paths) == (
        "m-2", ["m-1", "m-2"])
    assert v.name == "v:0"


def test_singular_monitored_session_restores_and_runs_raw(tmp_path):
    with tf1.Graph().as_default():
        v = tf1.get_variable("v", initializer=tf1.constant(5.0))
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            sess.run(v.assign(7.0))
            tf1.train.Saver().save(sess, str(tmp_path / "model"))
    with tf1.Graph().as_default():
        v = tf1.get_variable("v", initializer=tf1.constant(5.0))
        seen = []

        class Counting(tf1.train.SessionRunHook):
            def before_run(self, run_context):
                seen.append(1)

        with tf1.train.SingularMonitoredSession(hooks=[Counting()],
                                                checkpoint_dir=str(tmp_path)) as sess:
            assert sess.run(v) == 7.0 and len(seen) == 1
            assert sess.raw_session().run(v * 2.0) == 14.0 and len(seen) == 1
