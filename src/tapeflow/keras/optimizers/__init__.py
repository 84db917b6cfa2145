"""keras.optimizers: SGD, Adam, AdamW, RMSprop, Adagrad, and learning-rate schedules."""
from ..naming import by_name
from . import schedules
from .algorithms import SGD, Adagrad, Adam, AdamW, RMSprop
from .base import Optimizer

__all__ = ["Adagrad", "Adam", "AdamW", "Optimizer", "RMSprop", "SGD", "get", "schedules"]

_BY_NAME = {cls.__name__.lower(): cls for cls in (SGD, Adam, AdamW, RMSprop, Adagrad)}


def get(identifier) -> Optimizer:
    """An optimizer from a name ('adam', 'sgd', ...) with default arguments, or as given.

    Raises:
        ValueError: an unknown name or an object that is not an Optimizer.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.optimizers.get("adam").name
        'Adam'
    """
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, str):
        return by_name("optimizer", identifier.lower(), _BY_NAME)()
    raise ValueError(f"Could not interpret optimizer identifier: {identifier!r}")
