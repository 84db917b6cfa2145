"""An LSTM classifies scikit-learn's handwritten digits, reading each 8x8 image row by row
(8 time steps of 8 features), with Keras's compile/fit.

    python examples/lstm_digits.py [--epochs N] [--seed S]

The 1,797 images are split 80/20, stratified (random_state 42); `--seed` fixes the
weights and the shuffling. The model is LSTM(64) -> Dense(10), trained with Adam on
SparseCategoricalCrossentropy(from_logits=True). Needs scikit-learn.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

import tapeflow as tf


def load_rows():
    """((train, labels), (test, labels)); images [n, 8 rows, 8 pixels] in [0, 1]."""
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split
    digits = load_digits()
    images = (digits.images / 16.0).astype(np.float32)
    x_train, x_test, y_train, y_test = train_test_split(
        images, digits.target.astype(np.int64), test_size=0.2, stratify=digits.target,
        random_state=42)
    return (x_train, y_train), (x_test, y_test)


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=9)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch-size", type=int, default=32)
    args = parser.parse_args(argv)
    tf.keras.utils.set_random_seed(args.seed)
    (x_train, y_train), (x_test, y_test) = load_rows()
    model = tf.keras.Sequential([tf.keras.Input(shape=(8, 8)), tf.keras.layers.LSTM(64),
                                 tf.keras.layers.Dense(10)])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.01),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    start = time.perf_counter()
    history = model.fit(x_train, y_train, batch_size=args.batch_size, epochs=args.epochs, verbose=0)
    seconds = time.perf_counter() - start
    _, accuracy = model.evaluate(x_test, y_test, verbose=0)
    print(f"trained {args.epochs} epochs in {seconds:.1f} s; final loss "
          f"{history.history['loss'][-1]:.4f}")
    print(f"test accuracy: {100 * accuracy:.1f}%")
    return {"test_accuracy": float(accuracy), "history": history.history}


if __name__ == "__main__":
    main()
