"""keras.layers: the building blocks of models."""
from .base import InputSpec, Layer
from .convolutional import AveragePooling2D, Conv2D, MaxPooling2D
from .core import Activation, Dense, Dropout, Flatten, Reshape
from .embedding import Embedding
from .normalization import BatchNormalization

# Keras's aliases.
Convolution2D = Conv2D
MaxPool2D = MaxPooling2D
AvgPool2D = AveragePooling2D

__all__ = ["Activation", "AveragePooling2D", "AvgPool2D", "BatchNormalization", "Conv2D",
           "Convolution2D", "Dense", "Dropout", "Embedding", "Flatten", "InputSpec", "Layer",
           "MaxPool2D", "MaxPooling2D", "Reshape"]
