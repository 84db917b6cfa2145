"""Recurrent layers: the SimpleRNN, LSTM and GRU cells, RNN (a cell run over the time
axis), the SimpleRNN, LSTM and GRU layers, StackedRNNCells, Bidirectional and
TimeDistributed.

Weights follow Keras's layout: `kernel` [input, units * gates], `recurrent_kernel`
[units, units * gates] and `bias`, gates in the order i, f, c, o (LSTM) and z, r, h (GRU,
whose `reset_after` bias is [2, 3 * units]: input bias, recurrent bias), so weights copied
from Keras give Keras's numbers. The built-in cells compute every gate with one matmul per
step, and the RNN layer projects the inputs of all time steps with one matmul before the
loop. Eagerly (and with `unroll=True`) the time loop is a Python loop over the time steps;
while a `tf.function` is traced it is one `while_loop` reading the steps from a
TensorArray and writing the outputs to another, so the graph does not grow with the number
of steps, which may be unknown.
"""
from __future__ import annotations

from ... import nn as tf_nn
from ...eager.control_flow import while_loop
from ...framework.context import executing_eagerly
from ...ops import array_ops, creation_ops, math_ops, nn_ops
from ...ops.tensor_array_ops import TensorArray
from .. import activations, initializers, regularizers
from .base import InputSpec, Layer, serialize_constraint

__all__ = ["SimpleRNNCell", "LSTMCell", "GRUCell", "StackedRNNCells", "RNN", "SimpleRNN",
           "LSTM", "GRU", "Bidirectional", "TimeDistributed"]


def _state_sizes(cell) -> list:
    size = cell.state_size
    return list(size) if isinstance(size, (list, tuple)) else [size]


class _GatedCell(Layer):
    """What the built-in cells share: the weights (kernel, recurrent_kernel, bias with
    `gates` blocks of `units`), the options and the dropout masks, drawn once per
    sequence and reused at every step."""

    gates = 1

    def __init__(self, units: int, activation="tanh", use_bias: bool = True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", kernel_regularizer=None,
                 recurrent_regularizer=None, bias_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, dropout: float = 0.0,
                 recurrent_dropout: float = 0.0, seed=None, **kwargs) -> None:
        super().__init__(**kwargs)
        units = int(units)
        if units <= 0:
            raise ValueError("Received an invalid value for argument `units`, expected a "
                             f"positive integer, got {units}.")
        self.units = units
        self.activation = activations.get(activation)
        self.use_bias = bool(use_bias)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.recurrent_regularizer = regularizers.get(recurrent_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = kernel_constraint
        self.recurrent_constraint = recurrent_constraint
        self.bias_constraint = bias_constraint
        self.dropout = min(1.0, max(0.0, float(dropout)))
        self.recurrent_dropout = min(1.0, max(0.0, float(recurrent_dropout)))
        self.seed = seed
        self._masks: dict = {}

    _TF_MODULE_IGNORED_PROPERTIES = Layer._TF_MODULE_IGNORED_PROPERTIES | frozenset(("_masks",))

    def __call__(self, inputs, states=None, **kwargs):
        return super().__call__(inputs, states, **kwargs)

    @property
    def state_size(self):
        return self.units

    @property
    def output_size(self) -> int:
        return self.units

    def _bias_shape(self) -> list:
        return [self.gates * self.units]

    def _bias_initializer(self):
        return self.bias_initializer

    def build(self, input_shape) -> None:
        width = self.gates * self.units
        self.kernel = self.add_weight("kernel", shape=[input_shape[-1], width],
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight(
            "recurrent_kernel", shape=[self.units, width],
            initializer=self.recurrent_initializer, regularizer=self.recurrent_regularizer,
            constraint=self.recurrent_constraint)
        self.bias = self.add_weight("bias", shape=self._bias_shape(),
                                    initializer=self._bias_initializer(),
                                    regularizer=self.bias_regularizer,
                                    constraint=self.bias_constraint) if self.use_bias else None

    def reset_dropout_mask(self) -> None:
        """Forgets the dropout masks: the next sequence draws new ones."""
        self._masks = {}

    def _mask(self, kind: str, like, rate: float):
        """This sequence's dropout mask of `kind` shaped like `like` (drawn on first use)."""
        mask = self._masks.get(kind)
        if mask is None:
            mask = tf_nn.dropout(creation_ops.ones_like(like), rate, seed=self.seed)
            self._masks[kind] = mask
        return mask

    def get_recurrent_dropout_mask(self, state):
        """This sequence's dropout mask for the previous state (drawn on first use, so
        an RNN draws it before its loop and every step reuses it)."""
        return self._mask("recurrent", state, self.recurrent_dropout)

    def _dropped(self, kind: str, x, rate: float, training: bool):
        """`x` times this sequence's dropout mask of `kind` in training."""
        if not training or rate == 0:
            return x
        return x * self._mask(kind, x, rate)

    def _input_bias(self):
        return self.bias

    def project(self, inputs, training: bool = False):
        """The input part of every gate, `dropout(inputs) @ kernel + input bias`, for
        inputs of any rank (all time steps at once)."""
        inputs = self._dropped("input", inputs, self.dropout, training)
        z = math_ops.matmul(inputs, self.kernel)
        bias = self._input_bias()
        return z if bias is None else z + bias

    def call(self, inputs, states, training=False):
        return self.step(self.project(inputs, training), states, training)

    def get_config(self) -> dict:
        return {**super().get_config(), "units": self.units,
                "activation": activations.serialize(self.activation),
                "use_bias": self.use_bias,
                "kernel_initializer": initializers.serialize(self.kernel_initializer),
                "recurrent_initializer": initializers.serialize(self.recurrent_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer),
                "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
                "recurrent_regularizer": regularizers.serialize(self.recurrent_regularizer),
                "bias_regularizer": regularizers.serialize(self.bias_regularizer),
                "kernel_constraint": serialize_constraint(self.kernel_constraint),
                "recurrent_constraint": serialize_constraint(self.recurrent_constraint),
                "bias_constraint": serialize_constraint(self.bias_constraint),
                "dropout": self.dropout, "recurrent_dropout": self.recurrent_dropout,
                "seed": self.seed}


class SimpleRNNCell(_GatedCell):
    """One step of a fully connected RNN: `h = activation(x @ kernel + h_prev @
    recurrent_kernel + bias)`.

    Args:
        units: the state size.
        activation: default tanh.
        use_bias, kernel_initializer, recurrent_initializer, bias_initializer, the
            regularizers and constraints: as Keras's (defaults glorot_uniform, orthogonal,
            zeros).
        dropout, recurrent_dropout: the rates dropped from the inputs and the previous
            state in training (one mask per sequence).

    Example:
        >>> import tapeflow as tf
        >>> cell = tf.keras.layers.SimpleRNNCell(3)
        >>> out, states = cell(tf.ones([2, 4]), [tf.zeros([2, 3])])
        >>> out.shape, len(states)
        (TensorShape([2, 3]), 1)
    """

    def step(self, projected, states, training=False):
        """The cell's step from the projected inputs (`project`) and the states."""
        prev = states[0] if isinstance(states, (list, tuple)) else states
        prev = self._dropped("recurrent", prev, self.recurrent_dropout, training)
        output = self.activation(projected + math_ops.matmul(prev, self.recurrent_kernel))
        return output, [output]


class _SigmoidGatedCell(_GatedCell):
    """A cell with gates (LSTM, GRU): their `recurrent_activation` (default sigmoid)."""

    def __init__(self, units: int, activation="tanh", recurrent_activation="sigmoid",
                 use_bias: bool = True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 **kwargs) -> None:
        kwargs.pop("implementation", None)
        super().__init__(units, activation, use_bias, kernel_initializer,
                         recurrent_initializer, bias_initializer, **kwargs)
        self.recurrent_activation = activations.get(recurrent_activation)

    def get_config(self) -> dict:
        return {**super().get_config(),
                "recurrent_activation": activations.serialize(self.recurrent_activation)}


class LSTMCell(_SigmoidGatedCell):
    """One step of a long short-term memory: gates i, f, c, o from one matmul of the inputs
    and one of the previous output; `c = f * c_prev + i * activation(c~)`,
    `h = o * activation(c)`. The states are [h, c].

    Args:
        units: the state size.
        activation: default tanh. recurrent_activation: the gates', default sigmoid.
        unit_forget_bias: start the forget gate's bias at 1 (default True).
        Other arguments: as SimpleRNNCell.

    Example:
        >>> import tapeflow as tf
        >>> cell = tf.keras.layers.LSTMCell(2)
        >>> out, (h, c) = cell(tf.ones([1, 3]), [tf.zeros([1, 2]), tf.zeros([1, 2])])
        >>> [w.shape for w in cell.weights]
        [TensorShape([3, 8]), TensorShape([2, 8]), TensorShape([8])]
    """

    gates = 4

    def __init__(self, units: int, activation="tanh", recurrent_activation="sigmoid",
                 use_bias: bool = True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias: bool = True, **kwargs) -> None:
        super().__init__(units, activation, recurrent_activation, use_bias,
                         kernel_initializer, recurrent_initializer, bias_initializer, **kwargs)
        self.unit_forget_bias = bool(unit_forget_bias)

    @property
    def state_size(self):
        return [self.units, self.units]

    def _bias_initializer(self):
        if not self.unit_forget_bias:
            return self.bias_initializer
        units, inner = self.units, self.bias_initializer

        def initializer(shape, dtype=None):
            return array_ops.concat([inner([units], dtype=dtype),
                                     creation_ops.ones([units], dtype=dtype),
                                     inner([2 * units], dtype=dtype)], 0)
        return initializer

    def step(self, projected, states, training=False):
        h_prev, c_prev = states[0], states[1]
        h_prev = self._dropped("recurrent", h_prev, self.recurrent_dropout, training)
        if self.activation is activations.tanh and \
                self.recurrent_activation is activations.sigmoid:
            # Keras's default activations: the whole step in one op.
            h, c, _ = nn_ops.lstm_gates(projected, h_prev, self.recurrent_kernel, c_prev)
            return h, [h, c]
        z = projected + math_ops.matmul(h_prev, self.recurrent_kernel)
        i, f, c, o = array_ops.split(z, 4, axis=-1)
        gate = self.recurrent_activation
        c = gate(f) * c_prev + gate(i) * self.activation(c)
        h = gate(o) * self.activation(c)
        return h, [h, c]

    def get_config(self) -> dict:
        return {**super().get_config(), "unit_forget_bias": self.unit_forget_bias}


class GRUCell(_SigmoidGatedCell):
    """One step of a gated recurrent unit: update z, reset r and candidate h~ gates;
    `h = z * h_prev + (1 - z) * h~`. With `reset_after` (Keras's default) the reset gate
    multiplies the recurrent projection, and the bias is [2, 3 * units] (input, recurrent).

    Args:
        units: the state size.
        recurrent_activation: default sigmoid. reset_after: default True.
        Other arguments: as SimpleRNNCell.

    Example:
        >>> import tapeflow as tf
        >>> cell = tf.keras.layers.GRUCell(2)
        >>> out, (h,) = cell(tf.ones([1, 3]), [tf.zeros([1, 2])])
        >>> [w.shape for w in cell.weights]
        [TensorShape([3, 6]), TensorShape([2, 6]), TensorShape([2, 6])]
    """

    gates = 3

    def __init__(self, units: int, activation="tanh", recurrent_activation="sigmoid",
                 use_bias: bool = True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 reset_after: bool = True, **kwargs) -> None:
        super().__init__(units, activation, recurrent_activation, use_bias,
                         kernel_initializer, recurrent_initializer, bias_initializer, **kwargs)
        self.reset_after = bool(reset_after)

    def _bias_shape(self) -> list:
        return [2, 3 * self.units] if self.reset_after else [3 * self.units]

    def _input_bias(self):
        if self.bias is None or not self.reset_after:
            return self.bias
        return self.bias[0]

    def step(self, projected, states, training=False):
        h_prev = states[0] if isinstance(states, (list, tuple)) else states
        dropped = self._dropped("recurrent", h_prev, self.recurrent_dropout, training)
        x_z, x_r, x_h = array_ops.split(projected, 3, axis=-1)
        gate, units = self.recurrent_activation, self.units
        if self.reset_after:
            r_proj = math_ops.matmul(dropped, self.recurrent_kernel)
            if self.bias is not None:
                r_proj = r_proj + self.bias[1]
            r_z, r_r, r_h = array_ops.split(r_proj, 3, axis=-1)
            z, r = gate(x_z + r_z), gate(x_r + r_r)
            candidate = self.activation(x_h + r * r_h)
        else:
            r_zr = math_ops.matmul(dropped, self.recurrent_kernel[:, :2 * units])
            r_z, r_r = array_ops.split(r_zr, 2, axis=-1)
            z, r = gate(x_z + r_z), gate(x_r + r_r)
            candidate = self.activation(
                x_h + math_ops.matmul(r * dropped, self.recurrent_kernel[:, 2 * units:]))
        h = z * h_prev + (1 - z) * candidate
        return h, [h]

    def get_config(self) -> dict:
        return {**super().get_config(), "reset_after": self.reset_after}


class StackedRNNCells(Layer):
    """Cells run one after the other at each step: a cell's output is the next one's
    input. The states are the cells' states, concatenated in order.

    Example:
        >>> import tapeflow as tf
        >>> cells = [tf.keras.layers.LSTMCell(4), tf.keras.layers.GRUCell(3)]
        >>> tf.keras.layers.RNN(cells)(tf.ones([2, 5, 6])).shape
        TensorShape([2, 3])
    """

    def __init__(self, cells, **kwargs) -> None:
        super().__init__(**kwargs)
        self.cells = list(cells)

    @property
    def state_size(self) -> list:
        return [size for cell in self.cells for size in _state_sizes(cell)]

    @property
    def output_size(self) -> int:
        last = self.cells[-1]
        return getattr(last, "output_size", _state_sizes(last)[0])

    def build(self, input_shape) -> None:
        width = input_shape[-1]
        for cell in self.cells:
            if not cell.built:
                cell._weight_prefix = f"{self._weight_prefix}{self.name}/"
                cell.build_from_config({"input_shape": [None, width]})
            width = getattr(cell, "output_size", _state_sizes(cell)[0])

    def reset_dropout_mask(self) -> None:
        for cell in self.cells:
            if hasattr(cell, "reset_dropout_mask"):
                cell.reset_dropout_mask()

    def call(self, inputs, states, training=False):
        new_states, start = [], 0
        for cell in self.cells:
            count = len(_state_sizes(cell))
            inputs, cell_states = cell(inputs, list(states[start:start + count]),
                                       training=training)
            new_states.extend(cell_states if isinstance(cell_states, (list, tuple))
                              else [cell_states])
            start += count
        return inputs, new_states

    def __call__(self, inputs, states=None, **kwargs):
        return super().__call__(inputs, states, **kwargs)


def _zeros_like_rows(x, size: int):
    """Zeros shaped like `x` with its last axis `size` (works for unknown dimensions)."""
    return creation_ops.zeros_like(x[..., :1]) + creation_ops.zeros([size], dtype=x.dtype)


def _blend(mask, new, old):
    """`new` where the float mask [batch, 1] is 1, `old` where it is 0."""
    return mask * new + (1 - mask) * old


class RNN(Layer):
    """Runs a cell over the time axis of inputs [batch, time, features].

    A cell is a layer with `state_size` (an int or a list) whose `call(inputs, states)`
    returns `(output, new_states)`; a list of cells becomes a StackedRNNCells.

    Args:
        cell: the cell, or a list of cells.
        return_sequences: return the output of every step [batch, time, units] instead of
            the last one.
        return_state: also return the final states (`[output, *states]`).
        go_backwards: run over the time steps in reverse (the sequence of outputs is then
            in the reversed order).
        stateful: keep the final states of a batch as the next batch's initial states
            (until `reset_states`); needs a fixed batch size.
        unroll: run the steps as a Python loop under `tf.function` too (one copy of the
            cell per step in the graph; the number of steps must be known).
        zero_output_for_mask: masked steps output zeros instead of the previous output.

    Call arguments: `inputs`, `initial_state` (a list of tensors), `mask` ([batch, time]
    booleans; a masked step keeps the previous states and output), `training`.

    Example:
        >>> import tapeflow as tf
        >>> layer = tf.keras.layers.RNN(tf.keras.layers.SimpleRNNCell(4),
        ...                             return_sequences=True, return_state=True)
        >>> seq, state = layer(tf.ones([2, 5, 3]))
        >>> seq.shape, state.shape
        (TensorShape([2, 5, 4]), TensorShape([2, 4]))
    """

    supports_masking = True

    _TF_MODULE_IGNORED_PROPERTIES = Layer._TF_MODULE_IGNORED_PROPERTIES | frozenset((
        "_states", "zero_output_for_mask"))

    def __init__(self, cell, return_sequences: bool = False, return_state: bool = False,
                 go_backwards: bool = False, stateful: bool = False, unroll: bool = False,
                 zero_output_for_mask: bool = False, **kwargs) -> None:
        if isinstance(cell, (list, tuple)):
            cell = StackedRNNCells(cell)
        if not hasattr(cell, "state_size") or not callable(cell):
            raise ValueError("Argument `cell` should have a `call` method and a "
                             f"`state_size` attribute. Received: cell={cell}")
        super().__init__(**kwargs)
        self.cell = cell
        self.return_sequences = bool(return_sequences)
        self.return_state = bool(return_state)
        self.go_backwards = bool(go_backwards)
        self.stateful = bool(stateful)
        self.unroll = bool(unroll)
        self.zero_output_for_mask = bool(zero_output_for_mask)
        self._states = None
        self.input_spec = InputSpec(min_ndim=3)

    @property
    def states(self):
        """A stateful layer's current states (Variables), else None."""
        return self._states

    def build(self, input_shape) -> None:
        if isinstance(input_shape, list):
            input_shape = input_shape[0]
        if isinstance(self.cell, Layer) and not self.cell.built:
            self.cell._weight_prefix = f"{self._weight_prefix}{self.name}/"
            self.cell.build_from_config({"input_shape": [None, input_shape[-1]]})

    def compute_mask(self, inputs, mask=None):
        if not self.return_sequences or mask is None:
            return None if not self.return_state else [None] * (
                1 + len(_state_sizes(self.cell)))
        return mask if not self.return_state else [mask] + [None] * len(
            _state_sizes(self.cell))

    def _zero_states(self, inputs) -> list:
        getter = getattr(self.cell, "get_initial_state", None)
        if getter is not None:
            batch = inputs.shape.as_list()[0]
            states = getter(batch_size=array_ops.shape(inputs)[0] if batch is None else batch)
            return list(states) if isinstance(states, (list, tuple)) else [states]
        return [_zeros_like_rows(inputs[:, 0], size) for size in _state_sizes(self.cell)]

    def _initial_states(self, inputs, initial_state) -> list:
        if initial_state is not None:
            states = list(initial_state) if isinstance(initial_state, (list, tuple)) \
                else [initial_state]
            return [math_ops.cast(s, self._dtype) for s in states]
        static = inputs.shape.as_list()[0]
        if self.stateful:
            if static is None:
                raise ValueError(f"Layer {self.name}: a stateful RNN needs a fixed batch "
                                 "size (pass batch_size to keras.Input).")
            if self._states is None:
                self._create_states(static)
            return [math_ops.cast(s, self._dtype) + 0 for s in self._states]
        return self._zero_states(inputs)

    def _create_states(self, batch: int) -> None:
        from ...framework.variables import Variable
        self._states = [Variable(creation_ops.zeros([batch, size], dtype=self._dtype),
                                 trainable=False, name=f"{self.name}/state_{i}")
                        for i, size in enumerate(_state_sizes(self.cell))]

    def reset_states(self, states=None) -> None:
        """Sets a stateful layer's states to zeros, or to `states` (arrays).

        Raises:
            AttributeError: the layer is not stateful.
        """
        if not self.stateful:
            raise AttributeError("Layer must be stateful.")
        if self._states is None:
            return
        if states is None:
            for s in self._states:
                s.assign(creation_ops.zeros_like(s))
            return
        for s, value in zip(self._states, states if isinstance(states, (list, tuple))
                            else [states]):
            s.assign(value)

    def reset_state(self) -> None:
        """Sets a stateful layer's states to zeros (Keras 3's name for reset_states())."""
        self.reset_states()

    def _step_fn(self, training):
        """step(x_t, states, mask_t or None, previous) -> (output, new states); masked
        rows keep the states and output `previous` (zeros when None)."""
        fused = hasattr(self.cell, "project") and hasattr(self.cell, "step")

        def step(x, states, keep, previous):
            if fused:
                out, new = self.cell.step(x, states, training)
            else:
                out, new = self.cell(x, states, training=training)
            new = list(new) if isinstance(new, (list, tuple)) else [new]
            if keep is not None:
                new = [_blend(keep, n, s) for n, s in zip(new, states)]
                out = _blend(keep, out, creation_ops.zeros_like(out) if previous is None
                             else previous)
            return out, new
        return step, fused

    def _run(self, inputs, states, mask, training):
        """The time loop: (last output, outputs of every step [batch, time, units] or None,
        final states)."""
        if hasattr(self.cell, "reset_dropout_mask"):
            self.cell.reset_dropout_mask()
        step, fused = self._step_fn(training)
        if fused:
            inputs = self.cell.project(inputs, training)
            if training and getattr(self.cell, "recurrent_dropout", 0):
                self.cell.get_recurrent_dropout_mask(states[0])
        keep = None
        if mask is not None:
            keep = math_ops.cast(array_ops.expand_dims(mask, -1), inputs.dtype)
        if self.unroll or executing_eagerly():
            return self._python_loop(step, inputs, states, keep)
        return self._graph_loop(step, inputs, states, keep)

    def _python_loop(self, step, inputs, states, keep):
        xs = array_ops.unstack(inputs, axis=1)
        keeps = [None] * len(xs) if keep is None else array_ops.unstack(keep, axis=1)
        order = range(len(xs))[::-1] if self.go_backwards else range(len(xs))
        outputs, output = [], None
        for t in order:
            previous = None if self.zero_output_for_mask else output
            output, states = step(xs[t], states, keeps[t], previous)
            outputs.append(output)
        sequence = array_ops.stack(outputs, axis=1) if self.return_sequences else None
        return output, sequence, states

    def _graph_loop(self, step, inputs, states, keep):
        """One while_loop over the time steps, read from a TensorArray of the time-major
        inputs; every step's output goes to another TensorArray. The first step is also
        traced outside the loop, for the output's shape and so that the dropout masks a
        cell draws on first use are drawn once per call, outside the loop."""
        def time_major(x):
            x = array_ops.transpose(x, [1, 0] + list(range(2, x.shape.rank)))
            return array_ops.reverse(x, [0]) if self.go_backwards else x

        xs = TensorArray(inputs.dtype, size=array_ops.shape(inputs)[1]).unstack(
            time_major(inputs))
        keeps = None if keep is None else TensorArray(keep.dtype, size=xs.size()).unstack(
            time_major(keep))
        first, _ = step(xs.read(0), states, None, None)
        steps = xs.size()
        zero_output = self.zero_output_for_mask

        def body(t, output, states, *outputs):  # outputs: [every step's TensorArray] or []
            output, states = step(xs.read(t), states, None if keeps is None else
                                  keeps.read(t), None if zero_output else output)
            return (t + 1, output, states, *[ta.write(t, output) for ta in outputs])

        zero = creation_ops.zeros(first.shape, first.dtype) if first.shape.is_fully_defined() \
            else creation_ops.zeros_like(first)
        loop_vars = [0, zero, list(states)]
        if self.return_sequences:
            loop_vars.append(TensorArray(first.dtype, size=steps, element_shape=first.shape))
        _, output, states, *outputs = while_loop(lambda t, *_: t < steps, body, loop_vars)
        if not outputs:
            return output, None, states
        stacked = outputs[0].stack()
        return output, array_ops.transpose(stacked, [1, 0] + list(range(2, stacked.shape.rank))), \
            states

    def call(self, inputs, initial_state=None, mask=None, training=False):
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        if inputs.shape[1] is None and self.unroll:
            raise ValueError(f"Layer {self.name}: cannot unroll a RNN if the time dimension "
                             f"is undefined (inputs of shape {inputs.shape}).")
        states = self._initial_states(inputs, initial_state)
        last, sequence, states = self._run(inputs, states, mask, training)
        if self.stateful:
            for variable, value in zip(self._states, states):
                variable.assign(value)
        output = sequence if self.return_sequences else last
        if self.return_state:
            return [output, *states]
        return output

    def get_config(self) -> dict:
        from ..saving.serialization import serialize_keras_object
        return {**super().get_config(), "cell": serialize_keras_object(self.cell),
                "return_sequences": self.return_sequences, "return_state": self.return_state,
                "go_backwards": self.go_backwards, "stateful": self.stateful,
                "unroll": self.unroll, "zero_output_for_mask": self.zero_output_for_mask}

    @classmethod
    def from_config(cls, config: dict, custom_objects=None) -> "RNN":
        from ..saving.serialization import deserialize_keras_object
        config = dict(config)
        config["cell"] = deserialize_keras_object(config["cell"], custom_objects)
        return cls(**config)


_RNN_OPTIONS = ("return_sequences", "return_state", "go_backwards", "stateful", "unroll",
                "zero_output_for_mask", "name", "trainable", "dtype", "input_shape",
                "batch_input_shape", "batch_size", "input_dim", "activity_regularizer")


class _CellLayer(RNN):
    """An RNN whose cell it builds from its own arguments (SimpleRNN, LSTM, GRU); the
    cell's options read through as attributes."""

    cell_class: type = Layer

    def __init__(self, units: int, **kwargs) -> None:
        kwargs.pop("use_cudnn", None)   # Keras's switch for a GPU kernel: nothing to switch
        layer_options = {k: kwargs.pop(k) for k in list(kwargs) if k in _RNN_OPTIONS}
        activity = layer_options.pop("activity_regularizer", None)
        cell_name = _snake(self.cell_class.__name__)
        cell = self.cell_class(units, name=cell_name, dtype=layer_options.get("dtype"),
                               **kwargs)
        super().__init__(cell, activity_regularizer=activity, **layer_options)

    def __getattr__(self, name: str):
        if name.startswith("_") or name == "cell":
            raise AttributeError(name)
        return getattr(self.cell, name)

    def get_config(self) -> dict:
        config = {**super().get_config(), **self.cell.get_config()}
        config.pop("cell")
        config["name"] = self.name
        config["activity_regularizer"] = regularizers.serialize(self.activity_regularizer)
        return config

    @classmethod
    def from_config(cls, config: dict, custom_objects=None) -> "RNN":
        return cls(**config)


def _snake(name: str) -> str:
    from ..naming import snake_case
    return snake_case(name).replace("simple_rnncell", "simple_rnn_cell")


class SimpleRNN(_CellLayer):
    """A fully connected RNN layer (SimpleRNNCell run over time; see RNN for the layer
    options and SimpleRNNCell for the cell's).

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.SimpleRNN(4)(tf.ones([2, 3, 5])).shape
        TensorShape([2, 4])
    """

    cell_class = SimpleRNNCell


class LSTM(_CellLayer):
    """A long short-term memory layer (LSTMCell run over time; see RNN for the layer
    options and LSTMCell for the cell's). With `return_state` it returns
    `[output, h, c]`.

    Example:
        >>> import tapeflow as tf
        >>> out, h, c = tf.keras.layers.LSTM(4, return_state=True)(tf.ones([2, 3, 5]))
        >>> out.shape, c.shape
        (TensorShape([2, 4]), TensorShape([2, 4]))
    """

    cell_class = LSTMCell


class GRU(_CellLayer):
    """A gated recurrent unit layer (GRUCell run over time; see RNN for the layer
    options and GRUCell for the cell's).

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.GRU(4, return_sequences=True)(tf.ones([2, 3, 5])).shape
        TensorShape([2, 3, 4])
    """

    cell_class = GRUCell


class Bidirectional(Layer):
    """Runs a recurrent layer forwards and a copy of it backwards, and merges the two.

    Args:
        layer: the forward RNN layer.
        merge_mode: 'concat' (default), 'sum', 'mul', 'ave', or None (a list of both).
        backward_layer: the backward layer (default a copy of `layer` with `go_backwards`
            flipped, named 'backward_' + its name).

    The forward layer is a new layer from `layer`'s config named 'forward_' + its name, so
    the weights are named as Keras's ('bidirectional/forward_lstm/lstm_cell/kernel').

    With `return_sequences`, the backward outputs are put back in time order before the
    merge. With `return_state`, the result is `[merged, *forward_states,
    *backward_states]`.

    Raises:
        ValueError: an unknown merge_mode.

    Example:
        >>> import tapeflow as tf
        >>> layer = tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(3))
        >>> layer(tf.ones([2, 4, 5])).shape
        TensorShape([2, 6])
    """

    supports_masking = True

    _MODES = ("sum", "mul", "ave", "concat", None)

    def __init__(self, layer, merge_mode="concat", weights=None, backward_layer=None,
                 **kwargs) -> None:
        if merge_mode not in self._MODES:
            raise ValueError(f"Invalid merge mode. Received: {merge_mode}. Merge mode should "
                             "be one of {'sum', 'mul', 'ave', 'concat', None}")
        super().__init__(**kwargs)
        self.forward_layer = _renamed(layer, "forward_")
        if backward_layer is None:
            backward_layer = _renamed(layer, "backward_", go_backwards=not layer.go_backwards)
        self.backward_layer = backward_layer
        self.merge_mode = merge_mode
        self.return_sequences = layer.return_sequences
        self.return_state = layer.return_state
        if self.return_sequences:
            self.forward_layer.zero_output_for_mask = backward_layer.zero_output_for_mask = True
        self._initial_weights = weights

    def build(self, input_shape) -> None:
        for layer in (self.forward_layer, self.backward_layer):
            if not layer.built:
                layer._weight_prefix = f"{self._weight_prefix}{self.name}/"

    def call(self, inputs, initial_state=None, mask=None, training=False):
        forward_state = backward_state = None
        if initial_state is not None:
            half = len(initial_state) // 2
            forward_state, backward_state = initial_state[:half], initial_state[half:]
        forward = self.forward_layer(inputs, initial_state=forward_state, mask=mask,
                                     training=training)
        backward = self.backward_layer(inputs, initial_state=backward_state, mask=mask,
                                       training=training)
        states = []
        if self.return_state:
            states = list(forward[1:]) + list(backward[1:])
            forward, backward = forward[0], backward[0]
        if self.return_sequences:
            backward = array_ops.reverse(backward, [1])
        if self.merge_mode == "concat":
            output = array_ops.concat([forward, backward], -1)
        elif self.merge_mode == "sum":
            output = forward + backward
        elif self.merge_mode == "ave":
            output = (forward + backward) / 2
        elif self.merge_mode == "mul":
            output = forward * backward
        else:
            output = [forward, backward]
        if self.return_state:
            return (output if isinstance(output, list) else [output]) + states
        return output

    def compute_mask(self, inputs, mask=None):
        if not self.return_sequences or self.return_state or self.merge_mode is None:
            return None
        return mask

    def get_config(self) -> dict:
        from ..saving.serialization import serialize_keras_object
        return {**super().get_config(), "layer": serialize_keras_object(self.forward_layer),
                "backward_layer": serialize_keras_object(self.backward_layer),
                "merge_mode": self.merge_mode}

    @classmethod
    def from_config(cls, config: dict, custom_objects=None) -> "Bidirectional":
        from ..saving.serialization import deserialize_keras_object
        config = dict(config)
        config["layer"] = deserialize_keras_object(config["layer"], custom_objects)
        if config.get("backward_layer") is not None:
            config["backward_layer"] = deserialize_keras_object(config["backward_layer"],
                                                                custom_objects)
        return cls(**config)


def _renamed(layer, prefix: str, **changes):
    """A new layer from `layer`'s config named `prefix` + its name (without that prefix
    already), as Bidirectional names its two directions."""
    config = {**layer.get_config(), **changes}
    name = layer.name
    config["name"] = prefix + (name[len(prefix):] if name.startswith(prefix) else name)
    return type(layer).from_config(config)


class TimeDistributed(Layer):
    """Applies a layer to every time step (axis 1) of its input, by folding time into
    the batch.

    Example:
        >>> import tapeflow as tf
        >>> layer = tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(2))
        >>> layer(tf.ones([4, 3, 5])).shape
        TensorShape([4, 3, 2])
    """

    supports_masking = True

    def __init__(self, layer, **kwargs) -> None:
        super().__init__(**kwargs)
        self.layer = layer

    def build(self, input_shape) -> None:
        pass

    def call(self, inputs, training=False):
        static = inputs.shape.as_list()
        shape = array_ops.shape(inputs)
        inner = static[2:] if None not in static[2:] else shape[2:]
        folded = array_ops.reshape(inputs, array_ops.concat([[-1], inner], 0))
        outputs = self.layer(folded, training=training)
        outer = static[:2] if None not in static[:2] else shape[:2]
        return array_ops.reshape(outputs,
                                 array_ops.concat([outer, outputs.shape.as_list()[1:]], 0))

    def get_config(self) -> dict:
        from ..saving.serialization import serialize_keras_object
        return {**super().get_config(), "layer": serialize_keras_object(self.layer)}

    @classmethod
    def from_config(cls, config: dict, custom_objects=None) -> "TimeDistributed":
        from ..saving.serialization import deserialize_keras_object
        config = dict(config)
        config["layer"] = deserialize_keras_object(config["layer"], custom_objects)
        return cls(**config)
