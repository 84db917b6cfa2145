"""Model (subclassed, with compile / fit / evaluate / predict) and Sequential."""
from __future__ import annotations

import itertools

import numpy as np

from ..eager.backprop import GradientTape
from ..framework import nest
from ..framework.tensor import Tensor
from ..framework.tensor_shape import TensorShape
from . import backend
from . import callbacks as callbacks_module
from . import optimizers as optimizers_module
from .compile_utils import CompiledLoss, CompiledMetrics
from .data import ArrayBatches, EpochBatches, unpack
from .keras_tensor import KerasTensor
from .layers.base import Layer
from .layers.input_layer import InputLayer

__all__ = ["Model", "Sequential"]


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
        "_step_functions"))

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

    def call(self, inputs, training=None):
        raise NotImplementedError(f"Model {self.name}: subclasses of keras.Model implement "
                                  "call(inputs, training=None).")

    def build(self, input_shape) -> None:
        """Builds every layer by running the model once on zeros of `input_shape` (a None
        batch dimension counts as 1)."""
        if self.built:
            return
        shape = [1 if d is None else d for d in TensorShape(input_shape).as_list()]
        self(Tensor(np.zeros(shape, self._dtype._np)), training=False)

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
        self.optimizer = optimizers_module.get(optimizer)
        self.compiled_loss = CompiledLoss(loss, loss_weights) if loss is not None else None
        self.compiled_metrics = CompiledMetrics(metrics, weighted_metrics, self.compiled_loss)
        self._run_eagerly = run_eagerly
        self._step_functions = {}

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
        step = getattr(self, f"{kind}_step")
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
            scaled = self.optimizer.scale_loss(loss)     # loss scaling, as Keras 3 does
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
        """Trains for `epochs` passes over in-memory data, in batches of `batch_size` (32).

        Args:
            x, y: arrays or Tensors (or lists / dicts of them for several inputs).
            verbose: 'auto' or 1 for a progress bar per epoch, 2 for one line per epoch,
                0 for silence.
            callbacks: Callback objects (EarlyStopping, LambdaCallback...).
            validation_split: the fraction of the data (taken from the end, before
                shuffling) to evaluate on after each epoch instead of training on.
            validation_data: (x, y) or (x, y, sample_weight) to evaluate after each epoch.
            shuffle: reshuffle the training examples each epoch.
            class_weight: {class index: weight}; each training example's loss (and
                weighted metrics) is weighted by its class's weight (1.0 for classes not
                listed), times its sample weight. Single-output models only.
            sample_weight: one weight per example (or per output: a list or dict).
            initial_epoch: the epoch to start counting from (to resume training).
            steps_per_epoch: batches per epoch; each epoch continues where the last one
                stopped, and one that reaches the end of the data stops early.
            validation_steps: batches of the validation data evaluated each time.
            validation_freq: evaluate every this many epochs.

        Returns:
            The History callback: `history.history` maps each log key ('loss', metric
            names, 'val_'-prefixed ones) to its per-epoch values.

        Raises:
            RuntimeError: the model is not compiled.
            ValueError: mismatched numbers of examples, missing targets, class_weight with
                several outputs, or a non-positive steps_per_epoch.
        """
        self._assert_compiled("training/testing")
        train = ArrayBatches(x, y, sample_weight, batch_size)
        validation = None
        if validation_data is not None:
            validation = ArrayBatches(*unpack(tuple(validation_data)),
                                      batch_size=validation_batch_size or train.batch_size)
        elif validation_split:
            train, validation = train.split(validation_split)
        if class_weight is not None:
            train = train.weighted_by_class(class_weight)
        batches = EpochBatches(train, steps_per_epoch,
                               lambda: backend.rng() if shuffle else None)
        verbose = 1 if verbose == "auto" else verbose
        history = callbacks_module.History()
        extra = [callbacks_module.ProgbarLogger(verbose)] if verbose else []
        hooks = callbacks_module.CallbackList([*(callbacks or []), *extra, history], model=self,
                                              verbose=verbose, epochs=epochs,
                                              steps=batches.steps or train.steps)
        self.stop_training = False
        train_step = self._step("train")
        hooks.on_train_begin({})
        logs: dict = {}
        for epoch in range(initial_epoch, epochs):
            self.reset_metrics()
            hooks.on_epoch_begin(epoch, {})
            for step, batch in enumerate(batches):
                hooks.on_train_batch_begin(step, {})
                logs = _to_python(train_step(batch))
                hooks.on_train_batch_end(step, logs)
                if self.stop_training:
                    break
            epoch_logs = dict(logs)
            if validation is not None and (epoch + 1) % validation_freq == 0:
                val_logs = self._evaluate(validation, steps=validation_steps)
                epoch_logs.update({f"val_{key}": value for key, value in val_logs.items()})
            hooks.on_epoch_end(epoch, epoch_logs)
            logs = epoch_logs
            if self.stop_training:
                break
        if epochs > initial_epoch:
            self.optimizer.finalize_variable_values(self.trainable_variables)
        hooks.on_train_end(logs)
        return history

    def _evaluate(self, data: ArrayBatches, hooks=None, steps=None) -> dict:
        self.reset_metrics()
        test_step = self._step("test")
        logs: dict = {}
        for step, batch in enumerate(itertools.islice(data(), steps)):
            if hooks:
                hooks.on_test_batch_begin(step, {})
            logs = _to_python(test_step(batch))
            if hooks:
                hooks.on_test_batch_end(step, logs)
        return logs

    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", sample_weight=None,
                 steps=None, callbacks=None, return_dict: bool = False):
        """The loss and metrics over the data (its first `steps` batches if given), in
        inference mode.

        Returns:
            The loss alone when there are no metrics, else [loss, metric...] in
            `metrics_names` order; a dict by name with `return_dict`.

        Raises:
            RuntimeError: the model is not compiled.
        """
        self._assert_compiled("training/testing")
        data = ArrayBatches(x, y, sample_weight, batch_size)
        hooks = callbacks_module.CallbackList(callbacks, model=self, verbose=verbose,
                                              steps=steps or data.steps)
        hooks.on_test_begin({})
        logs = self._evaluate(data, hooks, steps)
        hooks.on_test_end(logs)
        if return_dict:
            return logs
        values = [logs[name] for name in self.metrics_names]
        return values[0] if len(values) == 1 else values

    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None):
        """The model's outputs for `x` (its first `steps` batches if given), batch by
        batch, as one NumPy array (a list or dict of them for several outputs)."""
        data = ArrayBatches(x, batch_size=batch_size)
        hooks = callbacks_module.CallbackList(callbacks, model=self, verbose=verbose,
                                              steps=steps or data.steps)
        hooks.on_predict_begin({})
        predict_step = self._step("predict")
        outputs = []
        for step, batch in enumerate(itertools.islice(data(), steps)):
            hooks.on_predict_batch_begin(step, {})
            outputs.append(nest.map_structure(lambda t: t.numpy(), predict_step(batch)))
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

    def save_weights(self, filepath, overwrite: bool = True, save_format=None, options=None):
        """Writes the model's variables (with its optimizer's) as a checkpoint at `filepath`
        (TF's checkpoint format; atomically)."""
        from ..train.checkpoint import Checkpoint
        Checkpoint(root=self).write(filepath)

    def load_weights(self, filepath, skip_mismatch: bool = False, by_name: bool = False,
                     options=None):
        """Restores variables written by `save_weights`, building the model first if needed.

        Raises:
            ValueError: names or shapes that do not match (nothing is changed).
        """
        from ..train.checkpoint import Checkpoint
        return Checkpoint(root=self).restore(filepath)

    def predict_on_batch(self, x):
        """The model's outputs for one batch, as a NumPy array (or a structure of them)."""
        return nest.map_structure(lambda t: t.numpy(), self(x, training=False))


def _tapeflow():
    import tapeflow
    return tapeflow


def _first(x):
    while isinstance(x, (list, tuple, dict)):
        x = next(iter(x.values())) if isinstance(x, dict) else x[0]
    return x


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
        x = Tensor(np.zeros([1 if d is None else d for d in shape.as_list()], self._dtype._np))
        shapes = {}
        for layer in self._layers:
            x = layer(x, training=False)
            shapes[id(layer)] = (None, *x.shape.as_list()[1:])
        return shapes

    def _checkpoint_dependencies(self) -> list:
        return [(f"layer-{i}", layer) for i, layer in enumerate(self._layers)] \
            + super()._checkpoint_dependencies()
