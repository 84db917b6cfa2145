"""The Optimizer base class: gradient checks, loss scaling, gradient accumulation,
clipping, weight decay, slots, moving averages (EMA), iterations.

Subclasses give the update formula once, in `_update_step(xp, gradient, value, slots, lr,
step)`: a pure function of the variable's value and its slots that returns their new
values, written with operators and the NumPy-named functions of `_TensorFunctions`. Eagerly
`xp` has NumPy's functions and the results are copied into the variables' own arrays
(`Variable.mutable_array`), so the state is updated in place; while a graph is built
(`tf.function`), `xp` holds tapeflow ops and the results are assigned. A step that must only
happen under a condition known at run time (every n-th step when accumulating, finite
gradients under loss scaling) is, in a graph, computed and then kept or dropped with `where`.
`xp.slicewise` applies what Keras applies slice by slice to an IndexedSlices gradient
(`_Functions`); hyperparameters Keras casts through float32 go through
`cast_hyperparameter`.
"""
from __future__ import annotations

import threading
import warnings

import numpy as np

from ... import math as tf_math
from ...framework import errors
from ...framework.context import executing_eagerly
from ...framework.indexed_slices import IndexedSlices
from ...framework.tensor import Tensor, convert_to_tensor, is_tensor
from ...framework.variables import Variable
from ...ops import array_ops, clip_ops, math_ops
from ...ops.indexing_ops import where
from ...trackable.base import Trackable
from ...trackable.data_structures import ListWrapper, _DictWrapper
from ..naming import snake_case
from . import schedules
from .schedules import LearningRateSchedule

# One eager apply_gradients at a time in a process: threads sharing variables (or one
# optimizer) see each update whole, slots are created once, and no step is lost.
_UPDATES = threading.RLock()

__all__ = ["Optimizer"]


class _TensorFunctions:
    """The array functions update formulas use, as tapeflow ops (for graph building)."""

    sqrt = staticmethod(math_ops.sqrt)
    square = staticmethod(math_ops.square)
    maximum = staticmethod(math_ops.maximum)
    minimum = staticmethod(math_ops.minimum)
    abs = staticmethod(math_ops.abs)
    sign = staticmethod(math_ops.sign)
    power = staticmethod(math_ops.pow)
    clip = staticmethod(clip_ops.clip_by_value)
    sum = staticmethod(math_ops.reduce_sum)
    mean = staticmethod(math_ops.reduce_mean)
    expand_dims = staticmethod(array_ops.expand_dims)
    where = staticmethod(where)


_FUNCTION_NAMES = [name for name in vars(_TensorFunctions) if not name.startswith("_")]


class _Slices:
    """A gradient that arrived as IndexedSlices: its rows summed (`dense`, which formulas
    do arithmetic with) and the slices themselves (`values` at `indices`), for what Keras
    applies slice by slice (`_Functions.slicewise`)."""

    __slots__ = ("dense", "values", "indices")

    def __init__(self, dense, values, indices) -> None:
        self.dense, self.values, self.indices = dense, values, indices

    @property
    def dtype(self):
        return self.dense.dtype

    def __truediv__(self, scale) -> "_Slices":
        return _Slices(self.dense / scale, self.values / scale, self.indices)


class _Functions:
    """The `xp` update formulas get: NumPy's functions eagerly, `_TensorFunctions` while a
    graph is built, and `slicewise` for the variable's gradient.

    Keras's TensorFlow backend keeps an IndexedSlices gradient as slices through
    elementwise functions (square, abs) and products with dense values, and sums the slices
    into rows only when it adds them to a dense value: Adam's second moment of an embedding
    row looked up twice takes g1**2 + g2**2, not (g1 + g2)**2. `slicewise(fn, gradient,
    *rows)` is `fn(gradient, *rows)` for a dense gradient; for a sliced one, `fn` of each
    slice (and of the rows of `rows` it falls on), summed into rows."""

    def __init__(self, base, slices: _Slices | None = None, dense=None) -> None:
        for name in _FUNCTION_NAMES:
            setattr(self, name, getattr(base, name))
        self._graph = base is _TensorFunctions
        self._slices, self._dense = slices, dense

    def slicewise(self, fn, gradient, *rows):
        if self._slices is None or gradient is not self._dense:
            return fn(gradient, *rows)
        indices, values = self._slices.indices, self._slices.values
        if self._graph:
            from ...ops.gather_ops import gather, unsorted_segment_sum
            parts = fn(values, *(gather(r, indices) for r in rows))
            return unsorted_segment_sum(parts, indices, array_ops.shape(gradient)[0])
        indices = np.asarray(indices)
        parts = fn(np.asarray(values), *(np.asarray(r)[indices] for r in rows))
        total = np.zeros_like(gradient)
        np.add.at(total, indices, parts)
        return total


_ARRAYS = _Functions(np)
_TENSORS = _Functions(_TensorFunctions)


def cast_hyperparameter(value, like):
    """`value`, a Python-number hyperparameter, in the dtype of `like` (an array or Tensor)
    as Keras casts one to a variable's dtype: through a float32 tensor first, so a float64
    variable sees 0.9 as 0.8999999761581421 wherever Keras writes `ops.cast(beta, dtype)`.
    Where Keras uses the Python number in arithmetic it stays exact; formulas call this
    only at Keras's casts.

    Args:
        value: a Python float or int.
        like: an array or Tensor whose dtype the result takes.

    Returns:
        A NumPy scalar of `like`'s dtype.

    Example:
        >>> import numpy as np
        >>> float(cast_hyperparameter(0.9, np.zeros(2)))
        0.8999999761581421
    """
    dtype = like.dtype
    kind = dtype.as_numpy_dtype if hasattr(dtype, "as_numpy_dtype") else dtype.type
    return kind(np.float32(value))


def _keep(when, new, old):
    """`new`, or (when a condition is given) `new` where it holds and `old` elsewhere."""
    return new if when is None else where(when, new, old)


def _dense_gradient(gradient, variable: Variable):
    """The gradient as a dense Tensor (arrays converted), or `_Slices` for IndexedSlices."""
    if isinstance(gradient, Tensor):
        return gradient
    if isinstance(gradient, IndexedSlices):
        return _Slices(convert_to_tensor(gradient), gradient.values, gradient.indices)
    if is_tensor(gradient):
        return convert_to_tensor(gradient)
    return convert_to_tensor(gradient, dtype=variable.dtype)


class Optimizer(Trackable):
    """Base class of the Keras optimizers, with Keras 3's options.

    Args:
        learning_rate: a float, a `LearningRateSchedule` (called with `iterations`), or a
            zero-argument callable.
        weight_decay: if set, each step first does `variable -= variable * weight_decay * lr`.
        clipnorm: scales each gradient g to `g * clipnorm / max(norm(g), clipnorm)`.
        clipvalue: clips each gradient element to [-clipvalue, clipvalue].
        global_clipnorm: scales every gradient by `global_clipnorm / max(global_norm,
            global_clipnorm)`, global_norm being the L2 norm of all of them together.
            At most one of the three may be set (as in Keras 3).
        use_ema: keep an exponential moving average of each variable (slot 'average'):
            `average = m * average + (1 - m) * variable` after every step, m =
            `ema_momentum` (0 on the first step); `finalize_variable_values` copies the
            averages into the variables.
        ema_momentum: in [0, 1], default 0.99.
        ema_overwrite_frequency: copy the averages into the variables every this many
            steps (None: only in `finalize_variable_values`).
        loss_scale_factor: `scale_loss` multiplies the loss by it, and the gradients are
            divided by it before they are used.
        gradient_accumulation_steps: n >= 2: gradients are summed into a slot
            ('gradient_accumulator') and the variables only change every n-th step, with
            the mean gradient; `iterations` counts every call.
        name: default the class name in snake case ('adam', 'rm_sprop'), as Keras names it.

    Raises:
        ValueError: more than one clipping option, `ema_momentum` outside [0, 1], a bad
            `ema_overwrite_frequency` or `gradient_accumulation_steps`, or an unknown
            keyword argument.
    """

    def __init__(self, learning_rate=0.001, weight_decay=None, clipnorm=None, clipvalue=None,
                 global_clipnorm=None, use_ema: bool = False, ema_momentum: float = 0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name: str | None = None, **kwargs) -> None:
        if kwargs.pop("decay", None) is not None:
            warnings.warn("Argument `decay` is no longer supported and will be ignored.",
                          stacklevel=2)
        if kwargs:
            raise ValueError(f"Argument(s) not recognized: {kwargs}")
        if sum(c is not None for c in (clipnorm, clipvalue, global_clipnorm)) > 1:
            raise ValueError("At most one of `clipnorm`, `clipvalue` and `global_clipnorm` can "
                             f"be set. Received: clipnorm={clipnorm}, clipvalue={clipvalue}, "
                             f"global_clipnorm={global_clipnorm}.")
        if use_ema:
            if not 0.0 <= ema_momentum <= 1.0:
                raise ValueError("`ema_momentum` must be in the range [0, 1]. Received: "
                                 f"ema_momentum={ema_momentum}")
            if ema_overwrite_frequency is not None and (
                    not isinstance(ema_overwrite_frequency, int) or ema_overwrite_frequency < 1):
                raise ValueError("`ema_overwrite_frequency` must be an integer >= 1 or None. "
                                 f"Received: ema_overwrite_frequency={ema_overwrite_frequency}")
        if gradient_accumulation_steps is not None and (
                not isinstance(gradient_accumulation_steps, int)
                or gradient_accumulation_steps < 2):
            raise ValueError("`gradient_accumulation_steps` must be an integer >= 2. Received: "
                             f"gradient_accumulation_steps={gradient_accumulation_steps}")
        self.name = name or snake_case(type(self).__name__)
        self.weight_decay = weight_decay
        self.clipnorm = clipnorm
        self.clipvalue = clipvalue
        self.global_clipnorm = global_clipnorm
        self.use_ema = bool(use_ema)
        self.ema_momentum = ema_momentum
        self.ema_overwrite_frequency = ema_overwrite_frequency
        self.loss_scale_factor = loss_scale_factor
        self.gradient_accumulation_steps = gradient_accumulation_steps
        self._iterations = Variable(np.int64(0), name="iteration", trainable=False)
        self._learning_rate = self._build_learning_rate(learning_rate)
        self._slots: dict = {}
        self._excluded_from_weight_decay: set = set()
        self._excluded_names: tuple = ()

    # -- learning rate and step counter ---------------------------------------------------
    @staticmethod
    def _build_learning_rate(learning_rate):
        if isinstance(learning_rate, LearningRateSchedule) or callable(learning_rate):
            return learning_rate
        return Variable(np.float32(learning_rate), name="learning_rate", trainable=False)

    @property
    def iterations(self):
        """The number of steps applied so far (an int64 Variable); with
        `gradient_accumulation_steps` n, the number of updates made, calls // n (a Tensor),
        which is what update formulas and schedules see, as in Keras 3."""
        if self.gradient_accumulation_steps:
            return self._iterations // self.gradient_accumulation_steps
        return self._iterations

    def _step_count(self, building: bool):
        """`iterations` as a NumPy integer, or a Tensor while a graph is built."""
        count = self._iterations.read_value() if building else self._iterations.numpy()
        steps = self.gradient_accumulation_steps
        return count // steps if steps else count

    @property
    def learning_rate(self):
        """The learning rate Variable; for a schedule, its current value as a Tensor."""
        if isinstance(self._learning_rate, Variable):
            return self._learning_rate
        return convert_to_tensor(self._current_learning_rate(), dtype="float32")

    @learning_rate.setter
    def learning_rate(self, value) -> None:
        if isinstance(self._learning_rate, Variable) and not callable(value):
            self._learning_rate.assign(np.float32(value))
        else:
            self._learning_rate = self._build_learning_rate(value)

    lr = learning_rate

    def _current_learning_rate(self):
        """The rate for the next step: a float, or a Tensor while a graph is built."""
        rate = self._learning_rate
        building = not executing_eagerly()
        if isinstance(rate, Variable):
            return rate.read_value() if building else float(rate.numpy())
        if isinstance(rate, LearningRateSchedule):
            value = rate(self._step_count(building))
            return value if building else float(value)
        value = rate()
        return value if building else float(value)

    # -- slots ----------------------------------------------------------------------------
    # How Keras 3 lists slots: group by group, each group variable by variable. None: all
    # the formula's slots form one group.
    _SLOT_GROUPS: tuple | None = None
    # Whether `_update_step` is elementwise in the gradient, the value and the slots (no
    # norms or reductions), so that workers sharing memory may each apply it to a part of
    # every variable (`tapeflow.distribute.sharded_update`).
    _ELEMENTWISE = False

    def _slot_names(self) -> dict:
        """{slot name: initial value} of the state the update formula keeps per variable."""
        return {}

    def _slot_shape(self, name: str, variable: Variable) -> list:
        """The shape of slot `name` of `variable`: the variable's own unless a formula keeps
        something smaller (Adafactor's factored second moments)."""
        return variable.shape.as_list()

    def _slot_dtype(self, name: str, variable: Variable):
        """The NumPy dtype of slot `name` of `variable` (by default the variable's)."""
        return variable.dtype.as_numpy_dtype

    def _all_slot_names(self) -> dict:
        names = {"average": 0.0} if self.use_ema else {}
        if self.gradient_accumulation_steps:
            names["gradient_accumulator"] = 0.0
        return {**names, **self._slot_names()}

    def _slots_of(self, variable: Variable) -> dict:
        """This variable's slots, created on first use and named as in Keras 3:
        'dense_kernel_momentum' for slot 'momentum' of 'dense/kernel'."""
        slots = self._slots.get(variable.ref())
        if slots is None:
            if not self._slots:
                self._build_state(variable)
            base = variable.name.split(":")[0].replace("/", "_")
            # Keras fills slots with a Constant initializer, which casts through float32.
            slots = {name: Variable(np.full(self._slot_shape(name, variable), np.float32(init),
                                            dtype=self._slot_dtype(name, variable)),
                                    name=f"{base}_{name}", trainable=False)
                     for name, init in self._all_slot_names().items()}
            self._slots[variable.ref()] = slots
            if self.__dict__.get("_variables_wrapper") is not None:
                self._tracked_variables()
        return slots

    def _build_state(self, first_variable: Variable) -> None:
        """Creates state shared by all variables (none here; Nadam keeps one product)."""

    def _state_variables(self) -> list:
        """(name, Variable) of the shared state made by `_build_state`."""
        return []

    def build(self, var_list) -> None:
        """Creates the slots of every variable in `var_list` (otherwise done on first use)."""
        for variable in var_list:
            self._slots_of(variable)

    def get_slot(self, var: Variable, slot_name: str) -> Variable:
        """The slot Variable `slot_name` (e.g. 'momentum') kept for `var`.

        Raises:
            KeyError: no such slot.
        """
        slots = self._slots.get(var.ref(), {})
        if slot_name not in slots:
            raise KeyError(f"{self.name} has no slot {slot_name!r} for variable {var.name}; "
                           f"its slots are {sorted(self._all_slot_names())}.")
        return slots[slot_name]

    def _slot_items(self) -> list:
        """(variable, slot name, slot Variable) for every slot created so far."""
        return [(ref.deref(), name, slot) for ref, slots in self._slots.items()
                for name, slot in slots.items()]

    @property
    def variables(self) -> list:
        """In Keras 3's order: the step counter, the learning rate (when a Variable), the
        moving averages and gradient accumulators of every variable, each variable's
        other slots, then shared state."""
        own = [self._iterations]
        if isinstance(self._learning_rate, Variable):
            own.append(self._learning_rate)
        groups = [("average",), ("gradient_accumulator",)]
        groups += self._SLOT_GROUPS or [tuple(self._slot_names())]
        ordered = [slots[name] for group in groups for slots in self._slots.values()
                   for name in group if name in slots]
        return own + ordered + [v for _, v in self._state_variables()]

    def exclude_from_weight_decay(self, var_list=None, var_names=None) -> None:
        """Exempts variables, or those whose name contains one of `var_names`, from decay."""
        self._excluded_from_weight_decay.update(v.ref() for v in var_list or ())
        self._excluded_names += tuple(var_names or ())

    def _decays(self, variable: Variable) -> bool:
        if not self.weight_decay or variable.ref() in self._excluded_from_weight_decay:
            return False
        return not any(n in variable.name for n in self._excluded_names)

    # -- applying gradients ---------------------------------------------------------------
    def _checked_pairs(self, grads_and_vars) -> list:
        """(dense gradient Tensor, variable) pairs, all validated before any update.

        Raises:
            ValueError: every gradient is None.
            TypeError: a target that is not a Variable.
            InvalidArgumentError: a gradient of another shape or dtype than its variable.
        """
        pairs = list(grads_and_vars)
        for _, variable in pairs:
            if not isinstance(variable, Variable):
                raise TypeError(f"{self.name}: apply_gradients updates tf.Variable objects, "
                                f"got {type(variable).__name__}: {variable!r}")
        present = [(g, v) for g, v in pairs if g is not None]
        if not present:
            raise ValueError("No gradients provided for any variable: "
                             f"{[v.name for _, v in pairs]}.")
        missing = [v.name for g, v in pairs if g is None]
        if missing:
            warnings.warn(f"Gradients do not exist for variables {missing} when minimizing the "
                          "loss. If you're using `model.compile()`, did you forget to provide "
                          "a `loss` argument?", stacklevel=3)
        checked = []
        for gradient, variable in present:
            gradient = _dense_gradient(gradient, variable)
            dense = gradient.dense if isinstance(gradient, _Slices) else gradient
            if not variable.shape.is_compatible_with(dense.shape) \
                    or dense.dtype is not variable.dtype:
                raise errors.InvalidArgumentError(
                    None, self.name,
                    f"{self.name}: the gradient for variable '{variable.name}' has shape "
                    f"{dense.shape.as_list()} and dtype {dense.dtype.name}, but the "
                    f"variable has shape {variable.shape.as_list()} and dtype "
                    f"{variable.dtype.name}. No variable was updated.")
            checked.append((gradient, variable))
        return checked

    def _clipped(self, xp, gradients: list) -> list:
        if self.clipvalue is not None:
            gradients = [xp.clip(g, -self.clipvalue, self.clipvalue) for g in gradients]
        # Keras's roundings: (g * c) / max(norm, c) for each; g * (c * min(1 / norm, 1 / c)
        # + (norm - norm)) for the global norm (NaN for a non-finite norm).
        if self.clipnorm is not None:
            gradients = [g * self.clipnorm / xp.maximum(xp.sqrt(xp.sum(xp.square(g))),
                                                        self.clipnorm)
                         for g in gradients]
        if self.global_clipnorm is not None:
            clip = self.global_clipnorm
            norm = xp.sqrt(sum(xp.sum(xp.square(g)) for g in gradients))
            scale = clip * xp.minimum(1.0 / norm, 1.0 / clip) + (norm - norm)
            gradients = [g * scale for g in gradients]
        return gradients

    def apply_gradients(self, grads_and_vars, name=None, skip_gradients_aggregation=False):
        """Applies one update to each variable from its gradient.

        Pairs whose gradient is None are skipped with a warning. Every gradient is checked
        before anything changes, so a failed call leaves variables, slots and `iterations`
        as they were. Eager calls from several threads run one at a time, each whole.
        Inside a `tf.function` the updates become graph operations. The gradients of
        variables mirrored by a `tf.distribute` strategy with several replicas are first
        summed over the replicas (unless `skip_gradients_aggregation`).

        Args:
            grads_and_vars: (gradient, variable) pairs, e.g. `zip(grads, vars)`. Gradients
                may be Tensors, IndexedSlices or arrays.

        Returns:
            The `iterations` Variable, incremented.

        Raises:
            ValueError: "No gradients provided for any variable" when all are None.
            InvalidArgumentError: a gradient whose shape or dtype differs from its variable's.
            TypeError: a target that is not a Variable.

        Example:
            >>> import tapeflow as tf
            >>> w = tf.Variable([1.0, 2.0])
            >>> opt = tf.keras.optimizers.SGD(learning_rate=0.1)
            >>> int(opt.apply_gradients([(tf.constant([1.0, 1.0]), w)]))
            1
            >>> w.numpy()
            array([0.9, 1.9], dtype=float32)
        """
        if not skip_gradients_aggregation:
            from ...distribute.distribute_lib import sum_mirrored_gradients
            grads_and_vars = sum_mirrored_gradients(grads_and_vars)
        if not executing_eagerly():
            self._apply_checked(self._checked_pairs(grads_and_vars))
            return self._iterations
        with _UPDATES:
            self._apply_checked(self._checked_pairs(grads_and_vars))
        return self._iterations

    def apply(self, grads, trainable_variables=None):
        """Keras 3's form of `apply_gradients`: gradients and variables as two lists (the
        variables the optimizer was built with when `trainable_variables` is None).

        Raises:
            ValueError: no variables given to an optimizer that is not built, or a number of
                gradients that differs from the number of variables.

        Example:
            >>> import tapeflow as tf
            >>> w = tf.Variable(1.0)
            >>> opt = tf.keras.optimizers.SGD(0.5)
            >>> opt.build([w])
            >>> _ = opt.apply([tf.constant(1.0)])
            >>> float(w)
            0.5
        """
        grads = list(grads)
        if not grads:
            return self._iterations
        if trainable_variables is None:
            known = [ref.deref() for ref in self._slots]
            if not known:
                raise ValueError("When passing `grads` without `variables`, the optimizer must "
                                 "already be built on a list of variables. Call "
                                 "`optimizer.build(trainable_variables)` first.")
            trainable_variables = known
        trainable_variables = list(trainable_variables)
        if len(grads) != len(trainable_variables):
            raise ValueError(f"{self.name}: {len(grads)} gradients for "
                             f"{len(trainable_variables)} variables; give one gradient per "
                             "variable.")
        return self.apply_gradients(zip(grads, trainable_variables))

    def _apply_checked(self, checked: list, when=None) -> None:
        """One step from validated (gradient, variable) pairs. `when` (only while a graph is
        built) is a bool Tensor: where false, nothing changes, `iterations` included."""
        building = not executing_eagerly()
        xp = _TENSORS if building else _ARRAYS
        variables = [v for _, v in checked]
        self.build(variables)
        sliced = [g if isinstance(g, _Slices) else None for g, _ in checked]
        gradients = [g.dense if isinstance(g, _Slices) else g for g, _ in checked]
        if not building:
            gradients = [np.asarray(g) for g in gradients]
        if self.loss_scale_factor is not None:
            gradients = [g / self.loss_scale_factor for g in gradients]
            sliced = [s and s / self.loss_scale_factor for s in sliced]
        count = self._step_count(building)
        update_when = when
        if self.gradient_accumulation_steps:     # the means are dense, as in Keras
            gradients, update_when = self._accumulated(gradients, variables, building, when)
            sliced = [None] * len(sliced)
        if gradients is not None:
            clipping = (self.clipvalue, self.clipnorm, self.global_clipnorm)
            if any(c is not None for c in clipping):
                # Clipped gradients are taken whole (Keras densifies a clipped value; its
                # norms of slices are not modelled).
                sliced = [None] * len(sliced)
            gradients = self._clipped(xp, gradients)
            lr = self._current_learning_rate()
            self._prepare_step(xp, count, building, update_when)
            whole = range(len(variables))
            if self._ELEMENTWISE and update_when is None:
                from ...distribute import sharded_update
                strategy, parts = sharded_update.sharing(variables)
                parts = [i for i in parts if sliced[i] is None]
                if strategy is not None and parts:
                    sharded_update.apply_in_parts(
                        strategy, [(gradients[i], variables[i], self._slots_of(variables[i]))
                                   for i in parts],
                        lambda g, variable, value, slots: self._new_values(
                            xp, g, variable, value, slots, lr, count, building))
                    whole = sorted(set(whole) - set(parts))
            for i in whole:
                gradient = gradients[i]
                functions = xp if sliced[i] is None else _Functions(
                    _TensorFunctions if building else np, sliced[i], gradient)
                self._apply(functions, gradient, variables[i], lr, count, building,
                            update_when)
        if self.use_ema:
            self._update_averages(count, building, when)
        for variable in variables:
            if variable.constraint is not None:
                variable.assign(_keep(when, variable.constraint(variable), variable))
        if not building:
            self._iterations.mutable_array()[...] += 1
        else:
            self._iterations.assign_add(1 if when is None else math_ops.cast(when, "int64"))

    def _accumulated(self, gradients: list, variables: list, building: bool, when) -> tuple:
        """Adds the gradients to the accumulators; every n-th step instead returns the mean
        gradients (and empties the accumulators). Returns (gradients or None, the condition
        under which the update happens)."""
        steps = self.gradient_accumulation_steps
        accumulators = [self._slots_of(v)["gradient_accumulator"] for v in variables]
        calls = self._iterations.read_value() if building else self._iterations.numpy()
        if not building:
            if (int(calls) + 1) % steps:
                for gradient, accumulator in zip(gradients, accumulators):
                    accumulator.mutable_array()[...] += gradient
                return None, None
            means = [(g + a.numpy()) / steps for g, a in zip(gradients, accumulators)]
            for accumulator in accumulators:
                accumulator.mutable_array()[...] = 0
            return means, None
        is_update = tf_math.equal((calls + 1) % steps, 0)
        held = [a.read_value() for a in accumulators]
        means = [(g + a) / float(steps) for g, a in zip(gradients, held)]
        for gradient, accumulator, value in zip(gradients, accumulators, held):
            emptied = where(is_update, value * 0.0, value + gradient)
            accumulator.assign(_keep(when, emptied, value))
        return means, is_update if when is None else tf_math.logical_and(when, is_update)

    def _prepare_step(self, xp, count, building: bool, when) -> None:
        """Updates state shared by all variables before they are updated (Nadam's)."""

    def _update_averages(self, count, building: bool, when) -> None:
        """average = m * average + (1 - m) * variable for every variable seen (m = 0 on the
        first step); every `ema_overwrite_frequency` steps the averages replace them."""
        frequency = self.ema_overwrite_frequency
        for ref, slots in self._slots.items():
            variable, average = ref.deref(), slots["average"]
            if not building:
                momentum = self.ema_momentum if int(count) else 0.0
                value = average.mutable_array()
                np.copyto(value, momentum * value + (1 - momentum) * variable.numpy())
                if frequency and (int(count) + 1) % frequency == 0:
                    np.copyto(variable.mutable_array(), value)
                continue
            momentum = math_ops.cast(tf_math.not_equal(count, 0), variable.dtype) \
                * self.ema_momentum
            old = average.read_value()
            new = momentum * old + (1.0 - momentum) * variable.read_value()
            average.assign(_keep(when, new, old))
            if frequency:
                overwrite = tf_math.equal((count + 1) % frequency, 0)
                if when is not None:
                    overwrite = tf_math.logical_and(when, overwrite)
                variable.assign(where(overwrite, new, variable.read_value()))

    def finalize_variable_values(self, var_list) -> None:
        """With `use_ema`, sets each variable to its moving average (Keras calls this at the
        end of `fit`); otherwise does nothing."""
        if self.use_ema:
            for variable in var_list:
                variable.assign(self._slots_of(variable)["average"])

    def scale_loss(self, loss):
        """The loss times `loss_scale_factor` (unchanged when it is None)."""
        return loss if self.loss_scale_factor is None else loss * self.loss_scale_factor

    def _apply(self, xp, gradient, variable: Variable, lr, count, building: bool,
               when=None) -> None:
        """One variable's update: read, `_new_values`, write back."""
        slot_variables = self._slots_of(variable)
        if building:
            value = variable.read_value()
            slots = {name: slot.read_value() for name, slot in slot_variables.items()}
        else:
            value = variable.mutable_array()
            slots = {name: slot.mutable_array() for name, slot in slot_variables.items()}
        new_value, new_slots = self._new_values(xp, gradient, variable, value, slots, lr,
                                                count, building)
        if building:
            variable.assign(_keep(when, new_value, value))
            for name, slot_value in new_slots.items():
                slot_variables[name].assign(_keep(when, slot_value, slots[name]))
        else:
            np.copyto(value, new_value)
            for name, slot_value in new_slots.items():
                np.copyto(slots[name], slot_value)

    def _new_values(self, xp, gradient, variable: Variable, value, slots: dict, lr, count,
                    building: bool) -> tuple:
        """(new value, {slot name: new value}) of `variable` (or of the same part of it,
        its slots and its gradient): weight decay, then `_update_step`, in its dtype."""
        dtype = variable.dtype
        if building:
            lr = math_ops.cast(lr, dtype)
            step = math_ops.cast(count + 1, dtype)
        else:
            lr = dtype.as_numpy_dtype(lr)
            step = dtype.as_numpy_dtype(count + 1)
        if self._decays(variable):
            decay = dtype.as_numpy_dtype(np.float32(self.weight_decay))    # Keras's cast
            value = value - value * decay * lr
        return self._update_step(xp, gradient, value, slots, lr, step)

    def _update_step(self, xp, gradient, value, slots: dict, lr, step) -> tuple:
        """(new value, {slot name: new value}) from the gradient, the current value and
        slots, the learning rate and the step number t (iterations + 1), all in the
        variable's dtype. Arrays or Tensors; `xp` has NumPy's names for the functions
        `_TensorFunctions` lists."""
        raise NotImplementedError

    def compute_gradients(self, loss, var_list, tape=None) -> list:
        """(gradient, variable) pairs of `loss`; a callable loss is evaluated under a tape.

        Raises:
            ValueError: a Tensor loss without the `tape` that recorded it.
        """
        from ...eager.backprop import GradientTape
        if callable(var_list):
            var_list = var_list()
        if tape is None:
            if not callable(loss):
                raise ValueError("`tape` is required when a `Tensor` loss is passed. "
                                 f"Received: loss={loss}, tape={tape}.")
            with GradientTape() as tape:
                tape.watch(var_list)
                loss = loss()
        var_list = list(var_list)
        return list(zip(tape.gradient(loss, var_list), var_list))

    def minimize(self, loss, var_list, tape=None):
        """`compute_gradients` then `apply_gradients`; returns `iterations`.

        Example:
            >>> import tapeflow as tf
            >>> x = tf.Variable(3.0)
            >>> opt = tf.keras.optimizers.SGD(learning_rate=0.25)
            >>> _ = opt.minimize(lambda: x * x, [x])     # x -= 0.25 * 2x
            >>> float(x)
            1.5
        """
        return self.apply_gradients(self.compute_gradients(loss, var_list, tape))

    # -- configuration and checkpoints ----------------------------------------------------
    def get_config(self) -> dict:
        """The constructor arguments; a schedule as its Keras config."""
        from ..saving.serialization import serialize_keras_object
        rate = self._learning_rate
        if isinstance(rate, Variable):
            rate = float(rate.numpy())
        elif isinstance(rate, LearningRateSchedule):
            rate = serialize_keras_object(rate)
        return {"name": self.name, "learning_rate": rate,
                "weight_decay": self.weight_decay, "clipnorm": self.clipnorm,
                "global_clipnorm": self.global_clipnorm, "clipvalue": self.clipvalue,
                "use_ema": self.use_ema, "ema_momentum": self.ema_momentum,
                "ema_overwrite_frequency": self.ema_overwrite_frequency,
                "loss_scale_factor": self.loss_scale_factor,
                "gradient_accumulation_steps": self.gradient_accumulation_steps}

    @classmethod
    def from_config(cls, config: dict) -> "Optimizer":
        """The optimizer `get_config` describes (a serialized schedule is rebuilt)."""
        from ..saving.serialization import deserialize_keras_object
        if isinstance(config.get("learning_rate"), dict):
            config = {**config,
                      "learning_rate": deserialize_keras_object(config["learning_rate"])}
        return cls(**config)

    # -- the object graph: Keras 3's edges ------------------------------------------------
    def _tracked_variables(self):
        """The persistent `_variables` list wrapper, brought up to date with `variables`:
        a value a restore held for an index is assigned when its slot appears."""
        wrapper = self.__dict__.get("_variables_wrapper")
        if wrapper is None:
            wrapper = ListWrapper()
            self.__dict__["_variables_wrapper"] = wrapper
        current = self.variables
        if len(wrapper) != len(current) or any(a is not b for a, b in zip(wrapper, current)):
            wrapper[:] = current
        return wrapper

    def _trackable_children(self, save_type: str = "checkpoint", **kwargs) -> dict:
        """Keras 3's edges: `_variables` (as `variables` lists them), the variables it
        updates (`_trainable_variables`), `_iterations` and `_learning_rate`, then shared
        state by name."""
        children = {"_variables": self._tracked_variables(),
                    "_trainable_variables": ListWrapper(ref.deref() for ref in self._slots),
                    "_trainable_variables_indices": _DictWrapper(),
                    "_iterations": self._iterations}
        if isinstance(self._learning_rate, Variable):
            children["_learning_rate"] = self._learning_rate
        children.update(self._state_variables())
        return children

    def _create_or_restore_slot_variable(self, slot_variable_position, slot_name, variable):
        """Restores the slot `slot_name` of `variable` a checkpoint holds per variable
        (tapeflow's former checkpoints), creating the variable's slots first."""
        slot = self._slots_of(variable).get(slot_name)
        if slot is not None:
            slot_variable_position.restore(slot)

    def _legacy_checkpoint_children(self) -> dict:
        """The edges tapeflow's former checkpoints used."""
        own = {"iteration": self._iterations}
        if isinstance(self._learning_rate, Variable):
            own["learning_rate"] = self._learning_rate
        return own

    def __repr__(self) -> str:
        return f"<{type(self).__name__} name={self.name} iterations={int(self._iterations)}>"
