"""The functional API: keras.Input, layers on KerasTensors, Model(inputs, outputs)."""
import io

import numpy as np
import pytest

import tapeflow as tf

layers = tf.keras.layers


def ones_dense(units, **kwargs):
    return layers.Dense(units, kernel_initializer="ones", **kwargs)


def two_input_model():
    a = tf.keras.Input(shape=(3,), name="a")
    b = tf.keras.Input(shape=(2,), name="b")
    merged = layers.Concatenate(name="merge")([layers.Dense(4, activation="tanh")(a), b])
    out = layers.Dense(2, name="head")(merged)
    return tf.keras.Model(inputs=[a, b], outputs=out)


def test_input_is_a_symbolic_tensor_and_layers_record_calls():
    x = tf.keras.Input(shape=(5, 3), name="seq", dtype="float64")
    assert x.shape == tf.TensorShape([None, 5, 3]) and x.dtype == tf.float64
    assert repr(x) == "<KerasTensor: shape=(None, 5, 3) dtype=float64 (created by layer 'seq')>"
    dense = layers.Dense(4)
    y = dense(x)
    assert y.shape.as_list() == [None, 5, 4] and y.dtype == tf.float32
    assert dense.built and dense.kernel.shape == [3, 4]
    layer, node_index, tensor_index = y._keras_history
    assert layer is dense and (node_index, tensor_index) == (0, 0)
    with pytest.raises(TypeError, match="symbolic Keras tensor"):
        np.asarray(y)
    with pytest.raises(TypeError, match="symbolic"):
        tf.constant(y)
    assert tf.keras.Input(batch_shape=(8, 2)).shape.as_list() == [8, 2]
    with pytest.raises(ValueError, match="shape"):
        tf.keras.Input()


def test_forward_values_and_gradients_match_numpy():
    tf.keras.utils.set_random_seed(3)
    model = two_input_model()
    hidden, head = model.get_layer(index=1), model.get_layer("head")
    rng = np.random.default_rng(0)
    xa = rng.standard_normal((5, 3)).astype(np.float32)
    xb = rng.standard_normal((5, 2)).astype(np.float32)
    W1, b1 = hidden.kernel.numpy(), hidden.bias.numpy()
    W2, b2 = head.kernel.numpy(), head.bias.numpy()
    h = np.tanh(xa @ W1 + b1)
    expected = np.concatenate([h, xb], axis=1) @ W2 + b2
    with tf.GradientTape() as tape:
        out = model([xa, xb])
        loss = tf.reduce_sum(out ** 2)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5, atol=1e-6)
    grads = tape.gradient(loss, [hidden.kernel, hidden.bias, head.kernel, head.bias])
    g_out = 2 * expected
    g_merged = g_out @ W2.T
    g_pre = g_merged[:, :4] * (1 - h ** 2)
    for got, want in zip(grads, [xa.T @ g_pre, g_pre.sum(0),
                                 np.concatenate([h, xb], 1).T @ g_out, g_out.sum(0)]):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-4, atol=1e-5)


def test_a_two_input_model_learns_with_fit():
    tf.keras.utils.set_random_seed(0)
    rng = np.random.default_rng(1)
    xa = rng.standard_normal((400, 3)).astype(np.float32)
    xb = rng.standard_normal((400, 2)).astype(np.float32)
    y = ((xa[:, 0] - xa[:, 1] + 2 * xb[:, 0]) > 0).astype(np.int64)
    model = two_input_model()
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    history = model.fit([xa, xb], y, batch_size=32, epochs=15, verbose=0)
    assert history.history["accuracy"][-1] >= 0.95
    loss, accuracy = model.evaluate({"a": xa, "b": xb}, y, verbose=0)   # inputs by name
    assert accuracy >= 0.95 and loss < 0.2
    assert model.predict([xa, xb], batch_size=64).shape == (400, 2)


def test_a_shared_layer_gets_gradients_from_both_uses():
    shared = layers.Dense(2, use_bias=False)
    a, b = tf.keras.Input(shape=(3,)), tf.keras.Input(shape=(3,))
    model = tf.keras.Model([a, b], layers.Add()([shared(a), shared(b)]))
    assert [l for l in model.layers if l is shared] == [shared]
    assert len(model.trainable_variables) == 1 and len(shared._inbound_nodes) == 2
    xa = np.array([[1.0, 2.0, 3.0]], np.float32)
    xb = np.array([[10.0, 20.0, 30.0]], np.float32)
    g = np.array([[1.0, -1.0]], np.float32)
    with tf.GradientTape() as tape:
        out = model([xa, xb])
    grad = tape.gradient(out, shared.kernel, output_gradients=tf.constant(g))
    np.testing.assert_allclose(grad.numpy(), xa.T @ g + xb.T @ g)
    np.testing.assert_allclose(out.numpy(), (xa + xb) @ shared.kernel.numpy(), rtol=1e-6)


def test_multiple_outputs_with_per_output_losses_weights_and_metrics():
    tf.keras.backend.clear_session()
    x = tf.keras.Input(shape=(2,), name="x")
    hidden = ones_dense(2, name="hidden")(x)
    reg = ones_dense(1, name="reg")(hidden)
    cls = ones_dense(2, name="cls")(hidden)
    model = tf.keras.Model(x, {"reg": reg, "cls": cls})
    assert model.output_names == ["cls", "reg"]
    model.compile(optimizer=tf.keras.optimizers.SGD(0.0),
                  loss={"reg": "mse", "cls": tf.keras.losses.SparseCategoricalCrossentropy(
                      from_logits=True)},
                  loss_weights={"reg": 0.5, "cls": 2.0}, metrics={"cls": ["accuracy"]})
    data = np.array([[1.0, 2.0], [0.0, 1.0]], np.float32)
    y_reg = np.array([[5.0], [1.0]], np.float32)
    y_cls = np.array([0, 1])
    logs = model.evaluate(data, {"reg": y_reg, "cls": y_cls}, return_dict=True, verbose=0)
    out = data.sum(1, keepdims=True) * 2                       # both hidden units = sum
    mse = np.mean((out - y_reg) ** 2)
    ce = np.log(2.0)                                           # equal logits
    assert logs["reg_loss"] == pytest.approx(mse)
    assert logs["cls_loss"] == pytest.approx(ce, rel=1e-6)
    assert logs["loss"] == pytest.approx(0.5 * mse + 2.0 * ce, rel=1e-6)
    assert logs["cls_accuracy"] == pytest.approx(0.5)
    assert model.metrics_names == ["loss", "cls_loss", "reg_loss", "cls_accuracy"]
    predictions = model.predict(data, verbose=0)
    assert sorted(predictions) == ["cls", "reg"] and predictions["reg"].shape == (2, 1)
    with pytest.raises(ValueError, match="unknown output name"):
        model.compile(optimizer="sgd", loss={"nope": "mse"})
        model.evaluate(data, {"reg": y_reg, "cls": y_cls}, verbose=0)


def test_list_outputs_take_a_list_of_losses():
    x = tf.keras.Input(shape=(1,))
    model = tf.keras.Model(x, [ones_dense(1, name="one")(x), ones_dense(1, name="two")(x)])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.0), loss=["mse", "mae"],
                  loss_weights=[1.0, 3.0])
    data = np.array([[1.0], [2.0]], np.float32)
    logs = model.evaluate(data, [data * 0, data * 0], return_dict=True, verbose=0)
    assert logs == {"loss": pytest.approx(2.5 + 3 * 1.5), "one_loss": pytest.approx(2.5),
                    "two_loss": pytest.approx(1.5)}
    model.compile(optimizer="sgd", loss=["mse"])
    with pytest.raises(ValueError, match="expected 2 entries"):
        model.evaluate(data, [data, data], verbose=0)


def test_wrong_input_shapes_name_the_layer_and_the_shapes():
    model = two_input_model()
    with pytest.raises(ValueError, match=r'Input 0 of layer "model\w*" is incompatible with the '
                                         r"layer: expected shape=\(None, 3\), found shape=\(2, 4\)"):
        model([np.zeros((2, 4)), np.zeros((2, 2))])
    with pytest.raises(ValueError, match=r"expects 2 input\(s\), but it received 1"):
        model(np.zeros((2, 3)))
    with pytest.raises(ValueError, match=r"missing data for input\(s\) \['b'\]"):
        model({"a": np.zeros((2, 3))})
    x = tf.keras.Input(shape=(4,))
    dense = layers.Dense(2, name="narrow")
    dense(tf.keras.Input(shape=(3,)))
    with pytest.raises(ValueError, match=r'layer "narrow".*axis -1.*value 3.*\(None, 4\)'):
        dense(x)


def test_incompatible_merge_shapes_name_the_layer_and_the_shapes():
    a, b = tf.keras.Input(shape=(3,)), tf.keras.Input(shape=(4,))
    with pytest.raises(ValueError, match=r'"plus" \(Add\): inputs have incompatible shapes. '
                                         r"Received shapes \(None, 3\) and \(None, 4\)"):
        layers.Add(name="plus")([a, b])
    c = tf.keras.Input(shape=(2, 3))
    with pytest.raises(ValueError, match=r'"cat" \(Concatenate\) requires inputs with matching '
                                         r"shapes.*\(None, 2, 3\)"):
        layers.Concatenate(axis=1, name="cat")([c, tf.keras.Input(shape=(2, 4))])
    with pytest.raises(ValueError, match="list of tensors"):
        layers.Multiply()(a)
    with pytest.raises(ValueError, match="exactly 2"):
        layers.Subtract()([a, a, a])


def test_graph_errors():
    a, b = tf.keras.Input(shape=(2,)), tf.keras.Input(shape=(2,), name="other")
    out = layers.Add()([a, b])
    with pytest.raises(ValueError, match="Graph disconnected.*'other'"):
        tf.keras.Model(a, out)
    with pytest.raises(ValueError, match="must come from `tf.keras.Input`"):
        tf.keras.Model(out, out)
    with pytest.raises(ValueError, match="Output tensors"):
        tf.keras.Model(a, tf.constant([1.0]))


def test_summary_of_a_branching_and_of_a_chain_model():
    tf.keras.backend.clear_session()
    model = two_input_model()
    lines = []
    model.summary(print_fn=lines.append)
    text = "\n".join(lines)
    assert lines[0] == 'Model: "model"' and len(lines[1]) == 98
    assert " a (InputLayer)               [(None, 3)]               0         []" in text
    assert " merge (Concatenate)          (None, 6)                 0         'dense[0][0]'" \
        in text
    assert "'b[0][0]'" in text and "Total params: 30" in text   # 3*4+4 + 6*2+2
    x = tf.keras.Input(shape=(3,), name="x")
    chain = tf.keras.Model(x, layers.Dense(2, name="d")(x), name="chain")
    out = io.StringIO()
    chain.summary(print_fn=lambda line: out.write(line + "\n"))
    assert out.getvalue().splitlines()[3:7] == [
        "=" * 65,
        " x (InputLayer)              [(None, 3)]               0",
        " d (Dense)                   (None, 2)                 8",
        "=" * 65]


def test_nested_models_subclass_functional_and_sequential_with_input():
    inner = tf.keras.Sequential([ones_dense(2)])
    x = tf.keras.Input(shape=(3,))
    block_in = tf.keras.Input(shape=(2,))
    block = tf.keras.Model(block_in, layers.Activation("relu")(block_in - 4.0))
    model = tf.keras.Model(x, block(inner(x)))
    np.testing.assert_allclose(model(np.ones((1, 3))).numpy(), [[0.0, 0.0]])
    np.testing.assert_allclose(model(np.full((1, 3), 2.0)).numpy(), [[2.0, 2.0]])
    assert len(model.trainable_variables) == 2

    class Wrapped(tf.keras.Model):
        def __init__(self):
            inputs = tf.keras.Input(shape=(2,))
            super().__init__(inputs=inputs, outputs=ones_dense(1)(inputs), name="wrapped")
            self.note = "kept"

    wrapped = Wrapped()
    assert isinstance(wrapped, Wrapped) and isinstance(wrapped, tf.keras.Model)
    assert wrapped.name == "wrapped" and wrapped.note == "kept"
    assert float(wrapped(np.ones((1, 2)))[0, 0]) == 2.0

    seq = tf.keras.Sequential([tf.keras.Input(shape=(4,)), layers.Dense(2)])
    assert seq.built and len(seq.layers) == 1 and seq.layers[0].kernel.shape == [4, 2]
    with pytest.raises(ValueError, match="only be added first"):
        seq.add(layers.InputLayer(input_shape=(2,)))


def test_arithmetic_lambda_and_unknown_dimensions():
    x = tf.keras.Input(shape=(None, 3))
    y = layers.Lambda(lambda t: tf.reduce_sum(t, axis=-1, keepdims=True))(x * 2.0 + 1.0)
    assert y.shape.as_list() == [None, None, 1]
    model = tf.keras.Model(x, -y[:, 0])
    np.testing.assert_allclose(model(np.ones((2, 4, 3))).numpy(), [[-9.0], [-9.0]])
    image = tf.keras.Input(shape=(None, None, 3))
    features = layers.GlobalMaxPooling2D()(layers.Conv2D(5, 3, strides=2)(image))
    assert features.shape.as_list() == [None, 5]
    assert layers.Conv2D(5, 3, strides=2)(image).shape.as_list() == [None, None, None, 5]


def test_training_flag_reaches_the_layers_and_building_changes_no_state():
    x = tf.keras.Input(shape=(2,))
    bn = layers.BatchNormalization(momentum=0.5)
    model = tf.keras.Model(x, layers.Dropout(0.5, seed=1)(bn(x)))
    np.testing.assert_array_equal(bn.moving_mean.numpy(), [0.0, 0.0])   # the probe ran
    data = np.array([[1.0, 2.0], [3.0, 6.0]], np.float32)
    model(data)
    np.testing.assert_array_equal(bn.moving_mean.numpy(), [0.0, 0.0])
    out = model(data, training=True)
    np.testing.assert_allclose(bn.moving_mean.numpy(), [1.0, 2.0])
    kept = np.abs(out.numpy()[out.numpy() != 0])        # batch statistics, scaled by 2
    np.testing.assert_allclose(kept, 2 / np.sqrt(1.001), rtol=1e-3)
    fixed = layers.Dropout(0.999, seed=0)(x, training=True)
    assert np.count_nonzero(tf.keras.Model(x, fixed)(np.ones((1, 1000, 2))[0]).numpy()) < 20


def test_checkpoint_round_trip_of_a_functional_model(tmp_path):
    tf.keras.utils.set_random_seed(2)
    model = two_input_model()
    model.compile(optimizer="adam", loss="mse")
    rng = np.random.default_rng(0)
    data = [rng.standard_normal((16, 3)).astype(np.float32),
            rng.standard_normal((16, 2)).astype(np.float32)]
    model.fit(data, np.zeros((16, 2), np.float32), epochs=2, verbose=0)
    path = tf.train.Checkpoint(model=model, optimizer=model.optimizer).save(tmp_path / "ckpt")
    fresh = two_input_model()                               # other names, other weights
    fresh.compile(optimizer="adam", loss="mse")
    assert not np.allclose(fresh.predict(data, verbose=0), model.predict(data, verbose=0))
    fresh.optimizer.build(fresh.trainable_variables)       # its slots exist, as Keras 3 does it
    tf.train.Checkpoint(model=fresh, optimizer=fresh.optimizer).restore(path).assert_consumed()
    np.testing.assert_array_equal(fresh.predict(data, verbose=0), model.predict(data, verbose=0))
    assert int(fresh.optimizer.iterations) == 2
    model.save_weights(str(tmp_path / "weights"))
    other = two_input_model()
    other.load_weights(str(tmp_path / "weights"))
    np.testing.assert_array_equal(other.predict(data, verbose=0), model.predict(data, verbose=0))
    wrong = tf.keras.Model(*(lambda a: (a, layers.Dense(2)(a)))(tf.keras.Input(shape=(3,))))
    with pytest.raises(ValueError, match=r"incompatible tensor with shape \(3, 4\).*shape "
                                         r"\(3, 2\).*_operations/1/_kernel"):
        wrong.load_weights(str(tmp_path / "weights"))


def test_get_and_set_weights_of_a_functional_model_and_tensor_arithmetic():
    tf.keras.utils.set_random_seed(5)
    model, twin = two_input_model(), two_input_model()
    shapes = [w.shape for w in model.get_weights()]
    assert shapes == [(3, 4), (4,), (6, 2), (2,)]
    data = [np.ones((2, 3), np.float32), np.ones((2, 2), np.float32)]
    twin.set_weights(model.get_weights())
    np.testing.assert_array_equal(twin(data).numpy(), model(data).numpy())
    with pytest.raises(ValueError, match="expects 4 weights"):
        twin.set_weights(model.get_weights()[:3])
    x, y = tf.keras.Input(shape=(2,)), tf.keras.Input(shape=(2,))
    both = tf.keras.Model([x, y], (x + y) * (x - y) / 2.0 @ tf.constant([[1.0], [1.0]]))
    assert both.output_shape == (None, 1)
    np.testing.assert_allclose(both([np.array([[3.0, 2.0]]), np.array([[1.0, 1.0]])]).numpy(),
                               [[(8 + 3) / 2.0]])
