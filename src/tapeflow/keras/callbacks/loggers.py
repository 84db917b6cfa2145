"""Callbacks that record training: CSVLogger (a CSV row per epoch) and TensorBoard (event
files through `tf.summary`)."""
from __future__ import annotations

import collections.abc
import csv
import json
import os
import time
import warnings

import numpy as np

from .. import distribution
from .base import Callback

__all__ = ["CSVLogger", "TensorBoard"]


def _csv_value(value):
    if isinstance(value, str):
        return value
    if isinstance(value, collections.abc.Iterable) and np.ndim(value) > 0:
        return f'"[{", ".join(map(str, value))}]"'
    return value


def _weight_paths(model) -> dict:
    """{id(variable): its path as Keras names it}: 'layer/kernel', with the names of the
    Sequential and subclassed models around the layer in front (they build their layers
    inside themselves; a functional model's layers are built outside it)."""
    from ..functional import Functional
    from ..models import Model
    paths: dict = {}

    def walk(layer, prefix: str) -> None:
        for variable in layer._own_variables():
            paths.setdefault(id(variable), prefix + variable.name.split(":")[0])
        if isinstance(layer, Model) and not isinstance(layer, Functional):
            prefix += layer.name + "/"
        for sublayer in layer._sublayers():
            walk(sublayer, prefix)
    walk(model, "")
    return paths


class CSVLogger(Callback):
    """Writes each epoch's logs as a row of a CSV file: 'epoch', then the log keys in
    alphabetical order.

    Args:
        filename: the CSV file.
        separator: the field separator.
        append: add to an existing file (without a second header) instead of replacing it.

    Example:
        >>> import os, tempfile
        >>> import tapeflow as tf
        >>> path = os.path.join(tempfile.mkdtemp(), "log.csv")
        >>> logger = tf.keras.callbacks.CSVLogger(path)
        >>> logger.on_train_begin()
        >>> logger.on_epoch_end(0, {"loss": 0.5, "accuracy": 0.75})
        >>> logger.on_train_end()
        >>> print(open(path).read().strip())
        epoch,accuracy,loss
        0,0.75,0.5
    """

    def __init__(self, filename, separator: str = ",", append: bool = False) -> None:
        super().__init__()
        self.filename = os.fspath(filename)
        self.sep = separator
        self.append = append
        self.keys = None
        self.writer = None
        self.csv_file = None
        self.append_header = True

    def on_train_begin(self, logs=None) -> None:
        mode = "w"
        if self.append:
            if os.path.exists(self.filename):
                with open(self.filename) as f:
                    self.append_header = not f.readline()
            mode = "a"
        self.csv_file = open(self.filename, mode, newline="")
        self.writer = None
        self.keys = None

    def on_epoch_end(self, epoch, logs=None) -> None:
        logs = logs or {}
        if self.keys is None:
            self.keys = sorted(logs)
        if self.model is not None and getattr(self.model, "stop_training", False):
            logs = {key: logs.get(key, "NA") for key in self.keys}
        if self.writer is None:
            self.writer = csv.DictWriter(self.csv_file, fieldnames=["epoch", *self.keys],
                                         delimiter=self.sep)
            if self.append_header:
                self.writer.writeheader()
        self.writer.writerow({"epoch": epoch,
                              **{key: _csv_value(logs.get(key, "NA")) for key in self.keys}})
        self.csv_file.flush()

    def on_train_end(self, logs=None) -> None:
        if self.csv_file is not None:
            self.csv_file.close()
        self.writer = None


class TensorBoard(Callback):
    """Writes TensorBoard event files: under `log_dir/train` the epoch's training logs
    ('epoch_loss', 'epoch_accuracy', ..., 'epoch_learning_rate'), batch logs ('batch_loss')
    with `update_freq`, weight histograms every `histogram_freq` epochs and the model's
    config ('keras', for the graph dashboard); under `log_dir/validation` the validation
    logs ('epoch_loss' ... and 'evaluation_loss_vs_iterations').

    Args:
        log_dir: the directory of the runs.
        histogram_freq: epochs between weight histograms (0: none).
        write_graph: write the model's config (functional and Sequential models).
        write_steps_per_second: also log the training speed.
        update_freq: 'epoch', 'batch', or a number of batches between batch-level logs.
        write_images, profile_batch, embeddings_freq, embeddings_metadata: accepted for
            Keras compatibility; tapeflow writes no weight images, profiles or embeddings.

    Raises:
        ImportError: (when training starts) the `tensorboard` package is missing.

    Example:
        >>> import os, tempfile
        >>> import numpy as np
        >>> import tapeflow as tf
        >>> model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
        >>> model.compile(optimizer="sgd", loss="mse")
        >>> board = tf.keras.callbacks.TensorBoard(tempfile.mkdtemp(), histogram_freq=1)
        >>> _ = model.fit(np.zeros((4, 2)), np.zeros((4, 1)), epochs=2, verbose=0,
        ...               callbacks=[board])
        >>> sorted(os.listdir(board.log_dir))
        ['train']
    """

    def __init__(self, log_dir="logs", histogram_freq: int = 0, write_graph: bool = True,
                 write_images: bool = False, write_steps_per_second: bool = False,
                 update_freq="epoch", profile_batch=0, embeddings_freq: int = 0,
                 embeddings_metadata=None) -> None:
        super().__init__()
        self.log_dir = os.fspath(log_dir)
        self.histogram_freq = histogram_freq
        self.write_graph = write_graph
        self.write_images = write_images
        self.write_steps_per_second = write_steps_per_second
        self.update_freq = 1 if update_freq == "batch" else update_freq
        if profile_batch or embeddings_freq or write_images:
            warnings.warn("TensorBoard: tapeflow writes no profiles, embeddings or weight "
                          "images; profile_batch, embeddings_freq and write_images are "
                          "ignored.", stacklevel=2)
        self._writers: dict = {}
        self._global_train_batch = 0
        self._epoch_start = 0.0
        self._epoch_batches = 0

    def _writer(self, run: str):
        if run not in self._writers:
            from ... import summary
            # Under a strategy the chief writes the logs; the other workers' go nowhere.
            self._writers[run] = summary.create_file_writer(os.path.join(
                self.log_dir, run)) if distribution.writes_files(self.model) else \
                summary.create_noop_writer()
        return self._writers[run]

    def _scalars(self, run: str, logs: dict, prefix: str, step: int) -> None:
        from ... import summary
        with self._writer(run).as_default(step=step):
            for name, value in logs.items():
                summary.scalar(prefix.format(name), value)

    def on_train_begin(self, logs=None) -> None:
        self._global_train_batch = 0
        if self.write_graph:
            self._write_model_config()

    def _write_model_config(self) -> None:
        from ... import summary
        from ..functional import Functional
        from ..models import Sequential
        from ..saving.serialization import serialize_keras_object
        if not isinstance(self.model, (Functional, Sequential)):
            return
        config = json.dumps(serialize_keras_object(self.model))
        writer = self._writer("train")            # imports tensorboard, or says how to
        from tensorboard.compat.proto.summary_pb2 import SummaryMetadata
        metadata = SummaryMetadata(plugin_data=SummaryMetadata.PluginData(
            plugin_name="graph_keras_model", content=b"1"))
        with writer.as_default(step=0):
            summary.write("keras", config, metadata=metadata)

    def on_epoch_begin(self, epoch, logs=None) -> None:
        self._epoch_start = time.time()
        self._epoch_batches = 0

    def on_train_batch_end(self, batch, logs=None) -> None:
        self._global_train_batch += 1
        self._epoch_batches += 1
        if self.update_freq == "epoch" or self._global_train_batch % self.update_freq:
            return
        logs = dict(logs or {})
        if self.write_steps_per_second:
            logs["steps_per_second"] = self._steps_per_second()
        self._scalars("train", logs, "batch_{}", self._global_train_batch)

    def _steps_per_second(self) -> float:
        return self._epoch_batches / max(time.time() - self._epoch_start, 1e-12)

    def on_epoch_end(self, epoch, logs=None) -> None:
        logs = logs or {}
        train = {k: v for k, v in logs.items() if not k.startswith("val_")}
        validation = {k[4:]: v for k, v in logs.items() if k.startswith("val_")}
        optimizer = getattr(self.model, "optimizer", None)
        if optimizer is not None and "learning_rate" not in train:
            train["learning_rate"] = float(optimizer.learning_rate)
        if self.write_steps_per_second:
            train["steps_per_second"] = self._steps_per_second()
        self._scalars("train", train, "epoch_{}", epoch)
        if validation:
            self._scalars("validation", validation, "evaluation_{}_vs_iterations",
                          self._global_train_batch)
            self._scalars("validation", validation, "epoch_{}", epoch)
        if self.histogram_freq and epoch % self.histogram_freq == 0:
            self._histograms(epoch)

    def _histograms(self, epoch: int) -> None:
        from ... import summary
        paths = _weight_paths(self.model)
        with self._writer("train").as_default(step=epoch):
            for layer in self.model.layers:
                for weight in layer.weights:
                    summary.histogram(f"{paths[id(weight)]}/histogram", weight)

    def on_train_end(self, logs=None) -> None:
        for writer in self._writers.values():
            writer.close()
        self._writers = {}
