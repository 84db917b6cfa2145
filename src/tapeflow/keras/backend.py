"""Keras session state: unique layer names, the random generator, the training phase."""
from __future__ import annotations

import collections
import contextlib
import random
import threading

import numpy as np

from ..framework.context import executing_eagerly
from ..framework.graph import get_default_graph
from ..ops import random_ops

__all__ = ["clear_session", "image_data_format", "normalize_data_format", "unique_object_name",
           "rng", "set_random_seed", "floatx", "set_floatx", "learning_phase", "training_scope",
           "building_graph"]

_name_counts: collections.Counter = collections.Counter()
_phase = threading.local()


def building_graph():
    """The graph being built on this thread (a `tf.function` trace, a TF1 graph), or None
    while executing eagerly: layers keep the losses of one call per graph."""
    return None if executing_eagerly() else get_default_graph()


_floatx = "float32"


def floatx() -> str:
    """The default float type of layers and weights ('float32' unless `set_floatx` changed
    it)."""
    return _floatx


def set_floatx(value: str) -> None:
    """Sets `floatx()`: the dtype of layers created without a dtype while no global dtype
    policy is set.

    Raises:
        ValueError: not one of 'float16', 'float32', 'float64'.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.config.set_floatx("float64")
        >>> tf.keras.config.floatx()
        'float64'
        >>> tf.keras.config.set_floatx("float32")
    """
    global _floatx
    accepted = {"float16", "float32", "float64"}
    if value not in accepted:
        raise ValueError(f"Unknown `floatx` value: {value}. Expected one of {accepted}")
    _floatx = str(value)


def image_data_format() -> str:
    """The default layout of image layers: 'channels_last' ([batch, height, width,
    channels])."""
    return "channels_last"


def normalize_data_format(layer: str, data_format) -> str:
    """`data_format`, or the default for None: 'channels_last' or 'channels_first'.

    Raises:
        ValueError: anything else, naming `layer`.
    """
    data_format = image_data_format() if data_format is None else str(data_format).lower()
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError(f"{layer}: the `data_format` argument must be one of "
                         f"'channels_last', 'channels_first'. Received: {data_format!r}")
    return data_format


def unique_object_name(base: str, zero_based: bool = True) -> str:
    """'dense', then 'dense_1', 'dense_2'... within this session ('input_1', 'input_2'...
    when not `zero_based`)."""
    count = _name_counts[base]
    _name_counts[base] += 1
    if not zero_based:
        return f"{base}_{count + 1}"
    return base if count == 0 else f"{base}_{count}"


def clear_session() -> None:
    """Resets the layer-name counters (the next Dense is 'dense' again).

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.backend.clear_session()
        >>> tf.keras.layers.Dense(2).name
        'dense'
    """
    _name_counts.clear()


def rng(seed: int | None = None) -> np.random.Generator:
    """The generator an initializer, dropout mask or shuffle draws from.

    An explicit `seed` gives its own fixed generator. Otherwise TF's global-seed rule
    applies: after `tf.random.set_seed` (or `keras.utils.set_random_seed`) each call gets
    the next generator of a sequence that the seed fixes; without a global seed, a fresh
    unpredictable one.
    """
    if seed is not None:
        return np.random.default_rng(seed)
    global_seed, op_seed = random_ops.get_seed(None)
    if global_seed is None:
        return np.random.default_rng()
    return np.random.default_rng((global_seed, op_seed))


def set_random_seed(seed: int) -> None:
    """Seeds Python's `random`, NumPy's global generator and tapeflow's (`tf.random.set_seed`).

    Unseeded initializers, dropout masks and `fit`'s shuffling then draw reproducibly, so a
    script that calls this first gives the same numbers every run.

    Raises:
        ValueError: `seed` is not an int.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.utils.set_random_seed(1)
        >>> a = tf.keras.initializers.GlorotUniform()((2, 2)).numpy()
        >>> tf.keras.utils.set_random_seed(1)
        >>> bool((a == tf.keras.initializers.GlorotUniform()((2, 2)).numpy()).all())
        True
    """
    if not isinstance(seed, (int, np.integer)):
        raise ValueError(f"Expected `seed` argument to be an integer. Received: seed={seed!r} "
                         f"(of type {type(seed).__name__})")
    random.seed(int(seed))
    np.random.seed(int(seed))
    random_ops.set_seed(int(seed))


def learning_phase() -> bool:
    """The training flag of the innermost layer call (False outside any call)."""
    return getattr(_phase, "training", False)


@contextlib.contextmanager
def training_scope(training: bool):
    """Layers called inside with `training=None` see `training`."""
    previous = getattr(_phase, "training", False)
    _phase.training = bool(training)
    try:
        yield
    finally:
        _phase.training = previous
