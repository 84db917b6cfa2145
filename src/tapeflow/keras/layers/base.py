"""Layer: a Module that builds its weights on first call, and InputSpec, which checks inputs."""
from __future__ import annotations

import contextlib
import functools
import inspect
import itertools
import threading

import numpy as np

from ...framework import dtypes, nest
from ...framework.tensor import Tensor, convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ...framework.variables import Variable
from ...framework.graph import name_scope
from ...module import Module, tracked_leaves
from ...ops import array_ops
from ...ops.math_ops import cast
from .. import backend, initializers, mixed_precision, regularizers
from ..keras_tensor import KerasTensor, is_symbolic, symbolic_call
from ..masks import get_keras_mask, set_keras_mask
from ..random import SeedGenerator
from ..naming import snake_case

__all__ = ["Layer", "InputSpec", "serialize_constraint"]


class InputSpec:
    """The rank and dimensions a layer accepts; checked on every call.

    Args:
        dtype: unused, accepted for Keras compatibility.
        shape: the full shape (None for any dimension).
        ndim, min_ndim, max_ndim: the exact, smallest or largest rank.
        axes: {axis: size} for dimensions that must have a given size.
    """

    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None,
                 axes=None, allow_last_axis_squeeze=False, name=None) -> None:
        self.dtype = dtype
        self.shape = None if shape is None else tuple(shape)
        self.ndim = len(self.shape) if shape is not None else ndim
        self.max_ndim = max_ndim
        self.min_ndim = min_ndim
        self.axes = dict(axes or {})
        self.name = name

    def check(self, layer_name: str, shape: tuple) -> None:
        """Raises ValueError naming the layer when `shape` does not fit this spec."""
        def fail(expected: str) -> None:
            raise ValueError(f'Input 0 of layer "{layer_name}" is incompatible with the layer: '
                             f"{expected}. Full shape received: {shape}")

        rank = len(shape)
        if self.ndim is not None and rank != self.ndim:
            fail(f"expected ndim={self.ndim}, found ndim={rank}")
        if self.min_ndim is not None and rank < self.min_ndim:
            fail(f"expected min_ndim={self.min_ndim}, found ndim={rank}")
        if self.max_ndim is not None and rank > self.max_ndim:
            fail(f"expected max_ndim={self.max_ndim}, found ndim={rank}")
        for axis, size in self.axes.items():
            if size is not None and shape[axis] not in (size, None):
                fail(f"expected axis {axis} of input shape to have value {size}, but received "
                     f"input with shape {shape}")
        if self.shape is not None:
            for want, got in zip(self.shape, shape):
                if want is not None and got is not None and want != got:
                    fail(f"expected shape={self.shape}, found shape={shape}")

    def __repr__(self) -> str:
        fields = {"ndim": self.ndim, "min_ndim": self.min_ndim, "max_ndim": self.max_ndim,
                  "axes": self.axes or None, "shape": self.shape}
        return "InputSpec(" + ", ".join(f"{k}={v}" for k, v in fields.items() if v) + ")"


_CALL_ARGS: dict = {}
_TENSORS = (Tensor, Variable, KerasTensor)
# Which outermost layer call is running: losses a layer adds belong to the latest one.
_calls = threading.local()
_call_counter = itertools.count(1)


def _accepts(layer_type: type, argument: str) -> bool:
    """Whether a layer class's `call` takes `argument` ('training', 'mask'), cached."""
    found = _CALL_ARGS.get((layer_type, argument))
    if found is None:
        parameters = inspect.signature(layer_type.call).parameters
        found = argument in parameters or argument == "training" and any(
            p.kind is p.VAR_KEYWORD for p in parameters.values())
        _CALL_ARGS[(layer_type, argument)] = found
    return found


def _masks_of(inputs):
    """The inputs' masks: one, a list (for a list of inputs) or None when none has one."""
    if isinstance(inputs, (list, tuple)):
        masks = [get_keras_mask(x) for x in inputs]
        return masks if any(m is not None for m in masks) else None
    return get_keras_mask(inputs)


def _shape_tuple(x) -> tuple:
    return tuple(x.shape.as_list())


def _input_shape(inputs):
    """A TensorShape, or a list of them for several inputs."""
    if isinstance(inputs, _TENSORS):
        return TensorShape(_shape_tuple(inputs))
    return [TensorShape(_shape_tuple(x)) for x in nest.flatten(inputs)]


def _marking_built(build):
    """`build` that leaves the layer built, so that a layer built by hand (`layer.build(
    shape)`) keeps its weights on the first call instead of making a second set."""
    @functools.wraps(build)
    def build_and_mark(self, *args, **kwargs):
        result = build(self, *args, **kwargs)
        if not self.built:
            self._build_input_shape = args[0] if args else kwargs.get("input_shape")
            self.built = True
        return result
    build_and_mark._marks_built = True
    return build_and_mark


class Layer(Module):
    """The base class of Keras layers: state (weights) plus a computation (`call`).

    A subclass creates its weights in `build(input_shape)` with `add_weight`; the first
    call builds the layer from the input's shape. NumPy and Python inputs become tensors,
    and floating inputs are cast to the layer's dtype. `training` is passed to `call` when
    it takes it; inner layers called with `training=None` inherit the outer call's value.

    Args:
        trainable: whether the layer's weights are trainable (updated by `fit`).
        name: the layer's name; defaults to the class name in snake case, made unique.
        dtype: the dtype of the weights and computations (default float32).
        input_shape: (keyword) the shape of one example, letting a Sequential build early.
        activity_regularizer: (keyword) a penalty on the layer's outputs, added to
            `losses` on each call divided by the batch size.

    Example:
        >>> import tapeflow as tf
        >>> class Scale(tf.keras.layers.Layer):
        ...     def build(self, input_shape):
        ...         self.w = self.add_weight("w", shape=[input_shape[-1]], initializer="ones")
        ...     def call(self, x):
        ...         return x * self.w
        >>> layer = Scale()
        >>> layer([[1.0, 2.0]]).numpy()
        array([[1., 2.]], dtype=float32)
        >>> [w.name for w in layer.trainable_weights]
        ['scale/w:0']
    """

    _TF_MODULE_IGNORED_PROPERTIES = Module._TF_MODULE_IGNORED_PROPERTIES | frozenset((
        "_own_weights", "_trainable", "_dtype", "_dtype_policy", "_variable_dtype", "built",
        "input_spec", "_build_input_shape", "_batch_input_shape", "_autocast",
        "_inbound_nodes", "_call_losses", "_callable_losses", "_loss_call", "_loss_graph",
        "activity_regularizer"))

    def __init_subclass__(cls, **kwargs) -> None:
        # As in Keras 3, a layer is built once its build() returns, called directly too.
        super().__init_subclass__(**kwargs)
        build = cls.__dict__.get("build")
        if build is not None:
            cls.build = _marks_built(build)

    # Built-in layers of one tensor say so: a list or dict of inputs is then a ValueError
    # before `call` (user layers and merges take any structure).
    _single_input = False

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        build = cls.__dict__.get("build")
        if build is not None and not getattr(build, "_marks_built", False):
            cls.build = _marking_built(build)

    def __init__(self, trainable: bool = True, name: str | None = None, dtype=None,
                 dynamic: bool = False, **kwargs) -> None:
        allowed = {"input_shape", "batch_input_shape", "batch_size", "input_dim", "autocast",
                   "activity_regularizer"}
        unknown = set(kwargs) - allowed
        if unknown:
            raise TypeError(f"Keyword argument not understood: {sorted(unknown)[0]!r}")
        self.activity_regularizer = regularizers.get(kwargs.get("activity_regularizer"))
        self._inbound_nodes: list = []
        self._call_losses: list = []
        self._callable_losses: list = []
        self._loss_call = 0
        self._loss_graph = None
        self._name = name or backend.unique_object_name(snake_case(type(self).__name__))
        self._name_scope = name_scope(self._name + "/")
        # The names of the layers that own this one (an RNN its cell), each with a '/'.
        self._weight_prefix = ""
        self._trainable = bool(trainable)
        self._dtype_policy = mixed_precision.get(dtype)
        self._dtype = dtypes.as_dtype(self._dtype_policy.compute_dtype)
        self._variable_dtype = dtypes.as_dtype(self._dtype_policy.variable_dtype)
        self._autocast = kwargs.get("autocast", True)
        self._own_weights: list = []
        self.built = False
        self.input_spec = None
        self._build_input_shape = None
        self._batch_input_shape = None
        if "input_dim" in kwargs and "input_shape" not in kwargs:
            kwargs["input_shape"] = (kwargs["input_dim"],)
        if "batch_input_shape" in kwargs:
            self._batch_input_shape = tuple(kwargs["batch_input_shape"])
        elif "input_shape" in kwargs:
            self._batch_input_shape = (kwargs.get("batch_size"),) + tuple(kwargs["input_shape"])

    # -- dtype ----------------------------------------------------------------------------
    @property
    def dtype(self) -> str:
        """The name of the weights' dtype ('float32'; also for 'mixed_float16')."""
        return self._variable_dtype.name

    variable_dtype = dtype

    @property
    def compute_dtype(self) -> str:
        """The dtype inputs are cast to and computations run in ('float16' for
        'mixed_float16')."""
        return self._dtype.name

    @property
    def dtype_policy(self):
        """The layer's keras.mixed_precision.DTypePolicy."""
        return self._dtype_policy

    # -- weights --------------------------------------------------------------------------
    def add_weight(self, name=None, shape=None, dtype=None, initializer=None,
                   regularizer=None, trainable=None, constraint=None, **kwargs) -> Variable:
        """Creates a weight Variable of this layer, named 'layer_name/name' (after the names
        of the layers that own it, as an RNN owns its cell: 'lstm/lstm_cell/kernel').

        Args:
            name: the weight's name (also its name in checkpoints).
            shape: its shape (default scalar).
            dtype: default the layer's dtype.
            initializer: a name, an Initializer or a callable `(shape, dtype)`; default
                glorot_uniform for floats, zeros otherwise.
            regularizer: a name, Regularizer or callable; its penalty on the weight joins
                `losses`.
            trainable: default True.
            constraint: a projection optimizers apply after each update.

        Returns:
            The Variable.
        """
        name = name or f"weight_{len(self._own_weights)}"
        shape = () if shape is None else tuple(TensorShape(shape).as_list())
        dtype = dtypes.as_dtype(dtype or self._variable_dtype)
        if initializer is None:
            initializer = "glorot_uniform" if dtype.is_floating else "zeros"
        initializer = initializers.get(initializer)
        variable = Variable(initializer(shape, dtype=dtype), name=f"{self._weight_prefix}{self._name}/{name}",
                            trainable=True if trainable is None else bool(trainable),
                            dtype=dtype, constraint=constraint)
        self._own_weights.append((name, variable))
        # Restore on create: a value a restore held for this name is assigned now.
        self._handle_deferred_dependencies(name=self._CHECKPOINT_NAMES.get(name, name),
                                           trackable=variable)
        regularizer = regularizers.get(regularizer)
        if regularizer is not None:
            self._callable_losses.append(lambda: regularizer(variable))
        return variable

    # -- losses ---------------------------------------------------------------------------
    def add_loss(self, losses, **kwargs) -> None:
        """Adds loss tensors to `losses` (and so to what `fit` minimizes).

        Inside `call`, a tensor counts until the next call of the outermost layer. A
        zero-argument callable (usable outside `call`) is evaluated each time `losses` is
        read.

        Raises:
            ValueError: a computed tensor added outside `call` (wrap it in a lambda).
            TypeError: a symbolic Keras tensor (add losses from a layer's `call`).
        """
        for loss in losses if isinstance(losses, (list, tuple)) else [losses]:
            if loss is None:
                continue
            if isinstance(loss, KerasTensor):
                raise TypeError(f"Layer {self.name}: add_loss of the symbolic {loss!r} is not "
                                "supported; add the loss inside a layer's call() instead.")
            if callable(loss) and not isinstance(loss, (Tensor, Variable)):
                self._callable_losses.append(loss)
                continue
            current = getattr(_calls, "current", 0)
            if not current:
                raise ValueError(f"Layer {self.name}: add_loss outside call() takes a "
                                 "zero-argument callable, not a computed tensor; wrap the "
                                 "computation in a lambda.")
            if self._loss_call != current:
                self._loss_call, self._call_losses = current, []
                self._loss_graph = backend.building_graph()
            self._call_losses.append(loss)

    @property
    def losses(self) -> list:
        """The losses of this layer and the layers inside it: those added during the
        latest call (activity regularization, `add_loss` in `call`) and the weight
        regularization penalties, computed now.

        Example:
            >>> import tapeflow as tf
            >>> dense = tf.keras.layers.Dense(1, kernel_initializer="ones",
            ...                               kernel_regularizer=tf.keras.regularizers.l2(0.5))
            >>> _ = dense(tf.ones([1, 2]))
            >>> [float(loss) for loss in dense.losses]           # 0.5 * (1 + 1)
            [1.0]
        """
        found = []
        for layer in self._flatten_layers():
            if layer._loss_graph is backend.building_graph():   # not a finished trace's
                found.extend(layer._call_losses)
            found.extend(convert_to_tensor(loss()) for loss in layer._callable_losses)
        return found

    def _flatten_layers(self) -> list:
        """This layer and every layer inside it, each once, outermost first."""
        found, seen, index = [self], {id(self)}, 0
        while index < len(found):
            for layer in found[index]._sublayers():
                if id(layer) not in seen:
                    seen.add(id(layer))
                    found.append(layer)
            index += 1
        return found

    def _own_variables(self) -> list:
        """Weights from `add_weight`, then Variables set directly as attributes."""
        found = [v for _, v in self._own_weights]
        seen = {id(v) for v in found}
        for _, value in self._tracked_attributes():
            for _, leaf in tracked_leaves(value):
                if isinstance(leaf, Variable) and id(leaf) not in seen:
                    seen.add(id(leaf))
                    found.append(leaf)
        return found

    def _sublayers(self) -> list:
        """The layers set as attributes (or inside lists and dicts), in assignment order."""
        found, seen = [], set()
        for _, value in self._tracked_attributes():
            for _, leaf in tracked_leaves(value):
                if isinstance(leaf, Layer) and leaf is not self and id(leaf) not in seen:
                    seen.add(id(leaf))
                    found.append(leaf)
        return found

    @property
    def trainable(self) -> bool:
        return self._trainable

    @trainable.setter
    def trainable(self, value: bool) -> None:
        self._trainable = bool(value)
        for layer in self._sublayers():
            layer.trainable = value

    @property
    def trainable_weights(self) -> list:
        """The trainable ones of `weights`; [] when the layer is not trainable."""
        if not self._trainable:
            return []
        return [w for w in self.weights if w.trainable]

    @property
    def non_trainable_weights(self) -> list:
        """The non-trainable ones of `weights`; every weight when the layer is not
        trainable."""
        if not self._trainable:
            return self.weights
        return [w for w in self.weights if not w.trainable]

    @property
    def weights(self) -> list:
        """Keras's order, layer by layer: this layer's trainable then non-trainable
        weights, then each sublayer's `weights` (what `get_weights` lists)."""
        own = self._own_variables()
        ordered = [v for v in own if v.trainable] + [v for v in own if not v.trainable]
        return _unique(ordered + [w for layer in self._sublayers() for w in layer.weights])

    def _seed_states(self) -> list:
        """The states of the SeedGenerators of this layer and the layers inside it."""
        return [value.state for layer in self._flatten_layers()
                for _, value in layer._tracked_attributes() if isinstance(value, SeedGenerator)]

    @property
    def variables(self) -> list:
        """The weights, then the random layers' seed states (not weights, as in Keras 3)."""
        return self.weights + self._seed_states()

    @property
    def trainable_variables(self) -> list:
        return self.trainable_weights

    @property
    def non_trainable_variables(self) -> list:
        return self.non_trainable_weights + self._seed_states()

    def get_weights(self) -> list:
        """The weights' values as NumPy arrays, in the order of `weights`."""
        return [w.numpy() for w in self.weights]

    def set_weights(self, weights) -> None:
        """Sets the weights from NumPy arrays given in the order of `weights`.

        Raises:
            ValueError: a different number of arrays or a shape mismatch (nothing is set).
        """
        params = self.weights
        if len(params) != len(weights):
            raise ValueError(f"Layer {self.name} expects {len(params)} weights, but the given "
                             f"weights list has {len(weights)} elements.")
        values = []
        for param, value in zip(params, weights):
            value = np.asarray(value)
            if tuple(param.shape.as_list()) != value.shape:
                raise ValueError(f"Layer {self.name} weight shape {tuple(param.shape.as_list())} "
                                 f"is not compatible with provided weight shape {value.shape}.")
            values.append(value)
        for param, value in zip(params, values):
            param.assign(value.astype(param.dtype.as_numpy_dtype))

    def count_params(self) -> int:
        """The number of scalars in all weights.

        Raises:
            ValueError: the layer is not built yet.
        """
        if not self.built:
            raise ValueError(f"You tried to call `count_params` on layer {self.name}, but the "
                             "layer isn't built. You can build it manually via: "
                             f"`{self.name}.build(batch_input_shape)`.")
        return int(sum(np.prod(w.shape.as_list()) for w in self.weights))

    # -- calling --------------------------------------------------------------------------
    def build(self, input_shape) -> None:
        """Creates the weights for inputs of `input_shape`; the default creates none."""
        self._build_input_shape = input_shape
        self.built = True

    def call(self, inputs, *args, **kwargs):
        """The layer's computation; the default returns the inputs."""
        return inputs

    def _convert_input(self, x):
        if not isinstance(x, (Tensor, Variable)):
            if isinstance(x, Layer):
                raise TypeError(f"Layer {self.name} was called on layer {x.name}; call it on "
                                "a tensor (in the functional API, on the output of "
                                "keras.Input or of another layer call).")
            x = convert_to_tensor(x)
        if self._autocast and x.dtype.is_floating and x.dtype is not self._dtype:
            x = cast(x, self._dtype)
        return x

    def _maybe_build(self, inputs) -> None:
        if self.built:
            return
        shape = _input_shape(inputs)
        if self.input_spec is not None and isinstance(inputs, _TENSORS):
            self.input_spec.check(self.name, _shape_tuple(inputs))
        self.build(shape)
        self._build_input_shape = shape
        self.built = True

    def __call__(self, inputs, *args, **kwargs):
        if is_symbolic(inputs) or kwargs and any(map(is_symbolic, kwargs.values())):
            return symbolic_call(self, (inputs, *args), kwargs)
        if self._single_input and isinstance(inputs, (list, tuple, dict)):
            raise ValueError(f'Layer "{self.name}" ({type(self).__name__}) expects 1 input, but '
                             f"it received {len(inputs)} input tensors (a "
                             f"{type(inputs).__name__}).")
        input_mask = _masks_of(inputs)
        if input_mask is not None and kwargs.get("mask") is None \
                and _accepts(type(self), "mask"):
            kwargs["mask"] = input_mask
        if isinstance(inputs, dict):
            inputs = {key: self._convert_input(x) for key, x in inputs.items()}
        elif isinstance(inputs, (list, tuple)) and inputs \
                and isinstance(inputs[0], (Tensor, Variable, np.ndarray)):
            inputs = type(inputs)(self._convert_input(x) for x in inputs)
        else:
            inputs = self._convert_input(inputs)
        self._maybe_build(inputs)
        if self.input_spec is not None and isinstance(inputs, (Tensor, Variable)):
            self.input_spec.check(self.name, _shape_tuple(inputs))
        training = kwargs.pop("training", None)
        if training is None:
            training = backend.learning_phase()
        if _accepts(type(self), "training"):
            kwargs["training"] = bool(training)
        outer = getattr(_calls, "current", 0)
        if not outer:
            _calls.current = next(_call_counter)
        try:
            with backend.training_scope(training), self._autocast_weights():
                outputs = self.call(inputs, *args, **kwargs)
            if self.activity_regularizer is not None:
                self._regularize_activity(outputs)
            mask = kwargs.get("mask", input_mask)
            if mask is not None or type(self).compute_mask is not Layer.compute_mask:
                self._attach_masks(outputs, self.compute_mask(inputs, mask))
        finally:
            if not outer:
                _calls.current = 0
        return outputs

    supports_masking = False

    def compute_mask(self, inputs, mask=None):
        """The mask of the outputs given the inputs' `mask`: the same mask for layers that
        support masking, else None."""
        return mask if self.supports_masking else None

    @staticmethod
    def _attach_masks(outputs, masks) -> None:
        if isinstance(outputs, (list, tuple)):
            masks = masks if isinstance(masks, (list, tuple)) else [masks] * len(outputs)
            for output, mask in zip(outputs, masks):
                set_keras_mask(output, mask)
        else:
            set_keras_mask(outputs, masks)

    @contextlib.contextmanager
    def _autocast_weights(self):
        """While a layer of a mixed policy computes, its attributes that hold its float
        weights hold them cast to the compute dtype (the casts carry gradients back)."""
        if self._variable_dtype is self._dtype or not self._autocast:
            yield
            return
        saved = [(name, value) for name, value in self._tracked_attributes()
                 if isinstance(value, Variable) and value.dtype is self._variable_dtype]
        for name, value in saved:
            object.__setattr__(self, name, cast(value, self._dtype))
        try:
            yield
        finally:
            for name, value in saved:
                object.__setattr__(self, name, value)

    def _regularize_activity(self, outputs) -> None:
        for output in nest.flatten(outputs):
            if isinstance(output, Tensor):
                batch = output.shape.as_list()[0] if output.ndim else 1
                if batch is None:
                    batch = cast(array_ops.shape(output)[0], output.dtype)
                self.add_loss(self.activity_regularizer(output) / batch)

    # -- checkpoints ----------------------------------------------------------------------
    # Edge names Keras 3 gives some weights and sublayers in checkpoints (its attributes:
    # Dense keeps its kernel in `_kernel`); other names are the weight or attribute names.
    _CHECKPOINT_NAMES: dict = {}

    def _trackable_children(self, save_type: str = "checkpoint", **kwargs) -> dict:
        """Weights by their `add_weight` names (Keras 3's edge names where they differ),
        then the attributes' trackables."""
        names = self._CHECKPOINT_NAMES
        own = {names.get(name, name): weight for name, weight in self._own_weights}
        return {**own, **super()._trackable_children(save_type, **kwargs)}

    def _legacy_checkpoint_children(self) -> dict:
        """The edges tapeflow's former checkpoints used: the `add_weight` names."""
        return dict(self._own_weights)

    def _track_trackable(self, trackable, name: str, overwrite: bool = False):
        return super()._track_trackable(trackable, self._CHECKPOINT_NAMES.get(name, name),
                                        overwrite=overwrite)

    def get_build_config(self):
        """{'input_shape': ...} a built layer was built for (None before it is built)."""
        if not self.built or self._build_input_shape is None:
            return None
        shape = self._build_input_shape
        if isinstance(shape, TensorShape):
            return {"input_shape": shape.as_list()}
        return {"input_shape": [TensorShape(s).as_list() for s in shape]}

    def build_from_config(self, config: dict) -> None:
        """Builds the layer for the input shape in `config` (from `get_build_config`)."""
        shape = config["input_shape"]
        if shape is None:                  # Keras's record of a model built from Inputs
            return
        nested = bool(shape) and isinstance(shape[0], (list, tuple))
        shape = [TensorShape(s) for s in shape] if nested else TensorShape(shape)
        self.build(shape)
        self._build_input_shape = shape
        self.built = True

    # -- configuration --------------------------------------------------------------------
    def get_config(self) -> dict:
        """The constructor arguments (base part: name, trainable, dtype)."""
        config = {"name": self.name, "trainable": self.trainable,
                  "dtype": self._dtype_policy.name}
        if self._batch_input_shape is not None:
            config["batch_input_shape"] = self._batch_input_shape
        return config

    @classmethod
    def from_config(cls, config: dict) -> "Layer":
        return cls(**config)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"


def serialize_constraint(constraint):
    """A weight constraint's config for `get_config` (None stays None): a function by its
    registered name, an object by its class and config."""
    if constraint is None:
        return None
    from ..saving.serialization import serialize_keras_object
    return serialize_keras_object(constraint)


def _marks_built(build):
    """`build`, setting `built` when it returns."""
    @functools.wraps(build)
    def wrapper(self, *args, **kwargs):
        build(self, *args, **kwargs)
        self.built = True
    return wrapper


def _unique(variables: list) -> list:
    seen, out = set(), []
    for v in variables:
        if id(v) not in seen:
            seen.add(id(v))
            out.append(v)
    return out
