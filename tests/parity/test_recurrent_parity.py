"""Recurrent layers against Keras: Keras's weights copied in give Keras's outputs and
gradients with respect to the inputs and the weights."""
import numpy as np
import pytest

import tapeflow

pytestmark = pytest.mark.parity
tf = pytest.importorskip("tensorflow")
keras = tf.keras

MASK = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1], [1, 0, 1, 1, 0]], bool)

CASES = {
    "simple_rnn": lambda L: L.SimpleRNN(4, return_sequences=True),
    "lstm": lambda L: L.LSTM(4),
    "lstm_state": lambda L: L.LSTM(3, return_sequences=True, return_state=True),
    "lstm_backwards": lambda L: L.LSTM(3, go_backwards=True, return_sequences=True),
    "gru": lambda L: L.GRU(4, return_sequences=True),
    "gru_v1": lambda L: L.GRU(3, reset_after=False),
    "stacked": lambda L: L.RNN([L.LSTMCell(3), L.GRUCell(2)], return_sequences=True),
    "bidirectional_concat": lambda L: L.Bidirectional(L.LSTM(3, return_sequences=True)),
    "bidirectional_sum": lambda L: L.Bidirectional(L.GRU(3), merge_mode="sum"),
    "bidirectional_mul": lambda L: L.Bidirectional(L.SimpleRNN(2, return_sequences=True),
                                                    merge_mode="mul"),
    "bidirectional_ave": lambda L: L.Bidirectional(L.LSTM(2), merge_mode="ave"),
    "time_distributed": lambda L: L.TimeDistributed(L.Dense(3, activation="tanh")),
}


def _outputs(out):
    return out if isinstance(out, (list, tuple)) else [out]


def _run(framework, layer, x, mask, function=False):
    """The layer's outputs and the gradients of a weighted sum of them with respect to the
    inputs and the weights, in `framework` (TF or tapeflow), under `function` if asked."""
    def run(x):
        with framework.GradientTape() as tape:
            tape.watch(x)
            out = _outputs(layer(x) if mask is None else layer(x, mask=framework.constant(mask)))
            loss = sum(framework.reduce_sum(o * np.float32(i + 1.5)) for i, o in enumerate(out))
        return list(out), tape.gradient(loss, [x] + layer.trainable_weights)

    out, grads = (framework.function(run) if function else run)(framework.constant(x))
    return ([o.numpy() for o in out],
            [framework.convert_to_tensor(g).numpy() for g in grads])


@pytest.mark.parametrize("function", [False, True], ids=["eager", "function"])
@pytest.mark.parametrize("masked", [False, True], ids=["plain", "masked"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_keras(name, masked, function):
    if masked and name == "time_distributed":
        pytest.skip("TimeDistributed passes masks through")
    x = np.random.default_rng(0).standard_normal((3, 5, 4)).astype(np.float32)
    mask = MASK if masked else None
    theirs = CASES[name](keras.layers)
    theirs(x)
    ours = CASES[name](tapeflow.keras.layers)
    ours(x)
    ours.set_weights(theirs.get_weights())
    want_out, want_grads = _run(tf, theirs, x, mask)
    got_out, got_grads = _run(tapeflow, ours, x, mask, function)
    assert len(got_out) == len(want_out)
    for got, want in zip(got_out + got_grads, want_out + want_grads):
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)


def test_lstm_bias_initializer_matches_keras():
    theirs, ours = keras.layers.LSTM(3), tapeflow.keras.layers.LSTM(3)
    x = np.zeros((1, 2, 2), np.float32)
    theirs(x)
    ours(x)
    np.testing.assert_array_equal(ours.get_weights()[2], theirs.get_weights()[2])


def _masked_model(K):
    return K.Sequential([K.Input(shape=(4,), dtype="int32"),
                         K.layers.Embedding(6, 4, mask_zero=True),
                         K.layers.LSTM(3, return_sequences=True), K.layers.Dense(2)])


def test_masked_loss_and_metric_in_evaluate_match_keras():
    x = np.array([[1, 2, 0, 0], [3, 0, 0, 0], [4, 5, 1, 0]])
    y = np.array([[1, 0, 1, 1], [0, 1, 1, 1], [1, 1, 0, 1]])
    weights = np.linspace(0.5, 2.0, 12).reshape(3, 4).astype(np.float32)
    theirs, ours = _masked_model(keras), _masked_model(tapeflow.keras)
    ours.set_weights(theirs.get_weights())
    results = []
    for model, K in ((theirs, keras), (ours, tapeflow.keras)):
        model.compile("sgd", K.losses.SparseCategoricalCrossentropy(from_logits=True),
                      weighted_metrics=["accuracy"])
        results.append(model.evaluate(x, y, sample_weight=weights, verbose=0))
    np.testing.assert_allclose(results[1], results[0], rtol=1e-5)


def test_keras_files_with_recurrent_layers_load_both_ways(tmp_path):
    K = keras.layers
    model = keras.Sequential([keras.Input(shape=(5, 3)), K.Masking(),
                              K.Bidirectional(K.LSTM(4, return_sequences=True)),
                              K.TimeDistributed(K.Dense(2)), K.GRU(3), K.Dense(1)])
    x = np.random.default_rng(0).random((2, 5, 3)).astype(np.float32)
    x[0, 3:] = 0.0
    model.save(tmp_path / "keras.keras")
    ours = tapeflow.keras.models.load_model(tmp_path / "keras.keras")
    np.testing.assert_allclose(ours(x).numpy(), model(x).numpy(), rtol=1e-5, atol=1e-6)
    ours.save(tmp_path / "tapeflow.keras")
    back = keras.models.load_model(tmp_path / "tapeflow.keras")
    np.testing.assert_allclose(back(x).numpy(), model(x).numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("merge", ["Add", "Concatenate"])
@pytest.mark.parametrize("second_masked", [False, True], ids=["one_mask", "two_masks"])
def test_merged_masks_match_keras(merge, second_masked):
    from tapeflow.keras.masks import get_keras_mask
    ids = np.array([[1, 2, 0, 0], [3, 0, 0, 0]])
    other = np.array([[1, 0, 0, 2], [0, 0, 4, 0]])
    found = []
    for K, mask_of in ((keras, lambda t: getattr(t, "_keras_mask", None)),
                       (tapeflow.keras, get_keras_mask)):
        first = K.layers.Embedding(6, 3, mask_zero=True)(ids)
        second = K.layers.Embedding(6, 3, mask_zero=second_masked)(other)
        mask = mask_of(getattr(K.layers, merge)()([first, second]))
        found.append(None if mask is None else np.asarray(mask))
    assert (found[0] is None) == (found[1] is None)
    if found[0] is not None:
        np.testing.assert_array_equal(found[1], found[0])


@pytest.mark.parametrize("build", [
    lambda L: L.LSTM(3), lambda L: L.GRU(3), lambda L: L.SimpleRNN(3),
    lambda L: L.RNN(L.LSTMCell(3)), lambda L: L.Bidirectional(L.LSTM(3)),
    lambda L: L.TimeDistributed(L.Dense(3))], ids=["lstm", "gru", "simple", "rnn", "bi", "td"])
def test_config_keys_match_keras(build):
    ours, theirs = set(build(tapeflow.keras.layers).get_config()), set(
        build(keras.layers).get_config())
    assert theirs <= ours and ours - theirs <= {"seed"}     # Keras's SimpleRNN drops seed


def _bidirectional_model(K):
    return K.Sequential([K.Input(shape=(5, 3)),
                         K.layers.Bidirectional(K.layers.LSTM(4, return_sequences=True)),
                         K.layers.Bidirectional(K.layers.GRU(2), merge_mode="sum")])


def test_bidirectional_weight_names_match_keras():
    found = []
    for K in (keras, tapeflow.keras):
        layer = K.layers.Bidirectional(K.layers.LSTM(3, name="enc"), name="bi")
        layer(np.zeros((1, 4, 2), np.float32))
        found.append([getattr(w, "path", w.name).split(":")[0] for w in layer.weights])
        found.append([layer.forward_layer.name, layer.backward_layer.name])
    assert found[2:] == found[:2]
    assert found[0][0] == "bi/forward_enc/lstm_cell/kernel"


def test_bidirectional_files_load_both_ways(tmp_path):
    x = np.random.default_rng(1).random((2, 5, 3)).astype(np.float32)
    theirs, ours = _bidirectional_model(keras), _bidirectional_model(tapeflow.keras)
    ours.set_weights([np.random.default_rng(i).standard_normal(w.shape).astype(np.float32)
                      for i, w in enumerate(ours.get_weights())])
    want = ours(x).numpy()
    ours.save(tmp_path / "tapeflow.keras")
    np.testing.assert_allclose(keras.models.load_model(tmp_path / "tapeflow.keras")(x).numpy(),
                               want, rtol=1e-5, atol=1e-6)
    ours.save_weights(tmp_path / "tapeflow.weights.h5")
    theirs.load_weights(tmp_path / "tapeflow.weights.h5")
    np.testing.assert_allclose(theirs(x).numpy(), want, rtol=1e-5, atol=1e-6)
    theirs.set_weights([w * 0.5 for w in theirs.get_weights()])
    theirs.save_weights(tmp_path / "keras.weights.h5")
    back = _bidirectional_model(tapeflow.keras)
    back.load_weights(tmp_path / "keras.weights.h5")
    np.testing.assert_allclose(back(x).numpy(), theirs(x).numpy(), rtol=1e-5, atol=1e-6)
