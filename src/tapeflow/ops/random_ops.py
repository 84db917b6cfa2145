"""Random ops (tf.random) and nn.dropout, with TF's global-seed / op-seed rules.

A seeded normal, uniform, truncated-normal, integer, categorical or shuffle kernel is TF's: a
Philox stream keyed by the global seed with the op seed in its counter, each call of the
same kernel (op, seeds, dtype; eager calls share one, each op of a graph is its own)
continuing where the last one's reservation (256 blocks per value for most) ended, so the
same seeds give TF's numbers; so are gamma and Poisson draws.
Without any seed a kernel draws from fresh entropy. No-gradient declarations live in
`random_grad.py`.
"""
from __future__ import annotations

import numbers
import threading

import numpy as np

from ..framework import dtypes, errors
from ..framework.context import state
from ..framework.execute import execute
from ..framework.graph_def import graph_def_form
from ..framework.registry import define_op
from ..framework.shape_inference import constant_shape
from ..framework.tensor import Tensor, convert_to_tensor
from . import math_ops, philox
from .array_ops import shape as shape_of_tensor, stack
from .op_util import as_input, dims_values, int_value, known_only_when_run

DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2 ** 31 - 1


class _SeedState:
    """The global seed, the op-seed sequence it starts, and how far each seeded kernel has
    gone: its calls (NumPy-drawn kernels) or the Philox blocks it used."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.global_seed = None
        self.op_seeds = None
        self.positions: dict = {}


_state = _SeedState()


def set_seed(seed) -> None:
    """Sets the global random seed.

    With a global seed, every random op draws a deterministic sequence; ops without their
    own `seed` get successive op seeds from it. Calling `set_seed` again (even with the same
    seed) restarts all sequences. An op seed without a global seed uses a fixed default
    global seed.

    Example:
        >>> import tapeflow as tf
        >>> tf.random.set_seed(1234)
        >>> a = tf.random.uniform([2])
        >>> tf.random.set_seed(1234)
        >>> bool((a.numpy() == tf.random.uniform([2]).numpy()).all())
        True
    """
    import random  # loaded when a seed is set, not by `import tapeflow`
    with _state.lock:
        _state.global_seed = None if seed is None else int(seed)
        _state.op_seeds = None if seed is None else random.Random(int(seed))
        _state.positions.clear()


def get_seed(op_seed) -> tuple:
    """The (seed, seed2) pair an op uses, by TF's rules; (None, None) means nondeterministic."""
    with _state.lock:
        if _state.global_seed is not None:
            if op_seed is None:
                op_seed = _state.op_seeds.randint(0, _MAXINT32)
            seeds = (_state.global_seed, int(op_seed))
        elif op_seed is not None:
            seeds = (DEFAULT_GRAPH_SEED, int(op_seed))
        else:
            seeds = (None, None)
    return (0, _MAXINT32) if seeds == (0, 0) else seeds


def _generator(op_name: str, seed, seed2) -> np.random.Generator:
    if seed is None:
        return np.random.default_rng()
    with _state.lock:
        count = _state.positions.get((op_name, seed, seed2), 0)
        _state.positions[(op_name, seed, seed2)] = count + 1
    return np.random.Generator(np.random.PCG64([seed, seed2, count]))


class _GraphKernel:
    """The identity of one seeded random op in a graph: like TF's, each graph op is its own
    kernel, its stream starting afresh, where eager calls with the same seeds share one."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<graph kernel>"


def _seed_attrs(seed) -> dict:
    """The attributes `seed`, `seed2` (by TF's rules) and, for an op built into a graph,
    `stream`: the graph op's own kernel."""
    seed1, seed2 = get_seed(seed)
    attrs = {"seed": seed1, "seed2": seed2}
    if seed1 is not None and state.graph is not None:
        attrs["stream"] = _GraphKernel()
    return attrs


def _stream(op_name: str, seed, seed2, dtype, blocks: int, stream=None) -> tuple:
    """The Philox (key, counter) of this call of a seeded kernel, which reserves `blocks`:
    TF's key is the seed and its counter the op seed in the high half, advanced by what
    earlier calls of the kernel (op, seeds, dtype; for a graph op, `stream`) reserved.
    Random without seeds."""
    if seed is None:
        return int(np.random.default_rng().integers(2 ** 63)), 0
    mask = 2 ** 64 - 1
    position = (op_name, seed, seed2, np.dtype(dtype).str, stream)
    with _state.lock:
        offset = _state.positions.get(position, 0)
        _state.positions[position] = offset + blocks
    return seed & mask, philox.skip((seed2 & mask) << 64, offset)


def _run_shape(given: tuple, shape):
    """The shape attribute, or the shape tensor input a graph computes when it runs."""
    return tuple(int(d) for d in given[0]) if given else shape


def _philox_kernel(op_name: str, fill):
    """A kernel drawing `fill(key, counter, size, dtype)` from its Philox stream."""
    def kernel(*given, shape, dtype, seed, seed2, stream=None, **bounds):
        shape = _run_shape(given, shape)
        size = int(np.prod(shape, dtype=np.int64))
        key, counter = _stream(op_name, seed, seed2, dtype,
                               philox.RESERVED_PER_OUTPUT * size, stream)
        return fill(key, counter, size, dtype, **bounds).reshape(shape)
    return kernel


def _multinomial(logits, num_samples, seed, seed2, output_dtype, stream=None):
    batch = logits.shape[0]
    # TF reserves 256 blocks per two words of each sample, in rows of multiples of four.
    reserved = batch * -(-num_samples // 4) * 4 * 2 * philox.RESERVED_PER_OUTPUT
    key, counter = _stream("Multinomial", seed, seed2, logits.dtype, reserved, stream)
    return philox.categorical(key, counter, logits, num_samples).astype(output_dtype)


def _shuffle(value, seed, seed2, stream=None):
    rows = value.shape[0] if value.ndim and value.size > 1 else 0
    key, counter = _stream("RandomShuffle", seed, seed2, value.dtype, philox.shuffle_blocks(rows),
                           stream)
    return philox.shuffled(key, counter, value)


RandomStandardNormal = define_op("RandomStandardNormal",
                                 _philox_kernel("RandomStandardNormal", philox.normal))
RandomUniform = define_op("RandomUniform", _philox_kernel("RandomUniform", philox.uniform))
RandomUniformInt = define_op("RandomUniformInt",
                             _philox_kernel("RandomUniformInt", philox.uniform_int))
TruncatedNormal = define_op("TruncatedNormal",
                            _philox_kernel("TruncatedNormal", philox.truncated_normal))
Multinomial = define_op("Multinomial", _multinomial)
RandomShuffle = define_op("RandomShuffle", _shuffle)
# As GraphDef nodes: the stream a graph's random op draws from is tapeflow's own.
for _op in (RandomStandardNormal, RandomUniform, RandomUniformInt, TruncatedNormal, Multinomial):
    graph_def_form(_op.name, drop=("stream",))


def _drawn_shape(inputs, attrs) -> list:
    # A shape the graph computes is the op's last input (after a stateless op's seed): what
    # is known of it.
    shape = attrs["shape"]
    dims = tuple(shape) if shape is not None else constant_shape(inputs[-1])
    return [(np.dtype(attrs["dtype"]), dims)]


# Shapes for graph building: a probe run of a random kernel would advance its sequence.
for _op in (RandomStandardNormal, RandomUniform, RandomUniformInt, TruncatedNormal):
    _op.shape_fn = _drawn_shape
Multinomial.shape_fn = lambda inputs, attrs: [(np.dtype(attrs["output_dtype"]), (
    inputs[0].shape[0], attrs["num_samples"]))]
RandomShuffle.shape_fn = lambda inputs, attrs: [(inputs[0]._value.dtype, inputs[0]._dims)]


def _float_dtype(op_name: str, dtype) -> dtypes.DType:
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: dtype must be float16, float32 or float64, got "
            f"{dtype.name}")
    return dtype


def _seeded_attrs(op_name: str, shape, dtype, seed) -> dict:
    return {"shape": dims_values(op_name, shape), "dtype": dtype._np, **_seed_attrs(seed)}


def _draw(op, shape, dtype, seed) -> Tensor:
    """A float draw of `op`; a shape the graph computes when it runs is the op's input."""
    if not known_only_when_run(shape):
        return execute(op, (), _seeded_attrs(op.name, shape, dtype, seed))
    shape = shape if isinstance(shape, Tensor) else stack(list(shape))
    return execute(op, (shape,), {"shape": None, "dtype": dtype._np, **_seed_attrs(seed)})


def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None) -> Tensor:
    """Samples from a normal distribution: `standard_normal * stddev + mean`.

    Differentiable with respect to `mean` and `stddev` (tensors), not `shape`.

    Args:
        shape: the output shape.
        mean, stddev: scalars or tensors broadcastable to `shape`, of `dtype`.
        dtype: a floating dtype.
        seed: an op seed (see `tf.random.set_seed`).

    Raises:
        InvalidArgumentError: a non-floating dtype or a negative dimension.

    Example:
        >>> import tapeflow as tf
        >>> tf.random.normal([2, 3], seed=1).shape
        TensorShape([2, 3])
    """
    dtype = _float_dtype("RandomStandardNormal", dtype)
    mean_t = convert_to_tensor(mean, dtype=dtype)
    stddev_t = convert_to_tensor(stddev, dtype=dtype)
    rnd = _draw(RandomStandardNormal, shape, dtype, seed)
    return rnd * stddev_t + mean_t


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None,
                     name=None) -> Tensor:
    """Normal samples, re-drawn until within two standard deviations of `mean`.

    Example:
        >>> import tapeflow as tf
        >>> bool(abs(tf.random.truncated_normal([1000], seed=3).numpy()).max() <= 2.0)
        True
    """
    dtype = _float_dtype("TruncatedNormal", dtype)
    mean_t = convert_to_tensor(mean, dtype=dtype)
    stddev_t = convert_to_tensor(stddev, dtype=dtype)
    rnd = _draw(TruncatedNormal, shape, dtype, seed)
    return rnd * stddev_t + mean_t


def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None) -> Tensor:
    """Uniform samples in [minval, maxval) (maxval defaults to 1 for floats).

    Integer dtypes (int32, int64) need `maxval`. Differentiable with respect to float
    `minval` and `maxval` tensors.

    Raises:
        ValueError: an integer dtype without `maxval`.
        InvalidArgumentError: integer `minval >= maxval`, or an unsupported dtype.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.random.uniform([100], minval=2, maxval=5, dtype=tf.int32, seed=7)
        >>> bool((x.numpy() >= 2).all() and (x.numpy() < 5).all())
        True
    """
    dtype = dtypes.as_dtype(dtype)
    if dtype.is_integer:
        if dtype not in (dtypes.int32, dtypes.int64):
            raise errors.InvalidArgumentError(
                None, "RandomUniformInt", f"RandomUniformInt: dtype must be int32 or int64, got "
                f"{dtype.name}")
        if maxval is None:
            raise ValueError(f"Must specify maxval for integer dtype {dtype!r}")
        low = int_value("RandomUniformInt", minval, "minval")
        high = int_value("RandomUniformInt", maxval, "maxval")
        if low >= high:
            raise errors.InvalidArgumentError(
                None, "RandomUniformInt", f"RandomUniformInt: Need minval < maxval: {low} >= "
                f"{high}")
        attrs = _seeded_attrs("RandomUniformInt", shape, dtype, seed)
        attrs.update(low=low, high=high)
        return execute(RandomUniformInt, (), attrs)
    dtype = _float_dtype("RandomUniform", dtype)
    unit_range = isinstance(minval, numbers.Real) and minval == 0 and (
        maxval is None or (isinstance(maxval, numbers.Real) and maxval == 1))
    low = convert_to_tensor(minval, dtype=dtype)
    high = convert_to_tensor(1 if maxval is None else maxval, dtype=dtype)
    rnd = _draw(RandomUniform, shape, dtype, seed)
    return rnd if unit_range else rnd * (high - low) + low


def categorical_inputs(op_name: str, logits, num_samples, dtype) -> tuple:
    """(logits, num_samples, output dtype) of a categorical draw, checked.

    Raises:
        InvalidArgumentError: `logits` is not a float matrix, a negative `num_samples`, or a
            dtype other than int32/int64 (int64 when None).
    """
    x = as_input(logits)
    out = dtypes.int64 if dtype is None else dtypes.as_dtype(dtype)
    count = int_value(op_name, num_samples, "num_samples")
    if x.ndim != 2 or not x.dtype.is_floating or count < 0 or out not in (dtypes.int32,
                                                                          dtypes.int64):
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: logits must be a float matrix, num_samples >= 0 and "
            f"dtype int32 or int64; got a {x.dtype.name} tensor of shape {x.shape.as_list()}, "
            f"num_samples={count}, dtype={out.name}")
    return x, count, out


def categorical(logits, num_samples, dtype=None, seed=None, name=None) -> Tensor:
    """Draws `num_samples` class indices per row of `logits` (unnormalised log-probabilities).

    Args:
        logits: a `[batch, classes]` float tensor.
        num_samples: samples per row.
        dtype: int32 or int64 (default).

    Returns:
        A `[batch, num_samples]` integer tensor. Not differentiable.

    Raises:
        InvalidArgumentError: `logits` is not a matrix, or `num_samples` is negative.

    Example:
        >>> import tapeflow as tf
        >>> tf.random.categorical(tf.math.log([[0.5, 0.5]]), 5, seed=1).shape
        TensorShape([1, 5])
    """
    x, count, out = categorical_inputs("Multinomial", logits, num_samples, dtype)
    return execute(Multinomial, (x,), {"num_samples": count, **_seed_attrs(seed),
                                       "output_dtype": out._np})


def shuffle(value, seed=None, name=None) -> Tensor:
    """`value` with its first dimension randomly permuted.

    Example:
        >>> import tapeflow as tf
        >>> sorted(tf.random.shuffle(tf.constant([1, 2, 3]), seed=4).numpy().tolist())
        [1, 2, 3]
    """
    return execute(RandomShuffle, (as_input(value),), _seed_attrs(seed))


def dropout(x, rate, noise_shape=None, seed=None, name=None) -> Tensor:
    """Zeroes each element with probability `rate` and scales the rest by 1 / (1 - rate).

    The gradient flows through the kept elements (scaled the same way).

    Args:
        x: a floating tensor.
        rate: the drop probability, in [0, 1) (a float or a scalar tensor).
        noise_shape: the shape of the keep/drop mask, broadcast against `x`; None entries
            take `x`'s dimension.
        seed: an op seed (see `tf.random.set_seed`).

    Raises:
        ValueError: `rate` outside [0, 1), or `x` not floating.

    Example:
        >>> import tapeflow as tf
        >>> y = tf.nn.dropout(tf.ones([1000]), rate=0.5, seed=1).numpy()
        >>> sorted(set(y.tolist()))
        [0.0, 2.0]
    """
    x = dropout_input(x, rate)
    if isinstance(rate, numbers.Real) and rate == 0:
        get_seed(seed)  # keeps the op-seed sequence independent of this fast path, as TF
        return x
    return dropped(x, rate, noise_shape, lambda shape, dtype: uniform(shape, dtype=dtype,
                                                                      seed=seed))


def dropout_input(x, rate) -> Tensor:
    """`x` as a tensor, checked with `rate` for a dropout.

    Raises:
        ValueError: `rate` outside [0, 1), or `x` not floating.
    """
    if isinstance(rate, numbers.Real) and not 0 <= rate < 1:
        raise ValueError(f"`rate` must be a scalar tensor or a float in the range [0, 1). "
                         f"Received: rate={rate}")
    x = as_input(x)
    if not x.dtype.is_floating:
        raise ValueError(f"`x.dtype` must be a floating point tensor as `x` will be scaled. "
                         f"Received: x_dtype={x.dtype.name}")
    return x


def dropped(x: Tensor, rate, noise_shape, uniform_sampler) -> Tensor:
    """`x` with the elements whose uniform draw (`uniform_sampler(mask_shape, dtype)`, in
    [0, 1)) falls below `rate` zeroed and the rest scaled by 1 / (1 - rate): the one body
    of tf.nn.dropout and tf.nn.experimental's stateless and general dropouts (`x` and
    `rate` checked by `dropout_input`)."""
    if isinstance(rate, numbers.Real) and rate == 0:
        return x
    if isinstance(rate, numbers.Real):
        scale = convert_to_tensor(1 / (1 - rate), dtype=x.dtype)
        threshold = rate
    else:
        rate = convert_to_tensor(rate, dtype=x.dtype)
        if rate.ndim:
            raise ValueError(f"`rate` must be a scalar, got shape {rate.shape.as_list()}")
        scale = 1 / (1 - rate)
        threshold = rate  # a tensor: the comparison is an op, so a graph can compute it
    if noise_shape is None and not x.shape.is_fully_defined():
        mask_shape = shape_of_tensor(x)  # known when the graph runs
    elif noise_shape is not None and known_only_when_run(noise_shape):
        mask_shape = noise_shape  # (`tf.shape(x)` of a tensor a graph knows partly)
    else:
        shape = x.shape.as_list()
        dims = shape if noise_shape is None else (
            noise_shape.as_list() if hasattr(noise_shape, "as_list")
            else list(getattr(noise_shape, "_value", noise_shape)))
        if len(dims) == len(shape):
            dims = [s if d is None else d for d, s in zip(dims, shape)]
        mask_shape = [int(d) for d in dims]
    noise = uniform_sampler(mask_shape, x.dtype)
    # Ops, not the noise's value, so that dropout can be traced by tf.function.
    keep = math_ops.cast(noise >= threshold, x.dtype)
    return x * scale * keep


def _gamma(alpha, *, shape, seed, seed2, stream=None):
    count = int(np.prod(shape, dtype=np.int64))
    key, counter = _stream("RandomGamma", seed, seed2, alpha.dtype,
                           philox.RESERVED_PER_OUTPUT * count * alpha.size, stream)
    return philox.gamma(key, counter, alpha, count).astype(alpha.dtype).reshape(
        shape + alpha.shape)


def _poisson(rate, *, shape, seed, seed2, dtype, stream=None):
    count = int(np.prod(shape, dtype=np.int64))
    key, counter = _stream("RandomPoissonV2", seed, seed2, rate.dtype,
                           philox.RESERVED_PER_OUTPUT * count * rate.size, stream)
    return philox.poisson(key, counter, rate, count).astype(dtype).reshape(shape + rate.shape)


def _gamma_sample_grad(alpha, sample):
    # d sample / d alpha at a fixed CDF level: -(dP/dalpha) / density. Left of the mean by
    # P's series, right of it by Q = 1 - P's continued fraction (the series cancels there).
    from .special_ops import scipy_special
    a, x = np.broadcast_arrays(alpha.astype(np.float64), sample.astype(np.float64))
    right = x > a + 1
    grad = np.empty_like(a)
    grad[~right] = _series_sample_grad(a[~right], x[~right], scipy_special().psi)
    grad[right] = _fraction_sample_grad(a[right], x[right], scipy_special().psi)
    return grad.astype(sample.dtype)


def _series_sample_grad(a, x, psi):
    # P(a, x) = sum_n x^(a+n) e^-x / Gamma(a+n+1) differentiated term by term, over the
    # density x^(a-1) e^-x / Gamma(a): -(x/a) sum_n r_n (log x - psi(a+1+n)),
    # r_n = prod_{k<=n} x / (a+k).
    log_x = np.log(x)
    digamma = psi(a + 1)
    ratio = np.ones_like(a)
    total = log_x - digamma
    n = 0
    while ratio.size:
        n += 1
        ratio = ratio * x / (a + n)
        digamma = digamma + 1 / (a + n)
        total = total + ratio * (log_x - digamma)
        if n > np.max(x - a, initial=0) and np.all(ratio <= 1e-17 * np.abs(total)):
            break
    return -(x / a) * total


def _fraction_sample_grad(a, x, psi):
    # Q(a, x) = x^a e^-x h / Gamma(a) with h Legendre's continued fraction, evaluated by
    # Lentz's method carrying d/da of every quantity; over the density this leaves
    # x (h (log x - psi(a)) + dh/da).
    b = x + 1 - a
    d = 1 / b
    dd = d * d
    c = np.full_like(a, 1e300)
    dc = np.zeros_like(a)
    h, dh = d, dd
    i = 0
    while a.size:
        i += 1
        an, dan = -i * (i - a), float(i)
        b = b + 2
        denominator = an * d + b
        d_denominator = dan * d + an * dd - 1
        d = 1 / denominator
        dd = -d_denominator * d * d
        c, dc = b + an / c, -1 + (dan * c - an * dc) / (c * c)
        step = d * c
        h, dh, previous = h * step, dh * step + h * (dd * c + d * dc), dh
        # (a step of exactly 1 can leave dh moving: integer a truncates the fraction)
        if np.all((np.abs(step - 1) < 1e-16) & (np.abs(dh - previous) <= 1e-16 * np.abs(dh))) \
                or i > 10000:
            break
    return x * (h * (np.log(x) - psi(a)) + dh)


RandomGamma = define_op("RandomGamma", _gamma)
RandomPoissonV2 = define_op("RandomPoissonV2", _poisson)
# The gradient of a gamma sample with respect to its concentration (implicit
# reparameterisation); elementwise in (alpha, sample) after broadcasting.
RandomGammaGrad = define_op("RandomGammaGrad", _gamma_sample_grad)
RandomGamma.shape_fn = lambda inputs, attrs: [(inputs[-1]._value.dtype, tuple(
    attrs["shape"]) + tuple(inputs[-1]._dims))]
RandomPoissonV2.shape_fn = lambda inputs, attrs: [(np.dtype(attrs["dtype"]), tuple(
    attrs["shape"]) + tuple(inputs[0]._dims))]


def gamma(shape, alpha, beta=None, dtype=dtypes.float32, seed=None, name=None) -> Tensor:
    """Gamma samples of concentration `alpha` and rate `beta` (default 1), of shape
    `shape + broadcast_shape(alpha, beta)`.

    Differentiable with respect to `alpha` (TF's implicit reparameterisation gradient) and
    `beta`. With seeds, TF's numbers bit for bit.

    Raises:
        InvalidArgumentError: a non-float dtype or a negative dimension.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.random.gamma([5000], alpha=[1.0, 4.0], beta=2.0, seed=1)
        >>> x.shape, [round(float(m), 1) for m in tf.reduce_mean(x, axis=0).numpy()]
        (TensorShape([5000, 2]), [0.5, 2.0])
    """
    dtype = _float_dtype("RandomGamma", dtype)
    alpha = convert_to_tensor(alpha, dtype=dtype)
    beta = convert_to_tensor(1 if beta is None else beta, dtype=dtype)
    batch = np.broadcast_shapes(tuple(alpha.shape.as_list()), tuple(beta.shape.as_list()))
    if tuple(alpha.shape.as_list()) != batch:
        from .array_ops import broadcast_to
        alpha = broadcast_to(alpha, list(batch))
    attrs = _seeded_attrs("RandomGamma", shape, dtype, seed)
    del attrs["dtype"]
    return math_ops.maximum(np.finfo(dtype._np).tiny,
                            execute(RandomGamma, (alpha,), attrs) / beta)


def poisson(shape, lam, dtype=dtypes.float32, seed=None, name=None) -> Tensor:
    """Poisson samples of rate `lam`, of shape `shape + lam.shape`; `dtype` a float or
    int32/int64. As in TF, the op has no gradient rule (differentiating it raises
    LookupError). With seeds, TF's numbers bit for bit.

    Raises:
        InvalidArgumentError: a negative dimension.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.random.poisson([2000], [1.0, 30.0], seed=2)
        >>> x.shape, [round(float(m)) for m in tf.reduce_mean(x, axis=0).numpy()]
        (TensorShape([2000, 2]), [1, 30])
    """
    rate = as_input(lam)
    attrs = _seeded_attrs("RandomPoissonV2", shape, dtypes.as_dtype(dtype), seed)
    return execute(RandomPoissonV2, (rate,), attrs)
