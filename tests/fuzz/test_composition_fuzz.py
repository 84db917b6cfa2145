"""Random compositions of elementwise, broadcasting, reduction, shape and indexing ops on
random shapes (empty and size-1 dimensions included), checked four ways:

(a) eager against tf.function, bit for bit (values and gradients);
(b) first and second derivatives against central differences, in float64;
(c) forward against reverse mode: <J v, u> = <v, J^T u>;
(d) the vectorized Jacobian (and batch Jacobian) against the loop.

A program is literal data: input shapes and a list of steps `(op, args)`, each applied to the
running value (binary steps take input `args[0]` as the other operand), so that a failure
hypothesis finds is pasted into REGRESSIONS as it prints.
"""
import math
import os

import numpy as np
import pytest
from hypothesis import assume, currently_in_test_context, given, settings
from hypothesis import strategies as st

import tapeflow as tf

FUZZ = settings.get_profile(os.environ.get("TAPEFLOW_FUZZ", "fuzz-ci"))
MAX_SIZE, MAX_RANK = 48, 4

UNARY = {"sin": tf.sin, "cos": tf.cos, "tanh": tf.tanh, "sigmoid": tf.sigmoid,
         "softplus": tf.math.softplus, "square": tf.square, "negative": tf.negative,
         "exp": tf.exp, "abs": tf.abs, "relu": tf.nn.relu}
BINARY = {"add": tf.add, "subtract": tf.subtract, "multiply": tf.multiply,
          "maximum": tf.maximum, "squared_difference": tf.math.squared_difference,
          "divide": lambda x, y: x / (2.0 + tf.tanh(y))}
CONTRACT = {"tensordot": lambda x, y: tf.tensordot(x, y, 1), "matmul": tf.matmul}
REDUCE = {"reduce_sum": tf.reduce_sum, "reduce_mean": tf.reduce_mean,
          "reduce_max": tf.reduce_max, "reduce_min": tf.reduce_min,
          "reduce_prod": tf.reduce_prod, "reduce_logsumexp": tf.reduce_logsumexp,
          "reduce_variance": tf.math.reduce_variance}
ALONG_AXIS = {
    "softmax": lambda x, axis: tf.nn.softmax(x, axis=axis),
    "log_softmax": lambda x, axis: tf.nn.log_softmax(x, axis=axis),
    "l2_normalize": lambda x, axis: tf.math.l2_normalize(x, axis=axis),
    "cumprod": lambda x, axis: tf.math.cumprod(x, axis=axis),
    "roll": lambda x, axis: tf.roll(x, shift=1, axis=axis),
}
SHAPE = {
    "reshape": lambda x, shape: tf.reshape(x, shape),
    "transpose": lambda x, perm: tf.transpose(x, perm),
    "expand_dims": lambda x, axis: tf.expand_dims(x, axis),
    "squeeze": lambda x, axis: tf.squeeze(x, [axis]),
    "tile": lambda x, multiples: tf.tile(x, multiples),
    "concat": lambda x, axis: tf.concat([x, x * 2], axis),
    "stack": lambda x, axis: tf.stack([x, -x], axis),
    "reverse": lambda x, axis: tf.reverse(x, [axis]),
    "broadcast_to": lambda x, shape: tf.broadcast_to(x, shape),
    "cumsum": lambda x, axis, exclusive, reverse: tf.cumsum(x, axis, exclusive, reverse),
    "pad": lambda x, paddings, mode: tf.pad(x, paddings, mode),
    "repeat": lambda x, repeats, axis: tf.repeat(x, repeats, axis=axis),
    "where_positive": lambda x: tf.where(x > 0, x, x * x),
    "clip": lambda x: tf.clip_by_value(x, -1, 1),
}
INDEX = {
    "getitem": lambda x, start, stop, step: x[start:stop:step],
    "gather": lambda x, indices, axis: tf.gather(x, np.array(indices, np.int32), axis=axis),
    "slice": lambda x, begin, size: tf.slice(x, begin, size),
    "last_axis_reversed": lambda x: x[..., ::-1],
}
OPS = {**UNARY, **REDUCE, **ALONG_AXIS, **SHAPE, **INDEX}
NOT_SMOOTH = {"abs", "relu", "maximum", "reduce_max", "reduce_min", "where_positive", "clip",
              "l2_normalize"}
FLOAT_ONLY = {"sin", "cos", "tanh", "sigmoid", "softplus", "exp", "divide", "reduce_logsumexp",
              "reduce_variance", "softmax", "log_softmax", "l2_normalize", "reduce_mean"}


def run(program, inputs, seen=None):
    """The program's output for `inputs` (tensors, or graph tensors inside tf.function);
    each intermediate value is appended to list `seen` if one is given."""
    _, steps = program
    value = inputs[0]
    for name, args in steps:
        if seen is not None:
            seen.append(value)
        if name in BINARY:
            value = BINARY[name](value, inputs[args[0]])
        elif name in CONTRACT:
            value = CONTRACT[name](value, inputs[args[0]])
        elif name in REDUCE:
            axis, keepdims = args
            value = REDUCE[name](value, axis=axis, keepdims=keepdims)
        else:
            value = OPS[name](value, *args)
    return value


# -- generating programs -------------------------------------------------------------------
def _step(draw, shape: tuple, n_inputs: int):
    """One step applicable to a value of `shape`: ((name, args), new shape, new input shape
    or None)."""
    rank = len(shape)
    kind = draw(st.sampled_from(["unary", "binary", "contract", "reduce", "axis", "shape",
                                 "index"]))
    if kind == "unary":
        return (draw(st.sampled_from(sorted(UNARY))), ()), shape, None
    if kind == "contract" and rank:
        name = "matmul" if rank >= 2 and draw(st.booleans()) else "tensordot"
        other = (shape[-1], draw(st.integers(1, 3)))
        return (name, (n_inputs,)), shape[:-1] + other[1:], other
    if kind == "axis" and rank:
        name = draw(st.sampled_from(sorted(ALONG_AXIS)))
        return (name, (draw(st.integers(-rank, rank - 1)),)), shape, None
    if kind == "binary":
        name = draw(st.sampled_from(sorted(BINARY)))
        other = tuple(draw(st.sampled_from([d, 1])) for d in shape)
        other = other[draw(st.integers(0, rank)):]
        if rank < MAX_RANK and draw(st.booleans()):
            other = (draw(st.integers(1, 2)),) + other if len(other) == rank else other
        out = np.broadcast_shapes(shape, other)
        return (name, (n_inputs,)), out, other
    if kind == "reduce":
        name = draw(st.sampled_from(sorted(REDUCE)))
        axis = None if not rank or draw(st.booleans()) else draw(st.integers(-rank, rank - 1))
        keepdims = draw(st.booleans())
        if axis is None:
            out = (1,) * rank if keepdims else ()
        else:
            out = tuple(1 if i == axis % rank else d for i, d in enumerate(shape)) if keepdims \
                else shape[:axis % rank] + shape[axis % rank + 1:]
        return (name, (axis, keepdims)), out, None
    if kind == "shape":
        name = draw(st.sampled_from(sorted(SHAPE)))
        if name == "reshape":
            target = (-1,) if draw(st.booleans()) or not rank else shape[::-1]
            return (name, (list(target),)), (math.prod(shape),) if target == (-1,) else target, None
        if name == "transpose" and rank:
            perm = draw(st.permutations(range(rank)))
            return (name, (list(perm),)), tuple(shape[p] for p in perm), None
        if name == "expand_dims" and rank < MAX_RANK:
            axis = draw(st.integers(-rank - 1, rank))
            a = axis % (rank + 1)
            return (name, (axis,)), shape[:a] + (1,) + shape[a:], None
        if name == "squeeze" and 1 in shape:
            axis = draw(st.sampled_from([i for i, d in enumerate(shape) if d == 1]))
            return (name, (axis,)), shape[:axis] + shape[axis + 1:], None
        if name == "tile" and rank:
            multiples = [draw(st.integers(1, 2)) for _ in shape]
            return (name, (multiples,)), tuple(d * m for d, m in zip(shape, multiples)), None
        if name in ("concat", "reverse", "cumsum") and rank:
            axis = draw(st.integers(-rank, rank - 1))
            if name == "concat":
                a = axis % rank
                return (name, (axis,)), shape[:a] + (2 * shape[a],) + shape[a + 1:], None
            if name == "cumsum":
                return (name, (axis, draw(st.booleans()), draw(st.booleans()))), shape, None
            return (name, (axis,)), shape, None
        if name == "stack" and rank < MAX_RANK:
            axis = draw(st.integers(-rank - 1, rank))
            a = axis % (rank + 1)
            return (name, (axis,)), shape[:a] + (2,) + shape[a:], None
        if name == "pad" and rank:
            paddings = [[draw(st.integers(0, min(1, d))), draw(st.integers(0, min(1, d)))]
                        for d in shape]
            mode = draw(st.sampled_from(["CONSTANT", "SYMMETRIC"]))
            return (name, (paddings, mode)), tuple(d + a + b for d, (a, b) in
                                                   zip(shape, paddings)), None
        if name == "repeat" and rank:
            axis = draw(st.integers(-rank, rank - 1))
            repeats = draw(st.integers(0, 2))
            a = axis % rank
            return (name, (repeats, axis)), shape[:a] + (shape[a] * repeats,) + shape[a + 1:], \
                None
        if name in ("where_positive", "clip"):
            return (name, ()), shape, None
        if name == "broadcast_to" and rank < MAX_RANK:
            target = (draw(st.integers(0, 2)),) + shape
            return (name, (list(target),)), target, None
        return ("negative", ()), shape, None
    if not rank:
        return ("square", ()), shape, None
    name = draw(st.sampled_from(sorted(INDEX)))
    if name == "getitem":
        n = shape[0]
        start = draw(st.integers(-n - 1, n + 1))
        stop = draw(st.integers(-n - 1, n + 1))
        step = draw(st.sampled_from([1, 2, -1, -2]))
        return (name, (start, stop, step)), (len(range(n)[start:stop:step]),) + shape[1:], None
    if name == "gather":
        axis = draw(st.integers(-rank, rank - 1))
        n = shape[axis]
        indices = draw(st.lists(st.integers(0, n - 1), max_size=4)) if n else []
        a = axis % rank
        return (name, (indices, axis)), shape[:a] + (len(indices),) + shape[a + 1:], None
    if name == "slice":
        begin = [draw(st.integers(0, d)) for d in shape]
        size = [draw(st.integers(-1, d - b)) for d, b in zip(shape, begin)]
        return (name, (begin, size)), tuple(d - b if s == -1 else s
                                            for d, b, s in zip(shape, begin, size)), None
    return (name, ()), shape, None


@st.composite
def programs(draw, smooth: bool = False, integer: bool = False):
    """(input shapes, steps) with every intermediate of at most MAX_SIZE elements; `smooth`
    leaves out ops with kinks, `integer` those without integer kernels."""
    shape = tuple(draw(st.lists(st.sampled_from([0, 1, 2, 3]), max_size=3)))
    shapes, steps = [shape], []
    for _ in range(draw(st.integers(1, 8))):
        step, out, other = _step(draw, shape, len(shapes))
        if smooth and step[0] in NOT_SMOOTH or integer and step[0] in FLOAT_ONLY:
            continue
        if math.prod(out) > MAX_SIZE or len(out) > MAX_RANK:
            continue
        if other is not None:
            shapes.append(other)
        steps.append(step)
        shape = out
    return shapes, steps


def inputs_for(program, dtype=np.float64, seed: int = 0) -> list:
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "i":
        return [tf.constant(rng.integers(-3, 4, s).astype(dtype)) for s in program[0]]
    return [tf.constant(rng.uniform(-1.5, 1.5, s).astype(dtype)) for s in program[0]]


def finite_output(program, xs):
    """The output; programs with a value that is not finite or above 1e4 anywhere (where
    0 * inf makes a nan gradient, and differences lose their digits) are passed over."""
    seen = []
    out = run(program, xs, seen).numpy()
    for value in seen + [out]:
        value = np.asarray(value)
        pass_over_unless(np.all(np.isfinite(value)) and np.all(np.abs(value) < 1e4))
    return out


def pass_over_unless(condition) -> None:
    """hypothesis's `assume`, or a skip in a regression case run on its own."""
    if currently_in_test_context():
        assume(condition)
    elif not condition:
        pytest.skip("a value is not finite, or too large or too steep to check")


# -- the checks ------------------------------------------------------------------------------
def check_eager_matches_function(program, dtype):
    xs = inputs_for(program, dtype)
    with tf.GradientTape() as tape:
        tape.watch(xs)
        eager = run(program, xs)
        loss = tf.reduce_sum(eager * eager)
    eager_grads = tape.gradient(loss, xs)

    @tf.function
    def traced(*xs):
        with tf.GradientTape() as tape:
            tape.watch(xs)
            out = run(program, xs)
            loss = tf.reduce_sum(out * out)
        return out, tape.gradient(loss, xs)
    graph, graph_grads = traced(*xs)
    assert graph.dtype == eager.dtype and graph.shape == eager.shape
    np.testing.assert_array_equal(graph.numpy(), eager.numpy(), strict=True)
    for g, e, x in zip(graph_grads, eager_grads, xs):
        assert (g is None) == (e is None)
        np.testing.assert_array_equal(dense(g, x), dense(e, x), strict=True)


def dense(gradient, like) -> np.ndarray:
    """A gradient (None, a Tensor or IndexedSlices) as an array shaped like `like`."""
    if gradient is None:
        return np.zeros_like(like)
    return tf.convert_to_tensor(gradient).numpy()


def _loss(program, xs, weights):
    return tf.reduce_sum(run(program, xs) * weights)


def _central(f, arrays, h):
    """The gradient of scalar f(list of arrays) by central differences element by element,
    Richardson-extrapolated from steps h and h/2 (error O(h^4), for steep programs)."""
    def difference(i, j, step):
        up = [x.copy() for x in arrays]
        down = [x.copy() for x in arrays]
        up[i][j] += step
        down[i][j] -= step
        return (f(up) - f(down)) / (2 * step)
    grads = []
    for i, a in enumerate(arrays):
        g = np.zeros_like(a)
        for j in np.ndindex(a.shape):
            g[j] = (4 * difference(i, j, h / 2) - difference(i, j, h)) / 3
        grads.append(g)
    return grads


def check_derivatives(program):
    xs = inputs_for(program)
    out = finite_output(program, xs)
    rng = np.random.default_rng(1)
    weights = tf.constant(rng.uniform(-1, 1, out.shape))
    arrays = [np.array(x.numpy()) for x in xs]

    def loss(arrays):
        return float(_loss(program, [tf.constant(a) for a in arrays], weights))

    def gradient(arrays):
        ts = [tf.constant(a) for a in arrays]
        with tf.GradientTape() as tape:
            tape.watch(ts)
            value = _loss(program, ts, weights)
        return [dense(g, a) for g, a in zip(tape.gradient(value, ts), arrays)]
    first = gradient(arrays)
    # Past 1e5, a program is too steep for differences to judge (exp of exp of a square).
    pass_over_unless(all(np.all(np.abs(g) < 1e5) for g in first))
    for g, n in zip(first, _central(loss, arrays, 1e-6)):
        np.testing.assert_allclose(g, n, rtol=1e-5, atol=1e-6)
    # second order: a Hessian-vector product by nested tapes against differenced gradients
    vs = [rng.uniform(-1, 1, a.shape) for a in arrays]
    with tf.GradientTape() as outer:
        outer.watch(xs)
        with tf.GradientTape() as inner:
            inner.watch(xs)
            value = _loss(program, xs, weights)
        grads = inner.gradient(value, xs)
        directional = tf.add_n([tf.reduce_sum(tf.convert_to_tensor(g) * v)
                                for g, v in zip(grads, vs) if g is not None]
                               or [tf.constant(0.0, tf.float64)])
    hvp = [dense(g, a) for g, a in zip(outer.gradient(directional, xs), arrays)]
    pass_over_unless(all(np.all(np.abs(g) < 1e5) for g in hvp))

    def differenced(h):  # the gradient's change along vs, by central differences
        up = gradient([a + h * v for a, v in zip(arrays, vs)])
        down = gradient([a - h * v for a, v in zip(arrays, vs)])
        return [(u - d) / (2 * h) for u, d in zip(up, down)]
    for g, coarse, fine in zip(hvp, differenced(1e-5), differenced(5e-6)):
        np.testing.assert_allclose(g, (4 * fine - coarse) / 3, rtol=1e-4, atol=1e-5)


def check_jvp_against_vjp(program):
    xs = inputs_for(program)
    out = finite_output(program, xs)
    rng = np.random.default_rng(2)
    vs = [tf.constant(rng.uniform(-1, 1, x.shape)) for x in xs]
    u = tf.constant(rng.uniform(-1, 1, out.shape))
    with tf.autodiff.ForwardAccumulator(xs, vs) as acc:
        y = run(program, xs)
    jv = acc.jvp(y, unconnected_gradients="zero")
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = run(program, xs)
    jtu = tape.gradient(y, xs, output_gradients=u, unconnected_gradients="zero")
    left = float(tf.reduce_sum(jv * u))
    right = sum(float(np.sum(v.numpy() * dense(g, v))) for v, g in zip(vs, jtu))
    assert left == pytest.approx(right, rel=1e-9, abs=1e-9)


def check_jacobian_against_loop(program):
    xs = inputs_for(program)
    out = finite_output(program, xs)
    if currently_in_test_context():  # an empty target is a known bug, kept in REGRESSIONS
        assume(out.size)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(xs)
        y = run(program, xs)
    vectorized = tape.jacobian(y, xs, unconnected_gradients="zero")
    looped = tape.jacobian(y, xs, unconnected_gradients="zero", experimental_use_pfor=False)
    for v, lp, x in zip(vectorized, looped, xs):
        assert v.shape == y.shape + x.shape
        np.testing.assert_allclose(v.numpy(), lp.numpy(), rtol=1e-12, atol=1e-12)
    x = xs[0]
    if y.ndim >= 2 and x.ndim >= 2 and y.shape[0] == x.shape[0]:  # rows of y and of x
        batched = tape.batch_jacobian(y, x, unconnected_gradients="zero")
        looped = tape.batch_jacobian(y, x, unconnected_gradients="zero",
                                     experimental_use_pfor=False)
        assert batched.shape == y.shape[:1] + y.shape[1:] + x.shape[1:]
        np.testing.assert_allclose(batched.numpy(), looped.numpy(), rtol=1e-12, atol=1e-12)


# -- properties and the failures found so far -----------------------------------------------
REGRESSIONS = {
    # name: (check, program, xfail reason or None)
    "empty target, looped Jacobian": (check_jacobian_against_loop,
                                      ([(0,)], [("abs", ())]), None),
    "gather of no indices, inside a function": (
        check_eager_matches_function, ([(1,)], [("gather", ([], 0))]), None),
    "gather of no indices, second order": (check_derivatives,
                                           ([(0,)], [("gather", ([], 0))]), None),
    "batched matmul gradient with no columns": (
        check_jacobian_against_loop,
        ([(0, 0), (0, 1)], [("matmul", (1,)), ("reduce_prod", (0, False))]), None),
    "a steep program (cos of exp(8 x))": (check_derivatives, (
        [()], [("exp", ()), ("square", ()), ("square", ()), ("square", ()), ("cos", ())]), None),
    "softmax of an empty tensor": (check_eager_matches_function,
                                   ([(0,)], [("softmax", (0,))]), None),
    "log_softmax of an empty tensor, second order": (
        check_derivatives, ([()], [("broadcast_to", ([0],)), ("log_softmax", (0,))]), None),
}


@FUZZ
@given(programs(), st.sampled_from([np.float32, np.float64]))
def test_eager_matches_function_bit_for_bit(program, dtype):
    check_eager_matches_function(program, dtype)


@FUZZ
@given(programs(integer=True))
def test_integer_programs_eager_match_function(program):
    check_eager_matches_function(program, np.int32)


@FUZZ
@given(programs(smooth=True))
def test_derivatives_match_central_differences(program):
    check_derivatives(program)


@FUZZ
@given(programs())
def test_jvp_matches_vjp(program):
    check_jvp_against_vjp(program)


@FUZZ
@given(programs())
def test_vectorized_jacobian_matches_the_loop(program):
    check_jacobian_against_loop(program)


@pytest.mark.parametrize("name", [
    pytest.param(name, marks=pytest.mark.xfail(reason=bug, strict=True)) if bug else name
    for name, (_, _, bug) in sorted(REGRESSIONS.items())])
def test_regressions(name):
    check, program, _ = REGRESSIONS[name]
    check(*(program, np.float32) if check is check_eager_matches_function else (program,))
