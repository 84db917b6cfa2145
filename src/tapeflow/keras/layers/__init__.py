"""keras.layers: the building blocks of models."""
from .activation_layers import ELU, LeakyReLU, PReLU, ReLU, Softmax
from .attention import AdditiveAttention, Attention, EinsumDense, MultiHeadAttention
from .base import InputSpec, Layer
from .convolutional import (Conv1D, Conv1DTranspose, Conv2D, Conv2DTranspose, Conv3D,
                            Conv3DTranspose, DepthwiseConv1D, DepthwiseConv2D, SeparableConv1D,
                            SeparableConv2D)
from .core import Activation, Dense, Dropout, Flatten, Identity, Lambda, Reshape
from .embedding import Embedding
from .input_layer import Input, InputLayer
from .merging import (Add, Average, Concatenate, Dot, Maximum, Minimum, Multiply, Subtract, add,
                      average, concatenate, dot, maximum, minimum, multiply, subtract)
from .normalization import (BatchNormalization, GroupNormalization, LayerNormalization,
                            UnitNormalization)
from .pooling import (AveragePooling1D, AveragePooling2D, AveragePooling3D,
                      GlobalAveragePooling1D, GlobalAveragePooling2D, GlobalAveragePooling3D,
                      GlobalMaxPooling1D, GlobalMaxPooling2D, GlobalMaxPooling3D, MaxPooling1D,
                      MaxPooling2D, MaxPooling3D)
from .preprocessing import Normalization, Rescaling
from .regularization import (ActivityRegularization, GaussianDropout, GaussianNoise,
                             SpatialDropout1D, SpatialDropout2D, SpatialDropout3D)
from .reshaping import (Cropping1D, Cropping2D, Cropping3D, Permute, RepeatVector, UpSampling1D,
                        UpSampling2D, UpSampling3D, ZeroPadding1D, ZeroPadding2D, ZeroPadding3D)

# Keras's aliases.
Convolution2D = Conv2D
MaxPool2D = MaxPooling2D
AvgPool2D = AveragePooling2D
GlobalAvgPool1D = GlobalAveragePooling1D
GlobalAvgPool2D = GlobalAveragePooling2D
GlobalMaxPool1D = GlobalMaxPooling1D
GlobalMaxPool2D = GlobalMaxPooling2D
Convolution1D, Convolution3D = Conv1D, Conv3D
Convolution1DTranspose, Convolution2DTranspose, Convolution3DTranspose = (
    Conv1DTranspose, Conv2DTranspose, Conv3DTranspose)
SeparableConvolution1D, SeparableConvolution2D = SeparableConv1D, SeparableConv2D
MaxPool1D, MaxPool3D, AvgPool1D, AvgPool3D = (MaxPooling1D, MaxPooling3D, AveragePooling1D,
                                              AveragePooling3D)
GlobalAvgPool3D, GlobalMaxPool3D = GlobalAveragePooling3D, GlobalMaxPooling3D

__all__ = ["Activation", "Add", "Average", "AveragePooling2D", "AvgPool2D",
           "BatchNormalization", "Concatenate", "Conv2D", "Convolution2D", "Dense", "Dropout",
           "Embedding", "Flatten", "GlobalAveragePooling1D", "GlobalAveragePooling2D",
           "GlobalAvgPool1D", "GlobalAvgPool2D", "GlobalMaxPool1D", "GlobalMaxPool2D",
           "GlobalMaxPooling1D", "GlobalMaxPooling2D", "Input", "InputLayer", "InputSpec",
           "Lambda", "Layer", "LayerNormalization", "MaxPool2D", "MaxPooling2D", "Maximum",
           "Minimum", "Multiply", "Reshape", "Subtract", "add", "average", "concatenate",
           "maximum", "minimum", "multiply", "subtract",
           "AveragePooling1D", "AveragePooling3D", "AvgPool1D", "AvgPool3D", "Conv1D",
           "Conv1DTranspose", "Conv2DTranspose", "Conv3D", "Conv3DTranspose", "Convolution1D",
           "Convolution1DTranspose", "Convolution2DTranspose", "Convolution3D",
           "Convolution3DTranspose", "DepthwiseConv1D", "DepthwiseConv2D",
           "GlobalAveragePooling3D", "GlobalAvgPool3D", "GlobalMaxPool3D", "GlobalMaxPooling3D",
           "MaxPool1D", "MaxPool3D", "MaxPooling1D", "MaxPooling3D", "SeparableConv1D",
           "SeparableConv2D", "SeparableConvolution1D", "SeparableConvolution2D",
           "ActivityRegularization", "Cropping1D", "Cropping2D", "Cropping3D", "Dot", "ELU",
           "GaussianDropout", "GaussianNoise", "GroupNormalization", "Identity", "LeakyReLU",
           "Normalization", "PReLU", "Permute", "ReLU", "RepeatVector", "Rescaling", "Softmax",
           "SpatialDropout1D", "SpatialDropout2D", "SpatialDropout3D", "UnitNormalization",
           "UpSampling1D", "UpSampling2D", "UpSampling3D", "ZeroPadding1D", "ZeroPadding2D",
           "ZeroPadding3D", "dot",
           "AdditiveAttention", "Attention", "EinsumDense", "MultiHeadAttention"]

from .masking import Masking  # noqa: E402
from .recurrent import (GRU, LSTM, RNN, Bidirectional, GRUCell, LSTMCell,  # noqa: E402
                        SimpleRNN, SimpleRNNCell, StackedRNNCells, TimeDistributed)

__all__ += ["Bidirectional", "GRU", "GRUCell", "LSTM", "LSTMCell", "Masking", "RNN",
            "SimpleRNN", "SimpleRNNCell", "StackedRNNCells", "TimeDistributed"]
