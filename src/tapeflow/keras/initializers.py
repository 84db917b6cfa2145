"""keras.initializers: starting values for weights, with Keras's formulas.

An initializer seeded with an int returns the same values on every call, Keras 3's own:
Keras draws them with TF's stateless random ops seeded `[seed, 0]`, which tapeflow computes
bit for bit (tf.random.stateless_*), so `GlorotUniform(seed=1)` gives the weights Keras
gives (Orthogonal: to the rounding of the QR decomposition). An unseeded one follows TF's
global seed (`tf.random.set_seed`, `keras.utils.set_random_seed`): reproducible after it is
set, different every run otherwise (not Keras's numbers, which come from its own seed
generators).
"""
from __future__ import annotations

import math

import numpy as np

from ..framework import dtypes, errors
from ..framework.tensor import Tensor
from ..framework.graph import init_scope
from ..ops import init_ops, stateless_random_ops
from . import backend
from .naming import by_name

__all__ = ["Initializer", "Zeros", "Ones", "Constant", "RandomNormal", "RandomUniform",
           "TruncatedNormal", "VarianceScaling", "GlorotUniform", "GlorotNormal", "HeNormal",
           "HeUniform", "LecunNormal", "LecunUniform", "Orthogonal", "get", "serialize"]

# The standard deviation of a unit normal truncated to [-2, 2].
_TRUNCATED_STDDEV = 0.87962566103423978


def _float_dtype(dtype, who: str) -> type:
    dtype = dtypes.as_dtype(dtype or backend.floatx())
    if not dtype.is_floating:
        raise ValueError(f"{who}: expected a floating point dtype, got {dtype.name}.")
    return dtype.as_numpy_dtype


def _shape(shape) -> tuple:
    return tuple(int(d) for d in getattr(shape, "as_list", lambda: shape)())


def compute_fans(shape: tuple, input_axes=None, output_axes=None) -> tuple:
    """(fan_in, fan_out) of a weight shape; convolution kernels count the receptive field.
    With both `input_axes` and `output_axes` (an EinsumDense kernel's), the products of
    the sizes along them."""
    if input_axes is not None and output_axes is not None:
        return (int(np.prod([shape[a] for a in input_axes])),
                int(np.prod([shape[a] for a in output_axes])))
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = int(np.prod(shape[:-2]))
    return shape[-2] * receptive, shape[-1] * receptive


def _allocated(initializer, make, *args) -> Tensor:
    """`make(*args)` as a Tensor; an allocation too large is TF's ResourceExhaustedError."""
    try:
        return Tensor(make(*args))
    except MemoryError as e:
        raise errors.out_of_memory(type(initializer).__name__, e) from None


class Initializer(init_ops.Initializer):
    """Base class: `initializer(shape, dtype=None)` returns a Tensor of that shape."""

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_config().items())
        return f"{type(self).__name__}({args})"


class Zeros(Initializer):
    """All zeros (any dtype).

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.initializers.Zeros()((2,)).numpy()
        array([0., 0.], dtype=float32)
    """

    def __call__(self, shape, dtype=None, **kwargs) -> Tensor:
        return _allocated(self, np.zeros, _shape(shape),
                          dtypes.as_dtype(dtype or backend.floatx()).as_numpy_dtype)


class Ones(Initializer):
    """All ones (any dtype).

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.initializers.Ones()((2,), dtype="int32").numpy()
        array([1, 1], dtype=int32)
    """

    def __call__(self, shape, dtype=None, **kwargs) -> Tensor:
        return _allocated(self, np.ones, _shape(shape),
                          dtypes.as_dtype(dtype or backend.floatx()).as_numpy_dtype)


class Constant(Initializer):
    """Every element equal to the scalar `value`.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.initializers.Constant(3.0)((2,)).numpy()
        array([3., 3.], dtype=float32)
    """

    def __init__(self, value=0) -> None:
        self.value = value

    def __call__(self, shape, dtype=None, **kwargs) -> Tensor:
        dtype = dtypes.as_dtype(dtype or backend.floatx()).as_numpy_dtype
        return _allocated(self, np.full, _shape(shape), self.value, dtype)

    def get_config(self) -> dict:
        return {"value": self.value}


class _Seeded:
    """Keras 3's draws for an int `seed`: TF's stateless random ops seeded [seed, 0] (the
    seed reduced modulo 2**31 - 2, as Keras's TF backend casts it), in `dtype`."""

    def __init__(self, seed: int, dtype) -> None:
        self.seed = [seed % _SEED_MODULUS, 0]
        self.dtype = dtype

    def uniform(self, shape: tuple, low: float, high: float) -> np.ndarray:
        # Keras casts the bounds with tf.cast, which makes a Python float float32 first.
        def cast(bound):
            return self.dtype.type(np.float32(bound))
        return self._eager(stateless_random_ops.stateless_uniform, shape, minval=cast(low),
                           maxval=cast(high))

    def normal(self, shape: tuple, mean: float, stddev: float) -> np.ndarray:
        return self._eager(stateless_random_ops.stateless_normal, shape, mean=mean,
                           stddev=stddev)

    def truncated_normal(self, shape: tuple, mean: float, stddev: float) -> np.ndarray:
        return self._eager(stateless_random_ops.stateless_truncated_normal, shape, mean=mean,
                           stddev=stddev)

    def _eager(self, draw, shape: tuple, **params) -> np.ndarray:
        with init_scope():
            return draw(shape, self.seed, dtype=self.dtype, **params).numpy()


class _Generated:
    """Draws from a NumPy generator (an unseeded initializer's), cast to `dtype`."""

    def __init__(self, rng: np.random.Generator, dtype) -> None:
        self.rng = rng
        self.dtype = dtype

    def uniform(self, shape: tuple, low: float, high: float) -> np.ndarray:
        return self.rng.uniform(low, high, shape).astype(self.dtype)

    def normal(self, shape: tuple, mean: float, stddev: float) -> np.ndarray:
        return self.rng.normal(mean, stddev, shape).astype(self.dtype)

    def truncated_normal(self, shape: tuple, mean: float, stddev: float) -> np.ndarray:
        """Normal samples redrawn until all lie within two standard deviations of the mean."""
        values = self.rng.standard_normal(shape)
        outside = np.abs(values) > 2.0
        while outside.any():
            values[outside] = self.rng.standard_normal(int(outside.sum()))
            outside = np.abs(values) > 2.0
        return (mean + stddev * values).astype(self.dtype)


# Keras's TF backend reduces an int64 seed modulo int32's largest value less one.
_SEED_MODULUS = 2**31 - 2


class _Random(Initializer):
    """An initializer drawing random values: Keras 3's for an int `seed`, else from a NumPy
    generator that the global seed fixes."""

    def __init__(self, seed=None) -> None:
        self.seed = seed

    def __call__(self, shape, dtype=None, **kwargs) -> Tensor:
        dtype = np.dtype(_float_dtype(dtype, type(self).__name__))
        seeded = isinstance(self.seed, (int, np.integer)) and not isinstance(self.seed, bool)
        draws = _Seeded(int(self.seed), dtype) if seeded else \
            _Generated(backend.rng(self.seed), dtype)
        return _allocated(self, lambda: self._sample(draws, _shape(shape)))

    def _sample(self, draws, shape: tuple) -> np.ndarray:
        raise NotImplementedError

    def get_config(self) -> dict:
        return {"seed": self.seed}


class RandomNormal(_Random):
    """Samples of a normal distribution with `mean` and `stddev` (default 0.05).

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.initializers.RandomNormal(seed=0)((3, 4)).shape
        TensorShape([3, 4])
    """

    def __init__(self, mean: float = 0.0, stddev: float = 0.05, seed=None) -> None:
        super().__init__(seed)
        self.mean = mean
        self.stddev = stddev

    def _sample(self, draws, shape):
        return draws.normal(shape, self.mean, self.stddev)

    def get_config(self) -> dict:
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


class TruncatedNormal(RandomNormal):
    """Normal samples with `mean` and `stddev`, redrawn beyond two standard deviations.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.keras.initializers.TruncatedNormal(stddev=1.0, seed=0)((1000,)).numpy()
        >>> bool(abs(x).max() <= 2.0)
        True
    """

    def _sample(self, draws, shape):
        return draws.truncated_normal(shape, self.mean, self.stddev)


class RandomUniform(_Random):
    """Samples uniform in [minval, maxval) (default [-0.05, 0.05)).

    Example:
        >>> import tapeflow as tf
        >>> x = tf.keras.initializers.RandomUniform(0.0, 1.0, seed=0)((100,)).numpy()
        >>> bool((x >= 0).all() and (x < 1).all())
        True
    """

    def __init__(self, minval: float = -0.05, maxval: float = 0.05, seed=None) -> None:
        super().__init__(seed)
        self.minval = minval
        self.maxval = maxval

    def _sample(self, draws, shape):
        return draws.uniform(shape, self.minval, self.maxval)

    def get_config(self) -> dict:
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}


class VarianceScaling(_Random):
    """Samples whose variance is `scale / n`, n the fan-in, fan-out or their average.

    'truncated_normal' draws with stddev sqrt(scale / n) / 0.8796 (the truncation's
    correction), 'untruncated_normal' with sqrt(scale / n), and 'uniform' within
    +-sqrt(3 * scale / n). `input_axes` and `output_axes` (both, or neither) name the
    axes whose sizes multiply to the fans (see `compute_fans`).

    Raises:
        ValueError: a non-positive scale, or an unknown mode or distribution.

    Example:
        >>> import tapeflow as tf
        >>> init = tf.keras.initializers.VarianceScaling(scale=2.0, mode="fan_in",
        ...                                              distribution="uniform", seed=0)
        >>> bool(abs(init((6, 3)).numpy()).max() <= 1.0)   # limit sqrt(3 * 2 / 6)
        True
    """

    def __init__(self, scale: float = 1.0, mode: str = "fan_in",
                 distribution: str = "truncated_normal", seed=None, input_axes=None,
                 output_axes=None) -> None:
        super().__init__(seed)
        self.input_axes, self.output_axes = input_axes, output_axes
        if scale <= 0.0:
            raise ValueError(f"`scale` must be positive. Received: scale={scale}")
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError(f"Invalid `mode` argument: {mode!r}; expected 'fan_in', "
                             "'fan_out' or 'fan_avg'.")
        distribution = distribution.lower()
        if distribution == "normal":
            distribution = "truncated_normal"
        if distribution not in ("uniform", "truncated_normal", "untruncated_normal"):
            raise ValueError(f"Invalid `distribution` argument: {distribution!r}; expected "
                             "'uniform', 'truncated_normal' or 'untruncated_normal'.")
        self.scale = scale
        self.mode = mode
        self.distribution = distribution

    def _sample(self, draws, shape):
        fan_in, fan_out = compute_fans(shape, self.input_axes, self.output_axes)
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}[self.mode]
        scale = self.scale / max(1.0, n)
        if self.distribution == "truncated_normal":
            return draws.truncated_normal(shape, 0.0, math.sqrt(scale) / _TRUNCATED_STDDEV)
        if self.distribution == "untruncated_normal":
            return draws.normal(shape, 0.0, math.sqrt(scale))
        limit = math.sqrt(3.0 * scale)
        return draws.uniform(shape, -limit, limit)

    def get_config(self) -> dict:
        return {"scale": self.scale, "mode": self.mode, "distribution": self.distribution,
                "seed": self.seed, "input_axes": self.input_axes,
                "output_axes": self.output_axes}


def _variance_scaling(name: str, scale: float, mode: str, distribution: str, summary: str):
    def __init__(self, seed=None, input_axes=None, output_axes=None) -> None:
        VarianceScaling.__init__(self, scale, mode, distribution, seed, input_axes,
                                 output_axes)

    def get_config(self) -> dict:
        return {"seed": self.seed, "input_axes": self.input_axes,
                "output_axes": self.output_axes}

    doc = (f"{summary}\n\n    Example:\n        >>> import tapeflow as tf\n"
           f"        >>> tf.keras.initializers.{name}(seed=0)((4, 3)).dtype\n"
           "        tf.float32\n")
    return type(name, (VarianceScaling,), {"__init__": __init__, "get_config": get_config,
                                           "__doc__": doc, "__module__": __name__})


GlorotUniform = _variance_scaling(
    "GlorotUniform", 1.0, "fan_avg", "uniform",
    "Uniform within +-sqrt(6 / (fan_in + fan_out)); the default kernel initializer.")
GlorotNormal = _variance_scaling(
    "GlorotNormal", 1.0, "fan_avg", "truncated_normal",
    "Truncated normal with stddev sqrt(2 / (fan_in + fan_out)) (before the truncation's "
    "correction).")
HeNormal = _variance_scaling(
    "HeNormal", 2.0, "fan_in", "truncated_normal",
    "Truncated normal with stddev sqrt(2 / fan_in) (before the truncation's correction).")
HeUniform = _variance_scaling(
    "HeUniform", 2.0, "fan_in", "uniform", "Uniform within +-sqrt(6 / fan_in).")
LecunNormal = _variance_scaling(
    "LecunNormal", 1.0, "fan_in", "truncated_normal",
    "Truncated normal with stddev sqrt(1 / fan_in) (before the truncation's correction).")
LecunUniform = _variance_scaling(
    "LecunUniform", 1.0, "fan_in", "uniform", "Uniform within +-sqrt(3 / fan_in).")

class Orthogonal(_Random):
    """A (semi-)orthogonal matrix times `gain`, from the QR decomposition of normal
    samples; shapes of rank above 2 are flattened to [prod(shape[:-1]), shape[-1]].

    Example:
        >>> import numpy as np
        >>> import tapeflow as tf
        >>> q = tf.keras.initializers.Orthogonal(seed=0)((3, 3)).numpy()
        >>> bool(np.allclose(q @ q.T, np.eye(3), atol=1e-6))
        True
    """

    def __init__(self, gain: float = 1.0, seed=None) -> None:
        super().__init__(seed)
        self.gain = gain

    def _sample(self, draws, shape):
        if len(shape) < 2:
            raise ValueError("The tensor to initialize must be at least two-dimensional. "
                             f"Received: shape={shape} of rank {len(shape)}.")
        rows, cols = int(np.prod(shape[:-1])), shape[-1]
        flat = draws.normal((max(rows, cols), min(rows, cols)), 0.0, 1.0)
        q, r = np.linalg.qr(flat)
        q = q * np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        return (self.gain * q.reshape(shape)).astype(draws.dtype)

    def get_config(self) -> dict:
        return {"gain": self.gain, "seed": self.seed}


_BY_NAME = {
    "orthogonal": Orthogonal,
    "zeros": Zeros, "ones": Ones, "constant": Constant, "random_normal": RandomNormal,
    "normal": RandomNormal, "random_uniform": RandomUniform, "uniform": RandomUniform,
    "truncated_normal": TruncatedNormal, "variance_scaling": VarianceScaling,
    "glorot_uniform": GlorotUniform, "glorot_normal": GlorotNormal, "he_normal": HeNormal,
    "he_uniform": HeUniform, "lecun_normal": LecunNormal, "lecun_uniform": LecunUniform,
}
_CLASSES = {cls.__name__: cls for cls in set(_BY_NAME.values())}


def get(identifier):
    """An initializer from a name ('glorot_uniform' or 'GlorotUniform'), a config dict,
    an Initializer or a callable; None stays None.

    Raises:
        ValueError: an unknown name or an unusable identifier.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.initializers.get("he_normal")
        HeNormal(seed=None, input_axes=None, output_axes=None)
    """
    if identifier is None or isinstance(identifier, Initializer):
        return identifier
    if isinstance(identifier, dict):
        cls = by_name("initializer", identifier.get("class_name"), _CLASSES)
        return cls.from_config(identifier.get("config", {}))
    if isinstance(identifier, str):
        return by_name("initializer", identifier, _BY_NAME, _CLASSES)()
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret initializer identifier: {identifier!r}")


def serialize(initializer: Initializer) -> dict:
    """Keras 3's {'module', 'class_name', 'config', 'registered_name'}, the form `get`
    accepts back."""
    return {"module": "keras.initializers", "class_name": type(initializer).__name__,
            "config": initializer.get_config(), "registered_name": None}

# Keras's lower-case aliases.
zeros, ones, constant = Zeros, Ones, Constant
random_normal, random_uniform, truncated_normal = RandomNormal, RandomUniform, TruncatedNormal
variance_scaling = VarianceScaling
glorot_uniform, glorot_normal = GlorotUniform, GlorotNormal
he_normal, he_uniform = HeNormal, HeUniform
lecun_normal, lecun_uniform = LecunNormal, LecunUniform
orthogonal = OrthogonalInitializer = Orthogonal
