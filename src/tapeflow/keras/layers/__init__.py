"""keras.layers: the building blocks of models."""
from .base import InputSpec, Layer
from .convolutional import AveragePooling2D, Conv2D, MaxPooling2D
from .core import Activation, Dense, Dropout, Flatten, Lambda, Reshape
from .embedding import Embedding
from .input_layer import Input, InputLayer
from .merging import (Add, Average, Concatenate, Maximum, Minimum, Multiply, Subtract, add,
                      average, concatenate, maximum, minimum, multiply, subtract)
from .normalization import BatchNormalization, LayerNormalization
from .pooling import (GlobalAveragePooling1D, GlobalAveragePooling2D, GlobalMaxPooling1D,
                      GlobalMaxPooling2D)

# Keras's aliases.
Convolution2D = Conv2D
MaxPool2D = MaxPooling2D
AvgPool2D = AveragePooling2D
GlobalAvgPool1D = GlobalAveragePooling1D
GlobalAvgPool2D = GlobalAveragePooling2D
GlobalMaxPool1D = GlobalMaxPooling1D
GlobalMaxPool2D = GlobalMaxPooling2D

__all__ = ["Activation", "Add", "Average", "AveragePooling2D", "AvgPool2D",
           "BatchNormalization", "Concatenate", "Conv2D", "Convolution2D", "Dense", "Dropout",
           "Embedding", "Flatten", "GlobalAveragePooling1D", "GlobalAveragePooling2D",
           "GlobalAvgPool1D", "GlobalAvgPool2D", "GlobalMaxPool1D", "GlobalMaxPool2D",
           "GlobalMaxPooling1D", "GlobalMaxPooling2D", "Input", "InputLayer", "InputSpec",
           "Lambda", "Layer", "LayerNormalization", "MaxPool2D", "MaxPooling2D", "Maximum",
           "Minimum", "Multiply", "Reshape", "Subtract", "add", "average", "concatenate",
           "maximum", "minimum", "multiply", "subtract"]
