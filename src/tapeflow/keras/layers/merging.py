"""Merge layers: combine a list of tensors (Add, Subtract, Multiply, Average, Maximum,
Minimum elementwise; Concatenate along an axis), and their functional forms."""
from __future__ import annotations

import functools

from ...framework.tensor_shape import TensorShape
from ...ops import (array_ops, comparison_ops, creation_ops, math_ops, norm_ops,
                    reduction_ops, special_math_ops)
from .base import Layer

__all__ = ["Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum", "Concatenate", "Dot",
           "add", "subtract", "multiply", "average", "maximum", "minimum", "concatenate", "dot"]


def _shapes(layer: Layer, inputs) -> list:
    """The inputs' shapes as tuples (from tensors, TensorShapes or tuples).

    Raises:
        ValueError: `inputs` is not a list.
    """
    if not isinstance(inputs, (list, tuple)):
        shape = getattr(inputs, "shape", inputs)  # a tensor, or the TensorShape of one
        received = f"one tensor of shape {tuple(shape.as_list())}" \
            if hasattr(shape, "as_list") else f"a {type(inputs).__name__}"
        raise ValueError(f'Layer "{layer.name}" ({type(layer).__name__}) must be called on a '
                         f"list of tensors; received {received}.")
    return [tuple(TensorShape(x.shape if hasattr(x, "shape") else x).as_list())
            for x in inputs]


class _Merge(Layer):
    """Base of the elementwise merges: checks that the inputs are a list of tensors whose
    shapes broadcast together (a dimension of 1 or unknown fits any), then folds them with
    `_merge`."""

    _min_inputs = 1

    def _check(self, shapes: list) -> None:
        if len(shapes) < self._min_inputs:
            raise ValueError(f'Layer "{self.name}" ({type(self).__name__}) must be called on a '
                             f"list of at least {self._min_inputs} input(s); received "
                             f"{len(shapes)}.")
        ranks = {len(s) for s in shapes}
        for shape in shapes[1:]:
            first = shapes[0]
            if len(shape) != len(first) or any(
                    a is not None and b is not None and a != b and 1 not in (a, b)
                    for a, b in zip(first, shape)):
                raise ValueError(f'Layer "{self.name}" ({type(self).__name__}): inputs have '
                                 f"incompatible shapes. Received shapes {first} and {shape}"
                                 + (" (different ranks)" if len(ranks) > 1 else "") + ".")

    def build(self, input_shape) -> None:
        self._check(_shapes(self, input_shape))

    def call(self, inputs):
        self._check(_shapes(self, inputs))
        return self._merge(list(inputs))

    def _merge(self, inputs: list):
        raise NotImplementedError

    def compute_mask(self, inputs, mask=None):
        """The inputs' masks OR-ed together; None unless every input has one (as Keras)."""
        if mask is None or any(m is None for m in mask):
            return None
        return functools.reduce(comparison_ops.logical_or, mask)


class Add(_Merge):
    """The elementwise sum of a list of tensors of one shape.

    Raises:
        ValueError: not a list, or shapes that do not match (naming them).

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.Add()([tf.constant([1.0, 2.0]), tf.constant([10.0, 20.0])]).numpy()
        array([11., 22.], dtype=float32)
    """

    def _merge(self, inputs: list):
        return functools.reduce(lambda a, b: a + b, inputs)


class Subtract(_Merge):
    """The difference of exactly two tensors: `inputs[0] - inputs[1]`.

    Raises:
        ValueError: not exactly two inputs, or shapes that do not match.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.Subtract()([tf.constant([5.0]), tf.constant([2.0])]).numpy()
        array([3.], dtype=float32)
    """

    _min_inputs = 2

    def _check(self, shapes: list) -> None:
        if len(shapes) != 2:
            raise ValueError(f'Layer "{self.name}" (Subtract) must be called on a list of '
                             f"exactly 2 inputs; received {len(shapes)}.")
        super()._check(shapes)

    def _merge(self, inputs: list):
        return inputs[0] - inputs[1]


class Multiply(_Merge):
    """The elementwise product of a list of tensors of one shape.

    Raises:
        ValueError: not a list, or shapes that do not match.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.Multiply()([tf.constant([2.0, 3.0]), tf.constant([4.0, 5.0])]).numpy()
        array([ 8., 15.], dtype=float32)
    """

    def _merge(self, inputs: list):
        return functools.reduce(lambda a, b: a * b, inputs)


class Average(_Merge):
    """The elementwise mean of a list of tensors of one shape.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.Average()([tf.constant([1.0]), tf.constant([4.0])]).numpy()
        array([2.5], dtype=float32)
    """

    def _merge(self, inputs: list):
        return functools.reduce(lambda a, b: a + b, inputs) * (1.0 / len(inputs))


class Maximum(_Merge):
    """The elementwise maximum of a list of tensors (ties go to the earlier input).

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.Maximum()([tf.constant([1.0, 5.0]), tf.constant([3.0, 2.0])]).numpy()
        array([3., 5.], dtype=float32)
    """

    def _merge(self, inputs: list):
        return functools.reduce(math_ops.maximum, inputs)


class Minimum(_Merge):
    """The elementwise minimum of a list of tensors (ties go to the earlier input).

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.Minimum()([tf.constant([1.0, 5.0]), tf.constant([3.0, 2.0])]).numpy()
        array([1., 2.], dtype=float32)
    """

    def _merge(self, inputs: list):
        return functools.reduce(math_ops.minimum, inputs)


class Concatenate(Layer):
    """Joins a list of tensors along `axis` (default -1, the features).

    Args:
        axis: the axis to join along; every other dimension must match.

    Raises:
        ValueError: not a list, different ranks, or another dimension that differs
            (naming the layer and the shapes).

    Example:
        >>> import tapeflow as tf
        >>> merged = tf.keras.layers.Concatenate()([tf.zeros([2, 3]), tf.ones([2, 1])])
        >>> merged.shape
        TensorShape([2, 4])
    """

    def __init__(self, axis: int = -1, **kwargs) -> None:
        super().__init__(**kwargs)
        self.axis = int(axis)

    def _check(self, shapes) -> None:
        if not shapes:
            raise ValueError(f'Layer "{self.name}" (Concatenate) must be called on a list of '
                             "at least 1 input.")
        ranks = {len(s) for s in shapes}
        rank = ranks.pop() if len(ranks) == 1 else None
        axis = self.axis % rank if rank and -rank <= self.axis < rank else None
        if rank is None or axis is None or any(
                len({s[a] for s in shapes} - {None}) > 1 for a in range(rank) if a != axis):
            raise ValueError(f'Layer "{self.name}" (Concatenate) requires inputs with matching '
                             f"shapes except for the concatenation axis {self.axis}. Received: "
                             f"input_shape={shapes}")

    def build(self, input_shape) -> None:
        self._check(_shapes(self, input_shape))

    def call(self, inputs):
        self._check(_shapes(self, inputs))
        return array_ops.concat(list(inputs), axis=self.axis)

    def compute_mask(self, inputs, mask=None):
        """The masks (all True for an input without one) joined along `axis`, then any
        over the last axis (as Keras); None when no input has a mask."""
        if mask is None or all(m is None for m in mask):
            return None
        masks = []
        for x, m in zip(inputs, mask):
            if m is None:
                m = creation_ops.ones_like(x, dtype="bool")
            elif m.ndim < x.ndim:
                m = comparison_ops.logical_or(array_ops.expand_dims(m, -1),
                                        creation_ops.zeros_like(x, dtype="bool"))
            masks.append(m)
        return reduction_ops.reduce_any(array_ops.concat(masks, axis=self.axis), axis=-1)

    def get_config(self) -> dict:
        return {**super().get_config(), "axis": self.axis}


class Dot(Layer):
    """The dot product of two batched tensors along one axis of each (Keras's batch_dot):
    [batch, n, d] and [batch, m, d] with axes=2 give [batch, n, m]; two [batch, d] give
    [batch, 1].

    Args:
        axes: an int (the same axis of both) or a pair of axes; not the batch axis.
        normalize: L2-normalize both inputs along their axes first (cosine similarity).

    Raises:
        ValueError: not a list of 2 tensors, or sizes along the axes that differ.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.Dot(axes=1)([tf.constant([[1.0, 2.0]]), tf.constant([[3.0, 4.0]])])
        <tf.Tensor: shape=(1, 1), dtype=float32, numpy=array([[11.]], dtype=float32)>
    """

    def __init__(self, axes, normalize: bool = False, **kwargs) -> None:
        super().__init__(**kwargs)
        if not isinstance(axes, int) and (len(axes) != 2 or not all(
                isinstance(a, int) for a in axes)):
            raise ValueError("Invalid format for argument `axes`: expected an int or a list "
                             f"of 2 ints. Received: axes={axes}")
        self.axes = axes if isinstance(axes, int) else list(axes)
        self.normalize = bool(normalize)

    def _axes(self, shapes) -> list:
        if len(shapes) != 2:
            raise ValueError(f'Layer "{self.name}" (Dot) must be called on a list of 2 '
                             f"inputs. Received: input_shape={shapes}")
        axes = [self.axes] * 2 if isinstance(self.axes, int) else self.axes
        axes = [a % len(s) if a < 0 else a for a, s in zip(axes, shapes)]
        if shapes[0][axes[0]] != shapes[1][axes[1]] or 0 in axes:
            raise ValueError(f'Layer "{self.name}" (Dot): incompatible input shapes '
                             f"{shapes} for axes {self.axes}.")
        return axes

    def build(self, input_shape) -> None:
        self._axes(_shapes(self, input_shape))

    def call(self, inputs):
        x, y = inputs
        axes = self._axes(_shapes(self, inputs))
        if self.normalize:
            x = norm_ops.l2_normalize(x, axis=axes[0])
            y = norm_ops.l2_normalize(y, axis=axes[1])
        letters = iter("bcdefghijklmnopqrstuvwxyz")
        batch, shared = next(letters), next(letters)
        x_axes = [batch] + [shared if a == axes[0] else next(letters) for a in range(1, x.ndim)]
        y_axes = [batch] + [shared if a == axes[1] else next(letters) for a in range(1, y.ndim)]
        out = [batch] + [c for c in x_axes[1:] + y_axes[1:] if c != shared]
        result = special_math_ops.einsum(f"{''.join(x_axes)},{''.join(y_axes)}->{''.join(out)}",
                                         x, y)
        return array_ops.expand_dims(result, 1) if len(out) == 1 else result

    def get_config(self) -> dict:
        return {**super().get_config(), "axes": self.axes, "normalize": self.normalize}


def _functional(cls, doc: str):
    def merge(inputs, **kwargs):
        return cls(**kwargs)(inputs)
    merge.__name__ = cls.__name__.lower()
    merge.__doc__ = (f"`{cls.__name__}(**kwargs)(inputs)`: {doc}\n\n    Raises:\n        "
                     f"ValueError: as {cls.__name__}.\n")
    return merge


add = _functional(Add, "the elementwise sum of `inputs`.")
subtract = _functional(Subtract, "`inputs[0] - inputs[1]`.")
multiply = _functional(Multiply, "the elementwise product of `inputs`.")
average = _functional(Average, "the elementwise mean of `inputs`.")
maximum = _functional(Maximum, "the elementwise maximum of `inputs`.")
minimum = _functional(Minimum, "the elementwise minimum of `inputs`.")


def concatenate(inputs, axis: int = -1, **kwargs):
    """`Concatenate(axis, **kwargs)(inputs)`: `inputs` joined along `axis`.

    Raises:
        ValueError: as Concatenate.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.concatenate([tf.zeros([1, 2]), tf.ones([1, 2])]).numpy()
        array([[0., 0., 1., 1.]], dtype=float32)
    """
    return Concatenate(axis=axis, **kwargs)(inputs)


def dot(inputs, axes=-1, **kwargs):
    """`Dot(axes, **kwargs)(inputs)`: the batched dot product of two tensors.

    Raises:
        ValueError: as Dot.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.layers.dot([tf.ones([2, 3]), tf.ones([2, 3])], axes=1).numpy()
        array([[3.],
               [3.]], dtype=float32)
    """
    return Dot(axes=axes, **kwargs)(inputs)
