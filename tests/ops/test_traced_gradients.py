"""Every gradient rule builds plain graph ops: for each differentiable row of the op-case table,
the first and second derivatives traced in a tf.function equal the eager ones, and no traced
graph (nested function bodies, cond and while branches, backward graphs) holds an EagerPyFunc,
the node a rule that read values while the graph was built would run as."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.testing.op_cases import CASES, NO_SECOND_DERIVATIVE

# Rows whose traced graphs may hold an EagerPyFunc, with why.
CALLBACKS = {"EagerPyFunc": "tf.py_function: the row runs the user's Python"}

# Rows whose derivatives depend on a random draw, which a traced function makes afresh (as
# in TF): only their graphs are checked.
RANDOM_DRAWS = {"Mul[dropout]", "Mul[dropout noise_shape]", "Mul[random.normal mean, stddev]",
                "Mul[random.uniform minval, maxval]"}

DIFFERENTIABLE = [c for c in CASES if c.differentiable]


def _graph_ops(graph, seen: set):
    """The operations of `graph` and of every graph its nodes call, each graph once."""
    if id(graph) in seen:
        return
    seen.add(id(graph))
    for op in graph.get_operations():
        yield op
        for value in op.attrs.values():
            for inner in _called_graphs(value):
                yield from _graph_ops(inner, seen)


def _called_graphs(value):
    """The graphs an attribute holds: a function's (a call, a cond or while branch), or a
    graph itself; lists of them too."""
    if isinstance(value, tf.Graph):
        yield value
    elif isinstance(getattr(value, "graph", None), tf.Graph):
        yield value.graph
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _called_graphs(item)


def _derivatives(fn, case, upstream, weights):
    """A function of the row's arguments returning the first derivatives of <fn, upstream>
    and the second, the gradient of sum(first * weights), with respect to each float
    argument (None where there is none)."""
    floats = [i for i, a in enumerate(case.args) if a.dtype.kind == "f"]

    def derivatives(*args):
        xs = [args[i] for i in floats]
        with tf.GradientTape() as outer:
            outer.watch(xs)
            with tf.GradientTape() as inner:
                inner.watch(xs)
                out = fn(*args)
            first = [None if g is None else tf.convert_to_tensor(g)
                     for g in inner.gradient(out, xs, output_gradients=upstream)]
            total = tf.add_n([tf.reduce_sum(g * w) for g, w in zip(first, weights)
                              if g is not None])
        if case.op in NO_SECOND_DERIVATIVE:
            return first, []
        second = outer.gradient(total, xs)
        return first, [None if g is None else tf.convert_to_tensor(g) for g in second]
    return derivatives


def _assert_close(got, want):
    for g, w in zip(got, want):
        if w is None:  # a constant rule (Sign's) may give connected zeros in a graph
            assert g is None or not np.any(g.numpy())
        else:
            np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("case", DIFFERENTIABLE, ids=[c.id for c in DIFFERENTIABLE])
def test_traced_gradients_are_graph_ops_and_match_eager(case):
    args = [tf.constant(a) for a in case.args]
    rng = np.random.default_rng(0)
    out = tf.convert_to_tensor(case.fn(*args))
    upstream = tf.cast(rng.standard_normal(out.shape), out.dtype)
    weights = [rng.standard_normal(a.shape) for a in case.args if a.dtype.kind == "f"]
    eager = _derivatives(case.fn, case, upstream, weights)
    # Tapes inside the function, and eager tapes around it (its traced backward graphs).
    inside = tf.function(eager)
    forward = tf.function(case.fn)
    around = _derivatives(forward, case, upstream, weights)
    want = eager(*args)
    for traced in (inside(*args), around(*args)):
        if case.id not in RANDOM_DRAWS:
            for got, expected in zip(traced, want):
                _assert_close(got, expected)
    if case.op not in CALLBACKS:
        seen: set = set()
        callbacks = [op.name for f in (inside, forward)
                     for op in _graph_ops(f.get_concrete_function(*args).graph, seen)
                     if op.type == "EagerPyFunc"]
        assert callbacks == []
