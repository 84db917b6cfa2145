"""tf.random.Generator: a Philox stream whose state is an int64 [3] Variable, [counter low,
counter high, key], with TF's numbers for the same state.

Each draw of n values reads the state as its key and counter and advances the counter by
256 * n blocks (`RngSkip`), then runs the stateless kernels of `stateless_random_ops`, as
TF's Generator does.
"""
from __future__ import annotations

import threading

import numpy as np

from ..framework import dtypes
from ..framework.execute import execute
from ..framework.registry import define_op
from ..framework.tensor import Tensor, constant, convert_to_tensor
from ..framework.variables import Variable
from ..trackable.base import Trackable
from . import philox
from .array_ops import stack
from .creation_ops import zeros_like
from .op_util import int_values, known_only_when_run
from .reduction_ops import reduce_prod
from .stateless_random_ops import (StatelessRandomNormalV2, StatelessTruncatedNormalV2,
                                   Algorithm, binomial_draw, check_philox,
                                   convert_alg_to_int, key_counter_array, key_counter_values,
                                   float_dtype, philox_draw, scaled, uniform_draw)

_MASK64 = 2 ** 64 - 1


def _state_size(alg: int) -> int:
    check = convert_alg_to_int(alg)
    if check not in (a.value for a in Algorithm):
        check_philox("Generator", check)  # raises ValueError naming the algorithms
    return 2 if check == Algorithm.THREEFRY.value else 3


def _as_state(values) -> np.ndarray:
    """Python ints, arrays or tensors as int64 words (unsigned 64-bit values wrap)."""
    if isinstance(values, (Tensor, Variable)):
        values = values.numpy()
    if isinstance(values, (list, tuple)) and all(isinstance(v, int) for v in values):
        values = [v & _MASK64 for v in values]
        return np.array(values, np.uint64).view(np.int64)
    return np.asarray(values).astype(np.int64).reshape(-1)


def create_rng_state(seed, alg) -> Tensor:
    """The state a Generator of algorithm `alg` starts from for `seed`.

    A Python integer is cut into 64-bit words, lowest first; a vector is cast to int64 and
    cut or padded with zeros on the left to the state's size (3 for Philox, 2 for ThreeFry).

    Example:
        >>> import tapeflow as tf
        >>> tf.random.create_rng_state(1234, "philox").numpy()
        array([1234,    0,    0])
    """
    size = _state_size(alg)
    if isinstance(seed, (int, np.integer)):
        words = _as_state([(int(seed) >> 64 * i) & _MASK64 for i in range(size)])
    else:
        words = _as_state(seed)[:size]
        words = np.concatenate([np.zeros(size - words.size, np.int64), words])
    return constant(words, dtype=dtypes.int64)


def _skip(state, blocks):
    key, counter = key_counter_values(state)
    return key_counter_array(key, philox.skip(counter, int(blocks)))


# The state with its counter advanced by `blocks`.
RngSkip = define_op("RngSkip", _skip)
RngSkip.shape_fn = lambda inputs, attrs: [(np.dtype(np.int64), (3,))]


class Generator(Trackable):
    """A random-number generator with its state in a Variable: each draw continues the
    stream, and the same state gives TF's numbers.

    Example:
        >>> import tapeflow as tf
        >>> g = tf.random.Generator.from_seed(1)
        >>> g.normal([2]).numpy()
        array([ 0.43842274, -0.53439844], dtype=float32)
        >>> g.state.numpy()
        array([513,   0,   0])
    """

    def __init__(self, copy_from=None, state=None, alg=None):
        """A generator copied from `copy_from`, or with `state` (a vector or a Variable, which
        is then used as is) for algorithm `alg`.

        Raises:
            ValueError: `state` of the wrong size for `alg`, or neither argument given.
        """
        if copy_from is not None:
            self._alg = copy_from.algorithm
            self._state_var = Variable(copy_from.state.numpy(), trainable=False)
            return
        if state is None or alg is None:
            raise ValueError("Generator needs either `copy_from`, or both `state` and `alg`")
        self._alg = convert_alg_to_int(alg)
        size = _state_size(self._alg)
        if not isinstance(state, Variable):
            state = _as_state(state)
        if list(state.shape) != [size]:
            raise ValueError(f"Shapes {tuple(state.shape)} and [{size}] are incompatible")
        self._state_var = state if isinstance(state, Variable) else Variable(
            state, trainable=False, dtype=dtypes.int64)

    @classmethod
    def from_state(cls, state, alg) -> "Generator":
        """A generator starting from `state`."""
        return cls(state=state, alg=alg)

    @classmethod
    def from_seed(cls, seed, alg=None) -> "Generator":
        """A generator whose state is `create_rng_state(seed, alg)` (Philox by default)."""
        alg = Algorithm.PHILOX.value if alg is None else convert_alg_to_int(alg)
        return cls(state=create_rng_state(seed, alg), alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg=None) -> "Generator":
        """A generator seeded from the operating system's entropy."""
        alg = Algorithm.PHILOX.value if alg is None else convert_alg_to_int(alg)
        seed = np.random.default_rng().integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max,
                                                _state_size(alg), dtype=np.int64)
        return cls(state=seed, alg=alg)

    @classmethod
    def from_key_counter(cls, key, counter, alg) -> "Generator":
        """A generator whose state is `counter` followed by `key`.

        Raises:
            ValueError: `key` not a scalar or `counter` of the wrong size for `alg`.
        """
        key = _as_state(key)
        if key.size != 1:
            raise ValueError(f"key must be a scalar, got {key.size} values")
        return cls(state=np.concatenate([_as_state(counter), key]), alg=alg)

    @property
    def state(self) -> Variable:
        """The int64 Variable holding the state."""
        return self._state_var

    @property
    def algorithm(self) -> int:
        """The algorithm's number (1 Philox, 2 ThreeFry, 3 auto-select)."""
        return self._alg

    @property
    def key(self) -> Tensor:
        """The key part of the state (its last word)."""
        return self._state_var.read_value()[-1]

    def _trackable_children(self, save_type: str = "checkpoint", **kwargs) -> dict:
        """What `tf.train.Checkpoint` saves of a generator: its state, under TF's name."""
        return {"_state_var": self._state_var}

    def reset(self, state) -> None:
        """Replaces the state."""
        self._state_var.assign(_as_state(state))

    def reset_from_seed(self, seed) -> None:
        """Replaces the state with `create_rng_state(seed, alg)`."""
        self._state_var.assign(create_rng_state(seed, self._alg))

    def reset_from_key_counter(self, key, counter) -> None:
        """Replaces the state with `counter` followed by `key`."""
        self._state_var.assign(np.concatenate([_as_state(counter), _as_state(key)]))

    def skip(self, delta) -> Tensor:
        """Advances the counter as a draw of `delta` values would; returns the old state.

        Raises:
            UnimplementedError: a ThreeFry generator (it needs XLA).
        """
        return self._advance(convert_to_tensor(delta, dtypes.int64)
                             * philox.RESERVED_PER_OUTPUT)

    def _advance(self, blocks) -> Tensor:
        """The state, read before its counter moves on by `blocks`."""
        check_philox("RngSkip", self._alg)
        old = self._state_var.read_value()
        self._state_var.assign(execute(RngSkip, (old, convert_to_tensor(blocks, dtypes.int64)),
                                       {}))
        return old

    def _key_counter(self, shape) -> Tensor:
        if known_only_when_run(shape) or isinstance(shape, Tensor):
            size = reduce_prod(shape if isinstance(shape, Tensor) else stack(list(shape)))
        else:
            size = int(np.prod(int_values("Generator", shape, "shape"), dtype=np.int64))
        return self.skip(size)

    def normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None) -> Tensor:
        """Normal samples `standard_normal * stddev + mean`, TF's values bit for bit.

        Raises:
            TypeError: a non-float dtype.
        """
        dtype = float_dtype("StatelessRandomNormalV2", dtype)
        rnd = philox_draw(StatelessRandomNormalV2, shape, self._key_counter(shape), dtype)
        return scaled(rnd, mean, stddev)

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32,
                         name=None) -> Tensor:
        """Normal samples within two standard deviations of `mean`, TF's values bit for bit.

        Raises:
            TypeError: a non-float dtype.
        """
        dtype = float_dtype("StatelessTruncatedNormalV2", dtype)
        rnd = philox_draw(StatelessTruncatedNormalV2, shape, self._key_counter(shape), dtype)
        return scaled(rnd, mean, stddev)

    def uniform(self, shape, minval=0, maxval=None, dtype=dtypes.float32, name=None) -> Tensor:
        """Uniform floats in [minval, maxval) (maxval defaults to 1), integers in
        [minval, maxval), or full-range integers when both bounds are None.

        Raises:
            ValueError: an unsupported dtype, or an integer dtype with exactly one bound None.
            InvalidArgumentError: integer `minval >= maxval`.
        """
        dtype = dtypes.as_dtype(dtype)
        if dtype.is_integer and maxval is None and minval is not None:
            raise ValueError(f"For integer dtype {dtype!r}, minval and maxval must be both "
                             f"`None` or both non-`None`; got minval={minval} and "
                             f"maxval={maxval}")
        return uniform_draw("StatelessRandomUniformV2", shape,
                            lambda: self._key_counter(shape), minval, maxval, dtype)

    def uniform_full_int(self, shape, dtype=dtypes.int64, name=None) -> Tensor:
        """Integers over the whole range of `dtype` (int32 or int64; tapeflow has no uint64,
        TF's default)."""
        return self.uniform(shape, None, None, dtype)

    def binomial(self, shape, counts, probs, dtype=dtypes.int32, name=None) -> Tensor:
        """Binomial samples: successes in `counts` trials of probability `probs`, TF's values
        bit for bit.

        Raises:
            InvalidArgumentError: `shape` does not end with the broadcast shape of `counts`
                and `probs`.
        """
        # TF advances 256 blocks for each of 200 per batch member and four samples.
        return binomial_draw(shape, lambda batches, per_batch: self._advance(
            batches * 2 * 100 * (per_batch + 3) // 4 * philox.RESERVED_PER_OUTPUT), counts,
            probs, dtype)

    def make_seeds(self, count=1) -> Tensor:
        """`count` seeds for stateless ops: a [2, count] int64 tensor (keys over zeros)."""
        keys = self.uniform_full_int([count], dtypes.int64)
        return stack([keys, zeros_like(keys)])

    def split(self, count=1) -> list:
        """`count` new generators, each keyed by a draw of this one (counters zero)."""
        keys = self.uniform_full_int([count], dtypes.int64).numpy()
        size = _state_size(self._alg)
        return [Generator(state=[0] * (size - 1) + [int(k)], alg=self._alg) for k in keys]


_global_lock = threading.Lock()
_shared = {"generator": None}


def get_global_generator() -> Generator:
    """The global generator, created from non-deterministic state on first use.

    Example:
        >>> import tapeflow as tf
        >>> tf.random.get_global_generator().normal([2]).shape
        TensorShape([2])
    """
    with _global_lock:
        if _shared["generator"] is None:
            _shared["generator"] = Generator.from_non_deterministic_state()
        return _shared["generator"]


def set_global_generator(generator: Generator) -> None:
    """Replaces the global generator (ops already built keep the old one).

    Raises:
        TypeError: `generator` is not a Generator (the global one stays).

    Example:
        >>> import tapeflow as tf
        >>> tf.random.set_global_generator(tf.random.Generator.from_seed(7))
        >>> tf.random.get_global_generator().state.numpy()
        array([7, 0, 0])
    """
    if not isinstance(generator, Generator):
        raise TypeError(f"set_global_generator needs a tf.random.Generator, got "
                        f"{type(generator).__name__}")
    with _global_lock:
        _shared["generator"] = generator
