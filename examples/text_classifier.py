"""A text classifier: TextVectorization -> Embedding -> average pooling -> Dense, trained on
the short movie reviews in examples/data/reviews.tsv (320 sentences labelled 1 for a
positive review, 0 for a negative one).

It is Keras 3 code on TensorFlow's API; run it on tapeflow with the stand-in:

    KERAS_BACKEND=tensorflow python -m tapeflow as-tensorflow examples/text_classifier.py

or with TensorFlow itself (`python examples/text_classifier.py`). It prints the test
accuracy, the same under both.
"""
import os
import sys

os.environ.setdefault("KERAS_BACKEND", "tensorflow")

import keras  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "reviews.tsv")


def load(path: str = DATA):
    """(texts, labels) of the corpus file, a header line then `label<TAB>text` lines."""
    with open(path, encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f.readlines()[1:] if line.strip()]
    return np.array([t for _, t in rows]), np.array([int(y) for y, _ in rows], np.float32)


def main(epochs: int = 5) -> float:
    keras.utils.set_random_seed(0)
    texts, labels = load()
    split = int(len(texts) * 0.75)
    vectorize = keras.layers.TextVectorization(max_tokens=200, output_sequence_length=12)
    vectorize.adapt(tf.constant(texts[:split]))
    ids = vectorize(tf.constant(texts)).numpy()  # lowercased, punctuation stripped, padded
    model = keras.Sequential([
        keras.Input(shape=(12,), dtype="int64"),
        keras.layers.Embedding(vectorize.vocabulary_size(), 8),
        keras.layers.GlobalAveragePooling1D(),
        keras.layers.Dense(1, activation="sigmoid"),
    ])
    model.compile(optimizer=keras.optimizers.Adam(0.05), loss="binary_crossentropy",
                  metrics=["accuracy"])
    model.fit(ids[:split], labels[:split], epochs=epochs, batch_size=32, verbose=0)
    loss, accuracy = model.evaluate(ids[split:], labels[split:], verbose=0)
    print(f"vocabulary: {vectorize.vocabulary_size()} tokens, "
          f"{split} training and {len(texts) - split} test sentences")
    print(f"test loss: {loss:.3f}")
    print(f"test accuracy: {accuracy:.1%}")
    return accuracy


if __name__ == "__main__":
    main(*[int(a) for a in sys.argv[1:]])
