"""A small CNN learns scikit-learn's handwritten digits, in TF's custom-training-loop style.

    python examples/digits_demo.py [--epochs N] [--seed S] [--batch-size B] [--plot FILE.png]
                                   [--eager] [--save MODEL.keras] [--tensorboard DIR]
                                   [--distributed]
    tapeflow run -n 2 examples/digits_demo.py --distributed     (or: tapeflow demo --workers 2)

The 1,797 8x8 images are split 80/20, stratified, with a fixed random_state (42); `--seed`
sets the weights' initialization and the shuffling. The model is TF's quickstart network, Conv2D(32, 3, relu)
-> Flatten -> Dense(128, relu) -> Dense(10), trained with Adam on
SparseCategoricalCrossentropy(from_logits=True); the steps run under `tf.function` (graph
mode) unless --eager. With --distributed, each MPI worker (see `tapeflow run`) trains on its
part of every batch under `tf.distribute.MultiWorkerMirroredStrategy`: the loss is averaged
over the global batch and the gradients summed over the workers, so the run computes what
one worker does (up to rounding); the chief prints and writes files. Needs scikit-learn;
tqdm draws the progress bars and matplotlib the --plot, when installed. --save writes the
trained model as a Keras 3 `.keras` file (h5py); --tensorboard writes each epoch's loss and
accuracy (DIR/train, DIR/test) and the weights' histograms as TensorBoard event files (the
tensorboard package).
"""
from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time

import numpy as np

import tapeflow as tf


@tf.keras.saving.register_keras_serializable(package="digits_demo")
class MyModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.conv1 = tf.keras.layers.Conv2D(32, 3, activation="relu")
        self.flatten = tf.keras.layers.Flatten()
        self.d1 = tf.keras.layers.Dense(128, activation="relu")
        self.d2 = tf.keras.layers.Dense(10)

    def call(self, x):
        x = self.conv1(x)
        x = self.flatten(x)
        x = self.d1(x)
        return self.d2(x)


def load_data():
    """((train images, labels), (test images, labels)); images [n, 8, 8, 1] in [0, 1]."""
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split
    digits = load_digits()
    images = (digits.images / 16.0).astype(np.float32)[..., np.newaxis]
    labels = digits.target.astype(np.int64)
    x_train, x_test, y_train, y_test = train_test_split(
        images, labels, test_size=0.2, stratify=labels, random_state=42)
    return (x_train, y_train), (x_test, y_test)


def batches(images, labels, batch_size: int, rng=None):
    order = rng.permutation(len(images)) if rng is not None else np.arange(len(images))
    for start in range(0, len(images), batch_size):
        rows = order[start:start + batch_size]
        yield tf.constant(images[rows]), tf.constant(labels[rows])


def progress(iterable, total: int, description: str, show: bool = True):
    """A tqdm bar over `iterable` when tqdm is installed, `show` is set and stderr is a
    terminal, else the iterable itself (a file or pipe gets the one line per epoch that
    follows)."""
    if not show or not sys.stderr.isatty():
        return iterable
    try:
        from tqdm import tqdm
    except ImportError:
        return iterable
    return tqdm(iterable, total=total, desc=description, unit="batch", leave=False,
                file=sys.stderr, dynamic_ncols=True)


def single_threaded_blas():
    """BLAS threads cost more than they save on matrices this small (on 2 cores: 8 s with
    OpenBLAS's threads against 1.6 s without, for 20 epochs). threadpoolctl comes with
    scikit-learn."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return contextlib.nullcontext()
    return threadpool_limits(limits=1, user_api="blas")


def plot(history: dict, path: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    epochs = range(1, len(history["loss"]) + 1)
    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    for key, label in (("loss", "train"), ("test_loss", "test")):
        left.plot(epochs, history[key], label=label)
    for key, label in (("accuracy", "train"), ("test_accuracy", "test")):
        right.plot(epochs, [100 * a for a in history[key]], label=label)
    left.set(xlabel="epoch", ylabel="loss", title="loss")
    right.set(xlabel="epoch", ylabel="accuracy (%)", title="accuracy")
    left.legend()
    right.legend()
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}")
    return value


def output_path(text: str) -> str:
    folder = os.path.dirname(text) or "."
    if not os.path.isdir(folder):
        raise argparse.ArgumentTypeError(f"the folder {folder!r} does not exist")
    return text


def log_epoch(writers: dict, history: dict, model, epoch: int) -> None:
    """The epoch's loss and accuracy per run, and the weights' histograms."""
    for run, prefix in (("train", ""), ("test", "test_")):
        with writers[run].as_default(step=epoch):
            tf.summary.scalar("loss", history[f"{prefix}loss"][-1])
            tf.summary.scalar("accuracy", history[f"{prefix}accuracy"][-1])
    with writers["train"].as_default(step=epoch):
        for weight in model.trainable_variables:
            tf.summary.histogram(weight.name.split(":")[0], weight)


def add_options(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The demo's options, checked as they are parsed (before any work)."""
    parser.add_argument("--epochs", type=positive_int, default=20,
                        help="passes over the training images (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seeds the weights and the shuffling (default: %(default)s)")
    parser.add_argument("--batch-size", type=positive_int, default=32,
                        help="images per training step (default: %(default)s)")
    parser.add_argument("--plot", metavar="FILE.png", type=output_path,
                        help="save loss and accuracy curves (needs matplotlib)")
    parser.add_argument("--eager", action="store_true", help="run the steps without tf.function")
    parser.add_argument("--save", metavar="MODEL.keras", type=output_path,
                        help="save the trained model")
    parser.add_argument("--tensorboard", metavar="DIR", help="write TensorBoard logs to DIR")
    parser.add_argument("--distributed", action="store_true",
                        help="train data-parallel on the MPI workers (start with tapeflow run)")
    return parser


def main(argv=None) -> dict:
    parser = add_options(argparse.ArgumentParser(description=__doc__.split("\n")[0]))
    args = parser.parse_args(argv)

    tf.keras.utils.set_random_seed(args.seed)
    (x_train, y_train), (x_test, y_test) = load_data()
    strategy = (tf.distribute.MultiWorkerMirroredStrategy() if args.distributed
                else tf.distribute.get_strategy())
    chief = not args.distributed or strategy.extended.should_checkpoint
    with strategy.scope():
        model = MyModel()
        model(x_train[:1])    # the variables, made in the scope: the chief's on every worker
        optimizer = tf.keras.optimizers.Adam()
    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(
        from_logits=True, reduction="none")
    train_loss = tf.keras.metrics.Mean(name="train_loss")
    train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="train_accuracy")
    test_loss = tf.keras.metrics.Mean(name="test_loss")
    test_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="test_accuracy")

    def replica_step(images, labels, global_batch_size):
        with tf.GradientTape() as tape:
            predictions = model(images, training=True)
            per_example = loss_object(labels, predictions)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=global_batch_size)
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))
        train_loss.update_state(per_example)
        train_accuracy(labels, predictions)

    def train_step(images, labels, global_batch_size):
        strategy.run(replica_step, args=(images, labels, global_batch_size))

    def test_step(images, labels):
        predictions = model(images, training=False)
        test_loss(tf.reduce_mean(loss_object(labels, predictions)))
        test_accuracy(labels, predictions)

    # Traced once per batch shape into a graph, then run as a compiled plan. (A tapeflow
    # without graph mode runs them eagerly.)
    compile_step = getattr(tf, "function", None)
    if compile_step is not None and not args.eager:
        train_step, test_step = compile_step(train_step), compile_step(test_step)

    mode = "eager" if args.eager or compile_step is None else "tf.function"
    workers = f", {strategy.num_replicas_in_sync} workers" if args.distributed else ""
    say = print if chief else (lambda *a, **k: None)
    say(f"digits: {len(x_train)} training and {len(x_test)} test images, 8x8; "
        f"{args.epochs} epochs, seed {args.seed}, {mode}{workers}")
    rng = np.random.default_rng(args.seed)
    steps = -(-len(x_train) // args.batch_size)
    history: dict = {"loss": [], "accuracy": [], "test_loss": [], "test_accuracy": []}
    training_seconds = 0.0
    writers = None
    if args.tensorboard and chief:
        writers = {run: tf.summary.create_file_writer(f"{args.tensorboard}/{run}")
                   for run in ("train", "test")}
    for epoch in range(args.epochs):
        for metric in (train_loss, train_accuracy, test_loss, test_accuracy):
            metric.reset_state()
        with single_threaded_blas():
            start = time.perf_counter()
            shares = strategy.experimental_distribute_dataset(
                batches(x_train, y_train, args.batch_size, rng))
            sizes = [min(args.batch_size, len(x_train) - s)
                     for s in range(0, len(x_train), args.batch_size)]
            for (images, labels), size in progress(zip(shares, sizes), steps,
                                                   f"Epoch {epoch + 1}/{args.epochs}", chief):
                train_step(images, labels, tf.constant(size, tf.float32))
            training_seconds += time.perf_counter() - start
            for images, labels in batches(x_test, y_test, 256):
                test_step(images, labels)
        for key, metric in (("loss", train_loss), ("accuracy", train_accuracy),
                            ("test_loss", test_loss), ("test_accuracy", test_accuracy)):
            history[key].append(float(strategy.reduce("MEAN", metric.result(), axis=None)))
        say(f"Epoch {epoch + 1}/{args.epochs}: loss {history['loss'][-1]:.4f}, "
              f"accuracy {100 * history['accuracy'][-1]:.1f}%, "
              f"test loss {history['test_loss'][-1]:.4f}, "
              f"test accuracy {100 * history['test_accuracy'][-1]:.1f}%", flush=True)
        if writers:
            log_epoch(writers, history, model, epoch)
    say(f"training time: {training_seconds:.1f} s")
    if args.plot and chief:
        plot(history, args.plot)
        say(f"curves saved to {args.plot}")
    if writers:
        for writer in writers.values():
            writer.close()
        say(f"TensorBoard logs in {args.tensorboard} (tensorboard --logdir {args.tensorboard})")
    if args.save and chief:
        model.save(args.save)
        say(f"model saved to {args.save}")
    say(f"test accuracy: {100 * history['test_accuracy'][-1]:.1f}%")
    return {"history": history, "training_seconds": training_seconds,
            "test_accuracy": history["test_accuracy"][-1]}


if __name__ == "__main__":
    main()
