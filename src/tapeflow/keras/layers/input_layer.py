"""InputLayer and keras.Input: the entry points of a functional model."""
from __future__ import annotations

from .. import backend
from ..keras_tensor import KerasTensor, Node
from .base import Layer

__all__ = ["InputLayer", "Input"]


class InputLayer(Layer):
    """The layer behind `keras.Input`: it owns the input's KerasTensor and, called on data,
    returns it unchanged. As the first layer of a Sequential it sets the input shape.

    Args:
        input_shape: the shape of one example (without the batch dimension).
        batch_size: the batch dimension (default unknown).
        dtype: default float32.
        name: default 'input_1', 'input_2', ...
        batch_input_shape / batch_shape: (keywords) the full shape, batch first.

    Raises:
        ValueError: no shape was given.
        NotImplementedError: sparse, ragged or given-tensor inputs.

    Example:
        >>> import tapeflow as tf
        >>> layer = tf.keras.layers.InputLayer(input_shape=(3,), name="pixels")
        >>> layer.output
        <KerasTensor: shape=(None, 3) dtype=float32 (created by layer 'pixels')>
    """

    _TF_MODULE_IGNORED_PROPERTIES = Layer._TF_MODULE_IGNORED_PROPERTIES | frozenset(("output",))

    def __init__(self, input_shape=None, batch_size=None, dtype=None, input_tensor=None,
                 sparse=None, name=None, ragged=None, type_spec=None, **kwargs) -> None:
        batch_shape = kwargs.pop("batch_input_shape", None) or kwargs.pop("batch_shape", None)
        input_shape = kwargs.pop("shape", input_shape)
        if sparse or ragged or input_tensor is not None or type_spec is not None:
            raise NotImplementedError("InputLayer: sparse, ragged and tensor-backed inputs are "
                                      "not supported; give a dense shape and dtype.")
        if batch_shape is None:
            if input_shape is None:
                raise ValueError("Please provide to Input a `shape` (the shape of one "
                                 "example, without the batch dimension) or a `batch_shape`.")
            batch_shape = (batch_size, *tuple(input_shape))
        super().__init__(name=name or backend.unique_object_name("input", zero_based=False),
                         dtype=dtype, **kwargs)
        self._batch_input_shape = tuple(None if d is None else int(d) for d in batch_shape)
        node = Node(self, (), {}, None)
        self.output = KerasTensor(self._batch_input_shape, self._dtype, self.name, node, 0)
        node.outputs = [self.output]
        self.built = True

    def get_config(self) -> dict:
        return {"batch_shape": list(self._batch_input_shape), "dtype": self.dtype,
                "sparse": False, "ragged": False, "name": self.name}


def Input(shape=None, batch_size=None, name=None, dtype=None, sparse=None, tensor=None,
          ragged=None, type_spec=None, **kwargs) -> KerasTensor:
    """A symbolic input of a functional model: `keras.Model(inputs, outputs)` starts here.

    Args:
        shape: the shape of one example, without the batch dimension (None for a
            dimension of unknown size).
        batch_size: a fixed batch size (default unknown).
        name: the input's name (default 'input_1', 'input_2', ...); a model fed a dict
            finds this input under it.
        dtype: default float32.
        batch_shape: (keyword) the full shape, batch first, instead of shape.

    Returns:
        The KerasTensor of a new InputLayer.

    Raises:
        ValueError: neither shape nor batch_shape.
        NotImplementedError: sparse, ragged or tensor-backed inputs.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.keras.Input(shape=(28, 28, 1), name="image")
        >>> x.shape, x.dtype.name
        (TensorShape([None, 28, 28, 1]), 'float32')
    """
    layer = InputLayer(input_shape=shape, batch_size=batch_size, dtype=dtype,
                       input_tensor=tensor, sparse=sparse, name=name, ragged=ragged,
                       type_spec=type_spec, **kwargs)
    return layer.output
