"""Masking: marks the time steps whose features all equal a padding value."""
from __future__ import annotations

from ...ops import comparison_ops, math_ops, reduction_ops
from .base import Layer

__all__ = ["Masking"]


class Masking(Layer):
    """Masks the steps of [batch, steps, features] inputs whose features all equal
    `mask_value`: they are set to 0, and the output carries a mask [batch, steps] (False at
    those steps) that RNNs, GlobalAveragePooling1D and losses in `fit` use.

    Args:
        mask_value: the padding value (default 0.0).

    Example:
        >>> import tapeflow as tf
        >>> from tapeflow.keras.masks import get_keras_mask
        >>> x = tf.constant([[[1.0], [0.0], [2.0]]])
        >>> get_keras_mask(tf.keras.layers.Masking()(x)).numpy()
        array([[ True, False,  True]])
    """

    supports_masking = True

    def __init__(self, mask_value=0.0, **kwargs) -> None:
        super().__init__(**kwargs)
        self.mask_value = mask_value

    def compute_mask(self, inputs, mask=None):
        return reduction_ops.reduce_any(comparison_ops.not_equal(inputs, self.mask_value),
                                        axis=-1)

    def call(self, inputs):
        keep = math_ops.cast(self.compute_mask(inputs)[..., None], inputs.dtype)
        return inputs * keep

    def get_config(self) -> dict:
        return {**super().get_config(), "mask_value": self.mask_value}
