"""TF1's optimizers (`tf.compat.v1.train.*Optimizer`), in graph mode and eagerly.

Each applies TF1's update rule, in the variable's dtype and in the same order of operations,
so a training run follows TF's trajectory. Slots are non-trainable variables named
`<variable>/<optimizer name>` (`_1`, `_2` … for further slots), as TF1 names them, so a
`Saver` checkpoint lists the same names.
"""
from __future__ import annotations

import tapeflow as tf

from ...framework.context import executing_eagerly
from ...framework.graph import GraphKeys, get_default_graph
from ...framework.indexed_slices import IndexedSlices
from ...trackable.base import Trackable
from .scopes import absolute_name_scope

__all__ = ["Optimizer", "GradientDescentOptimizer", "MomentumOptimizer", "AdamOptimizer",
           "RMSPropOptimizer", "AdagradOptimizer", "AdadeltaOptimizer", "FtrlOptimizer",
           "ProximalGradientDescentOptimizer", "ProximalAdagradOptimizer"]


def _op_name(variable) -> str:
    return variable.name.split(":")[0]


def _value(hyper, dtype):
    """A hyperparameter (number, tensor, or a function of none when eager) as a tensor."""
    if callable(hyper):
        hyper = hyper()
    return tf.cast(hyper, dtype)


class Optimizer(Trackable):
    """TF1's optimizer interface: `compute_gradients`, `apply_gradients`, `minimize`,
    slots (`get_slot`, `get_slot_names`) and `variables`.

    A trackable as in TF: a checkpoint saves its accumulators (Adam's `beta1_power`) under
    their names and each slot under its variable
    (`<variable path>/.OPTIMIZER_SLOT/<optimizer path>/<slot name>`); restoring creates the
    slots of variables that have them saved.

    Subclasses define `_create_slots(var_list)`, `_apply_dense(grad, var)` (returning an
    assignment) and optionally `_finish(update_ops, name)`. See `GradientDescentOptimizer`.
    """

    GATE_NONE = 0
    GATE_OP = 1
    GATE_GRAPH = 2

    def __init__(self, use_locking: bool, name: str) -> None:
        if not name:
            raise ValueError("Must specify the optimizer name")
        self._name = name
        self._use_locking = use_locking
        self._slots: dict = {}
        self._non_slots: dict = {}

    def get_name(self) -> str:
        return self._name

    def compute_gradients(self, loss, var_list=None, gate_gradients=GATE_OP,
                          aggregation_method=None, colocate_gradients_with_ops=False,
                          grad_loss=None) -> list:
        """[(gradient, variable)] of `loss` for `var_list` (default: trainable variables).

        When executing eagerly, `loss` must be a function of no arguments.

        Raises:
            ValueError: no variables to optimize.
            RuntimeError: a non-callable loss while executing eagerly.
        """
        from ...eager.backprop import GradientTape
        from ...eager.graph_gradients import gradients
        if executing_eagerly():
            if not callable(loss):
                raise RuntimeError("`loss` passed to Optimizer.compute_gradients should be a "
                                   "function when eager execution is enabled.")
            with GradientTape() as tape:
                value = loss()
            var_list = list(var_list) if var_list is not None else list(tape.watched_variables())
            if not var_list:
                raise ValueError("No variables to optimize.")
            grads = tape.gradient(value, var_list,
                                  output_gradients=None if grad_loss is None else [grad_loss])
            return list(zip(grads, var_list))
        if callable(loss):
            loss = loss()
        if var_list is None:
            var_list = get_default_graph().get_collection(GraphKeys.TRAINABLE_VARIABLES)
        var_list = list(var_list)
        if not var_list:
            raise ValueError("No variables to optimize.")
        grads = gradients(loss, var_list, grad_ys=None if grad_loss is None else [grad_loss],
                          aggregation_method=aggregation_method)
        return list(zip(grads, var_list))

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """Applies each gradient to its variable (creating the slots on first use), then
        increments `global_step`; in a graph, returns the grouped op.

        Raises:
            ValueError: no gradient at all (every gradient is None).
        """
        grads_and_vars = list(grads_and_vars)
        pairs = [(g, v) for g, v in grads_and_vars if g is not None]
        if not pairs:
            raise ValueError("No gradients provided for any variable: "
                             f"{[v.name for _, v in grads_and_vars]}.")
        with tf.control_dependencies(None):
            self._create_slots([v for _, v in pairs])
        updates = []
        for grad, var in pairs:
            if isinstance(grad, IndexedSlices) and isinstance(self, _RowwiseOptimizer):
                updates.append(self._apply_rows(tf.convert_to_tensor(grad), var,
                                                _touched_rows(grad, var)))
                continue
            if isinstance(grad, IndexedSlices):
                grad = tf.convert_to_tensor(grad)
            updates.append(self._apply_dense(grad, var))
        name = name or self._name
        apply = self._finish(updates, name)
        if global_step is not None:
            with tf.control_dependencies([apply] if apply is not None else []):
                apply = global_step.assign_add(tf.cast(1, global_step.dtype), name=name,
                                               read_value=False)
        if executing_eagerly():
            return None
        return apply

    def minimize(self, loss, global_step=None, var_list=None, gate_gradients=GATE_OP,
                 aggregation_method=None, colocate_gradients_with_ops=False, name=None,
                 grad_loss=None):
        """`apply_gradients(compute_gradients(loss, var_list))`.

        Example:
            >>> import tapeflow.compat.v1 as tf1
            >>> with tf1.Graph().as_default():
            ...     w = tf1.Variable(3.0)
            ...     step = tf1.train.GradientDescentOptimizer(0.25).minimize(w * w)
            ...     with tf1.Session() as sess:
            ...         _ = sess.run(tf1.global_variables_initializer())
            ...         _ = sess.run(step)
            ...         print(sess.run(w))
            1.5
        """
        grads_and_vars = self.compute_gradients(
            loss, var_list=var_list, gate_gradients=gate_gradients,
            aggregation_method=aggregation_method, grad_loss=grad_loss)
        return self.apply_gradients(grads_and_vars, global_step=global_step, name=name)

    # -- slots -----------------------------------------------------------------------------
    def get_slot_names(self) -> list:
        """The names of the slots this optimizer keeps per variable."""
        return sorted(self._slots)

    def get_slot(self, var, name):
        """The slot `name` of variable `var`, or None."""
        found = self._slots.get(name, {}).get(id(var))
        return None if found is None else found[1]

    def variables(self) -> list:
        """The variables this optimizer created: slots and accumulators such as Adam's
        `beta1_power`."""
        made = [slot for slots in self._slots.values() for _, slot in slots.values()]
        return [v for (_, graph), v in self._non_slots.items()
                if graph is None or graph is get_default_graph()] + made

    def _slot(self, var, initial_value, slot_name: str):
        """The slot `slot_name` of `var`, made with `initial_value` (a function of the
        variable's shape and dtype) the first time."""
        slots = self._slots.setdefault(slot_name, {})
        if id(var) not in slots:
            with absolute_name_scope(get_default_graph(), _op_name(var)):
                slot = tf.Variable(lambda: initial_value(var.shape, var.dtype),
                                   trainable=False, name=self._name)
            slots[id(var)] = (var, slot)
        return slots[id(var)][1]

    def _zeros_slot(self, var, slot_name: str):
        return self._slot(var, tf.zeros, slot_name)

    def _non_slot(self, initial_value, name: str):
        """An accumulator shared by all variables (one per graph), made the first time (and
        given the value a restore held for it)."""
        key = (name, None if executing_eagerly() else get_default_graph())
        if key not in self._non_slots:
            with absolute_name_scope(get_default_graph(), ""):
                self._non_slots[key] = tf.Variable(initial_value, trainable=False, name=name)
            if key[1] is None:
                self._handle_deferred_dependencies(name=name, trackable=self._non_slots[key])
        return self._non_slots[key]

    def _trackable_children(self, save_type: str = "checkpoint", **kwargs) -> dict:
        """The accumulators made eagerly, by name (slots are saved beside their variables)."""
        return {name: var for (name, graph), var in self._non_slots.items() if graph is None}

    def _create_or_restore_slot_variable(self, slot_variable_position, slot_name, variable):
        """Makes `variable`'s slots (and the shared accumulators, which take their saved
        values as they appear) and restores the saved value of slot `slot_name`."""
        if self.get_slot(variable, slot_name) is None:
            with tf.init_scope():
                self._create_slots([variable])
        slot = self.get_slot(variable, slot_name)
        if slot is not None:
            slot_variable_position.restore(slot)

    def _create_slots(self, var_list) -> None:
        """Makes the slots of each variable (none by default)."""

    def _finish(self, update_ops, name):
        return tf.group(*update_ops, name=name)

    def _apply_dense(self, grad, var):
        raise NotImplementedError


def _touched_rows(grad, var):
    """A bool tensor broadcasting against `var`: the rows an IndexedSlices gradient has."""
    counts = tf.math.unsorted_segment_sum(tf.ones_like(grad.indices, dtype=tf.float32),
                                          grad.indices, var.shape[0])
    return tf.reshape(counts > 0.0, [-1] + [1] * (var.shape.rank - 1))


class _RowwiseOptimizer(Optimizer):
    """An optimizer whose TF1 sparse kernels update only the rows a sparse gradient (an
    IndexedSlices, e.g. from an embedding lookup) has: its `_apply_rows(grad, var, rows)`
    assigns through `_assign`, which keeps the other rows of variables and slots."""

    def _apply_dense(self, grad, var):
        return self._apply_rows(grad, var, None)

    @staticmethod
    def _assign(variable, value, rows):
        """`variable.assign(value)`, on the `rows` only when given."""
        return variable.assign(value if rows is None else tf.where(rows, value, variable))

    def _apply_rows(self, grad, var, rows):
        raise NotImplementedError


class GradientDescentOptimizer(Optimizer):
    """var -= learning_rate * gradient.

    Args:
        learning_rate: a float or a scalar tensor.
        use_locking: accepted for compatibility.
        name: the name of the update operation.

    Example:
        >>> import tapeflow as tf
        >>> w = tf.Variable(2.0)
        >>> opt = tf.compat.v1.train.GradientDescentOptimizer(0.5)
        >>> opt.apply_gradients([(tf.constant(1.0), w)])
        >>> float(w)
        1.5
    """

    def __init__(self, learning_rate, use_locking: bool = False,
                 name: str = "GradientDescent") -> None:
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate

    def _apply_dense(self, grad, var):
        return var.assign_sub(grad * _value(self._learning_rate, var.dtype))


class MomentumOptimizer(_RowwiseOptimizer):
    """accum = momentum * accum + gradient; var -= learning_rate * accum (with Nesterov:
    var -= learning_rate * (gradient + momentum * accum)).

    Example:
        >>> import tapeflow as tf
        >>> w = tf.Variable(1.0)
        >>> opt = tf.compat.v1.train.MomentumOptimizer(0.1, momentum=0.9)
        >>> for _ in range(2):
        ...     opt.apply_gradients([(tf.constant(1.0), w)])
        >>> round(float(w), 4)
        0.71
    """

    def __init__(self, learning_rate, momentum, use_locking: bool = False,
                 name: str = "Momentum", use_nesterov: bool = False) -> None:
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._momentum = momentum
        self._use_nesterov = use_nesterov

    def _create_slots(self, var_list) -> None:
        for var in var_list:
            self._zeros_slot(var, "momentum")

    def _apply_rows(self, grad, var, rows):
        lr = _value(self._learning_rate, var.dtype)
        momentum = _value(self._momentum, var.dtype)
        accum = self.get_slot(var, "momentum")
        accum_t = self._assign(accum, accum * momentum + grad, rows)
        if self._use_nesterov:
            return self._assign(var, var - (grad * lr + accum_t * momentum * lr), rows)
        return self._assign(var, var - accum_t * lr, rows)


class AdamOptimizer(Optimizer):
    """Adam as in TF1: slots `m` and `v`, and the accumulators `beta1_power` and
    `beta2_power` (starting at beta1 and beta2, multiplied by them after each step).

    lr_t = learning_rate * sqrt(1 - beta2_power) / (1 - beta1_power);
    m += (g - m) * (1 - beta1); v += (g² - v) * (1 - beta2);
    var -= m * lr_t / (sqrt(v) + epsilon).

    Example:
        >>> import tapeflow as tf
        >>> w = tf.Variable(1.0)
        >>> opt = tf.compat.v1.train.AdamOptimizer(0.1)
        >>> opt.apply_gradients([(tf.constant(2.0), w)])
        >>> round(float(w), 4), opt.get_slot_names()
        (0.9, ['m', 'v'])
    """

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 use_locking: bool = False, name: str = "Adam") -> None:
        super().__init__(use_locking, name)
        self._lr, self._beta1, self._beta2, self._epsilon = learning_rate, beta1, beta2, epsilon

    def _get_beta_accumulators(self) -> tuple:
        return self._non_slot(self._beta1, "beta1_power"), self._non_slot(self._beta2,
                                                                           "beta2_power")

    def _create_slots(self, var_list) -> None:
        self._get_beta_accumulators()
        for var in var_list:
            self._zeros_slot(var, "m")
            self._zeros_slot(var, "v")

    def _apply_dense(self, grad, var):
        beta1_power, beta2_power = self._get_beta_accumulators()
        dtype = var.dtype
        beta1, beta2 = _value(self._beta1, dtype), _value(self._beta2, dtype)
        lr = (_value(self._lr, dtype) * tf.sqrt(1.0 - tf.cast(beta2_power, dtype))
              / (1.0 - tf.cast(beta1_power, dtype)))
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        m_t = m.assign_add((grad - m) * (1.0 - beta1))
        v_t = v.assign_add((tf.square(grad) - v) * (1.0 - beta2))
        return var.assign_sub((m_t * lr) / (tf.sqrt(v_t) + _value(self._epsilon, dtype)))

    def _finish(self, update_ops, name):
        beta1_power, beta2_power = self._get_beta_accumulators()
        with tf.control_dependencies(update_ops):
            update_beta1 = beta1_power.assign(beta1_power * self._beta1)
            update_beta2 = beta2_power.assign(beta2_power * self._beta2)
        return tf.group(*update_ops, update_beta1, update_beta2, name=name)


class RMSPropOptimizer(_RowwiseOptimizer):
    """RMSProp as in TF1: the mean square `rms` starts at ones (slot `momentum` at zeros).

    ms += (g² - ms) * (1 - decay); mom = mom * momentum + g * lr / sqrt(ms + epsilon);
    var -= mom. Centered: also mg += (g - mg) * (1 - decay), dividing by
    sqrt(ms - mg² + epsilon).

    Example:
        >>> import tapeflow as tf
        >>> w = tf.Variable(1.0)
        >>> tf.compat.v1.train.RMSPropOptimizer(0.1).apply_gradients([(tf.constant(1.0), w)])
        >>> round(float(w), 4)
        0.9
    """

    def __init__(self, learning_rate, decay=0.9, momentum=0.0, epsilon=1e-10,
                 use_locking: bool = False, centered: bool = False,
                 name: str = "RMSProp") -> None:
        super().__init__(use_locking, name)
        self._lr, self._decay, self._momentum = learning_rate, decay, momentum
        self._epsilon, self._centered = epsilon, centered

    def _create_slots(self, var_list) -> None:
        for var in var_list:
            self._slot(var, tf.ones, "rms")
            if self._centered:
                self._zeros_slot(var, "mg")
            self._zeros_slot(var, "momentum")

    def _apply_rows(self, grad, var, rows):
        dtype = var.dtype
        lr, rho = _value(self._lr, dtype), _value(self._decay, dtype)
        ms, mom = self.get_slot(var, "rms"), self.get_slot(var, "momentum")
        ms_t = self._assign(ms, ms + (tf.square(grad) - ms) * (1.0 - rho), rows)
        denominator = ms_t
        if self._centered:
            mg = self.get_slot(var, "mg")
            mg_t = self._assign(mg, mg + (grad - mg) * (1.0 - rho), rows)
            denominator = ms_t - tf.square(mg_t)
        mom_t = self._assign(mom, mom * _value(self._momentum, dtype) + (grad * lr) / tf.sqrt(
            denominator + _value(self._epsilon, dtype)), rows)
        return self._assign(var, var - mom_t, rows)


class AdagradOptimizer(_RowwiseOptimizer):
    """accum += g²; var -= g * learning_rate / sqrt(accum) (accum starts at
    `initial_accumulator_value`).

    Raises:
        ValueError: a non-positive initial accumulator value.

    Example:
        >>> import tapeflow as tf
        >>> w = tf.Variable(1.0)
        >>> tf.compat.v1.train.AdagradOptimizer(0.5).apply_gradients([(tf.constant(1.0), w)])
        >>> round(float(w), 4)
        0.5233
    """

    def __init__(self, learning_rate, initial_accumulator_value=0.1, use_locking: bool = False,
                 name: str = "Adagrad") -> None:
        if initial_accumulator_value <= 0.0:
            raise ValueError("initial_accumulator_value must be positive: "
                             f"{initial_accumulator_value}")
        super().__init__(use_locking, name)
        self._lr, self._initial = learning_rate, initial_accumulator_value

    def _create_slots(self, var_list) -> None:
        for var in var_list:
            self._slot(var, lambda shape, dtype: tf.fill(shape, tf.cast(self._initial, dtype)),
                       "accumulator")

    def _apply_rows(self, grad, var, rows):
        accum = self.get_slot(var, "accumulator")
        accum_t = self._assign(accum, accum + tf.square(grad), rows)
        return self._assign(
            var, var - grad * _value(self._lr, var.dtype) * tf.math.rsqrt(accum_t), rows)


def _proximal(var, grad, rate, l1, l2):
    """TF's proximal (FOBOS) step with learning rate `rate`: v = var - rate * grad, then
    sign(v) max(|v| - rate * l1, 0) / (1 + rate * l2) (v / (1 + rate * l2) without l1)."""
    v = var - grad * rate
    if l1 > 0:
        v = tf.sign(v) * tf.maximum(tf.abs(v) - rate * _value(l1, var.dtype), 0.0)
    return v / (1.0 + rate * _value(l2, var.dtype))


class ProximalGradientDescentOptimizer(_RowwiseOptimizer):
    """Gradient descent followed by the proximal step of l1 and l2 penalties (FOBOS):
    v = var - learning_rate * g; var = sign(v) max(|v| - learning_rate * l1, 0) /
    (1 + learning_rate * l2).

    Example:
        >>> import tapeflow as tf
        >>> w = tf.Variable(1.0)
        >>> opt = tf.compat.v1.train.ProximalGradientDescentOptimizer(
        ...     0.5, l1_regularization_strength=0.2, l2_regularization_strength=1.0)
        >>> opt.apply_gradients([(tf.constant(1.0), w)])
        >>> round(float(w), 4)   # (1 - 0.5 - 0.1) / 1.5
        0.2667
    """

    def __init__(self, learning_rate, l1_regularization_strength=0.0,
                 l2_regularization_strength=0.0, use_locking: bool = False,
                 name: str = "ProximalGradientDescent") -> None:
        super().__init__(use_locking, name)
        self._lr = learning_rate
        self._l1, self._l2 = l1_regularization_strength, l2_regularization_strength

    def _apply_rows(self, grad, var, rows):
        rate = _value(self._lr, var.dtype)
        return self._assign(var, _proximal(var, grad, rate, self._l1, self._l2), rows)


class ProximalAdagradOptimizer(AdagradOptimizer):
    """Adagrad's rate learning_rate / sqrt(accum) (accum += g², from
    `initial_accumulator_value`) in the proximal step of `ProximalGradientDescentOptimizer`.

    Example:
        >>> import tapeflow as tf
        >>> w = tf.Variable(1.0)
        >>> opt = tf.compat.v1.train.ProximalAdagradOptimizer(0.5)
        >>> opt.apply_gradients([(tf.constant(1.0), w)])
        >>> round(float(w), 4)
        0.5233
    """

    def __init__(self, learning_rate, initial_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 use_locking: bool = False, name: str = "ProximalAdagrad") -> None:
        super().__init__(learning_rate, initial_accumulator_value, use_locking, name)
        self._l1, self._l2 = l1_regularization_strength, l2_regularization_strength

    def _apply_rows(self, grad, var, rows):
        accum = self.get_slot(var, "accumulator")
        accum_t = self._assign(accum, accum + tf.square(grad), rows)
        rate = _value(self._lr, var.dtype) * tf.math.rsqrt(accum_t)
        return self._assign(var, _proximal(var, grad, rate, self._l1, self._l2), rows)


class AdadeltaOptimizer(_RowwiseOptimizer):
    """Adadelta as in TF1 (slots `accum` and `accum_update`, starting at zeros).

    Example:
        >>> import tapeflow as tf
        >>> w = tf.Variable(1.0)
        >>> tf.compat.v1.train.AdadeltaOptimizer(1.0).apply_gradients([(tf.constant(1.0), w)])
        >>> round(float(w), 6)
        0.999553
    """

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-8, use_locking: bool = False,
                 name: str = "Adadelta") -> None:
        super().__init__(use_locking, name)
        self._lr, self._rho, self._epsilon = learning_rate, rho, epsilon

    def _create_slots(self, var_list) -> None:
        for var in var_list:
            self._zeros_slot(var, "accum")
            self._zeros_slot(var, "accum_update")

    def _apply_rows(self, grad, var, rows):
        dtype = var.dtype
        rho, epsilon = _value(self._rho, dtype), _value(self._epsilon, dtype)
        accum, accum_update = self.get_slot(var, "accum"), self.get_slot(var, "accum_update")
        accum_t = self._assign(accum, accum * rho + tf.square(grad) * (1.0 - rho), rows)
        update = tf.sqrt(accum_update + epsilon) * tf.math.rsqrt(accum_t + epsilon) * grad
        var_t = self._assign(var, var - update * _value(self._lr, dtype), rows)
        with tf.control_dependencies([var_t]):
            return self._assign(accum_update,
                                accum_update * rho + tf.square(update) * (1.0 - rho), rows)


class FtrlOptimizer(_RowwiseOptimizer):
    """FTRL-Proximal as in TF1 (slots `accum`, starting at `initial_accumulator_value`,
    and `linear`), with L1, L2 and L2-shrinkage regularization.

    Raises:
        ValueError: a positive learning_rate_power, a negative initial accumulator value or
            regularization strength.

    Example:
        >>> import tapeflow as tf
        >>> w = tf.Variable(1.0)
        >>> tf.compat.v1.train.FtrlOptimizer(0.5).apply_gradients([(tf.constant(1.0), w)])
        >>> round(float(w), 4)
        0.2218
    """

    def __init__(self, learning_rate, learning_rate_power=-0.5, initial_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 use_locking: bool = False, name: str = "Ftrl", accum_name=None,
                 linear_name=None, l2_shrinkage_regularization_strength=0.0) -> None:
        for what, value in (("initial_accumulator_value", initial_accumulator_value),
                            ("l1_regularization_strength", l1_regularization_strength),
                            ("l2_regularization_strength", l2_regularization_strength),
                            ("l2_shrinkage_regularization_strength",
                             l2_shrinkage_regularization_strength)):
            if value < 0.0:
                raise ValueError(f"{what} {value} needs to be positive or zero")
        if learning_rate_power > 0.0:
            raise ValueError(f"learning_rate_power {learning_rate_power} needs to be negative "
                             "or zero")
        super().__init__(use_locking, name)
        self._lr, self._power, self._initial = (learning_rate, learning_rate_power,
                                                initial_accumulator_value)
        self._l1, self._l2 = l1_regularization_strength, l2_regularization_strength
        self._shrinkage = l2_shrinkage_regularization_strength

    def _create_slots(self, var_list) -> None:
        for var in var_list:
            self._slot(var, lambda shape, dtype: tf.fill(shape, tf.cast(self._initial, dtype)),
                       "accum")
            self._zeros_slot(var, "linear")

    def _apply_rows(self, grad, var, rows):
        dtype = var.dtype
        lr, l1, l2 = (_value(x, dtype) for x in (self._lr, self._l1, self._l2))
        accum, linear = self.get_slot(var, "accum"), self.get_slot(var, "linear")
        new_accum = accum + tf.square(grad)
        if self._power == -0.5:
            scale, old_scale = tf.sqrt(new_accum), tf.sqrt(accum)
        else:
            power = _value(-self._power, dtype)
            scale, old_scale = tf.pow(new_accum, power), tf.pow(accum, power)
        shrunk = grad + 2.0 * _value(self._shrinkage, dtype) * var if self._shrinkage else grad
        linear_t = self._assign(linear, linear + (shrunk - (scale - old_scale) / lr * var), rows)
        quadratic = scale / lr + 2.0 * l2
        pre_shrink = (l1 * tf.sign(linear_t) - linear_t) / quadratic
        var_t = self._assign(
            var, tf.where(tf.abs(linear_t) > l1, pre_shrink, tf.zeros_like(var)), rows)
        with tf.control_dependencies([var_t]):
            return self._assign(accum, new_accum, rows)
