"""tf.random's stateless ops: values that depend only on a seed (or a Philox key and
counter), with TF's algorithms and numbers for the Philox-based draws.

A two-integer seed becomes a key and counter through `StatelessRandomGetKeyCounter`; the
draws take that int64 [3] `key_counter` ([counter low, counter high, key], the layout of a
`tf.random.Generator`'s state), so a Generator runs the same kernels. Uniform, normal,
truncated-normal, integer, categorical, gamma, Poisson, binomial and shuffle draws are TF's
values bit for bit; the parameterized truncated normal inverts its CDF at a Philox uniform:
deterministic, TF's distribution, not TF's numbers.
"""
from __future__ import annotations

import enum

import numpy as np

from ..framework import dtypes, errors
from ..framework.execute import execute
from ..framework.registry import define_op
from ..framework.tensor import Tensor, convert_to_tensor
from . import math_ops, philox
from .array_ops import broadcast_to, stack
from .op_util import as_input, dims_values, int_value, known_only_when_run
from .random_ops import _drawn_shape, _run_shape, categorical_inputs


class Algorithm(enum.Enum):
    """A random-number algorithm: PHILOX (Philox4x32-10), THREEFRY, or AUTO_SELECT (the
    device's choice: Philox on the CPU).

    Example:
        >>> import tapeflow as tf
        >>> tf.random.Algorithm.PHILOX.value
        1
    """

    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


def _unsupported_alg(alg) -> str:
    if isinstance(alg, str):
        names = ("philox", "threefry", "auto_select")
    elif isinstance(alg, int):
        names = tuple(a.value for a in Algorithm)
    else:
        names = tuple(Algorithm)
    return (f"Argument `alg` got unsupported value {alg}. Supported values are {names[0]} for "
            f"the Philox algorithm, {names[1]} for the ThreeFry algorithm, and {names[2]} for "
            f"auto-selection.")


def convert_alg_to_int(alg) -> int:
    """`alg` (an Algorithm, its name, or its number) as the algorithm's number.

    Raises:
        ValueError: an unknown name. TypeError: neither an int, a str nor an Algorithm.
    """
    if isinstance(alg, Algorithm):
        return alg.value
    if isinstance(alg, (int, np.integer)):
        return int(alg)
    if isinstance(alg, str):
        canonical = alg.strip().lower().replace("-", "").replace("_", "")
        names = {"philox": 1, "threefry": 2, "autoselect": 3}
        if canonical in names:
            return names[canonical]
        raise ValueError(_unsupported_alg(alg))
    raise TypeError(f"Can't convert argument `alg` (of value {alg} and type {type(alg)}) to int.")


def check_philox(op_name: str, alg) -> None:
    """Philox and auto-select (Philox on a CPU) run; ThreeFry needs XLA, as in TF.

    Raises:
        ValueError: an unknown algorithm. UnimplementedError: ThreeFry.
    """
    alg = convert_alg_to_int(alg)
    if alg == Algorithm.THREEFRY.value:
        raise errors.UnimplementedError(
            None, op_name, f"{op_name}: the ThreeFry algorithm runs only under XLA; use "
            f"Philox or auto_select")
    if alg not in (Algorithm.PHILOX.value, Algorithm.AUTO_SELECT.value):
        raise ValueError(_unsupported_alg(alg))


def key_counter_values(key_counter) -> tuple:
    """(key, counter) Python ints from an int64 [3] [counter low, counter high, key]."""
    words = [int(w) for w in np.asarray(key_counter).astype(np.int64).view(np.uint64)]
    return words[2], words[0] | words[1] << 64


def key_counter_array(key: int, counter: int) -> np.ndarray:
    """The int64 [3] layout of `key` and `counter`."""
    mask = 2 ** 64 - 1
    return np.array([counter & mask, counter >> 64 & mask, key & mask], np.uint64).view(np.int64)


def _get_key_counter(seed):
    key, counter = philox.key_counter_from_seed(*(int(s) for s in seed))
    return key_counter_array(key, counter)


StatelessRandomGetKeyCounter = define_op("StatelessRandomGetKeyCounter", _get_key_counter)
StatelessRandomGetKeyCounter.shape_fn = lambda inputs, attrs: [(np.dtype(np.int64), (3,))]


def _philox_kernel(fill):
    def kernel(key_counter, *given, shape, dtype, **bounds):
        dims = _run_shape(given, shape)
        key, counter = key_counter_values(key_counter)
        size = int(np.prod(dims, dtype=np.int64))
        return fill(key, counter, size, dtype, **bounds).reshape(dims)
    return kernel


StatelessRandomUniformV2 = define_op("StatelessRandomUniformV2", _philox_kernel(philox.uniform))
StatelessRandomNormalV2 = define_op("StatelessRandomNormalV2", _philox_kernel(philox.normal))
StatelessTruncatedNormalV2 = define_op("StatelessTruncatedNormalV2",
                                       _philox_kernel(philox.truncated_normal))
StatelessRandomUniformIntV2 = define_op("StatelessRandomUniformIntV2",
                                        _philox_kernel(philox.uniform_int))
StatelessRandomUniformFullIntV2 = define_op("StatelessRandomUniformFullIntV2",
                                            _philox_kernel(philox.full_int))
for _op in (StatelessRandomUniformV2, StatelessRandomNormalV2, StatelessTruncatedNormalV2,
            StatelessRandomUniformIntV2, StatelessRandomUniformFullIntV2):
    _op.shape_fn = _drawn_shape


def float_dtype(op_name: str, dtype) -> dtypes.DType:
    """A float `dtype` for a normal, truncated-normal or gamma draw.

    Raises:
        TypeError: any other dtype (TF fails converting the mean to it).
    """
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise TypeError(f"{op_name}: dtype must be float16, float32 or float64, got "
                        f"{dtype.name}")
    return dtype


def seed_key_counter(op_name: str, seed, alg="auto_select") -> Tensor:
    """The int64 [3] key and counter of a shape [2] integer `seed`.

    Raises:
        InvalidArgumentError: a seed not of shape [2] or not integer.
        ValueError, UnimplementedError: see `check_philox`.
    """
    check_philox(op_name, alg)
    seed = as_input(seed)
    if seed.dtype not in (dtypes.int32, dtypes.int64) or seed.shape.as_list() != [2]:
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: seed must be an int32 or int64 tensor of shape [2], "
            f"got {seed.dtype.name} of shape {seed.shape.as_list()}")
    return execute(StatelessRandomGetKeyCounter, (seed,), {})


def philox_draw(op, shape, key_counter, dtype, **bounds) -> Tensor:
    """`op`'s draw of `shape` from an int64 [3] key and counter."""
    if not known_only_when_run(shape):
        return execute(op, (key_counter,), {"shape": dims_values(op.name, shape),
                                            "dtype": dtype._np, **bounds})
    shape = shape if isinstance(shape, Tensor) else stack(list(shape))
    return execute(op, (key_counter, shape), {"shape": None, "dtype": dtype._np, **bounds})


def uniform_draw(op_name: str, shape, key_counter, minval, maxval, dtype) -> Tensor:
    """Uniform floats in [minval, maxval), integers in [minval, maxval), or full-range
    integers (both bounds None): the one body of `stateless_uniform` and
    `Generator.uniform`.

    Raises:
        ValueError: an unsupported dtype, or an integer dtype with one bound None.
        InvalidArgumentError: integer `minval >= maxval`.
    """
    dtype = dtypes.as_dtype(dtype)
    if dtype.is_integer:
        if dtype not in (dtypes.int32, dtypes.int64):
            raise ValueError(f"{op_name}: dtype must be a float, int32 or int64, got "
                             f"{dtype.name}")
        if (minval is None) != (maxval is None):
            raise ValueError(f"For integer `dtype` argument {dtype!r}, argument `minval` and "
                             f"`maxval` must be both None or not None. Got `minval`={minval} "
                             f"and `maxval`={maxval}.")
        if minval is None:
            return philox_draw(StatelessRandomUniformFullIntV2, shape, key_counter(), dtype)
        low = int_value(op_name, minval, "minval")
        high = int_value(op_name, maxval, "maxval")
        if low >= high:
            raise errors.InvalidArgumentError(
                None, op_name, f"{op_name}: Need minval < maxval, got {low} >= {high}")
        return philox_draw(StatelessRandomUniformIntV2, shape, key_counter(), dtype,
                           low=low, high=high)
    if not dtype.is_floating:
        raise ValueError(f"{op_name}: dtype must be a float, int32 or int64, got {dtype.name}")
    rnd = philox_draw(StatelessRandomUniformV2, shape, key_counter(), dtype)
    if _is_number(minval, 0) and (maxval is None or _is_number(maxval, 1)):
        return rnd
    low = convert_to_tensor(minval, dtype=dtype)
    high = convert_to_tensor(1 if maxval is None else maxval, dtype=dtype)
    return rnd * (high - low) + low


def _is_number(value, number) -> bool:
    return isinstance(value, (int, float)) and value == number


def scaled(rnd: Tensor, mean, stddev) -> Tensor:
    """`rnd * stddev + mean` (skipped for the standard 0 and 1)."""
    if _is_number(mean, 0) and _is_number(stddev, 1):
        return rnd
    return rnd * convert_to_tensor(stddev, dtype=rnd.dtype) + convert_to_tensor(
        mean, dtype=rnd.dtype)


def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=dtypes.float32, name=None,
                      alg="auto_select") -> Tensor:
    """Uniform samples that depend only on `seed`, TF's values bit for bit.

    Floats lie in [minval, maxval) (maxval defaults to 1); integers (int32, int64) in
    [minval, maxval), or over the whole range of the dtype when both bounds are None.

    Args:
        shape: the output shape.
        seed: a shape [2] int32 or int64 tensor.
        minval, maxval: the bounds (differentiable for floats).
        dtype: float16, float32, float64, int32 or int64.
        alg: "auto_select", "philox" or a `tf.random.Algorithm`.

    Raises:
        InvalidArgumentError: a bad seed, or integer `minval >= maxval`.
        ValueError: an unsupported dtype, an integer dtype with exactly one bound None, or
            an unknown `alg`.

    Example:
        >>> import tapeflow as tf
        >>> tf.random.stateless_uniform([3], seed=[1, 2]).numpy()
        array([0.8440604 , 0.19204533, 0.9962232 ], dtype=float32)
    """
    return uniform_draw("StatelessRandomUniformV2", shape,
                        lambda: seed_key_counter("StatelessRandomUniformV2", seed, alg),
                        minval, maxval, dtype)


def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None,
                     alg="auto_select") -> Tensor:
    """Normal samples `standard_normal * stddev + mean` that depend only on `seed`, TF's
    values bit for bit. Differentiable with respect to `mean` and `stddev`.

    Raises:
        InvalidArgumentError: a seed not of shape [2] or not integer.
        TypeError: a non-float dtype.

    Example:
        >>> import tapeflow as tf
        >>> tf.random.stateless_normal([2], seed=[1, 2]).numpy()
        array([0.5441101 , 0.20738031], dtype=float32)
    """
    dtype = float_dtype("StatelessRandomNormalV2", dtype)
    rnd = philox_draw(StatelessRandomNormalV2, shape,
                      seed_key_counter("StatelessRandomNormalV2", seed, alg), dtype)
    return scaled(rnd, mean, stddev)


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32,
                               name=None, alg="auto_select") -> Tensor:
    """Normal samples within two standard deviations of `mean` that depend only on `seed`,
    TF's values bit for bit. Differentiable with respect to `mean` and `stddev`.

    Raises:
        InvalidArgumentError: a seed not of shape [2] or not integer.
        TypeError: a non-float dtype.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.random.stateless_truncated_normal([1000], seed=[3, 4])
        >>> bool(abs(x.numpy()).max() < 2)
        True
    """
    dtype = float_dtype("StatelessTruncatedNormalV2", dtype)
    rnd = philox_draw(StatelessTruncatedNormalV2, shape,
                      seed_key_counter("StatelessTruncatedNormalV2", seed, alg), dtype)
    return scaled(rnd, mean, stddev)


def split(seed, num=2, alg="auto_select") -> Tensor:
    """`num` new seeds (a [num, 2] tensor of the seed's dtype) drawn from `seed`.

    Example:
        >>> import tapeflow as tf
        >>> tf.random.split([1, 2], 3).shape
        TensorShape([3, 2])
    """
    seed = as_input(seed)
    return stateless_uniform([num, 2], seed, minval=None, maxval=None, dtype=seed.dtype,
                             alg=alg)


def fold_in(seed, data, alg="auto_select") -> Tensor:
    """A new seed `[r, data]`, `r` drawn from `seed`: a seed per step or per worker.

    Example:
        >>> import tapeflow as tf
        >>> tf.random.fold_in([1, 2], 5).numpy()
        array([1105988140,          5], dtype=int32)
    """
    data = as_input(data)
    first = stateless_uniform([], seed, minval=None, maxval=None, dtype=data.dtype, alg=alg)
    return stack([first, data])


def _binomial(key_counter, counts, probs, *, shape, dtype):
    counts, probs = np.broadcast_arrays(counts, probs)
    per_batch = int(np.prod(shape, dtype=np.int64)) // max(counts.size, 1)
    draws = philox.binomial(*key_counter_values(key_counter), counts.reshape(-1),
                            probs.reshape(-1), per_batch)
    with np.errstate(invalid="ignore"):  # (nan, for a nan probability, as TF's cast)
        return draws.astype(dtype).reshape(shape)


def _poisson(key_counter, lam, *, shape, dtype):
    key, counter = key_counter_values(key_counter)
    count = int(np.prod(shape, dtype=np.int64)) // max(lam.size, 1)
    return philox.poisson(key, counter, lam, count).astype(dtype).reshape(shape)


def _gamma(key_counter, alpha, *, shape):
    key, counter = key_counter_values(key_counter)
    count = int(np.prod(shape, dtype=np.int64)) // max(alpha.size, 1)
    return philox.gamma(key, counter, alpha, count).astype(alpha.dtype).reshape(shape)


def _multinomial(key_counter, logits, *, num_samples, dtype):
    return philox.categorical(*key_counter_values(key_counter), logits, num_samples).astype(
        dtype)


StatelessRandomBinomial = define_op("StatelessRandomBinomial", _binomial)
StatelessRandomPoisson = define_op("StatelessRandomPoisson", _poisson)
StatelessRandomGammaV3 = define_op("StatelessRandomGammaV3", _gamma)
StatelessMultinomial = define_op("StatelessMultinomial", _multinomial)
for _op in (StatelessRandomBinomial, StatelessRandomPoisson):
    _op.shape_fn = lambda inputs, attrs: [(np.dtype(attrs["dtype"]), tuple(attrs["shape"]))]
StatelessRandomGammaV3.shape_fn = lambda inputs, attrs: [(inputs[1]._value.dtype,
                                                          tuple(attrs["shape"]))]
StatelessMultinomial.shape_fn = lambda inputs, attrs: [(np.dtype(attrs["dtype"]), (
    inputs[1].shape[0], attrs["num_samples"]))]


def _dominated_shape(op_name: str, shape, *params) -> tuple:
    """`shape` as dims, checked to end with the broadcast shape of `params`.

    Raises:
        InvalidArgumentError: it does not.
    """
    dims = dims_values(op_name, shape)
    batch = np.broadcast_shapes(*(tuple(p.shape.as_list()) for p in params))
    if len(batch) > len(dims) or tuple(dims[len(dims) - len(batch):]) != batch:
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: shape {list(dims)} must end with the broadcast shape "
            f"{list(batch)} of the distribution's parameters")
    return dims


def binomial_draw(shape, key_counter, counts, probs, dtype) -> Tensor:
    """Binomial samples of `shape` (ending with the parameters' broadcast shape): the body
    of `stateless_binomial` and `Generator.binomial`. `key_counter(batches, per_batch)`
    gives the key and counter of a draw of that many parameter batches and samples each."""
    probs = as_input(probs)
    if probs.dtype.is_integer:
        probs = convert_to_tensor(probs.numpy(), dtype=dtypes.float32)
    counts = convert_to_tensor(counts, dtype=probs.dtype)
    dims = _dominated_shape("StatelessRandomBinomial", shape, counts, probs)
    batches = int(np.prod(np.broadcast_shapes(tuple(counts.shape.as_list()),
                                              tuple(probs.shape.as_list())), dtype=np.int64))
    per_batch = int(np.prod(dims, dtype=np.int64)) // max(batches, 1)
    return execute(StatelessRandomBinomial, (key_counter(batches, per_batch), counts, probs),
                   {"shape": dims, "dtype": dtypes.as_dtype(dtype)._np})


def stateless_binomial(shape, seed, counts, probs, output_dtype=dtypes.int32,
                       name=None) -> Tensor:
    """Binomial samples (successes in `counts` trials of probability `probs`) that depend
    only on `seed`: TF's values bit for bit.

    Raises:
        InvalidArgumentError: a bad seed, or `shape` not ending with the broadcast shape of
            `counts` and `probs`.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.random.stateless_binomial([4, 2], [1, 2], [10.0, 20.0], [0.5, 0.1])
        >>> x.shape, x.dtype
        (TensorShape([4, 2]), tf.int32)
    """
    return binomial_draw(shape, lambda *_: seed_key_counter("StatelessRandomBinomial", seed),
                         counts, probs, output_dtype)


def stateless_poisson(shape, seed, lam, dtype=dtypes.int32, name=None) -> Tensor:
    """Poisson samples of rate `lam` (broadcast to the end of `shape`) that depend only on
    `seed`; `dtype` may be a float or an int32/int64. TF's values bit for bit.

    Raises:
        InvalidArgumentError: a bad seed, or `shape` not ending with `lam`'s shape.

    Example:
        >>> import tapeflow as tf
        >>> tf.random.stateless_poisson([3, 2], [1, 2], [1.0, 100.0]).shape
        TensorShape([3, 2])
    """
    lam = as_input(lam)
    dims = _dominated_shape("StatelessRandomPoisson", shape, lam)
    return execute(StatelessRandomPoisson,
                   (seed_key_counter("StatelessRandomPoisson", seed), lam),
                   {"shape": dims, "dtype": dtypes.as_dtype(dtype)._np})


def stateless_gamma(shape, seed, alpha, beta=None, dtype=dtypes.float32, name=None) -> Tensor:
    """Gamma samples of concentration `alpha` and rate `beta` that depend only on `seed`.

    Differentiable with respect to `alpha` (implicit reparameterisation, as TF) and `beta`.
    TF's values bit for bit.

    Raises:
        InvalidArgumentError: a bad seed, or `shape` not ending with the broadcast shape of
            `alpha` and `beta`.
        TypeError: a non-float dtype.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.random.stateless_gamma([1000, 2], [1, 2], alpha=[0.5, 5.0])
        >>> [round(float(m), 1) for m in tf.reduce_mean(x, axis=0).numpy()]
        [0.5, 5.1]
    """
    dtype = float_dtype("StatelessRandomGammaV3", dtype)
    alpha = convert_to_tensor(alpha, dtype=dtype)
    beta = convert_to_tensor(1 if beta is None else beta, dtype=dtype)
    dims = _dominated_shape("StatelessRandomGammaV3", shape, alpha, beta)
    batch = np.broadcast_shapes(tuple(alpha.shape.as_list()), tuple(beta.shape.as_list()))
    if tuple(alpha.shape.as_list()) != batch:
        alpha = broadcast_to(alpha, list(batch))
    rnd = execute(StatelessRandomGammaV3, (seed_key_counter("StatelessRandomGammaV3", seed),
                                           alpha), {"shape": dims})
    return math_ops.maximum(np.finfo(dtype._np).tiny, rnd / beta)


def stateless_categorical(logits, num_samples, seed, dtype=dtypes.int64, name=None) -> Tensor:
    """`num_samples` class indices per row of `logits` that depend only on `seed`; TF's
    values for inputs its CPU kernel draws in one shard (small batches).

    Raises:
        InvalidArgumentError: `logits` is not a float matrix, a negative `num_samples`, a
            bad seed, or a dtype other than int32/int64.

    Example:
        >>> import tapeflow as tf
        >>> tf.random.stateless_categorical([[0.0, 1.0, 2.0]], 5, seed=[1, 2]).numpy()
        array([[2, 2, 1, 2, 2]])
    """
    x, count, out = categorical_inputs("StatelessMultinomial", logits, num_samples, dtype)
    return execute(StatelessMultinomial, (seed_key_counter("StatelessMultinomial", seed), x),
                   {"num_samples": count, "dtype": out._np})


def _shuffle(key_counter, value):
    return philox.shuffled(*key_counter_values(key_counter), value)


StatelessShuffle = define_op("StatelessShuffle", _shuffle)
StatelessShuffle.shape_fn = lambda inputs, attrs: [(inputs[1]._value.dtype, inputs[1]._dims)]


def stateless_shuffle(value, seed, alg="auto_select", name=None) -> Tensor:
    """`value` with its first dimension permuted as `seed` decides: TF's permutation bit
    for bit.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.random.experimental.stateless_shuffle(tf.range(5), seed=[1, 2])
        >>> sorted(x.numpy().tolist())
        [0, 1, 2, 3, 4]
    """
    return execute(StatelessShuffle, (seed_key_counter("StatelessShuffle", seed, alg),
                                      as_input(value)), {})


def _parameterized_truncated_normal(key_counter, means, stddevs, minvals, maxvals, *, shape):
    # Inverse CDF of a uniform draw, on the side of the bounds away from the mean's tail
    # (flipped when the interval lies above the mean) so that the CDF differences keep
    # their digits: the sample moves smoothly with the parameters, as the implicit gradient
    # assumes.
    from .special_ops import scipy_special
    special = scipy_special()
    mean, std, low, high = (np.broadcast_to(p, shape).astype(np.float64)
                            for p in (means, stddevs, minvals, maxvals))
    alpha, beta = (low - mean) / std, (high - mean) / std
    flip = alpha > 0
    alpha, beta = np.where(flip, -beta, alpha), np.where(flip, -alpha, beta)
    key, counter = key_counter_values(key_counter)
    u = philox.uniform(key, counter, int(np.prod(shape)), np.float64).reshape(shape)
    lower, upper = special.ndtr(alpha), special.ndtr(beta)
    z = special.ndtri(lower + u * (upper - lower))
    return (mean + std * np.where(flip, -z, z)).astype(means.dtype)


StatelessParameterizedTruncatedNormal = define_op("StatelessParameterizedTruncatedNormal",
                                                  _parameterized_truncated_normal)
StatelessParameterizedTruncatedNormal.shape_fn = lambda inputs, attrs: [
    (inputs[1]._value.dtype, tuple(attrs["shape"]))]


def stateless_parameterized_truncated_normal(shape, seed, means=0.0, stddevs=1.0, minvals=-2.0,
                                             maxvals=2.0, name=None) -> Tensor:
    """Normal samples of mean `means` and deviation `stddevs` restricted to
    [minvals, maxvals], depending only on `seed` (tapeflow's values are not TF's).

    Differentiable with respect to all four parameters (the implicit gradient: the sample
    keeps its place in the truncated distribution), as TF. Needs SciPy.

    Raises:
        InvalidArgumentError: a bad seed, parameters of different dtypes, or `shape` not
            ending with their broadcast shape.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.random.stateless_parameterized_truncated_normal([1000], [1, 2], 1.0, 2.0,
        ...                                                        0.0, 1.5)
        >>> bool(tf.reduce_min(x) >= 0.0 and tf.reduce_max(x) <= 1.5)
        True
    """
    params = [as_input(p) for p in (means, stddevs, minvals, maxvals)]
    if len({p.dtype for p in params}) > 1 or not params[0].dtype.is_floating:
        raise errors.InvalidArgumentError(
            None, "StatelessParameterizedTruncatedNormal", f"StatelessParameterizedTruncated"
            f"Normal: means, stddevs, minvals and maxvals must share one float dtype, got "
            f"{[p.dtype.name for p in params]}")
    dims = _dominated_shape("StatelessParameterizedTruncatedNormal", shape, *params)
    key_counter = seed_key_counter("StatelessParameterizedTruncatedNormal", seed)
    return execute(StatelessParameterizedTruncatedNormal, (key_counter, *params),
                   {"shape": dims})
