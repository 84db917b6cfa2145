"""Attention layers against Keras 3 (TensorFlow backend): Keras's weights (randomized)
copied over by get_weights/set_weights, then weight names and shapes, outputs, attention
scores and the gradients with respect to the inputs and the weights agree to float32
tolerance."""
import numpy as np
import pytest

import tapeflow

pytestmark = pytest.mark.parity


def _mask(tf, shape, seed):
    """A 0/1 mask with at least the first position of each row allowed."""
    mask = np.random.default_rng(seed).random(shape) > 0.4
    mask[..., 0] = True
    return tf.constant(mask)


# id: (make(layers) -> layer, input shapes, call(layer, inputs, tf) -> output or tuple).
SPECS = {
    "EinsumDense abc,cde->abde": (
        lambda L: L.EinsumDense("abc,cde->abde", output_shape=(None, 2, 3), bias_axes="de",
                                activation="tanh"),
        [(2, 4, 5)], lambda layer, x, tf: layer(x[0])),
    "EinsumDense ab,bc->ac no bias": (
        lambda L: L.EinsumDense("ab,bc->ac", output_shape=4), [(3, 5)],
        lambda layer, x, tf: layer(x[0])),
    "EinsumDense ...b,bc->...c bias c": (
        lambda L: L.EinsumDense("...b,bc->...c", output_shape=3, bias_axes="c"), [(2, 3, 4)],
        lambda layer, x, tf: layer(x[0])),
    "MultiHeadAttention self": (
        lambda L: L.MultiHeadAttention(2, 3), [(2, 5, 6)],
        lambda layer, x, tf: layer(x[0], x[0], return_attention_scores=True)),
    "MultiHeadAttention cross,value_dim,output_shape": (
        lambda L: L.MultiHeadAttention(3, 2, value_dim=4, output_shape=5), [(2, 4, 6), (2, 3, 5)],
        lambda layer, x, tf: layer(x[0], x[1], return_attention_scores=True)),
    "MultiHeadAttention key,attention_mask": (
        lambda L: L.MultiHeadAttention(2, 4), [(2, 3, 4), (2, 5, 4), (2, 5, 3)],
        lambda layer, x, tf: layer(x[0], x[1], x[2], attention_mask=_mask(tf, (2, 3, 5), 0),
                                   return_attention_scores=True)),
    "MultiHeadAttention causal": (
        lambda L: L.MultiHeadAttention(2, 3, use_bias=False), [(2, 5, 4)],
        lambda layer, x, tf: layer(x[0], x[0], use_causal_mask=True,
                                   return_attention_scores=True)),
    "MultiHeadAttention causal and mask": (
        lambda L: L.MultiHeadAttention(2, 3), [(2, 5, 4)],
        lambda layer, x, tf: layer(x[0], x[0], use_causal_mask=True,
                                   attention_mask=_mask(tf, (2, 5, 5), 1))),
    "MultiHeadAttention attention_axes 2D": (
        lambda L: L.MultiHeadAttention(2, 2, attention_axes=(1, 2)), [(2, 3, 2, 4)],
        lambda layer, x, tf: layer(x[0], x[0], return_attention_scores=True)),
    "Attention dot": (lambda L: L.Attention(), [(2, 3, 4), (2, 5, 4)],
                      lambda layer, x, tf: layer([x[0], x[1]], return_attention_scores=True)),
    "Attention scale,key,masks": (
        lambda L: L.Attention(use_scale=True), [(2, 3, 4), (2, 5, 4), (2, 5, 4)],
        lambda layer, x, tf: layer(x, mask=[_mask(tf, (2, 3), 2), _mask(tf, (2, 5), 3)])),
    "Attention concat causal": (
        lambda L: L.Attention(use_scale=True, score_mode="concat"), [(2, 4, 3), (2, 4, 3)],
        lambda layer, x, tf: layer(x, use_causal_mask=True, return_attention_scores=True)),
    "AdditiveAttention": (
        lambda L: L.AdditiveAttention(), [(2, 3, 4), (2, 5, 4)],
        lambda layer, x, tf: layer(x, mask=[None, _mask(tf, (2, 5), 4)],
                                   return_attention_scores=True)),
    "AdditiveAttention no scale": (lambda L: L.AdditiveAttention(use_scale=False),
                                   [(2, 3, 4), (2, 5, 4)], lambda layer, x, tf: layer(x)),
}


def _short(name: str) -> str:
    return "/".join(name.split(":")[0].split("/")[-2:])


def _run(tf, layer, call, args):
    inputs = [tf.constant(a) for a in args]
    with tf.GradientTape() as tape:
        tape.watch(inputs)
        outputs = call(layer, inputs, tf)
        outputs = list(outputs) if isinstance(outputs, tuple) else [outputs]
        loss = sum(tf.reduce_sum(y * tf.constant(
            np.random.default_rng(i).standard_normal(y.shape.as_list()).astype(np.float32)))
            for i, y in enumerate(outputs))
    grads = tape.gradient(loss, inputs + list(layer.trainable_weights))
    return [y.numpy() for y in outputs], [None if g is None else tf.convert_to_tensor(g).numpy()
                                          for g in grads]


@pytest.mark.parametrize("key", list(SPECS))
def test_attention_layer_matches_keras(key, tensorflow):
    import keras
    make, shapes, call = SPECS[key]
    rng = np.random.default_rng(sum(map(ord, key)))
    args = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    theirs, ours = make(keras.layers), make(tapeflow.keras.layers)
    for module, layer in ((tensorflow, theirs), (tapeflow, ours)):  # built by a first call
        call(layer, [module.zeros(s) for s in shapes], module)
    names = [_short(w.path if "/" in w.path else w.name) for w in theirs.weights]
    assert [(_short(w.name), tuple(w.shape)) for w in ours.weights] == \
        [(name, tuple(w.shape)) for name, w in zip(names, theirs.weights)]
    weights = [rng.standard_normal(w.shape).astype(w.dtype) for w in theirs.get_weights()]
    theirs.set_weights(weights)
    ours.set_weights(weights)
    want = _run(tensorflow, theirs, call, args)
    got = _run(tapeflow, ours, call, args)
    assert len(got[0]) == len(want[0])
    for g, w in zip(got[0], want[0]):
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5, err_msg="outputs")
    for i, (g, w) in enumerate(zip(got[1], want[1])):
        assert (g is None) == (w is None), f"gradient {i}"
        if g is not None:
            np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-4, err_msg=f"gradient {i}")


def test_attention_model_files_load_both_ways(tensorflow, tmp_path):
    import keras
    layers = tapeflow.keras.layers
    inputs = tapeflow.keras.Input((5, 8))
    x = layers.MultiHeadAttention(2, 4, dropout=0.1)(inputs, inputs)
    x = layers.LayerNormalization()(layers.Add()([x, inputs]))
    outputs = layers.EinsumDense("abc,cd->abd", output_shape=(None, 3), bias_axes="d")(x)
    ours = tapeflow.keras.Model(inputs, outputs)
    data = np.random.default_rng(0).standard_normal((2, 5, 8)).astype(np.float32)
    want = ours.predict(data, verbose=0)
    ours.save(tmp_path / "ours.keras")
    theirs = keras.models.load_model(tmp_path / "ours.keras")
    np.testing.assert_allclose(theirs.predict(data, verbose=0), want, rtol=1e-5, atol=1e-6)
    theirs.save(tmp_path / "theirs.keras")
    again = tapeflow.keras.models.load_model(tmp_path / "theirs.keras")
    np.testing.assert_allclose(again.predict(data, verbose=0), want, rtol=1e-5, atol=1e-6)
