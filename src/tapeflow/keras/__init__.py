"""tf.keras: layers, models, losses, optimizers, metrics, initializers and callbacks."""
from . import (activations, backend, callbacks, initializers, layers, losses, metrics,
               optimizers, utils)
from .models import Model, Sequential

__all__ = ["Model", "Sequential", "activations", "backend", "callbacks", "initializers",
           "layers", "losses", "metrics", "optimizers", "utils"]
