"""Model (subclassed, with compile / fit / evaluate / predict) and Sequential."""
from __future__ import annotations

import itertools
import json
import os

import numpy as np

from ..eager.backprop import GradientTape
from ..framework import nest
from ..framework.tensor import Tensor
from ..framework.tensor_shape import TensorShape
from ..trackable.base import Trackable
from ..trackable.data_structures import ListWrapper
from . import backend
from . import callbacks as callbacks_module
from . import distribution
from . import optimizers as optimizers_module
from .compile_utils import CompiledLoss, CompiledMetrics
from .data import ArrayBatches, EpochBatches, batches as make_batches, unpack
from .keras_tensor import KerasTensor
from .layers.base import Layer
from .layers.input_layer import InputLayer
from .saving.keras_file import load_model, load_weights_h5, save_model, save_weights_h5
from .saving.serialization import deserialize_keras_object, serialize_keras_object

__all__ = ["Model", "Sequential", "load_model", "model_from_json", "save_model"]


def _to_python(logs: dict) -> dict:
    """Scalar results as floats; others (F1Score per class, Precision at several
    thresholds) as NumPy arrays, as Keras keeps them."""
    return {key: float(value) if value.shape.rank == 0 else value.numpy()
            for key, value in logs.items()}


def _param_count(layer: Layer) -> int:
    return int(sum(w.shape.num_elements() for w in layer.weights))


class Model(Layer):
    """A layer that trains. Either call it with inputs and outputs, `Model(inputs, outputs)`
    (the functional API: see `Functional`), or subclass it, create layers in `__init__`
    and use them in `call`.

    `compile(optimizer, loss, metrics)` then `fit(x, y, ...)` trains with mini-batches;
    `evaluate` and `predict` run in inference mode. Override `train_step(data)` to
    customise a step while keeping `fit`'s loop, callbacks and progress bar. As in Keras,
    the steps run as `tf.function`s (graph mode) unless `run_eagerly`.

    Example:
        >>> import numpy as np
        >>> import tapeflow as tf
        >>> class Linear(tf.keras.Model):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.dense = tf.keras.layers.Dense(1, kernel_initializer="zeros")
        ...     def call(self, x):
        ...         return self.dense(x)
        >>> model = Linear()
        >>> model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
        >>> x = np.linspace(-1, 1, 32).reshape(-1, 1).astype("float32")
        >>> history = model.fit(x, 3 * x, epochs=20, batch_size=8, verbose=0)
        >>> round(float(model.dense.kernel.numpy()[0, 0]), 2)
        3.0
    """

    _TF_MODULE_IGNORED_PROPERTIES = Layer._TF_MODULE_IGNORED_PROPERTIES | frozenset((
        "compiled_loss", "compiled_metrics", "stop_training", "history", "_run_eagerly",
        "_step_functions", "_compile_config", "_distribute_strategy",
        "_initial_epoch"))

    def __init__(self, *args, **kwargs) -> None:
        if args or "inputs" in kwargs or "outputs" in kwargs:
            from .functional import Functional, functional_class
            self.__class__ = functional_class(type(self))
            Functional.__init__(self, *args, **kwargs)
            return
        super().__init__(**kwargs)
        self.optimizer = None
        self.compiled_loss = None
        self.compiled_metrics = None
        self.stop_training = False
        self.history = None
        self._run_eagerly = None
        self._step_functions: dict = {}
        self._compile_config = None
        self._distribute_strategy = distribution.current_strategy()
        self._initial_epoch = None      # set by BackupAndRestore when it restores a backup

    @property
    def distribute_strategy(self):
        """The `tf.distribute` strategy the model was made under (the default one if none)."""
        import tapeflow as tf
        return self._distribute_strategy or tf.distribute.get_strategy()

    def call(self, inputs, training=None):
        raise NotImplementedError(f"Model {self.name}: subclasses of keras.Model implement "
                                  "call(inputs, training=None).")

    def build(self, input_shape) -> None:
        """Builds every layer by running the model once on zeros of `input_shape` (a None
        batch dimension counts as 1; the layers built record it as None, as Keras's build
        configs do)."""
        if self.built:
            return
        given = TensorShape(input_shape).as_list()
        shape = [1 if d is None else d for d in given]
        unbuilt = [layer for layer in self._flatten_layers() if not layer.built]
        self(Tensor(np.zeros(shape, self._dtype.as_numpy_dtype)), training=False)
        if given and given[0] is None:
            for layer in unbuilt:
                layer._build_input_shape = _unknown_batch(layer._build_input_shape)

    def _maybe_build(self, inputs) -> None:
        # Layers build themselves when the model calls them; only a build() a subclass
        # overrides runs here (Model.build would run the model a second time).
        if type(self).build is not Model.build:
            return super()._maybe_build(inputs)
        if not self.built:
            self._build_input_shape = TensorShape(inputs.shape.as_list()) \
                if hasattr(inputs, "shape") else [TensorShape(x.shape.as_list()) for x in inputs]
            self.built = True

    @property
    def layers(self) -> list:
        """The layers set as attributes, in assignment order."""
        return self._sublayers()

    def get_layer(self, name: str | None = None, index: int | None = None) -> Layer:
        """The layer called `name`, or at position `index` of `layers`.

        Raises:
            ValueError: no such layer, or neither or both of name and index.
        """
        if (name is None) == (index is None):
            raise ValueError("Provide either a layer name or layer index at `get_layer`.")
        layers = self.layers
        if index is not None:
            if not -len(layers) <= index < len(layers):
                raise ValueError(f"Was asked to retrieve layer at index {index} but model only "
                                 f"has {len(layers)} layers.")
            return layers[index]
        for layer in layers:
            if layer.name == name:
                return layer
        raise ValueError(f"No such layer: {name}. Existing layers are: "
                         f"{[layer.name for layer in layers]}.")

    def _output_shapes(self) -> dict:
        """{layer: output shape} where it can be worked out (Sequential overrides)."""
        return {}

    def _summary_rows(self) -> tuple:
        """([name (type), output shape, parameter count(, sources)] per layer, whether the
        rows have the 'Connected to' column of sources)."""
        shapes = self._output_shapes()
        return [[f"{layer.name} ({type(layer).__name__})",
                 str(shapes.get(id(layer), "multiple")), _param_count(layer)]
                for layer in self.layers], False

    def summary(self, line_length=None, positions=None, print_fn=None, expand_nested=False,
                show_trainable=False, layer_range=None) -> None:
        """Prints each layer's name, type, output shape and parameter count, and the totals;
        for a functional model that is not a plain stack, also the layer outputs each layer
        is called on ('Connected to': 'layer[call][output]').

        Raises:
            ValueError: the model is not built yet.

        Example:
            >>> import tapeflow as tf
            >>> tf.keras.backend.clear_session()
            >>> model = tf.keras.Sequential([tf.keras.layers.Dense(4, input_shape=(3,))])
            >>> model.summary()
            Model: "sequential"
            _________________________________________________________________
             Layer (type)                Output Shape              Param #
            =================================================================
             dense (Dense)               (None, 4)                 16
            =================================================================
            Total params: 16
            Trainable params: 16
            Non-trainable params: 0
            _________________________________________________________________
        """
        if not self.built:
            raise ValueError("This model has not yet been built. Build the model first by "
                             "calling `build()` or by calling the model on a batch of data.")
        print_fn = print_fn or print
        rows, connected = self._summary_rows()
        line_length = line_length or (98 if connected else 65)

        def row(*cells) -> str:
            if connected:
                return f" {cells[0]:<28} {cells[1]:<25} {cells[2]:<9} {cells[3]}".rstrip()
            return f" {cells[0]:<27} {cells[1]:<25} {cells[2]}".rstrip()

        print_fn(f'Model: "{self.name}"')
        print_fn("_" * line_length)
        print_fn(row("Layer (type)", "Output Shape", "Param #", "Connected to"))
        print_fn("=" * line_length)
        for cells in rows:
            if not connected:
                print_fn(row(*cells))
                continue
            sources = cells[3] or ["[]"]
            print_fn(row(*cells[:3], sources[0]))
            for source in sources[1:]:
                print_fn(row("", "", "", source))
        print_fn("=" * line_length)
        trainable = int(sum(np.prod(w.shape.as_list()) for w in self.trainable_weights))
        total = int(sum(np.prod(w.shape.as_list()) for w in self.weights))
        print_fn(f"Total params: {total}")
        print_fn(f"Trainable params: {trainable}")
        print_fn(f"Non-trainable params: {total - trainable}")
        print_fn("_" * line_length)

    # -- compile ---------------------------------------------------------------------------
    def compile(self, optimizer="rmsprop", loss=None, metrics=None, loss_weights=None,
                weighted_metrics=None, run_eagerly=None, steps_per_execution=None,
                jit_compile=None, **kwargs) -> None:
        """Configures training: an optimizer (object or name), a loss (object, function
        or name) and metrics (objects, functions or names; 'accuracy' picks the variant
        matching the labels). `run_eagerly=True` runs the steps without tf.function.

        Args:
            loss: one loss for every output, or a list (in output order) or dict (by output
                name) of them.
            metrics: updated without sample weights; a list for every output, or per output
                as a list of lists or a dict.
            loss_weights: scalars (list or dict) weighting each output's loss in the total.
            weighted_metrics: like metrics, updated with `sample_weight` / `class_weight`.
        """
        with distribution.scope(self):
            self.optimizer = optimizers_module.get(optimizer)
        self._compile_config = {"optimizer": self.optimizer, "loss": loss,
                                "loss_weights": loss_weights, "metrics": metrics,
                                "weighted_metrics": weighted_metrics,
                                "run_eagerly": bool(run_eagerly), "steps_per_execution": 1,
                                "jit_compile": False}
        self.compiled_loss = CompiledLoss(loss, loss_weights) if loss is not None else None
        self.compiled_metrics = CompiledMetrics(metrics, weighted_metrics, self.compiled_loss)
        self._run_eagerly = run_eagerly
        self._step_functions = {}

    def get_compile_config(self):
        """The arguments `compile` was given (None before it is called), as `.keras`
        files store them."""
        return self._compile_config

    def compile_from_config(self, config: dict) -> None:
        """Compiles with arguments from `get_compile_config` (objects already built)."""
        self.compile(**config)

    @property
    def run_eagerly(self) -> bool:
        """Whether fit / evaluate / predict run their steps eagerly rather than as a
        tf.function (the default when graph mode is available, as in Keras)."""
        return bool(self._run_eagerly)

    @run_eagerly.setter
    def run_eagerly(self, value: bool) -> None:
        self._run_eagerly = value
        self._step_functions = {}

    def _step(self, kind: str):
        """`self.<kind>_step`, traced by tf.function unless `run_eagerly`; kept per kind."""
        step = distribution.replicated(self, getattr(self, f"{kind}_step"))
        compile_step = getattr(_tapeflow(), "function", None)   # absent without graph mode
        if self.run_eagerly or compile_step is None:
            return step
        if kind not in self._step_functions:
            self._step_functions[kind] = compile_step(step)
        return self._step_functions[kind]

    def _assert_compiled(self, what: str) -> None:
        if self.optimizer is None:
            raise RuntimeError(f"You must compile your model before {what}. Call "
                               "`model.compile(optimizer, loss)`.")

    @property
    def metrics(self) -> list:
        """The loss tracker and the compiled metrics (once data has been seen)."""
        found = []
        if self.compiled_loss is not None:
            found.extend(self.compiled_loss.metrics)
        if self.compiled_metrics is not None and self.compiled_metrics.metrics:
            found.extend(self.compiled_metrics.metrics)
        return found

    @property
    def metrics_names(self) -> list:
        return [m.name for m in self.metrics]

    def reset_metrics(self) -> None:
        for metric in self.metrics:
            metric.reset_state()

    # -- steps -----------------------------------------------------------------------------
    def _output_names(self, y_pred) -> list:
        """The outputs' names: a functional model's, else 'output_1', 'output_2'..."""
        names = getattr(self, "output_names", None)
        if names:
            return list(names)
        if isinstance(y_pred, dict):
            return sorted(y_pred)
        return [f"output_{i + 1}" for i in range(len(nest.flatten(y_pred)))]

    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None):
        """The compiled loss of a batch plus `self.losses` (regularization, `add_loss`),
        and its running mean for the logs."""
        if self.compiled_loss is None:
            raise ValueError("No loss to compute: pass `loss` to `compile()`, or override "
                             "`train_step`.")
        if not self.compiled_loss.built:
            self.compiled_loss.build(self._output_names(y_pred))
        return self.compiled_loss(y, y_pred, sample_weight, regularization_losses=self.losses)

    def compute_metrics(self, x, y, y_pred, sample_weight) -> dict:
        """Updates the compiled metrics and returns every metric's result by name."""
        self.compiled_metrics.update_state(y, y_pred, sample_weight,
                                           names=self._output_names(y_pred))
        return {m.name: m.result() for m in self.metrics}

    def train_step(self, data) -> dict:
        """One optimization step on a batch `(x, y[, sample_weight])`; returns the logs."""
        x, y, sample_weight = unpack(data)
        with GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x, y, y_pred, sample_weight)
            # Loss scaling, as Keras 3 does; under a strategy, divided by the replicas.
            scaled = self.optimizer.scale_loss(distribution.scaled_loss(self, loss))
        self.optimizer.minimize(scaled, self.trainable_variables, tape=tape)
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def test_step(self, data) -> dict:
        """Loss and metrics of a batch in inference mode."""
        x, y, sample_weight = unpack(data)
        y_pred = self(x, training=False)
        self.compute_loss(x, y, y_pred, sample_weight)
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def predict_step(self, data):
        """The model's output for a batch in inference mode."""
        x, _, _ = unpack(data)
        return self(x, training=False)

    # -- loops -----------------------------------------------------------------------------
    def fit(self, x=None, y=None, batch_size=None, epochs: int = 1, verbose="auto",
            callbacks=None, validation_split: float = 0.0, validation_data=None,
            shuffle: bool = True, class_weight=None, sample_weight=None,
            initial_epoch: int = 0, steps_per_epoch=None, validation_steps=None,
            validation_batch_size=None, validation_freq: int = 1):
        """Trains for `epochs` passes over the data, in batches of `batch_size` (32) for
        in-memory data.

        Args:
            x, y: arrays or Tensors (or lists / dicts of them for several inputs); or x a
                `tf.data.Dataset` of batches `(x, y)` or `(x, y, sample_weight)`, and no y.
            verbose: 'auto' or 1 for a progress bar per epoch, 2 for one line per epoch,
                0 for silence.
            callbacks: Callback objects (EarlyStopping, LambdaCallback...).
            validation_split: the fraction of the data (taken from the end, before
                shuffling) to evaluate on after each epoch instead of training on.
            validation_data: (x, y) or (x, y, sample_weight) to evaluate after each epoch,
                or a `tf.data.Dataset` of such batches.
            shuffle: reshuffle the training examples each epoch (a dataset shuffles itself).
            class_weight: {class index: weight}; each training example's loss (and
                weighted metrics) is weighted by its class's weight (1.0 for classes not
                listed), times its sample weight. Single-output models only.
            sample_weight: one weight per example (or per output: a list or dict).
            initial_epoch: the epoch to start counting from (to resume training).
            steps_per_epoch: batches per epoch; each epoch continues where the last one
                stopped, and one that reaches the end of the data stops early (needed for
                an infinite dataset).
            validation_steps: batches of the validation data evaluated each time, each
                validation continuing where the previous one stopped.
            validation_freq: evaluate every this many epochs.

        Under a `tf.distribute` strategy with several workers (the model made in its
        scope), each worker trains on its part of every batch and the logs hold the
        metrics over all the workers' examples.

        Returns:
            The History callback: `history.history` maps each log key ('loss', metric
            names, 'val_'-prefixed ones) to its per-epoch values.

        Raises:
            RuntimeError: the model is not compiled.
            ValueError: mismatched numbers of examples, missing targets, class_weight with
                several outputs, a non-positive steps_per_epoch, y or sample_weight beside a
                dataset, validation_split with a dataset, or an infinite dataset without
                steps.
        """
        self._assert_compiled("training/testing")
        with distribution.scope(self):
            return self._fit(x, y, batch_size, epochs, verbose, callbacks, validation_split,
                             validation_data, shuffle, class_weight, sample_weight,
                             initial_epoch, steps_per_epoch, validation_steps,
                             validation_batch_size, validation_freq)

    def _fit(self, x, y, batch_size, epochs, verbose, callbacks, validation_split,
             validation_data, shuffle, class_weight, sample_weight, initial_epoch,
             steps_per_epoch, validation_steps, validation_batch_size, validation_freq):
        train = make_batches(x, y, sample_weight, batch_size, steps_per_epoch)
        validation = None
        if validation_data is not None:
            if not isinstance(validation_data, (tuple, list)):
                validation = make_batches(validation_data, steps=validation_steps,
                                          what="validation_data")
            else:
                validation = ArrayBatches(*unpack(tuple(validation_data)),
                                          batch_size=validation_batch_size or train.batch_size)
        elif validation_split:
            if not isinstance(train, ArrayBatches):
                raise ValueError("Argument `validation_split` is only supported for tensors or "
                                 f"NumPy arrays, not for {type(x).__name__}.")
            train, validation = train.split(validation_split)
        if class_weight is not None:
            train = train.weighted_by_class(class_weight)
        batches = EpochBatches(train, steps_per_epoch,
                               distribution.shared_rng(self, backend.rng) if shuffle
                               else lambda: None)
        if validation is not None:
            validation = EpochBatches(validation, validation_steps, lambda: None)
        verbose = 1 if verbose == "auto" else verbose
        history = callbacks_module.History()
        extra = [callbacks_module.ProgbarLogger(verbose)] if verbose else []
        hooks = callbacks_module.CallbackList([*(callbacks or []), *extra, history], model=self,
                                              verbose=verbose, epochs=epochs,
                                              steps=batches.steps or train.steps)
        self.stop_training = False
        self._initial_epoch = None
        train_step = self._step("train")
        hooks.on_train_begin({})
        initial_epoch = self._initial_epoch or initial_epoch   # set by BackupAndRestore
        logs: dict = {}
        for epoch in range(initial_epoch, epochs):
            self.reset_metrics()
            hooks.on_epoch_begin(epoch, {})
            for step, batch in enumerate(distribution.shard(self, batches)):
                hooks.on_train_batch_begin(step, {})
                logs = distribution.global_logs(self, _to_python(train_step(batch)))
                hooks.on_train_batch_end(step, logs)
                if self.stop_training:
                    break
            epoch_logs = dict(logs)
            if validation is not None and (epoch + 1) % validation_freq == 0:
                val_logs = self._evaluate(validation)
                epoch_logs.update({f"val_{key}": value for key, value in val_logs.items()})
            hooks.on_epoch_end(epoch, epoch_logs)
            logs = epoch_logs
            if self.stop_training:
                break
        if epochs > initial_epoch:
            self.optimizer.finalize_variable_values(self.trainable_variables)
        hooks.on_train_end(logs)
        return history

    def _evaluate(self, data: EpochBatches, hooks=None) -> dict:
        self.reset_metrics()
        test_step = self._step("test")
        logs: dict = {}
        for step, batch in enumerate(distribution.shard(self, data)):
            if hooks:
                hooks.on_test_batch_begin(step, {})
            logs = distribution.global_logs(self, _to_python(test_step(batch)))
            if hooks:
                hooks.on_test_batch_end(step, logs)
        return logs

    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", sample_weight=None,
                 steps=None, callbacks=None, return_dict: bool = False):
        """The loss and metrics over the data (its first `steps` batches if given), in
        inference mode. `x` may be a `tf.data.Dataset` of `(x, y[, sample_weight])` batches.

        Returns:
            The loss alone when there are no metrics, else [loss, metric...] in
            `metrics_names` order; a dict by name with `return_dict`.

        Raises:
            RuntimeError: the model is not compiled.
        """
        self._assert_compiled("training/testing")
        data = make_batches(x, y, sample_weight, batch_size, steps)
        hooks = callbacks_module.CallbackList(callbacks, model=self, verbose=verbose,
                                              steps=steps or data.steps)
        hooks.on_test_begin({})
        with distribution.scope(self):
            logs = self._evaluate(EpochBatches(data, steps, lambda: None), hooks)
        hooks.on_test_end(logs)
        if return_dict:
            return logs
        values = [logs[name] for name in self.metrics_names]
        return values[0] if len(values) == 1 else values

    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None):
        """The model's outputs for `x` (its first `steps` batches if given), batch by
        batch, as one NumPy array (a list or dict of them for several outputs). `x` may be
        a `tf.data.Dataset` of batches `x` (or `(x, ...)`, whose other parts are ignored).
        """
        data = make_batches(x, batch_size=batch_size, steps=steps)
        hooks = callbacks_module.CallbackList(callbacks, model=self, verbose=verbose,
                                              steps=steps or data.steps)
        hooks.on_predict_begin({})
        predict_step = self._step("predict")
        outputs = []
        for step, batch in enumerate(distribution.shard(self, EpochBatches(data, steps,
                                                                          lambda: None))):
            hooks.on_predict_batch_begin(step, {})
            with distribution.scope(self):
                output = distribution.gathered(self, predict_step(batch))
            outputs.append(nest.map_structure(lambda t: t.numpy(), output))
            hooks.on_predict_batch_end(step, {"outputs": outputs[-1]})
        hooks.on_predict_end({})
        flat = [np.concatenate(parts) for parts in zip(*map(nest.flatten, outputs))]
        return nest.pack_sequence_as(outputs[0], flat)

    def train_on_batch(self, x, y=None, sample_weight=None, reset_metrics: bool = True,
                       return_dict: bool = False):
        """One training step on exactly this batch; returns the loss (and metrics)."""
        self._assert_compiled("training/testing")
        if reset_metrics:
            self.reset_metrics()
        batch = next(ArrayBatches(x, y, sample_weight, batch_size=len(_first(x)))())
        logs = _to_python(self._step("train")(batch))
        if return_dict:
            return logs
        values = [logs[name] for name in self.metrics_names]
        return values[0] if len(values) == 1 else values

    def save(self, filepath, overwrite: bool = True, **kwargs) -> None:
        """Writes the model as a Keras 3 `.keras` file (architecture, compile arguments,
        weights and optimizer state; atomically). `tf.keras.models.load_model` reads it
        back, as does Keras 3.

        Raises:
            ValueError: a path not ending in '.keras'.
            ImportError: h5py is missing (the `keras-io` extra).

        Example:
            >>> import os, tempfile
            >>> import tapeflow as tf
            >>> model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
            >>> path = os.path.join(tempfile.mkdtemp(), "model.keras")
            >>> model.save(path)
            >>> restored = tf.keras.models.load_model(path)
            >>> bool((restored(tf.ones([1, 3])).numpy() == model(tf.ones([1, 3])).numpy()).all())
            True
        """
        save_model(self, filepath, overwrite=overwrite, **kwargs)

    def to_json(self, **kwargs) -> str:
        """The architecture as JSON (Keras's config; no weights): `model_from_json` reads it."""
        return json.dumps(serialize_keras_object(self), **kwargs)

    def save_weights(self, filepath, overwrite: bool = True, save_format=None, options=None):
        """Writes the model's variables (with its optimizer's), atomically: in Keras 3's
        layout when `filepath` ends in '.weights.h5', else as a TF-format checkpoint at
        that prefix. Under a multi-worker strategy only the chief writes.

        Raises:
            ValueError: a '.keras' or other '.h5' path (use `save`, or '.weights.h5').
            FileExistsError: the file exists and `overwrite` is False.
        """
        filepath = os.fspath(filepath)
        if not distribution.writes_files(self):
            return
        if filepath.endswith(".weights.h5"):
            if not overwrite and os.path.exists(filepath):
                raise FileExistsError(f"{filepath} exists and overwrite=False.")
            save_weights_h5(self, filepath)
            return
        if filepath.endswith((".keras", ".h5", ".hdf5")):
            raise ValueError("The filename must end in `.weights.h5` (or be a checkpoint "
                             f"prefix); use `model.save()` for .keras files. Received: "
                             f"filepath={filepath}")
        from ..train.checkpoint import Checkpoint
        Checkpoint(root=self).write(filepath)

    def load_weights(self, filepath, skip_mismatch: bool = False, by_name: bool = False,
                     options=None):
        """Restores variables written by `save_weights` (a '.weights.h5' file, the weights of
        a '.keras' file, or a checkpoint prefix), building the model first if needed.

        Raises:
            ValueError: names or shapes that do not match (nothing is changed).
        """
        filepath = os.fspath(filepath)
        if filepath.endswith((".weights.h5", ".keras")):
            return load_weights_h5(self, filepath)
        from ..train.checkpoint import Checkpoint
        return Checkpoint(root=self).read(filepath)

    def predict_on_batch(self, x):
        """The model's outputs for one batch, as a NumPy array (or a structure of them)."""
        return nest.map_structure(lambda t: t.numpy(), self(x, training=False))


def _unknown_batch(shape):
    """A recorded build shape (or a list of them) with its batch dimension None."""
    if isinstance(shape, (list, tuple)) and shape and not isinstance(shape[0], (int, type(None))):
        return [_unknown_batch(s) for s in shape]
    if shape is None:
        return None
    dims = TensorShape(shape).as_list() if TensorShape(shape).rank is not None else None
    return TensorShape([None] + dims[1:]) if dims else shape


def model_from_json(json_string: str, custom_objects=None):
    """The (untrained) model a `Model.to_json()` string describes."""
    return deserialize_keras_object(json.loads(json_string), custom_objects)


def _tapeflow():
    import tapeflow
    return tapeflow


def _first(x):
    while isinstance(x, (list, tuple, dict)):
        x = next(iter(x.values())) if isinstance(x, dict) else x[0]
    return x


class _SequentialGraph(Trackable):
    """What a Sequential model's checkpoint calls `_functional`: the graph of its layers,
    `_operations` (an input layer, then the layers), as Keras 3 saves it."""

    def __init__(self) -> None:
        self.input_operation = Trackable()
        self.operations = ListWrapper()

    def update(self, operations: list) -> None:
        current = self.operations
        if len(current) != len(operations) or any(a is not b for a, b in zip(current, operations)):
            current[:] = operations

    def _trackable_children(self, save_type: str = "checkpoint", **kwargs) -> dict:
        return {"_operations": self.operations}


class Sequential(Model):
    """A linear stack of layers, each called on the previous one's output.

    Args:
        layers: the layers (more can be added with `add`).
        name: the model's name.

    Raises:
        TypeError: adding something that is not a Layer.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.backend.clear_session()
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"),
        ...                              tf.keras.layers.Dense(2)])
        >>> model(tf.constant(0.0, shape=[3, 5])).shape
        TensorShape([3, 2])
        >>> [v.name for v in model.trainable_variables]
        ['dense/kernel:0', 'dense/bias:0', 'dense_1/kernel:0', 'dense_1/bias:0']
    """

    _TF_MODULE_IGNORED_PROPERTIES = Model._TF_MODULE_IGNORED_PROPERTIES | frozenset((
        "_layers", "_input_batch_shape"))

    def __init__(self, layers=None, name: str | None = None, **kwargs) -> None:
        super().__init__(name=name, **kwargs)
        self._layers: list = []
        self._input_batch_shape = None
        for layer in layers or []:
            self.add(layer)

    def add(self, layer: Layer) -> None:
        """Appends a layer. A `keras.Input` (or InputLayer) added first, or a first layer
        given `input_shape`, fixes the input shape and builds the model at once.

        Raises:
            TypeError: not a Layer or a keras.Input tensor.
            ValueError: an Input added after other layers.
        """
        if isinstance(layer, KerasTensor) and isinstance(layer.node.layer, InputLayer):
            layer = layer.node.layer
        if not isinstance(layer, Layer):
            raise TypeError("The added layer must be an instance of class Layer. Received: "
                            f"layer={layer} of type {type(layer)}.")
        if isinstance(layer, InputLayer):
            if self._layers:
                raise ValueError(f"Sequential model {self.name}: an Input can only be added "
                                 "first, before any layer.")
            self._input_batch_shape = layer._batch_input_shape
            return
        self._layers.append(layer)
        self.built = False
        first = self._input_batch_shape or self._layers[0]._batch_input_shape
        if first is not None:
            self.build(first)

    def pop(self) -> Layer:
        """Removes and returns the last layer.

        Raises:
            TypeError: the model has no layers.
        """
        if not self._layers:
            raise TypeError("There are no layers in the model.")
        self.built = False
        return self._layers.pop()

    @property
    def layers(self) -> list:
        return list(self._layers)

    def _sublayers(self) -> list:
        return list(self._layers)

    def call(self, inputs, training=None):
        if not self._layers:
            raise ValueError(f"Sequential model {self.name} has no layers; add some first.")
        outputs = inputs
        for layer in self._layers:
            outputs = layer(outputs, training=training)
        return outputs

    def _output_shapes(self) -> dict:
        shape = self._build_input_shape
        if not isinstance(shape, TensorShape):
            return {}
        x = Tensor(np.zeros([1 if d is None else d for d in shape.as_list()],
                            self._dtype.as_numpy_dtype))
        shapes = {}
        for layer in self._layers:
            x = layer(x, training=False)
            shapes[id(layer)] = (None, *x.shape.as_list()[1:])
        return shapes

    def _trackable_children(self, save_type: str = "checkpoint", **kwargs) -> dict:
        """Keras 3's edges: the layers as `_functional/_operations/<i>`, the input layer
        first (index 0)."""
        view = self.__dict__.get("_functional_view")
        if view is None:
            view = self.__dict__["_functional_view"] = _SequentialGraph()
        view.update([view.input_operation] + list(self._layers))
        return {"_functional": view, **super()._trackable_children(save_type, **kwargs)}

    def _legacy_checkpoint_children(self) -> dict:
        """The edges tapeflow's former checkpoints used ('layer-<i>')."""
        return {**super()._legacy_checkpoint_children(),
                **{f"layer-{i}": layer for i, layer in enumerate(self._layers)}}

    def get_config(self) -> dict:
        """Name, dtype and the layers' configs, an InputLayer first when the input shape is
        known (Keras 3's form)."""
        config = {"name": self.name, "trainable": self.trainable, "dtype": self.dtype}
        layers = [serialize_keras_object(layer) for layer in self._layers]
        shape = self._input_batch_shape
        if shape is None and self._layers:
            shape = self._layers[0]._batch_input_shape
        if shape is not None:
            entry = InputLayer(batch_shape=shape, dtype=self.dtype, name="input_layer")
            layers.insert(0, serialize_keras_object(entry))
        config["layers"] = layers
        if isinstance(self._build_input_shape, TensorShape):
            config["build_input_shape"] = self._build_input_shape.as_list()
        return config

    @classmethod
    def from_config(cls, config: dict, custom_objects=None) -> "Sequential":
        config = dict(config)
        layers = config.pop("layers", [])
        build_input_shape = config.pop("build_input_shape", None)
        model = cls(**config)
        for layer in layers:
            model.add(deserialize_keras_object(layer, custom_objects))
        if not model.built and build_input_shape is not None:
            model.build(build_input_shape)
        return model
