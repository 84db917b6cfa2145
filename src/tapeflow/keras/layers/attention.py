"""Attention layers: EinsumDense (a dense layer written as an einsum), MultiHeadAttention,
Attention (dot-product or concat scores) and AdditiveAttention. All are built from
tapeflow ops (einsum, softmax, where), so their gradients come from the ops' rules."""
from __future__ import annotations

import re
import string

import numpy as np

from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ...ops import (array_ops, comparison_ops, creation_ops, indexing_ops, math_ops, nn_ops,
                   reduction_ops)
from ...ops.special_math_ops import einsum
from ..masks import get_keras_mask
from .base import Layer
from .core import Dropout, KernelLayer, kernel_options_config, set_kernel_options

__all__ = ["EinsumDense", "MultiHeadAttention", "Attention", "AdditiveAttention"]

# Scores where a mask is False take this value before the softmax (float16: its range).
_LARGE_NEGATIVE = {"float16": -0.7 * 65504.0}
_DEFAULT_LARGE_NEGATIVE = -1e9


def _analyze_equation(equation: str, bias_axes, input_shape: list, output_shape: list):
    """(kernel shape, bias shape or None, full output shape) of EinsumDense's `equation`
    ('ab,bc->ac' or '...b,bc->...c') for inputs of `input_shape`.

    Raises:
        ValueError: an equation of another form, an output axis from neither operand, a
            kernel axis of unknown size, or a bias axis missing from the output.
    """
    plain = re.fullmatch(r"([a-zA-Z]+),([a-zA-Z]+)->([a-zA-Z]+)", equation)
    left = re.fullmatch(r"\.\.\.([a-zA-Z]+),([a-zA-Z]+)->\.\.\.([a-zA-Z]+)", equation)
    match = plain or left
    if match is None:
        raise ValueError(f"EinsumDense: invalid einsum equation {equation!r}; expected "
                         "'ab,bc->ac' or '...b,bc->...c'.")
    input_spec, kernel_spec, output_spec = match.groups()
    elided = len(input_shape) - len(input_spec)
    if plain and elided:
        raise ValueError(f"EinsumDense: equation {equation!r} needs inputs of rank "
                         f"{len(input_spec)}; received input shape {input_shape}.")
    full_output = [input_shape[0], *output_shape]
    if left:
        full_output[1:1] = input_shape[1:elided]
    if len(full_output) != len(output_spec) + (elided if left else 0):
        raise ValueError(f"EinsumDense: output_shape {list(output_shape)} does not fit the "
                         f"output {output_spec!r} of equation {equation!r}.")
    input_dims = {c: input_shape[i - len(input_spec)] for i, c in enumerate(input_spec)}
    for i, c in enumerate(output_spec):       # None sizes of input axes take the input's
        position = len(full_output) - len(output_spec) + i
        if full_output[position] is None and c in input_dims:
            full_output[position] = input_dims[c]
    output_dims = {c: full_output[i - len(output_spec)] for i, c in enumerate(output_spec)}
    for c in output_spec:
        if c not in input_spec and c not in kernel_spec:
            raise ValueError(f"EinsumDense: output axis {c!r} of equation {equation!r} is in "
                             "neither the input nor the kernel.")
    kernel_shape = []
    for c in kernel_spec:
        size = input_dims.get(c, output_dims.get(c))
        if size is None:
            raise ValueError(f"EinsumDense: the size of kernel axis {c!r} of equation "
                             f"{equation!r} is unknown (input shape {input_shape}, "
                             f"output_shape {list(output_shape)}).")
        kernel_shape.append(size)
    bias_shape = None
    if bias_axes:
        missing = [c for c in bias_axes if c not in output_spec]
        if missing:
            raise ValueError(f"EinsumDense: bias axis {missing[0]!r} is not in the output "
                             f"{output_spec!r} of equation {equation!r}.")
        first = min(output_spec.index(c) for c in bias_axes)
        bias_shape = [output_dims[c] if c in bias_axes else 1 for c in output_spec[first:]]
    return kernel_shape, bias_shape, full_output


class EinsumDense(KernelLayer):
    """A dense layer whose product with the kernel is an einsum `equation`:
    `activation(einsum(equation, inputs, kernel) + bias)`.

    The kernel's shape follows from the equation: an axis also in the input takes the
    input's size, one also in the output takes `output_shape`'s.

    Args:
        equation: 'ab,bc->ac' style (input, kernel -> output), or with a leading '...'
            on the input and output for any number of leading axes.
        output_shape: the output's shape without the batch axis (an int for rank 2);
            None entries take the input's size.
        activation: a name, a callable or None.
        bias_axes: output axes (letters) the bias spans, or None for no bias.
        kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer,
        activity_regularizer, kernel_constraint, bias_constraint: as for Dense.
        quantization_config: accepted as None only.

    Raises:
        ValueError: (on build) an equation that does not fit the inputs or output_shape.

    Example:
        >>> import tapeflow as tf
        >>> layer = tf.keras.layers.EinsumDense("abc,cde->abde", output_shape=(None, 2, 4),
        ...                                     bias_axes="de")
        >>> layer(tf.ones([3, 5, 6])).shape
        TensorShape([3, 5, 2, 4])
        >>> [w.shape for w in layer.weights]
        [TensorShape([6, 2, 4]), TensorShape([2, 4])]
    """

    def __init__(self, equation: str, output_shape, activation=None, bias_axes=None,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, quantization_config=None,
                 **kwargs) -> None:
        if quantization_config is not None:
            raise ValueError("EinsumDense: quantization is not supported; received "
                             f"quantization_config={quantization_config!r}.")
        super().__init__(activation, bool(bias_axes), kernel_initializer,
                         bias_initializer, kernel_regularizer, bias_regularizer,
                         activity_regularizer, kernel_constraint, bias_constraint, **kwargs)
        self.equation = equation
        self.partial_output_shape = ([output_shape] if isinstance(output_shape, int)
                                     else list(output_shape))
        self.bias_axes = bias_axes

    def build(self, input_shape) -> None:
        shape = TensorShape(input_shape).as_list()
        kernel_shape, bias_shape, self.full_output_shape = _analyze_equation(
            self.equation, self.bias_axes, shape, self.partial_output_shape)
        self._add_kernel_and_bias(kernel_shape, bias_shape)

    def call(self, inputs):
        return self._finish(einsum(self.equation, inputs, self.kernel))

    def compute_output_shape(self, input_shape) -> tuple:
        """The output's shape for inputs of `input_shape`."""
        return tuple(_analyze_equation(self.equation, self.bias_axes,
                                       TensorShape(input_shape).as_list(),
                                       self.partial_output_shape)[2])

    def get_config(self) -> dict:
        config = {**super().get_config(), "equation": self.equation,
                  "output_shape": self.partial_output_shape, "bias_axes": self.bias_axes}
        del config["use_bias"]
        return config


def _projection_equation(free_dims: int, bound_dims: int, output_dims: int) -> tuple:
    """(equation, bias axes) of a projection keeping `free_dims` input axes, contracting
    `bound_dims` and adding `output_dims`: (2, 1, 2) gives ('abc,cde->abde', 'de')."""
    letters = string.ascii_lowercase
    free = letters[:free_dims]
    bound = letters[free_dims:free_dims + bound_dims]
    out = letters[free_dims + bound_dims:free_dims + bound_dims + output_dims]
    return f"{free}{bound},{bound}{out}->{free}{out}", out


def _attention_equations(rank: int, attention_axes: tuple) -> tuple:
    """(query-key equation, scores-value equation, scores rank) for projected tensors of
    `rank` ([batch..., attention axes..., heads, channels]) attending over `attention_axes`."""
    letters = string.ascii_lowercase
    target = letters[:rank]
    batch_axes = [i for i in range(rank) if i not in attention_axes and i != rank - 1]
    source, offset = "", rank
    for i in range(rank):
        if i in batch_axes or i == rank - 1:
            source += target[i]
        else:
            source += letters[offset]
            offset += 1
    product = ("".join(target[i] for i in batch_axes) + "".join(target[i] for i in attention_axes)
               + "".join(source[i] for i in attention_axes))
    return f"{source},{target}->{product}", f"{product},{source}->{target}", len(product)


def _masked_fill(scores, mask):
    """`scores` where `mask` is true, a large negative number elsewhere."""
    fill = _LARGE_NEGATIVE.get(scores.dtype.name, _DEFAULT_LARGE_NEGATIVE)
    return indexing_ops.where(mask, scores, math_ops.cast(fill, scores.dtype))


def _as_bool(mask):
    mask = convert_to_tensor(mask)
    if mask.dtype.is_bool:
        return mask
    return comparison_ops.greater(mask, math_ops.cast(0.5, mask.dtype))


def _causal_mask(query_length: int, key_length: int):
    """[1, T, S] lower-triangular (diagonal included) boolean mask."""
    if query_length is None or key_length is None:
        raise ValueError("use_causal_mask needs static query and key lengths; received "
                         f"{query_length} and {key_length}.")
    return convert_to_tensor(np.tril(np.ones((1, query_length, key_length), bool)))


def _shape_of(x) -> list:
    shape = x.shape if hasattr(x, "shape") else np.shape(x)
    return TensorShape(shape).as_list()


class MultiHeadAttention(Layer):
    """Multi-head attention ("Attention Is All You Need"): the query, key and value are
    projected to `num_heads` heads (EinsumDense sublayers `query`, `key`, `value`), each
    head computes `softmax(q k^T / sqrt(key_dim)) v`, and `attention_output` projects the
    heads back to the query's last dimension (or `output_shape`).

    Weights, in order: query/kernel [dim, heads, key_dim], query/bias [heads, key_dim],
    the same for key and value (value_dim), attention_output/kernel [heads, value_dim,
    out] and attention_output/bias [out].

    Args:
        num_heads: the number of heads.
        key_dim: the size of each head for query and key.
        value_dim: the size of each head for value (default key_dim).
        dropout: the dropout rate on the attention probabilities (training only).
        use_bias: whether the projections add biases.
        output_shape: the output's last dimensions (default the query's last).
        attention_axes: the axes attention runs over (default all but the batch and the
            last axis).
        kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer,
        activity_regularizer, kernel_constraint, bias_constraint: for the projections.
        seed: the dropout's seed.
        use_gate, sliding_window: accepted as False and None only (Keras's gated and
            windowed attention are not implemented).

    Call arguments:
        query: [B, T, dim]; value: [B, S, dim]; key: [B, S, dim] (default value).
        attention_mask: [B, T, S] boolean (or 0/1) mask, true where attention is allowed.
        return_attention_scores: also return the [B, heads, T, S] probabilities.
        training: whether dropout is applied.
        use_causal_mask: also mask out keys after each query position.
        query_mask, value_mask, key_mask: [B, T] / [B, S] padding masks, combined with
            the attention mask.

    Raises:
        ValueError: an attention mask or an input of a rank that does not fit.

    Example:
        >>> import tapeflow as tf
        >>> mha = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=4)
        >>> x = tf.ones([3, 5, 8])
        >>> out, scores = mha(x, x, return_attention_scores=True)
        >>> out.shape, scores.shape
        (TensorShape([3, 5, 8]), TensorShape([3, 2, 5, 5]))
        >>> [w.shape for w in mha.weights][:2] + [mha.weights[6].shape]
        [TensorShape([8, 2, 4]), TensorShape([2, 4]), TensorShape([2, 4, 8])]
    """

    _CHECKPOINT_NAMES = {"query_dense": "_query_dense", "key_dense": "_key_dense",
                         "value_dense": "_value_dense", "output_dense": "_output_dense"}

    def __init__(self, num_heads: int, key_dim: int, value_dim=None, dropout: float = 0.0,
                 use_bias: bool = True, output_shape=None, attention_axes=None,
                 flash_attention=None, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 seed=None, use_gate: bool = False, sliding_window=None, **kwargs) -> None:
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        if use_gate or sliding_window is not None:
            raise ValueError("MultiHeadAttention: use_gate and sliding_window are not "
                             f"supported; received use_gate={use_gate}, "
                             f"sliding_window={sliding_window}.")
        self.num_heads = int(num_heads)
        self.key_dim = int(key_dim)
        self.value_dim = int(value_dim) if value_dim is not None else self.key_dim
        if self.num_heads <= 0 or self.key_dim <= 0 or self.value_dim <= 0:
            raise ValueError("MultiHeadAttention: num_heads, key_dim and value_dim must be "
                             f"positive; received {num_heads}, {key_dim}, {value_dim}.")
        self.dropout = float(dropout)
        self.use_bias = bool(use_bias)
        if isinstance(output_shape, int):
            output_shape = (output_shape,)
        self.output_shape_arg = None if output_shape is None else tuple(output_shape)
        if isinstance(attention_axes, int):
            attention_axes = (attention_axes,)
        self.attention_axes = None if attention_axes is None else tuple(attention_axes)
        set_kernel_options(self, kernel_initializer, bias_initializer, kernel_regularizer,
                           bias_regularizer, kernel_constraint, bias_constraint)
        self.seed = seed

    def _dense(self, equation: str, bias_axes: str, output_shape: list, name: str):
        return EinsumDense(equation, output_shape=output_shape,
                           bias_axes=bias_axes if self.use_bias else None, name=name,
                           dtype=self.dtype_policy, kernel_initializer=self.kernel_initializer,
                           bias_initializer=self.bias_initializer,
                           kernel_regularizer=self.kernel_regularizer,
                           bias_regularizer=self.bias_regularizer,
                           kernel_constraint=self.kernel_constraint,
                           bias_constraint=self.bias_constraint)

    def build(self, query_shape, value_shape=None, key_shape=None) -> None:
        """Builds the four projections for inputs of these shapes (value and key default
        to the query's)."""
        query_shape = TensorShape(query_shape).as_list()
        value_shape = query_shape if value_shape is None else TensorShape(value_shape).as_list()
        self._build_shapes = {"query_shape": query_shape, "value_shape": value_shape,
                              "key_shape": None if key_shape is None
                              else TensorShape(key_shape).as_list()}
        key_shape = value_shape if key_shape is None else TensorShape(key_shape).as_list()
        rank = len(query_shape)
        axes = tuple(range(1, rank - 1)) if self.attention_axes is None else tuple(
            a % rank for a in self.attention_axes)
        self._attention_axes_resolved = axes
        free = rank - 1
        projections = []
        for name, size, shape in (("query", self.key_dim, query_shape),
                                  ("key", self.key_dim, key_shape),
                                  ("value", self.value_dim, value_shape)):
            equation, bias_axes = _projection_equation(free, 1, 2)
            layer = self._dense(equation, bias_axes, [None] * (free - 1) + [self.num_heads, size],
                                name)
            layer.build(shape)
            projections.append(layer)
        self.query_dense, self.key_dense, self.value_dense = projections
        out = list(self.output_shape_arg or [query_shape[-1]])
        equation, bias_axes = _projection_equation(free, 2, len(out))
        self.output_dense = self._dense(equation, bias_axes, [None] * (free - 1) + out,
                                        "attention_output")
        self.output_dense.build(query_shape[:-1] + [self.num_heads, self.value_dim])
        self._dot_equation, self._combine_equation, scores_rank = _attention_equations(
            rank + 1, axes)
        self._softmax_axes = tuple(range(scores_rank - len(axes), scores_rank))
        self.dropout_layer = Dropout(self.dropout, seed=self.seed, dtype=self.dtype_policy)

    def __call__(self, query, value, key=None, **kwargs):
        if not self.built:
            self.build(_shape_of(query), _shape_of(value),
                       None if key is None else _shape_of(key))
        return super().__call__(query, value, key, **kwargs)

    def get_build_config(self):
        """{'shapes_dict': the query, value and key shapes} once built (as Keras writes
        it), else None."""
        if not self.built:
            return None
        return {"shapes_dict": {name: shape for name, shape in self._build_shapes.items()
                                if shape is not None}}   # Keras leaves out an absent key

    def build_from_config(self, config: dict) -> None:
        """Builds for the shapes of `get_build_config` (or a plain query 'input_shape')."""
        if "shapes_dict" in config:
            self.build(**config["shapes_dict"])
        else:
            self.build(config["input_shape"])

    def _attention_mask(self, query, value, attention_mask, use_causal_mask, query_mask,
                        value_mask, key_mask):
        """The combined boolean [B, T, S] mask, or None when nothing masks."""
        masks = []
        if query_mask is not None:
            masks.append(array_ops.expand_dims(_as_bool(query_mask), -1))
        for padding in (value_mask, key_mask):
            if padding is not None:
                masks.append(array_ops.expand_dims(_as_bool(padding), -2))
        if use_causal_mask:
            masks.append(_causal_mask(query.shape[1], value.shape[1]))
        if attention_mask is not None:
            masks.append(_as_bool(attention_mask))
        if not masks:
            return None
        mask = masks[0]
        for other in masks[1:]:
            mask = comparison_ops.logical_and(mask, other)
        return mask

    def _softmax(self, scores, mask):
        if mask is not None:
            while mask.ndim < scores.ndim:
                mask = array_ops.expand_dims(mask, -len(self._softmax_axes) * 2 - 1)
            scores = _masked_fill(scores, mask)
        if len(self._softmax_axes) == 1:
            return nn_ops.softmax(scores, axis=self._softmax_axes[0])
        return math_ops.exp(scores - reduction_ops.reduce_logsumexp(
            scores, axis=self._softmax_axes, keepdims=True))

    def call(self, query, value, key=None, attention_mask=None,
             return_attention_scores: bool = False, training=None,
             use_causal_mask: bool = False, query_mask=None, value_mask=None, key_mask=None):
        # Padding masks the inputs carry (Embedding(mask_zero=True), Masking), as Keras.
        query_mask = get_keras_mask(query) if query_mask is None else query_mask
        value_mask = get_keras_mask(value) if value_mask is None else value_mask
        if key is not None and key_mask is None:
            key_mask = get_keras_mask(key)
        value = self._convert_input(value)
        key = value if key is None else self._convert_input(key)
        mask = self._attention_mask(query, value, attention_mask, use_causal_mask,
                                    query_mask, value_mask, key_mask)
        q = self.query_dense(query)
        k = self.key_dense(key)
        v = self.value_dense(value)
        q = q * math_ops.cast(1.0 / np.sqrt(self.key_dim), q.dtype)
        scores = self._softmax(einsum(self._dot_equation, k, q), mask)
        dropped = self.dropout_layer(scores, training=training)
        output = self.output_dense(einsum(self._combine_equation, dropped, v))
        if return_attention_scores:
            return output, scores
        return output

    def get_config(self) -> dict:
        return {**super().get_config(), "num_heads": self.num_heads, "key_dim": self.key_dim,
                "value_dim": self.value_dim, "dropout": self.dropout, "use_bias": self.use_bias,
                "output_shape": self.output_shape_arg, "attention_axes": self.attention_axes,
                **kernel_options_config(self), "seed": self.seed, "use_gate": False,
                "sliding_window": None}


class _BaseAttention(Layer):
    """Attention over [query, value] or [query, value, key] lists: scores of query and
    key, a softmax over the value positions, and the weighted sum of values."""

    def __init__(self, dropout: float = 0.0, seed=None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.dropout = float(dropout)
        self.seed = seed
        self.dropout_layer = Dropout(self.dropout, seed=seed, dtype=self.dtype_policy)

    def _check(self, inputs, mask) -> None:
        name = type(self).__name__
        if not isinstance(inputs, (list, tuple)) or not 2 <= len(inputs) <= 3:
            raise ValueError(f"{name} layer must be called on a list of inputs, namely "
                             f"[query, value] or [query, value, key]. Received: {inputs!r}.")
        if mask is not None and (not isinstance(mask, (list, tuple)) or not 2 <= len(mask) <= 3):
            raise ValueError(f"{name} layer mask must be a list, namely [query_mask, "
                             f"value_mask]. Received: mask={mask!r}.")

    def build(self, input_shape) -> None:
        self._check(input_shape, None)

    def _scores(self, query, key):
        raise NotImplementedError

    def call(self, inputs, mask=None, training=None, return_attention_scores: bool = False,
             use_causal_mask: bool = False):
        self._check(inputs, mask)
        query, value = inputs[0], inputs[1]
        key = inputs[2] if len(inputs) > 2 else value
        query_mask, value_mask = (mask[0], mask[1]) if mask else (None, None)
        scores = self._scores(query, key)
        scores_mask = None if value_mask is None else array_ops.expand_dims(
            _as_bool(value_mask), -2)
        if use_causal_mask:
            causal = _causal_mask(scores.shape[-2], scores.shape[-1])
            scores_mask = causal if scores_mask is None else comparison_ops.logical_and(
                scores_mask, causal)
        if scores_mask is not None:
            big = 65504.0 if scores.dtype.name == "float16" else 1e9
            scores = indexing_ops.where(scores_mask, scores,
                                        scores - math_ops.cast(big, scores.dtype))
        weights = nn_ops.softmax(scores, axis=-1)
        output = math_ops.matmul(self.dropout_layer(weights, training=training), value)
        if query_mask is not None:
            keep = array_ops.expand_dims(_as_bool(query_mask), -1)
            output = indexing_ops.where(keep, output, creation_ops.zeros_like(output))
        if return_attention_scores:
            return output, weights
        return output

    def get_config(self) -> dict:
        return {**super().get_config(), "dropout": self.dropout, "seed": self.seed}


class Attention(_BaseAttention):
    """Luong-style attention over `[query, value]` or `[query, value, key]` ([B, T, dim],
    [B, S, dim]): `softmax(scores) @ value`, with scores `query @ key^T` (score_mode
    'dot', times a trainable scalar `scale` when use_scale) or
    `concat_score_weight * sum(tanh(scale * (query_t + key_s)))` (score_mode 'concat').

    Args:
        use_scale: whether to learn the scalar `scale` (initially 1).
        score_mode: 'dot' or 'concat'.
        dropout: the dropout rate on the attention weights (training only).
        seed: the dropout's seed.

    Call arguments:
        inputs: [query, value] or [query, value, key].
        mask: [query_mask, value_mask] ([B, T], [B, S]); masked values get no weight,
            masked query positions give zeros.
        return_attention_scores: also return the [B, T, S] weights.
        use_causal_mask: mask out values after each query position.

    Raises:
        ValueError: inputs or mask not a list of 2 or 3; an unknown score_mode.

    Example:
        >>> import tapeflow as tf
        >>> q = tf.constant([[[1.0, 0.0]]])
        >>> v = tf.constant([[[1.0, 0.0], [0.0, 1.0]]])
        >>> tf.keras.layers.Attention()([q, v]).numpy().round(4)
        array([[[0.7311, 0.2689]]], dtype=float32)
    """

    def __init__(self, use_scale: bool = False, score_mode: str = "dot", dropout: float = 0.0,
                 seed=None, **kwargs) -> None:
        super().__init__(dropout=dropout, seed=seed, **kwargs)
        if score_mode not in ("dot", "concat"):
            raise ValueError("Invalid value for argument score_mode. Expected one of "
                             f"{{'dot', 'concat'}}. Received: score_mode={score_mode}")
        self.use_scale = bool(use_scale)
        self.score_mode = score_mode
        self.scale = self.concat_score_weight = None

    def build(self, input_shape) -> None:
        super().build(input_shape)
        if self.use_scale:
            self.scale = self.add_weight("scale", shape=(), initializer="ones")
        if self.score_mode == "concat":
            self.concat_score_weight = self.add_weight("concat_score_weight", shape=(),
                                                       initializer="ones")

    def _scores(self, query, key):
        if self.score_mode == "dot":
            scores = math_ops.matmul(query, key, transpose_b=True)
            return scores if self.scale is None else scores * self.scale
        total = array_ops.expand_dims(query, -2) + array_ops.expand_dims(key, -3)
        if self.scale is not None:
            total = self.scale * total
        return self.concat_score_weight * math_ops.reduce_sum(math_ops.tanh(total), axis=-1)

    def get_config(self) -> dict:
        return {**super().get_config(), "use_scale": self.use_scale,
                "score_mode": self.score_mode}


class AdditiveAttention(_BaseAttention):
    """Bahdanau-style attention over `[query, value]` or `[query, value, key]`: scores
    `sum(scale * tanh(query_t + key_s), axis=-1)` with a trainable [dim] `scale` (when
    use_scale), then `softmax(scores) @ value`.

    Args:
        use_scale: whether to learn `scale` (glorot-uniform initialized); else 1.
        dropout: the dropout rate on the attention weights (training only).
        seed: the dropout's seed.

    Call arguments: as for Attention.

    Raises:
        ValueError: inputs or mask not a list of 2 or 3.

    Example:
        >>> import tapeflow as tf
        >>> q = tf.constant([[[1.0, 0.0]]])
        >>> v = tf.constant([[[1.0, 0.0], [0.0, 1.0]]])
        >>> tf.keras.layers.AdditiveAttention(use_scale=False)([q, v]).numpy().round(4)
        array([[[0.3637, 0.6363]]], dtype=float32)
    """

    def __init__(self, use_scale: bool = True, dropout: float = 0.0, seed=None,
                 **kwargs) -> None:
        super().__init__(dropout=dropout, seed=seed, **kwargs)
        self.use_scale = bool(use_scale)
        self.scale = None

    def build(self, input_shape) -> None:
        super().build(input_shape)
        if self.use_scale:
            self.scale = self.add_weight("scale", shape=[TensorShape(input_shape[0])[-1]],
                                         initializer="glorot_uniform")

    def _scores(self, query, key):
        terms = math_ops.tanh(array_ops.expand_dims(query, -2) + array_ops.expand_dims(key, -3))
        if self.scale is not None:
            terms = self.scale * terms
        return math_ops.reduce_sum(terms, axis=-1)

    def get_config(self) -> dict:
        return {**super().get_config(), "use_scale": self.use_scale}
