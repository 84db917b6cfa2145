"""A small Transformer encoder learns to sort digit sequences.

Each example is 8 random digits (0-9); the target at position i is the i-th smallest digit.
The model: token + learned position embeddings, two encoder blocks (MultiHeadAttention,
residual connections, LayerNormalization, a ReLU feed-forward layer), and a per-position
softmax over the 10 digits, trained with Adam by `model.fit`. Sorting needs attention: the
digit at an output position depends on every input position.

    PYTHONPATH=src python examples/transformer_sort.py [--epochs N]

prints the per-digit accuracy on 1000 fresh sequences: 100% after the default 5 epochs
(4096 sequences each), in about 10 s of CPU time.
"""
import argparse

import numpy as np

import tapeflow as tf

LENGTH, DIGITS, D_MODEL, HEADS = 8, 10, 32, 4


class TokenAndPosition(tf.keras.layers.Layer):
    """Digit embeddings plus learned embeddings of the positions 0..LENGTH-1."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.tokens = tf.keras.layers.Embedding(DIGITS, D_MODEL)
        self.positions = tf.keras.layers.Embedding(LENGTH, D_MODEL)

    def call(self, x):
        return self.tokens(x) + self.positions(tf.range(LENGTH))


def encoder_block(x):
    attended = tf.keras.layers.MultiHeadAttention(HEADS, D_MODEL // HEADS)(x, x)
    x = tf.keras.layers.LayerNormalization()(x + attended)
    hidden = tf.keras.layers.Dense(2 * D_MODEL, activation="relu")(x)
    return tf.keras.layers.LayerNormalization()(x + tf.keras.layers.Dense(D_MODEL)(hidden))


def make_model():
    inputs = tf.keras.Input((LENGTH,), dtype="int32")
    x = TokenAndPosition()(inputs)
    for _ in range(2):
        x = encoder_block(x)
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(DIGITS)(x))
    model.compile(optimizer=tf.keras.optimizers.Adam(3e-3),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    return model


def sequences(count, rng):
    x = rng.integers(0, DIGITS, (count, LENGTH)).astype(np.int32)
    return x, np.sort(x, axis=1)


def main(epochs=5):
    rng = np.random.default_rng(0)
    tf.keras.utils.set_random_seed(0)
    model = make_model()
    x, y = sequences(4096, rng)
    model.fit(x, y, batch_size=64, epochs=epochs, verbose=0)
    test_x, test_y = sequences(1000, rng)
    predicted = np.argmax(model.predict(test_x, verbose=0), axis=-1)
    accuracy = float(np.mean(predicted == test_y))
    print(f"sorted digits correct: {100 * accuracy:.1f}%")
    print(f"input  {test_x[0].tolist()}\nsorted {predicted[0].tolist()}")
    return accuracy


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=5)
    main(parser.parse_args().epochs)
