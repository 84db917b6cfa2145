"""TF1's global step, learning-rate schedules and ExponentialMovingAverage.

In a graph, a schedule is a tensor computed from the global step when the session runs it;
executing eagerly it is a function of no arguments (which the optimizers call each step).
"""
from __future__ import annotations

import contextlib
import math

import tapeflow as tf

from ...framework.context import executing_eagerly
from ...framework.graph import GraphKeys, get_default_graph
from .scopes import absolute_name_scope

__all__ = ["get_global_step", "create_global_step", "get_or_create_global_step", "global_step",
           "assert_global_step",
           "exponential_decay", "natural_exp_decay", "inverse_time_decay", "piecewise_constant",
           "piecewise_constant_decay", "polynomial_decay", "cosine_decay",
           "cosine_decay_restarts", "linear_cosine_decay", "noisy_linear_cosine_decay",
           "ExponentialMovingAverage"]


# -- the global step ---------------------------------------------------------------------
def get_global_step(graph=None):
    """The global step variable of `graph` (default: the default graph), or None."""
    found = (graph or get_default_graph()).get_collection(GraphKeys.GLOBAL_STEP)
    return found[0] if found else None


def create_global_step(graph=None):
    """Creates the global step: an int64 scalar variable `global_step`, starting at 0.

    Raises:
        ValueError: `graph` already has one.
    """
    graph = graph or get_default_graph()
    if get_global_step(graph) is not None:
        raise ValueError("\"global_step\" already exists.")
    context = contextlib.nullcontext() if executing_eagerly() else graph.as_default()
    with context, absolute_name_scope(graph, ""):
        step = tf.Variable(tf.zeros([], tf.int64), trainable=False, name="global_step",
                           collections=[GraphKeys.GLOBAL_VARIABLES, GraphKeys.GLOBAL_STEP])
    if executing_eagerly():
        graph.add_to_collection(GraphKeys.GLOBAL_STEP, step)
    return step


def get_or_create_global_step(graph=None):
    """The global step of `graph`, created the first time.

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> with tf1.Graph().as_default():
        ...     step = tf1.train.get_or_create_global_step()
        ...     print(step.name, tf1.train.get_or_create_global_step() is step)
        global_step:0 True
    """
    step = get_global_step(graph)
    return create_global_step(graph) if step is None else step


def global_step(sess, global_step_tensor) -> int:
    """The global step's value as an int (run in `sess`; executing eagerly, read).

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> with tf1.Graph().as_default():
        ...     step = tf1.train.get_or_create_global_step()
        ...     sess = tf1.Session()
        ...     _ = sess.run(tf1.global_variables_initializer())
        ...     print(tf1.train.global_step(sess, step))
        0
    """
    if executing_eagerly():
        return int(global_step_tensor.numpy())
    return int(sess.run(global_step_tensor))


def assert_global_step(global_step_tensor) -> None:
    """Checks that `global_step_tensor` can be a global step.

    Raises:
        TypeError: not a Variable or Tensor, not of an integer dtype, or of a known shape
            that is not scalar.
    """
    if not isinstance(global_step_tensor, (tf.Variable, tf.Tensor)):
        raise TypeError(f'Existing "global_step" must be a Variable or Tensor: '
                        f"{global_step_tensor}.")
    if not global_step_tensor.dtype.base_dtype.is_integer:
        raise TypeError(f'Existing "global_step" does not have integer type: '
                        f"{global_step_tensor.dtype}")
    shape = global_step_tensor.get_shape()
    if shape.ndims != 0 and shape.is_fully_defined():
        raise TypeError(f'Existing "global_step" is not scalar: {shape}')


# -- learning-rate schedules -------------------------------------------------------------
def _schedule(compute):
    """The schedule's tensor in a graph; eagerly, the function computing it."""
    return compute if executing_eagerly() else compute()


def _step(learning_rate, global_step):
    if global_step is None:
        raise ValueError("global_step is required for a learning-rate schedule.")
    rate = tf.convert_to_tensor(learning_rate)
    rate = rate if rate.dtype.is_floating else tf.cast(rate, tf.float32)
    return rate, tf.cast(global_step, rate.dtype)


def _exponential(learning_rate, global_step, decay_steps, base, staircase, name):
    """learning_rate * base() ^ (global_step / decay_steps), floored with `staircase`."""
    def compute():
        rate, step = _step(learning_rate, global_step)
        p = step / tf.cast(decay_steps, rate.dtype)
        if staircase:
            p = tf.floor(p)
        return tf.multiply(rate, tf.pow(tf.cast(base(), rate.dtype), p), name=name)
    return _schedule(compute)


def exponential_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False,
                      name=None):
    """learning_rate * decay_rate ^ (global_step / decay_steps) (the exponent floored with
    `staircase`).

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> with tf1.Graph().as_default():
        ...     lr = tf1.train.exponential_decay(0.1, 20, 10, 0.5)
        ...     print(round(float(tf1.Session().run(lr)), 6))
        0.025
    """
    return _exponential(learning_rate, global_step, decay_steps, lambda: decay_rate,
                        staircase, name)


def natural_exp_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False,
                      name=None):
    """learning_rate * exp(-decay_rate * global_step / decay_steps) (the quotient floored
    with `staircase`): `exponential_decay` with the base exp(-decay_rate), computed as TF
    does (in float32 for a Python number).

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> with tf1.Graph().as_default():
        ...     lr = tf1.train.natural_exp_decay(1.0, 10, 10, 0.5)
        ...     print(round(float(tf1.Session().run(lr)), 6))
        0.606531
    """
    return _exponential(learning_rate, global_step, decay_steps,
                        lambda: tf.exp(tf.negative(tf.convert_to_tensor(decay_rate))),
                        staircase, name)


def inverse_time_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False,
                       name=None):
    """learning_rate / (1 + decay_rate * global_step / decay_steps) (the quotient floored
    with `staircase`).

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> with tf1.Graph().as_default():
        ...     lr = tf1.train.inverse_time_decay(0.1, 10, 10, 0.5)
        ...     print(round(float(tf1.Session().run(lr)), 6))
        0.066667
    """
    def compute():
        rate, step = _step(learning_rate, global_step)
        p = step / tf.cast(decay_steps, rate.dtype)
        if staircase:
            p = tf.floor(p)
        return tf.divide(rate, 1.0 + tf.cast(decay_rate, rate.dtype) * p, name=name)
    return _schedule(compute)


def piecewise_constant(x, boundaries, values, name=None):
    """values[i] where boundaries[i-1] < x <= boundaries[i] (values[0] up to the first
    boundary, values[-1] after the last).

    Raises:
        ValueError: len(values) is not len(boundaries) + 1.

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> with tf1.Graph().as_default():
        ...     lrs = [tf1.train.piecewise_constant(s, [10, 20], [1.0, 0.5, 0.1])
        ...            for s in (10, 11, 25)]
        ...     print(tf1.Session().run(lrs))
        [1.0, 0.5, 0.1]
    """
    if len(values) != len(boundaries) + 1:
        raise ValueError("The length of boundaries should be 1 less than the length of values")

    def compute():
        step = tf.convert_to_tensor(x)
        out = tf.convert_to_tensor(values[-1])
        for boundary, value in reversed(list(zip(boundaries, values[:-1]))):
            out = tf.where(step <= tf.cast(boundary, step.dtype),
                           tf.convert_to_tensor(value, out.dtype), out)
        return tf.identity(out, name=name)
    return _schedule(compute)


def polynomial_decay(learning_rate, global_step, decay_steps, end_learning_rate=0.0001,
                     power=1.0, cycle=False, name=None):
    """(learning_rate - end) * (1 - step / decay_steps) ^ power + end, the step clipped at
    decay_steps (or, with `cycle`, decay_steps stretched to the next multiple).

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> with tf1.Graph().as_default():
        ...     lr = tf1.train.polynomial_decay(1.0, 5, 10, end_learning_rate=0.0)
        ...     print(tf1.Session().run(lr))
        0.5
    """
    def compute():
        rate, step = _step(learning_rate, global_step)
        end = tf.cast(end_learning_rate, rate.dtype)
        steps = tf.cast(decay_steps, rate.dtype)
        if cycle:
            multiplier = tf.where(tf.equal(step, 0.0), 1.0, tf.math.ceil(step / steps))
            steps = steps * multiplier
        else:
            step = tf.minimum(step, steps)
        fraction = step / steps
        return tf.add((rate - end) * tf.pow(1.0 - fraction, tf.cast(power, rate.dtype)), end,
                      name=name)
    return _schedule(compute)


def cosine_decay(learning_rate, global_step, decay_steps, alpha=0.0, name=None):
    """learning_rate * ((1 - alpha) * 0.5 * (1 + cos(pi * step / decay_steps)) + alpha),
    the step clipped at decay_steps.

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> with tf1.Graph().as_default():
        ...     lr = tf1.train.cosine_decay(1.0, 5, 10)
        ...     print(round(float(tf1.Session().run(lr)), 6))
        0.5
    """
    def compute():
        rate, step = _step(learning_rate, global_step)
        steps = tf.cast(decay_steps, rate.dtype)
        completed = tf.minimum(step, steps) / steps
        cosine = 0.5 * (1.0 + tf.cos(math.pi * completed))
        decayed = (1.0 - alpha) * cosine + alpha
        return tf.multiply(rate, decayed, name=name)
    return _schedule(compute)


piecewise_constant_decay = piecewise_constant


def cosine_decay_restarts(learning_rate, global_step, first_decay_steps, t_mul=2.0, m_mul=1.0,
                          alpha=0.0, name=None):
    """Cosine decay with warm restarts (SGDR): each period `t_mul` times as long as the one
    before and starting from `m_mul` times its rate, decaying to `alpha` times it (step 20
    below is halfway through the second period, steps 10 to 30).

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> with tf1.Graph().as_default():
        ...     lrs = [tf1.train.cosine_decay_restarts(1.0, s, 10) for s in (5, 10, 20)]
        ...     print([round(float(v), 6) for v in tf1.Session().run(lrs)])
        [0.5, 1.0, 0.5]
    """
    def compute():
        rate, step = _step(learning_rate, global_step)
        dtype = rate.dtype
        fraction = step / tf.cast(first_decay_steps, dtype)
        t, m = tf.cast(t_mul, dtype), tf.cast(m_mul, dtype)
        # Periods 1, t, t^2, ... (t may be a tensor): the restart whose geometric sum the
        # fraction has passed, or with t = 1 its whole part.
        geometric = tf.floor(tf.math.log(1.0 - fraction * (1.0 - t)) / tf.math.log(t))
        done = (1.0 - tf.pow(t, geometric)) / (1.0 - t)
        constant = tf.equal(t, 1.0)
        restart = tf.where(constant, tf.floor(fraction), geometric)
        fraction = tf.where(constant, fraction - restart,
                            (fraction - done) / tf.pow(t, geometric))
        cosine = 0.5 * tf.pow(m, restart) * (1.0 + tf.cos(tf.constant(math.pi, dtype) *
                                                         fraction))
        alpha_ = tf.cast(alpha, dtype)
        return tf.multiply(rate, (1 - alpha_) * cosine + alpha_, name=name)
    return _schedule(compute)


def _linear_cosine(learning_rate, global_step, decay_steps, num_periods, alpha, beta, name,
                   noise=None):
    """TF's linear cosine decay; `noise(step, linear)` adds to the linear part."""
    def compute():
        rate, step = _step(learning_rate, global_step)
        dtype = rate.dtype
        steps = tf.cast(decay_steps, dtype)
        step = tf.minimum(step, steps)
        linear = (steps - step) / steps
        if noise is not None:
            linear = linear + noise(step, linear)
        fraction = 2.0 * tf.cast(num_periods, dtype) * (step / steps)
        cosine = 0.5 * (1.0 + tf.cos(tf.constant(math.pi, dtype) * fraction))
        decayed = (tf.cast(alpha, dtype) + linear) * cosine + tf.cast(beta, dtype)
        return tf.multiply(rate, decayed, name=name)
    return _schedule(compute)


def linear_cosine_decay(learning_rate, global_step, decay_steps, num_periods=0.5, alpha=0.0,
                        beta=0.001, name=None):
    """learning_rate * ((alpha + linear) * cosine + beta), where linear falls from 1 to 0
    and cosine makes `num_periods` periods over decay_steps (the step clipped there).

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> with tf1.Graph().as_default():
        ...     lr = tf1.train.linear_cosine_decay(1.0, 5, 10)
        ...     print(round(float(tf1.Session().run(lr)), 6))
        0.251
    """
    return _linear_cosine(learning_rate, global_step, decay_steps, num_periods, alpha, beta,
                          name)


def noisy_linear_cosine_decay(learning_rate, global_step, decay_steps, initial_variance=1.0,
                              variance_decay=0.55, num_periods=0.5, alpha=0.0, beta=0.001,
                              name=None):
    """`linear_cosine_decay` with normal noise added to its linear part, of variance
    initial_variance / (1 + step) ^ variance_decay (a draw per evaluation).

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> with tf1.Graph().as_default():
        ...     lr = tf1.train.noisy_linear_cosine_decay(1.0, 10, 10)
        ...     print(round(float(tf1.Session().run(lr)), 6))   # cosine 0 at the end
        0.001
    """
    def noise(step, linear):
        dtype = linear.dtype
        variance = tf.cast(initial_variance, dtype) / tf.pow(1.0 + step, tf.cast(
            variance_decay, dtype))
        return tf.random.normal(tf.shape(linear), stddev=tf.sqrt(variance), dtype=dtype)
    return _linear_cosine(learning_rate, global_step, decay_steps, num_periods, alpha, beta,
                          name, noise)


# -- moving averages ---------------------------------------------------------------------
class ExponentialMovingAverage:
    """Shadow copies of variables updated as shadow -= (1 - decay) * (shadow - variable).

    With `num_updates`, the decay is min(decay, (1 + num_updates) / (10 + num_updates)).
    Shadows are non-trainable variables named `<variable>/<name>`, starting at the
    variable's initial value.

    Example:
        >>> import tapeflow.compat.v1 as tf1
        >>> with tf1.Graph().as_default():
        ...     w = tf1.Variable(1.0, name="w")
        ...     ema = tf1.train.ExponentialMovingAverage(0.9)
        ...     update = ema.apply([w])
        ...     sess = tf1.Session()
        ...     _ = sess.run(tf1.global_variables_initializer())
        ...     _ = sess.run(w.assign(2.0))
        ...     _ = sess.run(update)
        ...     print(ema.average(w).name, round(float(sess.run(ema.average(w))), 6))
        w/ExponentialMovingAverage:0 1.1
    """

    def __init__(self, decay, num_updates=None, zero_debias=False,
                 name="ExponentialMovingAverage") -> None:
        self._decay, self._num_updates, self._name = decay, num_updates, name
        self._averages: dict = {}

    @property
    def name(self) -> str:
        return self._name

    def apply(self, var_list=None):
        """Updates the shadows of `var_list` (default: the trainable variables), creating
        those missing (from the variable's value); returns the operation updating them in
        a graph, None executing eagerly (the update is done). Called again, it updates the
        same shadows.

        Raises:
            TypeError: a variable that is not a float.
        """
        if var_list is None:
            var_list = get_default_graph().get_collection(GraphKeys.TRAINABLE_VARIABLES)
        var_list = list(var_list)
        for var in var_list:
            if not var.dtype.is_floating:
                raise TypeError(f"The variables must be half, float, or double: {var.name}")
        graph = get_default_graph()
        with tf.control_dependencies(None):
            for var in var_list:
                if id(var) in self._averages:
                    continue
                initial = var if executing_eagerly() else var.initial_value
                with absolute_name_scope(graph, var.name.split(":")[0]):
                    shadow = tf.Variable(tf.identity(initial), trainable=False,
                                         name=self._name)
                self._averages[id(var)] = (var, shadow)
                if not executing_eagerly():
                    graph.add_to_collection(GraphKeys.MOVING_AVERAGE_VARIABLES, var)
        # As TF: the decay (and 1 - decay) in float32, cast to each variable's dtype.
        decay = tf.convert_to_tensor(self._decay, dtype=tf.float32)
        if self._num_updates is not None:
            n = tf.cast(self._num_updates, tf.float32)
            decay = tf.minimum(decay, (1.0 + n) / (10.0 + n))
        updates = []
        for var in var_list:
            shadow = self._averages[id(var)][1]
            updates.append(shadow.assign_sub((shadow - var) * tf.cast(1.0 - decay, var.dtype)))
        return None if executing_eagerly() else tf.group(*updates, name=self._name)

    def average(self, var):
        """The shadow of `var`, or None."""
        found = self._averages.get(id(var))
        return None if found is None else found[1]

    def average_name(self, var) -> str:
        """The name of the shadow of `var` in a checkpoint."""
        return f"{var.name.split(':')[0]}/{self._name}"

    def variables_to_restore(self, moving_avg_variables=None) -> dict:
        """{name: variable} restoring each averaged variable from its shadow's name (for a
        `Saver`), and every other variable from its own."""
        graph = get_default_graph()
        averaged = {id(v) for v in (graph.get_collection(GraphKeys.MOVING_AVERAGE_VARIABLES)
                                    if moving_avg_variables is None else moving_avg_variables)}
        shadows = {id(s) for _, s in self._averages.values()}
        names = {}
        for var in graph.get_collection(GraphKeys.GLOBAL_VARIABLES):
            if id(var) in shadows:
                continue
            name = var.name.split(":")[0]
            names[self.average_name(var) if id(var) in averaged else name] = var
        return names
