"""Recurrent layers against NumPy references of each cell; masks, states, directions."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.keras.masks import get_keras_mask

L = tf.keras.layers


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def simple_step(x, states, w):
    kernel, recurrent, bias = w
    h = np.tanh(x @ kernel + states[0] @ recurrent + bias)
    return h, [h]


def lstm_step(x, states, w):
    kernel, recurrent, bias = w
    h, c = states
    i, f, g, o = np.split(x @ kernel + h @ recurrent + bias, 4, axis=-1)
    c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
    h = sigmoid(o) * np.tanh(c)
    return h, [h, c]


def gru_step(x, states, w):
    kernel, recurrent, bias = w
    h = states[0]
    xz, xr, xh = np.split(x @ kernel + bias[0], 3, axis=-1)
    hz, hr, hh = np.split(h @ recurrent + bias[1], 3, axis=-1)
    z, r = sigmoid(xz + hz), sigmoid(xr + hr)
    h = z * h + (1 - z) * np.tanh(xh + r * hh)
    return h, [h]


def reference(step, x, weights, n_states, units, mask=None, backwards=False):
    """(every output, final states) of `step` run over x [batch, time, features]."""
    states = [np.zeros((x.shape[0], units))] * n_states
    output, outputs = np.zeros((x.shape[0], units)), []
    steps = range(x.shape[1])[::-1] if backwards else range(x.shape[1])
    for t in steps:
        out, new = step(x[:, t], states, weights)
        if mask is not None:
            keep = mask[:, t, None]
            new = [np.where(keep, n, s) for n, s in zip(new, states)]
            out = np.where(keep, out, output)
        states, output = new, out
        outputs.append(out)
    return np.stack(outputs, 1), states


CELLS = {"SimpleRNN": (simple_step, 1), "LSTM": (lstm_step, 2), "GRU": (gru_step, 1)}
X = np.random.default_rng(0).standard_normal((3, 5, 4)).astype(np.float32)
MASK = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1], [1, 0, 1, 1, 0]], bool)


def random_weights(layer, seed=1):
    rng = np.random.default_rng(seed)
    layer.set_weights([0.5 * rng.standard_normal(w.shape) for w in layer.get_weights()])
    return layer.get_weights()


@pytest.mark.parametrize("backwards", [False, True], ids=["forward", "backward"])
@pytest.mark.parametrize("masked", [False, True], ids=["plain", "masked"])
@pytest.mark.parametrize("name", sorted(CELLS))
def test_layer_matches_numpy_reference(name, masked, backwards):
    step, n_states = CELLS[name]
    layer = getattr(L, name)(3, return_sequences=True, return_state=True,
                             go_backwards=backwards)
    layer(X)
    weights = random_weights(layer)
    mask = MASK if masked else None
    seq, *states = layer(X, mask=None if mask is None else tf.constant(mask))
    want_seq, want_states = reference(step, X, weights, n_states, 3, mask, backwards)
    np.testing.assert_allclose(seq.numpy(), want_seq, rtol=1e-5, atol=1e-5)
    for got, want in zip(states, want_states):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-5)


def test_weights_layout_and_lstm_forget_bias():
    lstm, gru = L.LSTM(3), L.GRU(3)
    lstm(X), gru(X)
    assert [w.shape.as_list() for w in lstm.weights] == [[4, 12], [3, 12], [12]]
    assert [w.shape.as_list() for w in gru.weights] == [[4, 9], [3, 9], [2, 9]]
    np.testing.assert_array_equal(lstm.get_weights()[2], [0] * 3 + [1] * 3 + [0] * 6)
    q = lstm.get_weights()[1]                          # orthogonal rows
    np.testing.assert_allclose(q @ q.T, np.eye(3), atol=1e-5)


def test_initial_state_and_cell_call_agree_with_layer():
    layer = L.LSTM(3, return_state=True)
    layer(X)
    h0, c0 = np.ones((3, 3), np.float32), np.full((3, 3), 0.5, np.float32)
    out, h, c = layer(X, initial_state=[tf.constant(h0), tf.constant(c0)])
    _, want = reference(lstm_step, X, layer.get_weights(), 2, 3)
    states = [h0, c0]
    for t in range(5):
        _, states = lstm_step(X[:, t], states, layer.get_weights())
    np.testing.assert_allclose(h.numpy(), states[0], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(c.numpy(), states[1], rtol=1e-5, atol=1e-5)


def test_stateful_carries_states_until_reset():
    layer = L.GRU(3, stateful=True)
    first = layer(X[:, :2]).numpy()
    second = layer(X[:, 2:]).numpy()
    whole = L.GRU(3)
    whole(X)
    whole.set_weights(layer.get_weights())
    np.testing.assert_allclose(second, whole(X).numpy(), rtol=1e-5, atol=1e-5)
    layer.reset_state()
    np.testing.assert_allclose(layer(X[:, :2]).numpy(), first, rtol=1e-6)
    with pytest.raises(AttributeError):
        L.GRU(3).reset_states()


@pytest.mark.parametrize("mode,combine", [
    ("concat", lambda f, b: np.concatenate([f, b], -1)), ("sum", np.add),
    ("mul", np.multiply), ("ave", lambda f, b: (f + b) / 2)])
def test_bidirectional_merge_modes(mode, combine):
    layer = L.Bidirectional(L.SimpleRNN(2, return_sequences=True), merge_mode=mode)
    layer(X)
    weights = random_weights(layer)
    forward, _ = reference(simple_step, X, weights[:3], 1, 2)
    backward, _ = reference(simple_step, X, weights[3:], 1, 2, backwards=True)
    np.testing.assert_allclose(layer(X).numpy(), combine(forward, backward[:, ::-1]),
                               rtol=1e-5, atol=1e-5)


def test_bidirectional_without_merge_returns_both():
    out = L.Bidirectional(L.LSTM(2), merge_mode=None)(X)
    assert [o.shape.as_list() for o in out] == [[3, 2], [3, 2]]
    with pytest.raises(ValueError, match="merge mode"):
        L.Bidirectional(L.LSTM(2), merge_mode="max")


def test_stacked_and_user_cells():
    class Accumulate(L.Layer):
        state_size = 4

        def call(self, inputs, states):
            total = states[0] + inputs
            return total, [total]

    out = L.RNN(Accumulate(), return_sequences=True)(X)
    np.testing.assert_allclose(out.numpy(), np.cumsum(X, 1), rtol=1e-6)
    stacked = L.RNN([L.SimpleRNNCell(3), L.SimpleRNNCell(2)], return_state=True)
    out, s1, s2 = stacked(X)
    weights = random_weights(stacked)
    first, _ = reference(simple_step, X, weights[:3], 1, 3)
    second, _ = reference(simple_step, first.astype(np.float32), weights[3:], 1, 2)
    np.testing.assert_allclose(stacked(X)[0].numpy(), second[:, -1], rtol=1e-5, atol=1e-5)


def test_time_distributed_applies_per_step():
    dense = L.Dense(2)
    out = L.TimeDistributed(dense)(X)
    np.testing.assert_allclose(out.numpy(), X @ dense.kernel.numpy() + dense.bias.numpy(),
                               rtol=1e-5, atol=1e-6)


def test_masks_flow_from_embedding_and_masking():
    ids = tf.constant([[3, 4, 0, 0], [5, 0, 0, 0]])
    embedded = L.Embedding(8, 2, mask_zero=True)(ids)
    np.testing.assert_array_equal(get_keras_mask(embedded).numpy(), ids.numpy() != 0)
    pooled = L.GlobalAveragePooling1D()(embedded)
    want = embedded.numpy()[0, :2].mean(0)
    np.testing.assert_allclose(pooled.numpy()[0], want, rtol=1e-6)
    model = tf.keras.Sequential([L.Embedding(8, 2, mask_zero=True), L.LSTM(3)])
    padded = model(tf.constant([[3, 4, 0, 0]])).numpy()
    np.testing.assert_allclose(padded, model(tf.constant([[3, 4]])).numpy(), rtol=1e-6)
    x = np.array([[[1.0], [0.0], [2.0]]], np.float32)
    masked = L.Masking()(x)
    np.testing.assert_array_equal(get_keras_mask(masked).numpy(), [[True, False, True]])


def test_functional_model_carries_masks():
    inputs = tf.keras.Input(shape=(None,), dtype="int32")
    x = L.Embedding(8, 2, mask_zero=True)(inputs)
    outputs = L.GRU(3)(x)
    model = tf.keras.Model(inputs, outputs)
    np.testing.assert_allclose(model(tf.constant([[3, 4, 0, 0]])).numpy(),
                               model(tf.constant([[3, 4]])).numpy(), rtol=1e-6)


@pytest.mark.parametrize("name", sorted(CELLS))
def test_gradients_reach_every_weight_eager_and_in_function(name):
    layer = getattr(L, name)(3, dropout=0.2, recurrent_dropout=0.2)
    x = tf.constant(X)

    def grads():
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(layer(x, training=True) ** 2)
        return tape.gradient(loss, [x] + layer.trainable_weights)

    for got in (grads(), tf.function(grads)()):
        assert all(g is not None and np.isfinite(tf.convert_to_tensor(g).numpy()).all()
                   for g in got)
    eager, traced = layer(x).numpy(), tf.function(lambda: layer(x))().numpy()
    np.testing.assert_allclose(eager, traced, rtol=1e-6)


def test_eager_gradients_follow_in_place_weight_updates():
    # One eager backward pass transposes the recurrent kernel once for all its steps
    # (OpRecord.memo); after the optimizer updates the kernel, the next pass must use the
    # new kernel: each pass agrees with the traced step, which has no memo.
    layer = L.LSTM(3)
    x = tf.constant(X)
    layer(x)
    optimizer = tf.keras.optimizers.SGD(0.5)

    def grads():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(layer(x) ** 2)
        return tape.gradient(loss, layer.trainable_weights)

    traced = tf.function(grads)
    before = layer.cell.recurrent_kernel.numpy().copy()
    for _ in range(3):
        got = grads()
        for g, want in zip(got, traced()):
            np.testing.assert_allclose(g.numpy(), want.numpy(), rtol=1e-5, atol=1e-6)
        optimizer.apply_gradients(zip(got, layer.trainable_weights))
    assert not np.allclose(before, layer.cell.recurrent_kernel.numpy())


def test_config_round_trip():
    layer = L.LSTM(3, return_sequences=True, go_backwards=True, dropout=0.1)
    clone = L.LSTM.from_config(layer.get_config())
    assert (clone.units, clone.return_sequences, clone.go_backwards, clone.dropout) == (
        3, True, True, 0.1)


@pytest.mark.parametrize("backwards", [False, True], ids=["forward", "backward"])
@pytest.mark.parametrize("name", sorted(CELLS))
def test_function_matches_eager_with_masks_and_gradients(name, backwards):
    layer = getattr(L, name)(3, return_sequences=True, return_state=True,
                             go_backwards=backwards)
    mask = tf.constant(MASK)
    x = tf.constant(X)
    layer(x)

    def run(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            seq, *states = layer(x, mask=mask)
            loss = tf.reduce_sum(seq ** 2) + sum(tf.reduce_sum(s * 1.5) for s in states)
        return [seq, *states, *tape.gradient(loss, [x] + layer.trainable_weights)]

    unknown_length = tf.function(run, input_signature=[
        tf.TensorSpec([None, None, 4], tf.float32)])
    want = run(x)
    for traced in (tf.function(run), unknown_length):
        for got, expected in zip(traced(x), want):
            np.testing.assert_allclose(tf.convert_to_tensor(got).numpy(), expected.numpy(),
                                       rtol=1e-5, atol=1e-6)


def test_fit_and_evaluate_weigh_masked_steps_zero():
    model = tf.keras.Sequential([tf.keras.Input(shape=(4,), dtype="int32"),
                                 L.Embedding(6, 4, mask_zero=True),
                                 L.LSTM(3, return_sequences=True), L.Dense(2)])
    model.compile("sgd", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    x = np.array([[1, 2, 0, 0], [3, 0, 0, 0]])
    y = np.array([[1, 0, 1, 1], [0, 1, 1, 1]])
    logits = model(x).numpy()
    shifted = logits - logits.max(-1, keepdims=True)
    losses = np.log(np.exp(shifted).sum(-1)) - np.take_along_axis(shifted, y[..., None], -1)[..., 0]
    real = x != 0
    loss, accuracy = model.evaluate(x, y, verbose=0)
    assert loss == pytest.approx(losses[real].mean(), rel=1e-5)
    assert accuracy == pytest.approx((logits.argmax(-1) == y)[real].mean())
    model.fit(x, y, epochs=1, verbose=0)


def test_merge_layers_combine_masks():
    ids, other = tf.constant([[1, 2, 0, 0]]), tf.constant([[0, 0, 3, 0]])
    first = L.Embedding(6, 3, mask_zero=True)(ids)
    second = L.Embedding(6, 3, mask_zero=True)(other)
    np.testing.assert_array_equal(get_keras_mask(L.Add()([first, second])).numpy(),
                                  [[True, True, True, False]])
    plain = L.Embedding(6, 3)(other)
    assert get_keras_mask(L.Add()([first, plain])) is None
    np.testing.assert_array_equal(get_keras_mask(L.Concatenate()([first, plain])).numpy(),
                                  [[True, True, True, True]])


@pytest.mark.parametrize("build", [
    lambda: L.SimpleRNN(3, return_sequences=True, dtype="float64"),
    lambda: L.LSTM(3, return_sequences=True, dtype="float64"),
    lambda: L.GRU(3, return_sequences=True, dtype="float64"),
    lambda: L.GRU(3, reset_after=False, dtype="float64"),
    lambda: L.Bidirectional(L.LSTM(2, dtype="float64"), dtype="float64")],
    ids=["simple", "lstm", "gru", "gru_v1", "bidirectional"])
def test_input_gradients_match_finite_differences(build):
    layer = build()
    x = tf.constant(X[:2, :4].astype(np.float64))
    layer(x)
    theoretical, numerical = tf.test.compute_gradient(lambda x: layer(x, mask=tf.constant(
        MASK[:2, :4])), [x])
    np.testing.assert_allclose(theoretical[0], numerical[0], atol=1e-6)


def _traced_ops(layer, steps, **call):
    """The op types of the graph of a training step of `layer` on `steps` time steps."""
    x = np.random.default_rng(2).standard_normal((2, steps, 4)).astype(np.float32)
    layer(x)

    def step(x):
        with tf.GradientTape() as tape:
            out = layer(x, **call)
            loss = sum(tf.reduce_sum(o ** 2) for o in (out if isinstance(out, list) else [out]))
        return tape.gradient(loss, layer.trainable_weights)
    graph = tf.function(step).get_concrete_function(tf.constant(x)).graph
    return graph.get_operations()


@pytest.mark.parametrize("build,directions", [
    (lambda: L.LSTM(3, return_sequences=True, dropout=0.2, recurrent_dropout=0.3), 1),
    (lambda: L.GRU(3, go_backwards=True), 1),
    (lambda: L.RNN([L.SimpleRNNCell(3), L.LSTMCell(2)], return_state=True), 1),
    (lambda: L.Bidirectional(L.LSTM(2, return_sequences=True)), 2)],
    ids=["lstm", "gru", "stacked", "bidirectional"])
def test_function_runs_one_while_loop_whatever_the_length(build, directions):
    counts = []
    for steps in (3, 12):
        ops = _traced_ops(build(), steps, training=True)
        counts.append(len(ops))
        loops = [op for op in ops if op.type == "While"]
        assert len(loops) == 2 * directions    # a loop per direction, and its gradient's
        bodies = [op.get_attr("body_fn").graph.get_operations() for op in loops]
        assert not any("Random" in op.type for body in bodies for op in body)
    assert counts[0] == counts[1]


def test_unroll_runs_the_steps_as_python():
    ops = _traced_ops(L.SimpleRNN(3, unroll=True), 4)
    assert not any(op.type == "While" for op in ops)
    with pytest.raises(ValueError, match="cannot unroll"):
        tf.function(L.SimpleRNN(3, unroll=True), input_signature=[
            tf.TensorSpec([None, None, 4], tf.float32)]).get_concrete_function()


def test_function_traces_once_for_every_length():
    layer = L.GRU(3, return_sequences=True)
    run = tf.function(lambda x: layer(x), input_signature=[
        tf.TensorSpec([None, None, 4], tf.float32)])
    for steps in (2, 5, 7):
        x = X[:, :steps] if steps <= 5 else np.concatenate([X, X[:, :2]], 1)
        np.testing.assert_allclose(run(x).numpy(), layer(x).numpy(), rtol=1e-5, atol=1e-6)
    # Two traces, both on the first call: it built the layer (made variables), and a first
    # call that makes variables traces again without making any, as in TF.
    assert run.experimental_get_tracing_count() == 2


def test_initial_and_carried_states_in_function_match_eager():
    layer = L.LSTM(3, return_state=True, go_backwards=True)
    layer(X)
    h0, c0 = tf.constant(np.ones((3, 3), np.float32)), tf.constant(np.zeros((3, 3), np.float32))
    mask = tf.constant(MASK)
    eager = layer(X, initial_state=[h0, c0], mask=mask)
    traced = tf.function(lambda: layer(X, initial_state=[h0, c0], mask=mask))()
    for got, want in zip(traced, eager):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-6)
    stateful, reference_layer = L.GRU(3, stateful=True), L.GRU(3)
    stateful(X[:, :2])
    reference_layer(X)
    reference_layer.set_weights(stateful.get_weights())
    stateful.reset_state()
    step = tf.function(lambda x: stateful(x))
    step(X[:, :2])
    np.testing.assert_allclose(step(X[:, 2:]).numpy(), reference_layer(X).numpy(),
                               rtol=1e-5, atol=1e-6)
