"""tf.keras: layers, models (Sequential, functional, subclassed), losses, optimizers,
metrics, initializers, regularizers and callbacks."""
from . import (activations, backend, callbacks, functional, initializers, layers, losses,
               metrics, models, optimizers, regularizers, saving, utils)
from . import config, mixed_precision, random
from .layers.input_layer import Input
from .models import Model, Sequential

__all__ = ["Input", "Model", "Sequential", "activations", "backend", "callbacks",
           "initializers", "layers", "losses", "metrics", "models", "optimizers",
           "regularizers", "saving", "utils", "config", "mixed_precision", "random"]
