"""keras.utils: seeding, one-hot labels (`to_categorical`), `normalize`, the registry of
custom objects for saved models, and drawing models (`plot_model`, `model_to_dot`)."""
from __future__ import annotations

import numpy as np

from ..framework.tensor import convert_to_tensor, is_tensor
from ..ops import math_ops, norm_ops
from ..ops.creation_ops import one_hot
from .backend import set_random_seed
from .model_plot import model_to_dot, plot_model
from .saving.serialization import (custom_object_scope, deserialize_keras_object,
                                   get_custom_objects, get_registered_name,
                                   get_registered_object, register_keras_serializable,
                                   serialize_keras_object)

__all__ = ["custom_object_scope", "deserialize_keras_object", "get_custom_objects",
           "get_registered_name", "get_registered_object", "model_to_dot", "normalize",
           "plot_model", "register_keras_serializable", "serialize_keras_object",
           "set_random_seed", "to_categorical"]

_EPSILON = 1e-7


def to_categorical(x, num_classes=None):
    """Integer class labels as one-hot rows: [n] (or [n, 1]) labels give [n, num_classes].

    A NumPy array or list gives a float64 array; a Tensor gives a float32 Tensor, as in
    Keras.

    Args:
        x: integer labels, any shape (a last dimension of 1 is dropped).
        num_classes: the number of classes; default the largest label plus one.

    Raises:
        IndexError: a label not below `num_classes`.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.utils.to_categorical([0, 2, 1]).tolist()
        [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]]
    """
    if is_tensor(x):
        labels = convert_to_tensor(x)
        shape = labels.shape.as_list()
        if len(shape) > 1 and shape[-1] == 1:
            labels = labels[..., 0]
        depth = int(num_classes) if num_classes else int(math_ops.reduce_max(labels)) + 1
        return one_hot(labels, depth, dtype="float32")
    labels = np.array(x, dtype="int64")
    shape = labels.shape
    if len(shape) > 1 and shape[-1] == 1:
        shape = shape[:-1]
    labels = labels.reshape(-1)
    depth = int(num_classes) if num_classes else int(np.max(labels)) + 1
    categorical = np.zeros((labels.shape[0], depth))
    categorical[np.arange(labels.shape[0]), labels] = 1
    return categorical.reshape(shape + (depth,))


def normalize(x, axis=-1, order=2):
    """`x` divided by its `order`-norm along `axis` (a zero norm leaves zeros).

    A NumPy array gives an array of its dtype, computed as Keras does: the norms are
    expanded on the last axis (`axis or -1`), so a 1-D array gives shape [1, n]. Anything
    else gives a Tensor (of a floating dtype).

    Example:
        >>> import numpy as np
        >>> import tapeflow as tf
        >>> tf.keras.utils.normalize(np.array([[3.0, 4.0], [0.0, 0.0]])).tolist()
        [[0.6, 0.8], [0.0, 0.0]]
    """
    if isinstance(x, np.ndarray):
        norm = np.atleast_1d(np.linalg.norm(x, order, axis))
        norm[norm == 0] = 1
        return x / np.expand_dims(norm, axis or -1)
    x = convert_to_tensor(x)
    return x / math_ops.maximum(norm_ops.norm(x, ord=order, axis=axis, keepdims=True),
                                _EPSILON)
