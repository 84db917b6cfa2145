"""Keras optimizers given IndexedSlices gradients with repeated rows, against values
recorded from Keras 3.15 on TensorFlow 2.21 (float64; the same program runs under TF in
tests/parity/test_keras_optimizers_parity.py). Keras squares or takes abs of such a
gradient slice by slice and sums the slices into rows only when it adds them to a dense
value: a row gathered twice gets g1**2 + g2**2 in Adam's second moment, not (g1 + g2)**2."""
import numpy as np
import pytest

import tapeflow as tf

RECORDED = [  # (optimizer, the [4, 3] table after three steps under Keras)
    ('SGD', [
        [1.5000000223517418, 1.0000000134110452, 0.5000000044703483],
        [0.3, 0.4, 0.5],
        [0.6000000000000001, -0.20000001341104512, -1.00000002682209],
        [0.9, 1.0, 1.1],
    ]),
    ('Adam', [
        [0.20603940857017614, 0.23416313892950558, 0.24685179960047704],
        [0.3, 0.4, 0.5],
        [0.6, 0.5658368610704944, 0.5550527337460419],
        [0.9, 1.0, 1.1],
    ]),
    ('AdamW', [
        [0.20595700379626763, 0.23398952881618817, 0.24659315735196358],
        [0.2996401439583545, 0.39952019194447264, 0.4994002399305908],
        [0.599280287916709, 0.565050855072757, 0.5541910834767974],
        [0.8989204318750634, 0.9988004798611816, 1.0986805278472997],
    ]),
    ('Nadam', [
        [0.1749777034463396, 0.2139372255753923, 0.2397886050506331],
        [0.3, 0.4, 0.5],
        [0.6, 0.5860627744246077, 0.5919800377724918],
        [0.9, 1.0, 1.1],
    ]),
    ('Adamax', [
        [0.16666662962758733, 0.19999997777655237, 0.23333332592551748],
        [0.3, 0.4, 0.5],
        [0.6, 0.6000000222234476, 0.6200000398022056],
        [0.9, 1.0, 1.1],
    ]),
    ('RMSprop', [
        [0.506680671657547, 0.42992654975606576, 0.3152153487782057],
        [0.3, 0.4, 0.5],
        [0.6, 0.3700734502439341, 0.19763928716127951],
        [0.9, 1.0, 1.1],
    ]),
    ('Adagrad', [
        [0.15679710046242476, 0.20208730763964478, 0.2356478242651543],
        [0.3, 0.4, 0.5],
        [0.6, 0.5979126923603552, 0.6135916103660651],
        [0.9, 1.0, 1.1],
    ]),
    ('Adadelta', [
        [0.00029469746030867113, 0.10019189308280911, 0.20006701197114443],
        [0.3, 0.4, 0.5],
        [0.6, 0.6998081069171906, 0.799649652765076],
        [0.9, 1.0, 1.1],
    ]),
    ('Ftrl', [
        [0.15679710056236745, 0.19737849158777557, 0.22578255174784956],
        [0.0, 0.0, 0.0],
        [0.5707577890529312, 0.5649509793843385, 0.5791969235622704],
        [0.0, 0.0, 0.0],
    ]),
    ('Lion', [
        [0.30000000447034836, 0.40000000447034834, 0.5000000044703483],
        [0.3, 0.4, 0.5],
        [0.6, 0.3999999955296516, 0.4999999955296517],
        [0.9, 1.0, 1.1],
    ]),
    ('Lamb', [
        [0.36197809122523394, 0.3357030559949464, 0.2823110774977104],
        [0.3, 0.4, 0.5],
        [0.6, 0.46429694400505356, 0.3696670639699505],
        [0.9, 1.0, 1.1],
    ]),
    ('Adafactor', [
        [0.14029853163624698, 0.18648582330144667, 0.22805970632724942],
        [0.3, 0.4, 0.5],
        [0.6, 0.6141297419835297, 0.6328400565404353],
        [0.9, 1.0, 1.1],
    ]),
]


def _sliced_steps(name, graph):
    table = tf.Variable(np.arange(12, dtype=np.float64).reshape(4, 3) / 10, name="table")
    opt = getattr(tf.keras.optimizers, name)(learning_rate=0.1)
    weights = tf.constant(np.arange(15, dtype=np.float64).reshape(5, 3) - 7)

    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.gather(table, [0, 2, 2, 0, 2]) * weights)
        gradient = tape.gradient(loss, table)
        assert isinstance(gradient, tf.IndexedSlices)
        opt.apply_gradients([(gradient, table)])

    if graph:
        step = tf.function(step)
    for _ in range(3):
        step()
    return table.numpy()


@pytest.mark.parametrize("graph", [False, True], ids=["eager", "function"])
@pytest.mark.parametrize("name, expected", RECORDED, ids=[r[0] for r in RECORDED])
def test_indexed_slices_steps_match_keras_values(name, expected, graph):
    np.testing.assert_allclose(_sliced_steps(name, graph), expected, rtol=1e-12, atol=1e-15)


def test_dense_gradient_of_the_same_rows_squares_the_sum():
    """The same rows as one dense gradient: Adam's second moment takes (g1 + g2)**2, so the
    step differs from the sliced one (Keras does the same)."""
    table = tf.Variable(np.arange(12, dtype=np.float64).reshape(4, 3) / 10)
    opt = tf.keras.optimizers.Adam(learning_rate=0.1)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.gather(table, [0, 2, 2, 0, 2])
                             * tf.constant(np.arange(15.0).reshape(5, 3) - 7))
    opt.apply_gradients([(tf.convert_to_tensor(tape.gradient(loss, table)), table)])
    sliced = tf.keras.optimizers.Adam(learning_rate=0.1)
    other = tf.Variable(np.arange(12, dtype=np.float64).reshape(4, 3) / 10)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.gather(other, [0, 2, 2, 0, 2])
                             * tf.constant(np.arange(15.0).reshape(5, 3) - 7))
    sliced.apply_gradients([(tape.gradient(loss, other), other)])
    np.testing.assert_array_equal(opt.variables[3].numpy()[1], sliced.variables[3].numpy()[1])
    assert not np.allclose(opt.variables[3].numpy(), sliced.variables[3].numpy())
