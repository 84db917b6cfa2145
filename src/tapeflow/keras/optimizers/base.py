"""The Optimizer base class: gradient checks, clipping, weight decay, slots, iterations.

Subclasses give the update formula once, in `_update_step(xp, gradient, value, slots, lr,
step)`: a pure function of the variable's value and its slots that returns their new
values, written with operators and `xp.sqrt`, `xp.square`, `xp.maximum`. Eagerly `xp` is
NumPy and the results are copied into the variables' own arrays (`Variable._mutable_value`),
so the state is updated in place; while a graph is built (`tf.function`), `xp` holds
tapeflow ops and the results are assigned.
"""
from __future__ import annotations

import threading
import warnings

import numpy as np

from ...framework import errors
from ...framework.context import state
from ...framework.tensor import Tensor, convert_to_tensor
from ...framework.variables import Variable
from ...ops import clip_ops, math_ops
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
    clip = staticmethod(clip_ops.clip_by_value)
    sum = staticmethod(math_ops.reduce_sum)


def _dense_gradient(gradient, variable: Variable) -> Tensor:
    """The gradient as a dense Tensor (IndexedSlices rows summed in; arrays converted)."""
    if isinstance(gradient, Tensor):
        return gradient
    if hasattr(gradient, "_as_tensor"):
        return gradient._as_tensor()
    return convert_to_tensor(gradient, dtype=variable.dtype)


class Optimizer:
    """Base class of the Keras optimizers.

    Args:
        name: the optimizer's name.
        learning_rate: a float, a `LearningRateSchedule` (called with `iterations`), or a
            zero-argument callable.
        weight_decay: if set, each step first does `variable -= variable * weight_decay * lr`.
        clipnorm: scales each gradient g to `g * clipnorm / max(norm(g), clipnorm)`.
        clipvalue: clips each gradient element to [-clipvalue, clipvalue].
        global_clipnorm: scales every gradient by `global_clipnorm / max(global_norm,
            global_clipnorm)`, global_norm being the L2 norm of all of them together.
        At most one of the three may be set (as in Keras 3).

    Raises:
        ValueError: more than one of `clipnorm`, `clipvalue` and `global_clipnorm`.
    """

    def __init__(self, name: str, learning_rate=0.001, weight_decay=None, clipnorm=None,
                 clipvalue=None, global_clipnorm=None) -> None:
        if sum(c is not None for c in (clipnorm, clipvalue, global_clipnorm)) > 1:
            raise ValueError("At most one of `clipnorm`, `clipvalue` and `global_clipnorm` can "
                             f"be set. Received: clipnorm={clipnorm}, clipvalue={clipvalue}, "
                             f"global_clipnorm={global_clipnorm}.")
        self.name = name
        self.weight_decay = weight_decay
        self.clipnorm = clipnorm
        self.clipvalue = clipvalue
        self.global_clipnorm = global_clipnorm
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
    def iterations(self) -> Variable:
        """The number of steps applied so far (an int64 Variable)."""
        return self._iterations

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
        building = state.graph is not None
        if isinstance(rate, Variable):
            return rate.read_value() if building else float(rate.numpy())
        if isinstance(rate, LearningRateSchedule):
            value = rate(self._iterations.read_value() if building else self._iterations.numpy())
            return value if building else float(value)
        value = rate()
        return value if building else float(value)

    # -- slots ----------------------------------------------------------------------------
    def _slot_names(self) -> dict:
        """{slot name: initial value} of the state kept per variable."""
        return {}

    def _slots_of(self, variable: Variable) -> dict:
        """This variable's slots, created on first use."""
        slots = self._slots.get(variable.ref())
        if slots is None:
            base = variable.name.split(":")[0]
            slots = {name: Variable(np.full(variable.shape.as_list(), init,
                                            dtype=variable.dtype._np),
                                    name=f"{base}/{name}", trainable=False)
                     for name, init in self._slot_names().items()}
            self._slots[variable.ref()] = slots
        return slots

    def build(self, var_list) -> None:
        """Creates the slots of every variable in `var_list` (otherwise done on first use)."""
        for variable in var_list:
            self._slots_of(variable)

    def get_slot(self, var: Variable, slot_name: str) -> Variable:
        """The slot Variable `slot_name` (e.g. 'm') kept for `var`.

        Raises:
            KeyError: no such slot.
        """
        slots = self._slots.get(var.ref(), {})
        if slot_name not in slots:
            raise KeyError(f"{self.name} has no slot {slot_name!r} for variable {var.name}; "
                           f"its slots are {sorted(self._slot_names())}.")
        return slots[slot_name]

    def _slot_items(self) -> list:
        """(variable, slot name, slot Variable) for every slot created so far."""
        return [(ref.deref(), name, slot) for ref, slots in self._slots.items()
                for name, slot in slots.items()]

    @property
    def variables(self) -> list:
        """The step counter, the learning rate (when a Variable) and every slot."""
        own = [self._iterations]
        if isinstance(self._learning_rate, Variable):
            own.append(self._learning_rate)
        return own + [slot for _, _, slot in self._slot_items()]

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
            if not variable.shape.is_compatible_with(gradient.shape) \
                    or gradient.dtype is not variable.dtype:
                raise errors.InvalidArgumentError(
                    None, self.name,
                    f"{self.name}: the gradient for variable '{variable.name}' has shape "
                    f"{gradient.shape.as_list()} and dtype {gradient.dtype.name}, but the "
                    f"variable has shape {variable.shape.as_list()} and dtype "
                    f"{variable.dtype.name}. No variable was updated.")
            checked.append((gradient, variable))
        return checked

    def _clipped(self, xp, gradients: list) -> list:
        if self.clipvalue is not None:
            gradients = [xp.clip(g, -self.clipvalue, self.clipvalue) for g in gradients]
        if self.clipnorm is not None:
            gradients = [g * (self.clipnorm / xp.maximum(xp.sqrt(xp.sum(xp.square(g))),
                                                         self.clipnorm))
                         for g in gradients]
        if self.global_clipnorm is not None:
            norm = xp.sqrt(sum(xp.sum(xp.square(g)) for g in gradients))
            gradients = [g * (self.global_clipnorm / xp.maximum(norm, self.global_clipnorm))
                         for g in gradients]
        return gradients

    def apply_gradients(self, grads_and_vars, name=None, skip_gradients_aggregation=False):
        """Applies one update to each variable from its gradient.

        Pairs whose gradient is None are skipped with a warning. Every gradient is checked
        before anything changes, so a failed call leaves variables, slots and `iterations`
        as they were. Eager calls from several threads run one at a time, each whole.
        Inside a `tf.function` the updates become graph operations.

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
        if state.graph is not None:
            return self._apply_gradients(grads_and_vars)
        with _UPDATES:
            return self._apply_gradients(grads_and_vars)

    def _apply_gradients(self, grads_and_vars):
        checked = self._checked_pairs(grads_and_vars)
        building = state.graph is not None
        xp = _TensorFunctions if building else np
        gradients = [g if building else g._value for g, _ in checked]
        gradients = self._clipped(xp, gradients)
        lr = self._current_learning_rate()
        count = self._iterations.read_value() if building else self._iterations.numpy()
        for gradient, (_, variable) in zip(gradients, checked):
            self._apply(xp, gradient, variable, lr, count, building)
            if variable.constraint is not None:
                variable.assign(variable.constraint(variable))
        if building:
            self._iterations.assign_add(1)
        else:
            self._iterations._mutable_value()[...] += 1
        return self._iterations

    def _apply(self, xp, gradient, variable: Variable, lr, count, building: bool) -> None:
        """One variable's update: read, decay, `_update_step`, write back."""
        slot_variables = self._slots_of(variable)
        dtype = variable.dtype
        if building:
            lr = math_ops.cast(lr, dtype)
            step = math_ops.cast(count + 1, dtype)
            value = variable.read_value()
            slots = {name: slot.read_value() for name, slot in slot_variables.items()}
        else:
            lr = dtype._np.type(lr)
            step = dtype._np.type(count + 1)
            value = variable._mutable_value()
            slots = {name: slot._mutable_value() for name, slot in slot_variables.items()}
        target = value
        if self._decays(variable):
            value = value - value * (dtype._np.type(self.weight_decay) * lr)
        new_value, new_slots = self._update_step(xp, gradient, value, slots, lr, step)
        if building:
            variable.assign(new_value)
            for name, slot_value in new_slots.items():
                slot_variables[name].assign(slot_value)
        else:
            np.copyto(target, new_value)
            for name, slot_value in new_slots.items():
                np.copyto(slots[name], slot_value)

    def _update_step(self, xp, gradient, value, slots: dict, lr, step) -> tuple:
        """(new value, {slot name: new value}) from the gradient, the current value and
        slots, the learning rate and the step number t (iterations + 1), all in the
        variable's dtype. Arrays or Tensors; `xp` has sqrt, square and maximum for them."""
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
        rate = self._learning_rate
        return {"name": self.name, "weight_decay": self.weight_decay, "clipnorm": self.clipnorm,
                "clipvalue": self.clipvalue, "global_clipnorm": self.global_clipnorm,
                "learning_rate": float(rate.numpy()) if isinstance(rate, Variable) else rate}

    @classmethod
    def from_config(cls, config: dict) -> "Optimizer":
        return cls(**config)

    def _checkpoint_dependencies(self) -> list:
        own = [("iteration", self._iterations)]
        if isinstance(self._learning_rate, Variable):
            own.append(("learning_rate", self._learning_rate))
        return own

    def __repr__(self) -> str:
        return f"<{type(self).__name__} name={self.name} iterations={int(self._iterations)}>"
