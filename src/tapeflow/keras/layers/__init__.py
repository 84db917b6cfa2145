"""keras.layers: the building blocks of models."""
from .base import InputSpec, Layer
from .core import Activation, Dense, Dropout, Flatten, Reshape
from .normalization import BatchNormalization

__all__ = ["Activation", "BatchNormalization", "Dense", "Dropout", "Flatten", "InputSpec",
           "Layer", "Reshape"]
