"""tf.nn's further functions against TensorFlow: values, gradients (first and, for the
differentiable ones, through a second tape) and error classes, each case written once
against a module `tf`."""
import collections

import numpy as np
import pytest


pytestmark = pytest.mark.parity

RNG = np.random.default_rng(7)
X = RNG.standard_normal((2, 3)).astype(np.float32)
IMAGES = RNG.standard_normal((2, 5, 6, 3)).astype(np.float32)
W2233, W2223 = (RNG.standard_normal(s).astype(np.float32) for s in ((2, 2, 3, 4), (2, 2, 2, 3)))
DY_SAME, DY_VALID = (RNG.standard_normal(s).astype(np.float32) for s in ((2, 5, 6, 9),
                                                                        (2, 3, 5, 6)))


def _grad(tf, f, *values, order=2):
    """f's value and its gradient with respect to each value, and (order 2) the gradient of
    the sum of squares of the first gradient."""
    xs = [tf.constant(v) for v in values]
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(xs)
        with tf.GradientTape() as tape:
            tape.watch(xs)
            y = f(*xs)
        grads = tape.gradient(y, xs)
        first = tf.reduce_sum(grads[0] * grads[0])
    return (y, grads, outer.gradient(first, xs)) if order == 2 else (y, grads)


TIES = np.array([[1, 3, 3, 0], [2, 3, 1, 1], [0, 0, 5, 5]], np.float32).reshape(1, 3, 4, 1)
TIES2 = np.concatenate([TIES, TIES * 2, -TIES - 10])
SMALL = np.arange(24, dtype=np.float32).reshape(1, 3, 4, 2) / 3 - 2
FILTER = np.array([[[0.0, 1.0], [1.0, 0.5]], [[0.5, 0.0], [0.0, 0.0]]], np.float32)

CASES = {
    "crelu": lambda tf: _grad(tf, lambda x: tf.nn.crelu(x) ** 2, X),
    "crelu axis 0": lambda tf: tf.nn.crelu(X, axis=0),
    "log_poisson_loss": lambda tf: _grad(
        tf, lambda t, x: tf.nn.log_poisson_loss(t, x, compute_full_loss=True),
        np.array([0.5, 1.0, 2.0, 3.0], np.float32), np.array([0.5, -1.0, 2.0, 0.0], np.float32)),
    "log_poisson_loss partial": lambda tf: _grad(
        tf, lambda t, x: tf.nn.log_poisson_loss(t, x), np.array([0.0, 1.0, 2.5], np.float32),
        np.array([0.5, -1.0, 2.0], np.float32)),
    "log_poisson_loss shapes": lambda tf: tf.nn.log_poisson_loss(tf.constant([0.0, 1.0]),
                                                                 tf.constant([0.5, -1.0, 2.0])),
    "weighted_cross_entropy_with_logits": lambda tf: _grad(
        tf, lambda z, x: tf.nn.weighted_cross_entropy_with_logits(z, x, 3.0),
        np.array([0.0, 1.0, 0.5, 0.2], np.float32),
        np.array([-100.0, 2.0, 100.0, -0.3], np.float32)),
    "weighted_cross_entropy shapes": lambda tf: tf.nn.weighted_cross_entropy_with_logits(
        tf.constant([0.0, 1.0]), tf.constant([1.0, 2.0, 3.0]), 2.0),
    "sufficient_statistics": lambda tf: (
        tf.nn.sufficient_statistics(X, [0])[:3],
        tf.nn.sufficient_statistics(X, [0, 1], shift=1.0, keepdims=True)),
    "normalize_moments": lambda tf: _grad(
        tf, lambda m, v: tf.stack(tf.nn.normalize_moments(4.0, m, v, tf.constant([1.0, 0.5]))),
        np.array([8.0, 4.0], np.float32), np.array([20.0, 10.0], np.float32)),
    "moments from sufficient statistics": lambda tf: _grad(
        tf, lambda x: tf.stack(tf.nn.normalize_moments(*tf.nn.sufficient_statistics(x, [0]))),
        X),
    "weighted_moments": lambda tf: _grad(
        tf, lambda x, w: tf.stack(tf.nn.weighted_moments(x, [0], w)), X,
        np.array([[1.0], [3.0]], np.float32)),
    "weighted_moments keepdims, zero weights": lambda tf: (
        tf.nn.weighted_moments(X, [0, 1], np.abs(X), keepdims=True),
        tf.nn.weighted_moments(X, [0], np.zeros((2, 1), np.float32))),
    "batch_norm_with_global_normalization": lambda tf: [_grad(
        tf, lambda x, m, v, b, g: tf.nn.batch_norm_with_global_normalization(
            x, m, v, b, g, 0.001, scale), X, np.array([1.0, 2, 3], np.float32),
        np.array([4.0, 1, 9], np.float32), np.array([0.5, 0, 0], np.float32),
        np.array([2.0, 2, 2], np.float32)) for scale in (True, False)],
    # TF's LRNGrad has no gradient: first order only (tapeflow's LRN is a composite).
    "lrn": lambda tf: _grad(
        tf, lambda x: tf.nn.lrn(x, depth_radius=2, bias=1.0, alpha=0.1, beta=0.75), IMAGES,
        order=1),
    "local_response_normalization defaults": lambda tf: _grad(
        tf, tf.nn.local_response_normalization, IMAGES[..., :2], order=1),
    "lrn rank 3": lambda tf: tf.nn.lrn(IMAGES[0]),
    "lrn float64": lambda tf: tf.nn.lrn(tf.constant(IMAGES, tf.float64)),
    "atrous_conv2d": lambda tf: _grad(
        tf, lambda x, w: tf.nn.atrous_conv2d(x, w, 2, "SAME"), IMAGES, W2233),
    "atrous_conv2d_transpose": lambda tf: _grad(
        tf, lambda x, w: tf.nn.atrous_conv2d_transpose(x, w, [2, 7, 8, 2], 2, "VALID"),
        IMAGES[:, :5, :6], W2223),
    "atrous rate 0": lambda tf: tf.nn.atrous_conv2d(IMAGES, np.ones((2, 2, 3, 1), np.float32),
                                                    0, "SAME"),
    "conv_transpose": lambda tf: (
        tf.nn.conv_transpose(IMAGES[:, 0], np.ones((3, 2, 3), np.float32), [2, 12, 2], 2),
        tf.nn.conv_transpose(IMAGES, np.ones((3, 3, 2, 3), np.float32), [2, 10, 12, 2], 2),
        tf.nn.conv_transpose(IMAGES[None], np.ones((1, 3, 3, 2, 3), np.float32),
                             [1, 2, 10, 12, 2], [1, 2, 2])),
    "conv_transpose bad rank": lambda tf: tf.nn.conv_transpose(IMAGES, np.ones((3, 3, 2, 3)),
                                                               [2, 10], 2),
    "depthwise backprop": lambda tf: (
        tf.nn.depthwise_conv2d_backprop_input(
            [2, 5, 6, 3], np.linspace(-1, 1, 36, dtype=np.float32).reshape(2, 2, 3, 3),
            DY_SAME[:, :3, :3], [1, 2, 2, 1], "SAME"),
        tf.nn.depthwise_conv2d_backprop_filter(IMAGES, [2, 2, 3, 3], DY_SAME, [1, 1, 1, 1],
                                               "SAME"),
        tf.nn.depthwise_conv2d_backprop_filter(IMAGES, [3, 2, 3, 2], DY_VALID, [1, 1, 1, 1],
                                               "VALID")),
    "depthwise backprop NCHW": lambda tf: tf.nn.depthwise_conv2d_backprop_input(
        [2, 3, 5, 6], np.ones((2, 2, 3, 1), np.float32), np.ones((2, 3, 4, 5), np.float32),
        [1, 1, 1, 1], "VALID", data_format="NCHW"),
}


# TF's gradient ops of max_pool_with_argmax and dilation2d have no gradients: first order.
CASES.update({
    "max_pool_with_argmax": lambda tf: [
        tuple(tf.nn.max_pool_with_argmax(TIES2, k, s, p, include_batch_in_index=b))
        for k, s, p, b in ((2, 2, "SAME", False), (2, 2, "SAME", True), (3, 2, "SAME", False),
                           ([1, 2, 2, 1], [1, 1, 1, 1], "VALID", True))],
    "max_pool_with_argmax int32, ints": lambda tf: (
        tf.nn.max_pool_with_argmax(TIES2, 2, 2, "VALID", output_dtype=tf.int32),
        tuple(tf.nn.max_pool_with_argmax(tf.cast(TIES2, tf.int32), 2, 2, "VALID"))),
    "max_pool_with_argmax gradient": lambda tf: _grad(
        tf, lambda x: tf.nn.max_pool_with_argmax(x, 2, 1, "SAME")[0] ** 2, TIES2, order=1),
    "max_pool_with_argmax NCHW": lambda tf: tf.nn.max_pool_with_argmax(TIES2, 2, 2, "VALID",
                                                                       data_format="NCHW"),
    "dilation2d": lambda tf: [_grad(
        tf, lambda x, w: tf.nn.dilation2d(x, w, s, p, "NHWC", r) ** 2, SMALL, FILTER,
        order=1)
        for s, p, r in (([1, 1, 1, 1], "SAME", [1, 1, 1, 1]), ([1, 1, 2, 1], "VALID",
                                                              [1, 1, 1, 1]),
                        ([1, 1, 1, 1], "VALID", [1, 2, 1, 1]), ([1, 2, 2, 1], "SAME",
                                                                [1, 1, 2, 1]))],
    "dilation2d ties": lambda tf: _grad(
        tf, lambda x, w: tf.nn.dilation2d(x, w, [1, 1, 1, 1], "SAME", "NHWC", [1, 1, 1, 1]),
        TIES2, np.zeros((2, 2, 1), np.float32), order=1),
    "erosion2d": lambda tf: [_grad(
        tf, lambda x, w: tf.nn.erosion2d(x, w, s, p, "NHWC", r) ** 2, SMALL, FILTER,
        order=1)
        for s, p, r in (([1, 1, 1, 1], "SAME", [1, 1, 1, 1]), ([1, 2, 1, 1], "VALID",
                                                              [1, 1, 2, 1]))],
    "dilation2d NCHW": lambda tf: tf.nn.dilation2d(SMALL, FILTER, [1, 1, 1, 1], "VALID",
                                                   "NCHW", [1, 1, 1, 1]),
    "dilation2d depth mismatch": lambda tf: tf.nn.dilation2d(
        SMALL, FILTER[..., :1], [1, 1, 1, 1], "VALID", "NHWC", [1, 1, 1, 1]),
})


CTC_LOGITS = RNG.standard_normal((6, 3, 5)).astype(np.float32)
CTC_LABELS = np.array([[1, 2, 2], [3, 1, 0], [4, 4, 4]], np.int32)


def _sparse_labels(tf):
    """CTC_LABELS without its zeros as a SparseTensor (TF's, or a triple of arrays where
    tapeflow has no SparseTensor type)."""
    if hasattr(tf.sparse, "from_dense"):
        return tf.sparse.from_dense(CTC_LABELS)
    indices = np.argwhere(CTC_LABELS != 0)
    return collections.namedtuple("Labels", "indices values dense_shape")(
        indices, CTC_LABELS[tuple(indices.T)], np.array(CTC_LABELS.shape))


def _sparse(tf, decoded):
    return [(d.indices, d.values, d.dense_shape) for d in decoded]


CASES.update({
    "ctc_loss": lambda tf: _grad(
        tf, lambda x: tf.nn.ctc_loss(CTC_LABELS, x, [3, 1, 2], [6, 4, 5]), CTC_LOGITS, order=1),
    "ctc_loss blank_index": lambda tf: [
        tf.nn.ctc_loss(CTC_LABELS, CTC_LOGITS, [3, 2, 2], [6, 4, 5], blank_index=b)
        for b in (4, -1, 2)],
    "ctc_loss batch major": lambda tf: _grad(tf, lambda x: tf.nn.ctc_loss(
        CTC_LABELS, x, [3, 1, 0], [6, 4, 5], logits_time_major=False, blank_index=4),
        CTC_LOGITS.transpose(1, 0, 2), order=1),
    "ctc_loss sparse labels": lambda tf: _grad(tf, lambda x: tf.nn.ctc_loss(
        _sparse_labels(tf), x, None, [6, 4, 5], blank_index=0), CTC_LOGITS, order=1),
    "ctc_loss no logit_length": lambda tf: tf.nn.ctc_loss(CTC_LABELS, CTC_LOGITS, [3, 1, 2],
                                                          None),
    "collapse_repeated": lambda tf: tf.nn.collapse_repeated(
        tf.constant([[1, 1, 2, 2, 3], [4, 4, 4, 0, 0], [5, 5, 5, 5, 5]]), [5, 3, 2]),
    "ctc_unique_labels": lambda tf: tf.nn.ctc_unique_labels(
        tf.constant([[3, 4, 3, 7], [1, 1, 0, 0]])),
    "ctc_greedy_decoder": lambda tf: [
        (lambda d, s: (_sparse(tf, d), s))(*tf.nn.ctc_greedy_decoder(CTC_LOGITS, [6, 4, 5], m, b))
        for m, b in ((True, None), (False, None), (True, 0), (True, -2))],
    # Where pruning drops a prefix at a near-tie, TF's beam can keep another (beam_width
    # 10, top_paths 3 here differ): the cases compare full beams and narrow ones.
    "ctc_beam_search_decoder": lambda tf: [
        (lambda d, s: (_sparse(tf, d), s))(*tf.nn.ctc_beam_search_decoder(
            CTC_LOGITS, [6, 4, 5], w, k)) for w, k in ((100, 1), (100, 3), (2, 2), (1, 1))],
})


ISO = RNG.standard_normal((3, 6)).astype(np.float32)
ISO[0, 2] = ISO[0, 1]   # a tie


def _dilated_conv(tf, w):
    return lambda x, n, padding: tf.nn.conv2d(x, w, 1, padding)


CASES.update({
    "with_space_to_batch": lambda tf: [_grad(tf, lambda x, w: tf.nn.with_space_to_batch(
        x, rate, p, _dilated_conv(tf, w), filter_shape=[2, 2]), IMAGES, W2233, order=1)
        for rate, p in (([2, 2], "SAME"), ([2, 3], "VALID"), ([1, 1], "SAME"))],
    "with_space_to_batch NCHW": lambda tf: tf.nn.with_space_to_batch(
        IMAGES.transpose(0, 3, 1, 2), [2, 2], "VALID", lambda x, n, p: x * 2,
        data_format="NCHW"),
    "with_space_to_batch SAME without filter_shape": lambda tf: tf.nn.with_space_to_batch(
        IMAGES, [2, 2], "SAME", lambda x, n, p: x),
    "isotonic_regression": lambda tf: [
        _grad(tf, lambda x: tf.nn.isotonic_regression(x, decreasing=d, axis=a)[0] ** 2, ISO,
              order=1) for d, a in ((True, -1), (False, -1), (True, 0))],
    "isotonic_regression segments, ints": lambda tf: (
        tf.nn.isotonic_regression(ISO, decreasing=False)[1],
        tuple(tf.nn.isotonic_regression(tf.constant([[1, 3, 2]])))),
})


# With whole ratios the pooling regions are not random: the results are comparable.
CASES.update({
    "fractional pooling": lambda tf: [
        _grad(tf, lambda x: pool(x, [1.0, 2.0, 3.0, 1.0], pseudo_random=p, overlapping=o,
                                 seed=1)[0] ** 2, IMAGES[:, :4, :6], order=1)
        for pool in (tf.nn.fractional_max_pool, tf.nn.fractional_avg_pool)
        for p in (False, True) for o in (False, True)],
    "fractional pooling sequences": lambda tf: (
        tf.nn.fractional_avg_pool(IMAGES[:, :4], [1.0, 2.0, 2.0, 1.0])[1:],
        tf.nn.fractional_max_pool(IMAGES[:, :4], 2.0, pseudo_random=True)[1:]),
    "fractional_max_pool batch ratio": lambda tf: tf.nn.fractional_max_pool(
        IMAGES, [2.0, 2.0, 2.0, 1.0]),
    "fractional_max_pool ratio below 1": lambda tf: tf.nn.fractional_max_pool(IMAGES, 0.5),
    "fractional_avg_pool one ratio": lambda tf: tf.nn.fractional_avg_pool(IMAGES, 2.0),
    "fractional_avg_pool short list": lambda tf: tf.nn.fractional_avg_pool(IMAGES, [2.0]),
    "fractional_avg_pool ratio below 1": lambda tf: tf.nn.fractional_avg_pool(
        IMAGES, [1.0, 0.5, 2.0, 1.0]),
})


@pytest.mark.parametrize("label", list(CASES))
def test_matches_tensorflow(label, parity):
    parity.check_case(CASES[label], rtol=2e-5, atol=2e-5, where=label)
