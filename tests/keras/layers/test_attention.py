"""Attention layers against NumPy references: values, masks, the causal mask, weight names
and shapes, gradients reaching every weight, graph mode and configs."""
import numpy as np
import pytest

import tapeflow as tf

L = tf.keras.layers


def _softmax(x, mask=None):
    if mask is not None:
        x = np.where(mask, x, -1e9)
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _mha_reference(layer, q, v, mask=None):
    """NumPy multi-head attention with the layer's weights."""
    w = [x.numpy() for x in layer.weights]
    query = np.einsum("btd,dnh->btnh", q, w[0]) + w[1]
    key = np.einsum("bsd,dnh->bsnh", v, w[2]) + w[3]
    value = np.einsum("bsd,dnh->bsnh", v, w[4]) + w[5]
    scores = np.einsum("btnh,bsnh->bnts", query / np.sqrt(query.shape[-1]), key)
    probs = _softmax(scores, None if mask is None else mask[:, None])
    heads = np.einsum("bnts,bsnh->btnh", probs, value)
    return np.einsum("btnh,nho->bto", heads, w[6]) + w[7], probs


def _random_weights(layer, seed=0):
    rng = np.random.default_rng(seed)
    layer.set_weights([rng.standard_normal(w.shape).astype(np.float32) * 0.5
                       for w in layer.get_weights()])


def test_multi_head_attention_weights_follow_keras_layout():
    layer = L.MultiHeadAttention(num_heads=3, key_dim=4, value_dim=5, output_shape=7)
    layer(np.zeros((2, 6, 8), np.float32), np.zeros((2, 5, 9), np.float32))
    names = [w.name.split(":")[0].split("/", 1)[-1] if w.name.count("/") > 1
             else w.name.split(":")[0] for w in layer.weights]
    assert names == ["query/kernel", "query/bias", "key/kernel", "key/bias", "value/kernel",
                     "value/bias", "attention_output/kernel", "attention_output/bias"]
    assert [tuple(w.shape) for w in layer.weights] == [
        (8, 3, 4), (3, 4), (9, 3, 4), (3, 4), (9, 3, 5), (3, 5), (3, 5, 7), (7,)]
    assert layer.count_params() == sum(int(np.prod(w.shape)) for w in layer.weights)


@pytest.mark.parametrize("masked", [False, True])
def test_multi_head_attention_matches_numpy(masked):
    rng = np.random.default_rng(1)
    q = rng.standard_normal((2, 4, 6)).astype(np.float32)
    v = rng.standard_normal((2, 5, 6)).astype(np.float32)
    mask = rng.random((2, 4, 5)) > 0.5 if masked else None
    if masked:
        mask[..., 0] = True
    layer = L.MultiHeadAttention(2, 3)
    layer(q, v)
    _random_weights(layer)
    out, scores = layer(q, v, attention_mask=mask, return_attention_scores=True)
    want, probs = _mha_reference(layer, q, v, mask)
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(scores.numpy(), probs, rtol=1e-4, atol=1e-6)


def test_causal_mask_is_lower_triangular():
    x = np.random.default_rng(2).standard_normal((1, 5, 4)).astype(np.float32)
    layer = L.MultiHeadAttention(2, 2)
    _, scores = layer(x, x, use_causal_mask=True, return_attention_scores=True)
    upper = np.triu(np.ones((5, 5), bool), 1)
    assert np.all(scores.numpy()[..., upper] == 0)
    np.testing.assert_allclose(scores.numpy().sum(-1), 1, rtol=1e-5)
    _, explicit = layer(x, x, attention_mask=~upper[None], return_attention_scores=True)
    np.testing.assert_allclose(scores.numpy(), explicit.numpy())


def test_gradients_reach_inputs_and_every_weight():
    x = tf.constant(np.random.default_rng(3).standard_normal((2, 4, 6)).astype(np.float32))
    layer = L.MultiHeadAttention(2, 3, dropout=0.2, seed=1)
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(layer(x, x, training=True) ** 2)
    grads = tape.gradient(loss, [x] + layer.trainable_weights)
    assert all(g is not None and np.all(np.isfinite(g.numpy())) for g in grads)
    assert len(grads) == 9


def test_multi_head_attention_in_a_traced_function_and_functional_model():
    inputs = tf.keras.Input((5, 8))
    outputs = L.MultiHeadAttention(2, 4)(inputs, inputs)
    model = tf.keras.Model(inputs, outputs)
    x = np.random.default_rng(4).standard_normal((3, 5, 8)).astype(np.float32)
    eager = model(x).numpy()
    np.testing.assert_allclose(tf.function(model)(x).numpy(), eager, rtol=1e-5, atol=1e-6)
    assert model.output_shape == (None, 5, 8)


def test_dropout_only_in_training():
    x = np.ones((1, 3, 4), np.float32)
    layer = L.MultiHeadAttention(1, 2, dropout=0.5, seed=0)
    _, scores = layer(x, x, return_attention_scores=True)
    np.testing.assert_allclose(scores.numpy(), np.full((1, 1, 3, 3), 1 / 3), rtol=1e-6)


@pytest.mark.parametrize("equation,output_shape,bias_axes,x_shape,kernel,bias,out", [
    ("ab,bc->ac", 4, None, (3, 5), (5, 4), None, (3, 4)),
    ("abc,cd->abd", (None, 4), "d", (2, 3, 5), (5, 4), (4,), (2, 3, 4)),
    ("abc,cde->abde", (None, 2, 3), "de", (2, 3, 5), (5, 2, 3), (2, 3), (2, 3, 2, 3)),
    ("abc,cde->abde", (None, 2, 3), "d", (2, 3, 5), (5, 2, 3), (2, 1), (2, 3, 2, 3)),
    ("...b,bc->...c", 3, "c", (2, 4, 5), (5, 3), (3,), (2, 4, 3)),
])
def test_einsum_dense_shapes_and_values(equation, output_shape, bias_axes, x_shape, kernel,
                                        bias, out):
    layer = L.EinsumDense(equation, output_shape=output_shape, bias_axes=bias_axes)
    x = np.random.default_rng(5).standard_normal(x_shape).astype(np.float32)
    y = layer(x)
    assert [tuple(w.shape) for w in layer.weights] == [kernel] + ([bias] if bias else [])
    assert tuple(y.shape) == out == layer.compute_output_shape(x_shape)
    want = np.einsum(equation, x, layer.kernel.numpy())
    if bias:
        want = want + layer.bias.numpy()
    np.testing.assert_allclose(y.numpy(), want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("equation,message", [
    ("ab,bc", "invalid einsum equation"),
    ("ab,bc->ad", "neither the input nor the kernel"),
])
def test_einsum_dense_rejects_bad_equations(equation, message):
    with pytest.raises(ValueError, match=message):
        L.EinsumDense(equation, output_shape=3)(np.zeros((2, 4), np.float32))


def test_einsum_dense_rejects_bias_axis_not_in_output():
    with pytest.raises(ValueError, match="bias axis 'z'"):
        L.EinsumDense("ab,bc->ac", output_shape=3, bias_axes="z")(np.zeros((2, 4), np.float32))


def test_attention_dot_with_masks_matches_numpy():
    rng = np.random.default_rng(6)
    q, v, k = (rng.standard_normal(s).astype(np.float32) for s in [(2, 3, 4), (2, 5, 4),
                                                                  (2, 5, 4)])
    q_mask = np.array([[True, False, True], [True, True, True]])
    v_mask = np.array([[True, True, False, True, False], [True] * 5])
    layer = L.Attention(use_scale=True)
    out, weights = layer([q, v, k], mask=[q_mask, v_mask], return_attention_scores=True)
    probs = _softmax(q @ k.transpose(0, 2, 1), v_mask[:, None, :])
    np.testing.assert_allclose(weights.numpy(), probs, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(out.numpy(), (probs @ v) * q_mask[..., None], rtol=1e-5,
                               atol=1e-6)
    assert [w.name for w in layer.weights] == [f"{layer.name}/scale:0"]


def test_attention_causal_and_concat_scores():
    rng = np.random.default_rng(7)
    q, v = (rng.standard_normal((1, 4, 3)).astype(np.float32) for _ in range(2))
    layer = L.Attention(score_mode="concat")
    _, weights = layer([q, v], use_causal_mask=True, return_attention_scores=True)
    scores = np.tanh(q[:, :, None, :] + v[:, None, :, :]).sum(-1)
    np.testing.assert_allclose(weights.numpy(), _softmax(scores, np.tril(np.ones((4, 4), bool))),
                               rtol=1e-5, atol=1e-7)


def test_additive_attention_matches_numpy_and_trains_its_scale():
    rng = np.random.default_rng(8)
    q, v = (tf.constant(rng.standard_normal(s).astype(np.float32)) for s in [(2, 3, 4),
                                                                            (2, 5, 4)])
    layer = L.AdditiveAttention()
    with tf.GradientTape() as tape:
        out = layer([q, v])
    scale = layer.scale.numpy()
    scores = (scale * np.tanh(q.numpy()[:, :, None] + v.numpy()[:, None])).sum(-1)
    np.testing.assert_allclose(out.numpy(), _softmax(scores) @ v.numpy(), rtol=1e-5, atol=1e-6)
    assert tape.gradient(out, layer.scale).shape == (4,)


@pytest.mark.parametrize("make,call", [
    (lambda: L.Attention(), lambda layer: layer(np.zeros((1, 2, 3), np.float32))),
    (lambda: L.Attention(), lambda layer: layer([np.zeros((1, 2, 3), np.float32)] * 2,
                                                mask=np.ones((1, 2), bool))),
])
def test_attention_rejects_inputs_that_are_not_lists(make, call):
    with pytest.raises(ValueError, match="Attention layer"):
        call(make())


def test_attention_rejects_unknown_score_mode():
    with pytest.raises(ValueError, match="score_mode"):
        L.Attention(score_mode="cosine")


@pytest.mark.parametrize("make", [
    lambda: L.MultiHeadAttention(2, 3, value_dim=4, dropout=0.1, output_shape=(5,)),
    lambda: L.EinsumDense("abc,cd->abd", output_shape=(None, 4), bias_axes="d"),
    lambda: L.Attention(use_scale=True, score_mode="concat", dropout=0.2),
    lambda: L.AdditiveAttention(use_scale=False),
])
def test_config_round_trip(make):
    layer = make()
    config = layer.get_config()
    assert type(layer).from_config(config).get_config() == config


@pytest.mark.parametrize("make", [
    lambda: L.MultiHeadAttention(2, 3, use_gate=True),
    lambda: L.MultiHeadAttention(2, 3, sliding_window=4),
    lambda: L.EinsumDense("ab,bc->ac", output_shape=3, quantization_config={"mode": "int8"}),
])
def test_unsupported_keras_options_are_refused(make):
    with pytest.raises(ValueError, match="not supported"):
        make()


def test_multi_head_attention_build_config_rebuilds_for_all_three_shapes():
    layer = L.MultiHeadAttention(2, 3)
    layer(np.zeros((1, 4, 6), np.float32), np.zeros((1, 5, 7), np.float32))
    config = layer.get_build_config()
    # TF 2.21: {'shapes_dict': {'query_shape': (1, 4, 6), 'value_shape': (1, 5, 7)}}
    assert config == {"shapes_dict": {"query_shape": [1, 4, 6], "value_shape": [1, 5, 7]}}
    twin = L.MultiHeadAttention.from_config(layer.get_config())
    twin.build_from_config(config)
    assert [tuple(w.shape) for w in twin.weights] == [tuple(w.shape) for w in layer.weights]


def test_multi_head_attention_reads_the_padding_masks_its_inputs_carry():
    tf.keras.utils.set_random_seed(0)
    embed = tf.keras.layers.Embedding(10, 8, mask_zero=True)
    attention = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=4)
    padded = embed(np.array([[3, 5, 0, 0]]))
    unpadded = embed(np.array([[3, 5]]))
    np.testing.assert_allclose(attention(padded, padded).numpy()[:, :2],
                               attention(unpadded, unpadded).numpy(), atol=1e-6)
