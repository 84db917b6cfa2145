"""Embedding: rows of a trainable table looked up by integer ids."""
from __future__ import annotations

import numpy as np

from ...framework import errors
from ...framework.context import executing_eagerly
from ...ops import comparison_ops, gather_ops, math_ops
from .. import initializers, regularizers
from .base import Layer, serialize_constraint

__all__ = ["Embedding"]


class Embedding(Layer):
    """Maps each integer id in [0, input_dim) to a trainable vector of size `output_dim`.

    The output has the input's shape plus a last axis of `output_dim`. Gradients with
    respect to the table are IndexedSlices (only the rows looked up).

    Args:
        input_dim: the vocabulary size.
        output_dim: the vector size.
        embeddings_initializer: default uniform in [-0.05, 0.05].
        embeddings_regularizer: a penalty on the table (`losses`).
        embeddings_constraint: a projection optimizers apply after updates.
        mask_zero: id 0 is padding: the output carries a mask (ids != 0) that layers
            supporting masks (RNNs, GlobalAveragePooling1D, losses in `fit`) use.

    Raises:
        ValueError: non-positive dimensions.
        InvalidArgumentError: an id outside [0, input_dim), naming the layer.

    Example:
        >>> import tapeflow as tf
        >>> layer = tf.keras.layers.Embedding(10, 3)
        >>> layer(tf.constant([[1, 2], [3, 4]])).shape
        TensorShape([2, 2, 3])
    """

    _CHECKPOINT_NAMES = {"embeddings": "_embeddings"}

    _single_input = True

    def __init__(self, input_dim: int, output_dim: int, embeddings_initializer="uniform",
                 embeddings_regularizer=None, activity_regularizer=None,
                 embeddings_constraint=None, mask_zero: bool = False, input_length=None,
                 **kwargs) -> None:
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        if int(input_dim) <= 0 or int(output_dim) <= 0:
            raise ValueError("Both `input_dim` and `output_dim` should be positive, Received "
                             f"input_dim = {input_dim} and output_dim = {output_dim}")
        self.mask_zero = bool(mask_zero)
        self.input_dim = int(input_dim)
        self.output_dim = int(output_dim)
        self.embeddings_initializer = initializers.get(embeddings_initializer)
        self.embeddings_regularizer = regularizers.get(embeddings_regularizer)
        self.embeddings_constraint = embeddings_constraint
        self._autocast = False

    def build(self, input_shape) -> None:
        self.embeddings = self.add_weight("embeddings", shape=[self.input_dim, self.output_dim],
                                          initializer=self.embeddings_initializer,
                                          regularizer=self.embeddings_regularizer,
                                          constraint=self.embeddings_constraint)

    def call(self, inputs):
        if not inputs.dtype.is_integer:
            inputs = math_ops.cast(inputs, "int32")
        if executing_eagerly():
            self._check_ids(inputs.numpy())
        outputs = gather_ops.gather(self.embeddings, inputs)
        if outputs.dtype is not self._dtype:        # a mixed policy: float32 rows
            outputs = math_ops.cast(outputs, self._dtype)
        return outputs

    def _check_ids(self, ids: np.ndarray) -> None:
        bad = (ids < 0) | (ids >= self.input_dim)
        if bad.any():
            where = tuple(int(i) for i in np.argwhere(bad)[0])
            raise errors.InvalidArgumentError(
                None, "Embedding", f'Embedding layer "{self.name}": input value {ids[where]} '
                f"at index {list(where)} is outside [0, {self.input_dim}) (input_dim="
                f"{self.input_dim}); input shape {list(ids.shape)}.")

    def get_config(self) -> dict:
        return {**super().get_config(), "input_dim": self.input_dim,
                "output_dim": self.output_dim,
                "embeddings_initializer": initializers.serialize(self.embeddings_initializer),
                "embeddings_regularizer": regularizers.serialize(self.embeddings_regularizer),
                "activity_regularizer": regularizers.serialize(self.activity_regularizer),
                "embeddings_constraint": serialize_constraint(self.embeddings_constraint),
                "mask_zero": self.mask_zero}

    def compute_mask(self, inputs, mask=None):
        """With mask_zero, which ids are not 0 (padding); else None."""
        if not self.mask_zero:
            return None
        return comparison_ops.not_equal(inputs, 0)
