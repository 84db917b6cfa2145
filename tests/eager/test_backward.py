"""The reverse loop: its per-source hook (`final_gradient_hooks`: each source's gradient is
reported once, as soon as the loop has finished it, and is the gradient returned) and how it
sums the gradients reaching one tensor (in place only into arrays nobody else holds)."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.eager.backprop import final_gradient_hooks

RNG = np.random.default_rng(0)
X = RNG.normal(size=(4, 3)).astype("float32")
W1, B1 = RNG.normal(size=(3, 5)).astype("float32"), RNG.normal(size=5).astype("float32")
W2, B2 = RNG.normal(size=(5, 2)).astype("float32"), RNG.normal(size=2).astype("float32")


def recording():
    """A hook factory and its log of (index, gradient) calls, one list per gradient call."""
    calls = []

    def factory(sources):
        calls.append([])
        return lambda index, gradient: calls[-1].append((index, gradient))

    return factory, calls


def mlp_gradients(variables, sources, persistent=False, unconnected="none"):
    w1, b1, w2, b2 = variables
    with tf.GradientTape(persistent=persistent) as tape:
        hidden = tf.nn.relu(tf.matmul(tf.constant(X), w1) + b1)
        loss = tf.reduce_sum((tf.matmul(hidden, w2) + b2) ** 2)
    return tape.gradient(loss, sources(variables, hidden),
                         unconnected_gradients=unconnected)


def make_variables():
    return [tf.Variable(v) for v in (W1, B1, W2, B2)]


@pytest.mark.parametrize("function", [False, True], ids=["eager", "tf.function"])
def test_each_source_is_reported_once_last_layer_first_with_the_gradient_returned(function):
    variables = make_variables()
    factory, calls = recording()

    def run():
        with final_gradient_hooks(factory):
            grads = mlp_gradients(variables, lambda v, _: v)
        # Inside a graph the hook sees the graph's tensors: the ones returned.
        assert [g for _, g in sorted(calls[-1], key=lambda c: c[0])] == grads \
            and all(g is grads[i] for i, g in calls[-1])
        return grads

    grads = tf.function(run)() if function else run()
    assert [i for i, _ in calls[0]] == [3, 2, 1, 0]    # b2, w2 finished before layer 1
    expected = mlp_gradients(make_variables(), lambda v, _: v)
    for g, e in zip(grads, expected):
        np.testing.assert_array_equal(g.numpy(), e.numpy())


@pytest.mark.parametrize("unconnected", ["none", "zero"])
def test_unconnected_repeated_and_intermediate_sources_are_each_reported_once(unconnected):
    variables = make_variables()
    unused = tf.Variable([1.0, 2.0])
    factory, calls = recording()

    def sources(v, hidden):
        return [unused, v[2], hidden, v[0], v[2]]

    with final_gradient_hooks(factory):
        grads = mlp_gradients(variables, sources, unconnected=unconnected)
    reported = dict(calls[0])
    assert sorted(i for i, _ in calls[0]) == [0, 1, 2, 3, 4]
    assert all(reported[i] is g for i, g in enumerate(grads))
    # w2 (twice), then the hidden layer; after the loop, in source order, the unused
    # variable and w1 (whose last record, the first op, ends the loop).
    assert [i for i, _ in calls[0]] == [1, 4, 2, 0, 3]
    if unconnected == "none":
        assert grads[0] is None
    else:
        np.testing.assert_array_equal(grads[0].numpy(), [0.0, 0.0])
    np.testing.assert_array_equal(grads[1].numpy(), grads[4].numpy())


def test_a_persistent_tape_reports_every_call_and_no_factory_or_none_means_no_hook():
    variables = make_variables()
    factory, calls = recording()
    with final_gradient_hooks(factory):
        w1, b1, w2, b2 = variables
        with tf.GradientTape(persistent=True) as tape:
            loss = tf.reduce_sum(tf.matmul(tf.matmul(tf.constant(X), w1), w2))
        first = tape.gradient(loss, [w1, w2])
        second = tape.gradient(loss, [w2])
        with final_gradient_hooks(lambda sources: None):
            tape.gradient(loss, [w1])
    tape.gradient(loss, [w1])
    assert [[i for i, _ in call] for call in calls] == [[1, 0], [0]]
    assert calls[0][0][1] is first[1] and calls[1][0][1] is second[0]


# -- summing -------------------------------------------------------------------------------

def test_a_weight_read_many_times_sums_its_gradients_and_no_array_anyone_holds_changes():
    # w's gradient is summed over four reads (in place, into the loop's own array); the
    # upstream arrays, the inputs and the recorded values must stay as they were, so a
    # persistent tape gives the same gradient twice.
    x, w0 = X[:, :3].copy(), (np.eye(3) * 0.5 + 0.1).astype("float32")
    upstream = RNG.normal(size=(4, 3)).astype("float32")
    kept = [a.copy() for a in (x, w0, upstream)]
    upstream = [tf.constant(upstream), tf.constant(upstream)]
    w = tf.Variable(w0)
    with tf.GradientTape(persistent=True) as tape:
        y = tf.constant(x)
        for _ in range(4):
            y = tf.matmul(y, w)
        z = y + y
    first = tape.gradient([z, z], w, output_gradients=upstream).numpy()
    second = tape.gradient([z, z], w, output_gradients=upstream).numpy()
    # L = sum(4 upstream * x w^4): dL/dw = sum over k of (x w^k)^T (4 upstream) (w^(3-k))^T.
    power = np.linalg.matrix_power
    want = sum((x @ power(w0, k)).T @ (4 * kept[2]) @ power(w0, 3 - k).T for k in range(4))
    np.testing.assert_allclose(first, want, rtol=1e-5)
    np.testing.assert_array_equal(second, first)
    for now, before in zip((x, w0, upstream[0].numpy(), upstream[1].numpy(), w.numpy()),
                           kept + [kept[2], w0]):
        np.testing.assert_array_equal(now, before)
