"""keras.optimizers: Keras 3's optimizers (SGD, Adam, AdamW, RMSprop, Adagrad, Nadam,
Adamax, Adadelta, Ftrl, Lion, Lamb, Adafactor), LossScaleOptimizer, and learning-rate
schedules."""
from ..naming import by_name, serialized
from . import schedules
from .adam_variants import Adamax, Lamb, Lion, Nadam
from .adaptive_rates import Adadelta, Adafactor, Ftrl
from .algorithms import SGD, Adagrad, Adam, AdamW, RMSprop
from .base import Optimizer
from .loss_scale import LossScaleOptimizer

__all__ = ["Adadelta", "Adafactor", "Adagrad", "Adam", "AdamW", "Adamax", "Ftrl", "Lamb",
           "Lion", "LossScaleOptimizer", "Nadam", "Optimizer", "RMSprop", "SGD", "deserialize",
           "get", "schedules", "serialize"]

_CLASSES = {cls.__name__: cls for cls in (SGD, Adam, AdamW, RMSprop, Adagrad, Nadam, Adamax,
                                          Adadelta, Ftrl, Lion, Lamb, Adafactor,
                                          LossScaleOptimizer)}
_BY_NAME = {name.lower(): cls for name, cls in _CLASSES.items()
            if cls is not LossScaleOptimizer}


def serialize(optimizer: Optimizer) -> dict:
    """{'module', 'class_name', 'config', 'registered_name'}, as Keras writes an optimizer.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.optimizers.serialize(tf.keras.optimizers.SGD())["class_name"]
        'SGD'
    """
    return serialized(optimizer, "keras.optimizers")


def deserialize(config: dict) -> Optimizer:
    """The optimizer a `serialize` dict describes.

    Raises:
        ValueError: an unknown class name.

    Example:
        >>> import tapeflow as tf
        >>> opt = tf.keras.optimizers.deserialize(
        ...     {"class_name": "Adam", "config": {"learning_rate": 0.01}})
        >>> round(float(opt.learning_rate), 4)
        0.01
    """
    cls = by_name("optimizer class", config["class_name"], _CLASSES)
    return cls.from_config(config["config"])


def get(identifier) -> Optimizer:
    """An optimizer from a name ('adam', 'sgd', ...) with default arguments, a `serialize`
    dict, or as given.

    Raises:
        ValueError: an unknown name or an object that is not an Optimizer.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.optimizers.get("adam").name
        'adam'
    """
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        return by_name("optimizer", identifier.lower(), _BY_NAME)()
    raise ValueError(f"Could not interpret optimizer identifier: {identifier!r}")
