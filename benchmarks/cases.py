"""Benchmark cases. Each builder takes the loaded peers ({name: module}) and returns a
harness.Case whose first contender is the hand-written NumPy baseline: the same forward
computation plus a hand-derived backward pass, the floor for NumPy-based autodiff.

To add a case: write its NumPy baseline here, its contenders in contenders.py (or reuse
them), and register the builder in ALL.
"""
from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

import tapeflow

import contenders as c
from harness import Case

LEARNING_RATE = np.float32(0.01)
CHAIN_STEPS = 100 // 3  # each step is three elementwise ops: x * 1.01, + 0.1, tanh


# -- chain -------------------------------------------------------------------------------

def numpy_chain(x0: np.ndarray):
    def step():
        x = x0
        saved = []
        for _ in range(CHAIN_STEPS):
            x = np.tanh(x * np.float32(1.01) + np.float32(0.1))
            saved.append(x)
        g = np.ones_like(x)
        for y in reversed(saved):
            g = g * (1 - y * y) * np.float32(1.01)
        return [g]
    return step


def chain(peers: dict) -> Case:
    """100 elementwise ops (x*1.01, +0.1, tanh, repeated) on a float32 vector of 4,
    forward plus gradient."""
    x0 = np.linspace(-1, 1, 4).astype(np.float32)
    case = Case("chain")
    case.add("numpy", lambda: numpy_chain(x0))
    c.add_all(case, peers, x0, c.Chain(CHAIN_STEPS))
    return case


def chain_tnp(peers: dict) -> Case:
    """The chain written with tf.experimental.numpy's add, multiply and tanh: it should cost
    what the chain of tapeflow ops costs."""
    x0 = np.linspace(-1, 1, 4).astype(np.float32)
    case = Case("chain_tnp")
    case.add("numpy", lambda: numpy_chain(x0))
    c.add_all(case, peers, x0, c.NumpyChain(CHAIN_STEPS))
    return case


# -- training steps ----------------------------------------------------------------------

class Network:
    """Data and initial parameters of a classifier trained by one SGD step on the mean
    sparse softmax cross entropy: [Conv2D(filters, 3x3, valid, relu) -> Flatten ->]
    Dense(relu) ... -> Dense. Images are NHWC, conv filters HWIO, dense weights (in, out);
    parameters are ordered [conv W, conv b,] W1, b1, W2, b2, ...
    """

    def __init__(self, batch: int, input_shape: tuple, dense: tuple, conv_filters: int = 0,
                 classes: int = 10, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.batch, self.conv_filters, self.learning_rate = batch, conv_filters, LEARNING_RATE
        self.x = rng.standard_normal((batch, *input_shape)).astype(np.float32)
        self.y = rng.integers(0, classes, batch).astype(np.int32)
        self.params = []
        fan_in = input_shape[0]
        if conv_filters:
            height, width, channels = input_shape
            self.conv_out = (height - 2, width - 2)
            self._add_layer(rng, (3, 3, channels, conv_filters), 9 * channels)
            fan_in = self.conv_out[0] * self.conv_out[1] * conv_filters
        for units in (*dense, classes):
            self._add_layer(rng, (fan_in, units), fan_in)
            fan_in = units

    def _add_layer(self, rng, shape: tuple, fan_in: int) -> None:
        self.params.append((rng.standard_normal(shape) * np.sqrt(2 / fan_in)).astype(np.float32))
        self.params.append((0.01 * rng.standard_normal(shape[-1])).astype(np.float32))

    def fresh_params(self) -> list:
        """A private copy of the initial parameters, for one contender."""
        return [p.copy() for p in self.params]


def image_patches(x: np.ndarray) -> np.ndarray:
    """3x3 valid patches of NHWC images as rows (n*oh*ow, 9*channels), in HWIO order."""
    windows = sliding_window_view(x, (3, 3), axis=(1, 2))  # n, oh, ow, c, 3, 3
    return windows.transpose(0, 1, 2, 4, 5, 3).reshape(-1, 9 * x.shape[-1])


def numpy_network(net: Network):
    params = net.fresh_params()
    x, y, n, lr = net.x, net.y, net.batch, net.learning_rate
    rows = np.arange(n)
    first_dense = 2 if net.conv_filters else 0

    def step():
        h = x
        if net.conv_filters:
            patches = image_patches(x)
            z = patches @ params[0].reshape(-1, net.conv_filters) + params[1]
            conv_mask = z > 0
            h = np.maximum(z, 0).reshape(n, -1)
        inputs, masks = [], []
        for i in range(first_dense, len(params), 2):
            inputs.append(h)
            h = h @ params[i] + params[i + 1]
            if i + 2 < len(params):
                masks.append(h > 0)
                h = np.maximum(h, 0)
        shifted = h - h.max(axis=1, keepdims=True)
        e = np.exp(shifted)
        total = e.sum(axis=1, keepdims=True)
        loss = np.mean(np.log(total[:, 0]) - shifted[rows, y])  # noqa: F841  (the forward)
        d = e / total
        d[rows, y] -= 1
        d /= n
        grads = [None] * len(params)
        for k in reversed(range(len(inputs))):
            i = first_dense + 2 * k
            grads[i], grads[i + 1] = inputs[k].T @ d, d.sum(axis=0)
            if k:
                d = d @ params[i].T
                d *= masks[k - 1]
        if net.conv_filters:
            d = (d @ params[2].T).reshape(-1, net.conv_filters)
            d *= conv_mask
            grads[0] = (patches.T @ d).reshape(params[0].shape)
            grads[1] = d.sum(axis=0)
        for p, g in zip(params, grads):
            p -= lr * g
        return grads
    return step


def _network_case(name: str, net: Network, peers: dict) -> Case:
    case = Case(name)
    case.add("numpy", lambda: numpy_network(net))
    missing = None
    if net.conv_filters and not hasattr(tapeflow.nn, "conv2d"):
        missing = "tapeflow.nn.conv2d does not exist yet (it lands with the nn ops)"
    c.add_all(case, peers, net, c.Classifier(), tapeflow_missing=missing)
    return case


def mlp_small(peers: dict) -> Case:
    """One SGD training step, batch 32, layers 64-128-10, relu, sparse softmax cross entropy."""
    return _network_case("mlp_small", Network(32, (64,), (128,)), peers)


def mlp_large(peers: dict) -> Case:
    """The same with batch 256, layers 784-1024-1024-10."""
    return _network_case("mlp_large", Network(256, (784,), (1024, 1024)), peers)


def convnet(peers: dict) -> Case:
    """Conv2D(32, 3, relu) -> Flatten -> Dense(128, relu) -> Dense(10) on 64 8x8x1 images."""
    return _network_case("convnet", Network(64, (8, 8, 1), (128,), conv_filters=32), peers)


# -- Jacobians and Hessian-vector products ------------------------------------------------

def jacobian(peers: dict) -> Case:
    """The 100 x 100 Jacobian of tanh(W @ x), float32, forward pass included: vectorized,
    and by TF's loop of one gradient call per output (experimental_use_pfor=False)."""
    rng = np.random.default_rng(0)
    data = ((rng.standard_normal((100, 100)) / 10).astype(np.float32),
            rng.standard_normal(100).astype(np.float32))
    return _jacobian_case("jacobian", data, batch=False, peers=peers)


def batch_jacobian(peers: dict) -> Case:
    """Per-example Jacobians of tanh(x @ W) for a batch of 64 rows of 32, float32."""
    rng = np.random.default_rng(1)
    data = ((rng.standard_normal((32, 32)) / 6).astype(np.float32),
            rng.standard_normal((64, 32)).astype(np.float32))
    return _jacobian_case("batch_jacobian", data, batch=True, peers=peers)


def _jacobian_case(name: str, data: tuple, batch: bool, peers: dict) -> Case:
    w, x = data

    def numpy_jacobian():
        if batch:
            y = np.tanh(x @ w)
            return lambda: [(1 - y * y)[:, :, None] * w.T[None]]
        y = np.tanh(w @ x)
        return lambda: [(1 - y * y)[:, None] * w]

    case = Case(name)
    case.add("numpy", numpy_jacobian)
    c.add_all(case, peers, data, c.TanhJacobian(batch))
    case.add("tapeflow loop", lambda: c.TanhJacobian(batch, use_pfor=False).tf_api(
        tapeflow, data, function=False))
    return case


def _tanh_loss_data() -> tuple:
    rng = np.random.default_rng(2)
    return ((rng.standard_normal((100, 100)) / 10).astype(np.float32),
            rng.standard_normal(100).astype(np.float32),
            rng.standard_normal(100).astype(np.float32))


def hvp(peers: dict) -> Case:
    """A Hessian-vector product of sum(tanh(W @ x) ** 2), x of 100, float32, forward over
    reverse; compare its time with hvp_gradient's (one gradient of the same function)."""
    data = _tanh_loss_data()
    w, x, v = data

    def numpy_hvp():
        def step():
            t = np.tanh(w @ x)
            return [w.T @ ((2 - 6 * t * t) * (1 - t * t) * (w @ v))]
        return step

    def full_hessian_times_v():
        tf = tapeflow
        wt, xt, vt = (tf.constant(a) for a in data)

        def loss(x):
            return tf.reduce_sum(tf.tanh(tf.reshape(tf.matmul(wt, tf.reshape(x, [-1, 1])),
                                                    [-1])) ** 2.0)
        return lambda: [tf.reshape(tf.matmul(tf.autodiff.hessian(loss, xt),
                                             tf.reshape(vt, [-1, 1])), [-1])]

    case = Case("hvp")
    case.add("numpy", numpy_hvp)
    c.add_all(case, peers, data, c.TanhLoss(hvp=True))
    case.add("tapeflow hessian @ v", full_hessian_times_v)
    return case


def hvp_gradient(peers: dict) -> Case:
    """One gradient of hvp's function: the yardstick for the cost of a Hessian-vector product."""
    data = _tanh_loss_data()
    w, x, _ = data

    def numpy_gradient():
        def step():
            t = np.tanh(w @ x)
            return [w.T @ (2 * t * (1 - t * t))]
        return step

    case = Case("hvp_gradient")
    case.add("numpy", numpy_gradient)
    c.add_all(case, peers, data, c.TanhLoss(hvp=False))
    return case


# -- one convolution ---------------------------------------------------------------------

def conv2d(peers: dict) -> Case:
    """conv2d alone at the convnet's size (64 8x8x1 images, 32 3x3 filters, VALID): forward
    plus the gradient of the output's sum w.r.t. the filters."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 8, 8, 1)).astype(np.float32)
    w = (0.3 * rng.standard_normal((3, 3, 1, 32))).astype(np.float32)

    def numpy_step():
        patches = image_patches(x)
        y = patches @ w.reshape(-1, 32)
        return [(patches.T @ np.ones_like(y)).reshape(w.shape)]

    def tf_api(tf):
        images, filters = tf.constant(x), tf.Variable(w)

        def step():
            with tf.GradientTape() as tape:
                y = tf.nn.conv2d(images, filters, strides=1, padding="VALID")
            return [tape.gradient(y, filters)]
        return step

    case = Case("conv2d")
    case.add("numpy", lambda: numpy_step)
    case.add("tapeflow eager", lambda: tf_api(tapeflow))
    if "tensorflow" in peers:
        case.add("tensorflow eager", lambda: tf_api(peers["tensorflow"]))
    return case


def sparse_matmul(peers: dict) -> Case:
    """A sparse (500x500, 2% stored) times a dense (500x32) matrix: forward plus the gradient
    of the product's sum w.r.t. the stored values and the dense matrix (tapeflow runs a
    SciPy CSR product when SciPy is installed; the baseline scatter-adds in NumPy)."""
    rng = np.random.default_rng(0)
    n, k = 500, 32
    indices = np.argwhere(rng.random((n, n)) < 0.02).astype(np.int64)
    values = rng.standard_normal(len(indices)).astype(np.float32)
    b = rng.standard_normal((n, k)).astype(np.float32)
    rows, cols = indices[:, 0], indices[:, 1]

    def numpy_step():
        y = np.zeros((n, k), np.float32)
        np.add.at(y, rows, values[:, None] * b[cols])
        g = np.ones_like(y)
        grad_b = np.zeros_like(b)
        np.add.at(grad_b, cols, values[:, None] * g[rows])
        return [np.sum(g[rows] * b[cols], axis=1), grad_b]

    def tf_api(tf):
        dense = tf.constant(b)

        def step():
            v = tf.constant(values)
            with tf.GradientTape() as tape:
                tape.watch([v, dense])
                y = tf.sparse.sparse_dense_matmul(tf.SparseTensor(indices, v, [n, n]), dense)
            return tape.gradient(y, [v, dense])
        return step

    case = Case("sparse_matmul")
    case.add("numpy", lambda: numpy_step)
    case.add("tapeflow eager", lambda: tf_api(tapeflow))
    if "tensorflow" in peers:
        case.add("tensorflow eager", lambda: tf_api(peers["tensorflow"]))
    return case


def conv3d_transpose(peers: dict) -> Case:
    """conv3d_transpose to few channels (Sonnet's ConvTranspose initializer test at an
    eighth of its batch: 2 x 32^3 x 64 inputs, a 4^3 kernel to 3 channels, SAME), forward
    only. The baseline is one matmul then each tap's block added at its offset."""
    rng = np.random.default_rng(0)
    x = rng.random((2, 32, 32, 32, 64), dtype=np.float32)
    w = (0.1 * rng.standard_normal((4, 4, 4, 3, 64))).astype(np.float32)

    def numpy_step():
        per_tap = w.reshape(64 * 3, 64)                      # [taps * 3, 64]
        products = (per_tap @ x.reshape(-1, 64).T).reshape(64, 3, 2, 32, 32, 32)
        total = np.zeros((2, 35, 35, 35, 3), np.float32)
        for tap, (a, b, c) in enumerate(np.ndindex(4, 4, 4)):
            total[:, a:a + 32, b:b + 32, c:c + 32] += np.moveaxis(products[tap], 0, -1)
        return [total[:, 1:33, 1:33, 1:33]]

    def tf_api(tf):
        inputs, filters = tf.constant(x), tf.constant(w)
        return lambda: [tf.nn.conv3d_transpose(inputs, filters, [2, 32, 32, 32, 3],
                                               strides=1, padding="SAME")]

    case = Case("conv3d_transpose")
    case.add("numpy", lambda: numpy_step)
    case.add("tapeflow eager", lambda: tf_api(tapeflow))
    if "tensorflow" in peers:
        case.add("tensorflow eager", lambda: tf_api(peers["tensorflow"]))
    return case


def _resize_case(name: str, shape: tuple, size: tuple, method: str, peers: dict) -> Case:
    """tf.image.resize of a batch of 3-channel images, forward plus the gradient of the
    output's sum; the baseline applies the dense interpolation matrices (from tapeflow's
    weights) with matmuls."""
    from tapeflow.ops import image_ops
    weights = {"bilinear": image_ops._bilinear_weights,
               "bicubic": image_ops._bicubic_weights}[method]
    rng = np.random.default_rng(0)
    x = rng.random(shape, dtype=np.float32)
    rows = weights(shape[1], size[0]).astype(np.float32)
    cols = weights(shape[2], size[1]).astype(np.float32)

    batch, height, width, channels = shape

    def apply(matrix_rows, matrix_cols, images):
        """rows @ each image, then cols @ each row of pixels (channels last)."""
        b, h, w, c = images.shape
        y = matrix_rows @ images.reshape(b, h, w * c)                    # [b, rows, w * c]
        y = y.reshape(-1, w, c).transpose(0, 2, 1) @ matrix_cols.T       # [b * rows, c, cols]
        return y.transpose(0, 2, 1).reshape(b, matrix_rows.shape[0], matrix_cols.shape[0], c)

    def numpy_step():
        y = apply(rows, cols, x)
        return [apply(rows.T, cols.T, np.ones_like(y))]

    def tf_api(tf):
        images = tf.constant(x)

        def step():
            with tf.GradientTape() as tape:
                tape.watch(images)
                y = tf.image.resize(images, size, method=method)
            return [tape.gradient(y, images)]
        return step

    case = Case(name)
    case.add("numpy", lambda: numpy_step)
    case.add("tapeflow eager", lambda: tf_api(tapeflow))
    if "tensorflow" in peers:
        case.add("tensorflow eager", lambda: tf_api(peers["tensorflow"]))
    return case


def ragged(peers: dict) -> Case:
    """Ragged rows: 100,000 rows of 0-9 float32 values (about 450,000 in all); elementwise
    ops on the ragged tensor (x * x + 1, sin), its row sums, row maxima and row means
    (the reductions over the ragged axis), and the gradient of their total w.r.t. the
    values. The baseline is NumPy's reduceat over the row splits."""
    rng = np.random.default_rng(0)
    lengths = rng.integers(0, 10, 100_000)
    splits = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    values = rng.standard_normal(int(splits[-1])).astype(np.float32)
    rows = np.repeat(np.arange(len(lengths)), lengths)
    starts = splits[:-1][lengths > 0]

    def numpy_step():
        y = values * values + 1 + np.sin(values)
        sums = np.zeros(len(lengths), np.float32)
        sums[lengths > 0] = np.add.reduceat(y, starts)
        maxima = np.full(len(lengths), np.finfo(np.float32).min, np.float32)
        maxima[lengths > 0] = np.maximum.reduceat(values, starts)
        counts = np.maximum(lengths, 1).astype(np.float32)
        _ = sums / counts
        # d/dv of sum(sums) + sum(maxima) + sum(means)
        grad = (2 * values + np.cos(values)) * (1 + 1 / counts[rows])
        grad += (values == maxima[rows]).astype(np.float32)
        return [grad]

    def tf_api(tf):
        def step():
            v = tf.constant(values)
            with tf.GradientTape() as tape:
                tape.watch(v)
                rt = tf.RaggedTensor.from_row_splits(v, splits, validate=False)
                y = rt * rt + 1 + tf.sin(rt)
                total = tf.reduce_sum(tf.reduce_sum(y, axis=1)) + tf.reduce_sum(
                    tf.reduce_max(rt, axis=1)) + tf.reduce_sum(tf.reduce_mean(y, axis=1))
            return [tape.gradient(total, v)]
        return step

    case = Case("ragged")
    case.add("numpy", lambda: numpy_step)
    case.add("tapeflow eager", lambda: tf_api(tapeflow))
    if "tensorflow" in peers:
        case.add("tensorflow eager", lambda: tf_api(peers["tensorflow"]))
    return case


def resize_up(peers: dict) -> Case:
    """Bilinear upsampling, 8 x 64x64x3 -> 150x150."""
    return _resize_case("resize_up", (8, 64, 64, 3), (150, 150), "bilinear", peers)


def resize_down(peers: dict) -> Case:
    """Bilinear downsampling, 8 x 224x224x3 -> 96x96."""
    return _resize_case("resize_down", (8, 224, 224, 3), (96, 96), "bilinear", peers)


def resize_bicubic(peers: dict) -> Case:
    """Bicubic upsampling, 8 x 64x64x3 -> 150x150."""
    return _resize_case("resize_bicubic", (8, 64, 64, 3), (150, 150), "bicubic", peers)


# -- a recurrent network -------------------------------------------------------------------

class Recurrent:
    """Data and initial parameters of an RNN h = tanh(x_t @ W + h @ U + b) over `steps`
    steps, trained by one SGD step on mean(h_T ** 2); parameters are ordered W, U, b."""

    def __init__(self, steps: int = 100, batch: int = 32, inputs: int = 32, hidden: int = 64,
                 seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.xs = rng.standard_normal((steps, batch, inputs)).astype(np.float32)
        self.params = [(rng.standard_normal((inputs, hidden)) / np.sqrt(inputs)).astype(
            np.float32), (rng.standard_normal((hidden, hidden)) / np.sqrt(hidden)).astype(
            np.float32), np.zeros(hidden, np.float32)]
        self.learning_rate = LEARNING_RATE

    def fresh_params(self) -> list:
        return [p.copy() for p in self.params]


# -- recurrent training step ---------------------------------------------------------------

class Sequences:
    """An LSTM(units) regression step: inputs [batch, steps, features], loss
    0.5 * mean((h_last - target)^2), then SGD. Weights in Keras's layout (kernel,
    recurrent_kernel, bias; gates i, f, c, o)."""

    def __init__(self, batch: int, steps: int, features: int, units: int, seed: int = 0):
        rng = np.random.default_rng(seed)
        self.x = rng.standard_normal((batch, steps, features)).astype(np.float32)
        self.y = rng.standard_normal((batch, units)).astype(np.float32)
        self.learning_rate = LEARNING_RATE
        scale = 1 / np.sqrt(units)
        self.params = [(scale * rng.standard_normal(shape)).astype(np.float32)
                       for shape in ((features, 4 * units), (units, 4 * units), (4 * units,))]

    def fresh_params(self) -> list:
        return [p.copy() for p in self.params]


def numpy_recurrent(net: Recurrent):
    params = net.fresh_params()
    xs = net.xs

    def step():
        w, u, b = params
        h = np.zeros((xs.shape[1], u.shape[0]), np.float32)
        hs = [h]
        for x in xs:
            h = np.tanh(x @ w + h @ u + b)
            hs.append(h)
        dh = 2 * h / np.float32(h.size)
        grads = [np.zeros_like(p) for p in params]
        for t in range(len(xs) - 1, -1, -1):
            da = dh * (1 - hs[t + 1] * hs[t + 1])
            grads[0] += xs[t].T @ da
            grads[1] += hs[t].T @ da
            grads[2] += da.sum(axis=0)
            dh = da @ u.T
        for p, g in zip(params, grads):
            p -= net.learning_rate * g
        return grads
    return step


def numpy_lstm(data: Sequences):
    """Forward through time, then backpropagation through time by hand."""
    kernel, recurrent, bias = data.fresh_params()
    batch, units = data.y.shape

    def sigmoid(z):
        return 1 / (1 + np.exp(-z))

    def step():
        h = c = np.zeros((batch, units), np.float32)
        saved = []
        for t in range(data.x.shape[1]):
            z = data.x[:, t] @ kernel + h @ recurrent + bias
            i, f, o = (sigmoid(z[:, k * units:(k + 1) * units]) for k in (0, 1, 3))
            g = np.tanh(z[:, 2 * units:3 * units])
            saved.append((h, c, i, f, g, o))
            c = f * c + i * g
            h = o * np.tanh(c)
        dh, dc = (h - data.y) / data.y.size, np.zeros_like(c)
        grads = [np.zeros_like(kernel), np.zeros_like(recurrent), np.zeros_like(bias)]
        for t in reversed(range(data.x.shape[1])):
            h_prev, c_prev, i, f, g, o = saved[t]
            c_t = f * c_prev + i * g
            tanh_c = np.tanh(c_t)
            dc = dc + dh * o * (1 - tanh_c ** 2)
            dz = np.concatenate([dc * g * i * (1 - i), dc * c_prev * f * (1 - f),
                                 dc * i * (1 - g ** 2), dh * tanh_c * o * (1 - o)], 1)
            grads[0] += data.x[:, t].T @ dz
            grads[1] += h_prev.T @ dz
            grads[2] += dz.sum(0)
            dh, dc = dz @ recurrent.T, dc * f
        for p, grad in zip((kernel, recurrent, bias), grads):
            p -= data.learning_rate * grad
        return grads
    return step


def rnn(peers: dict) -> Case:
    """One SGD step of a 100-step RNN (batch 32, 32 inputs, hidden 64), BPTT: eagerly a
    Python loop over `xs[t]`; under tf.function a tf.while_loop."""
    net = Recurrent()
    case = Case("rnn")
    case.add("numpy", lambda: numpy_recurrent(net))
    c.add_all(case, peers, net, c.Recurrent())
    return case


def lstm(peers: dict) -> Case:
    """One SGD step of an LSTM(64) on (batch 32, 50 steps, 32 features): forward through
    the Keras layer, mean squared error of the last output, gradients, update."""
    data = Sequences(32, 50, 32, 64)
    case = Case("lstm")
    case.add("numpy", lambda: numpy_lstm(data))
    c.add_all(case, peers, data, c.LSTMLayer())
    return case


# -- a Transformer encoder ---------------------------------------------------------------

class Encoder:
    """Data and initial parameters of a post-norm Transformer encoder (the layout of Keras's
    MultiHeadAttention and of PyTorch's TransformerEncoderLayer without dropout) trained by
    one SGD step on the mean squared error against a fixed target. Each layer's parameters:
    query, key, value kernels [d, heads, head] and biases [heads, head], the output kernel
    [heads, head, d] and bias [d], LayerNorm gamma and beta, the feed-forward kernels
    [d, ff], [ff, d] and biases, LayerNorm gamma and beta (16 arrays)."""

    EPSILON = 1e-5

    def __init__(self, batch=16, length=64, d_model=64, heads=4, ff=128, layers=2,
                 seed=0) -> None:
        rng = np.random.default_rng(seed)
        self.heads, self.head, self.d_model, self.ff = heads, d_model // heads, d_model, ff
        self.learning_rate = LEARNING_RATE
        self.x = rng.standard_normal((batch, length, d_model)).astype(np.float32)
        self.target = rng.standard_normal((batch, length, d_model)).astype(np.float32)

        def normal(rows, *shape):
            return (rng.standard_normal((rows, *shape)) / np.sqrt(rows)).astype(np.float32)

        def small(*shape):
            return (0.1 * rng.standard_normal(shape)).astype(np.float32)
        self.params = []
        for _ in range(layers):
            for _ in range(3):
                self.params += [normal(d_model, heads, self.head), small(heads, self.head)]
            self.params += [normal(heads * self.head, d_model).reshape(heads, self.head, d_model),
                            small(d_model), 1 + small(d_model), small(d_model),
                            normal(d_model, ff), small(ff), normal(ff, d_model), small(d_model),
                            1 + small(d_model), small(d_model)]
        self.layers = layers

    def fresh_params(self) -> list:
        """A private copy of the initial parameters, for one contender."""
        return [p.copy() for p in self.params]


def _einsum(equation, *operands):
    """NumPy's einsum with its contraction order optimized (BLAS products)."""
    return np.einsum(equation, *operands, optimize=True)


def _layer_norm(r, gamma, beta, epsilon):
    mean = r.mean(-1, keepdims=True)
    inverse = 1 / np.sqrt(r.var(-1, keepdims=True) + epsilon)
    normed = (r - mean) * inverse
    return normed * gamma + beta, (normed, inverse)


def _layer_norm_backward(d_out, gamma, saved):
    normed, inverse = saved
    d_normed = d_out * gamma
    d_r = inverse * (d_normed - d_normed.mean(-1, keepdims=True)
                     - normed * (d_normed * normed).mean(-1, keepdims=True))
    return d_r, (d_out * normed).sum((0, 1)), d_out.sum((0, 1))


def numpy_encoder(enc: Encoder):
    params = enc.fresh_params()
    scale = np.float32(1 / np.sqrt(enc.head))

    def layer_forward(x, p):
        wq, bq, wk, bk, wv, bv, wo, bo, g1, be1, w1, b1, w2, b2, g2, be2 = p
        q = (_einsum("btd,dnk->btnk", x, wq) + bq) * scale
        k = _einsum("btd,dnk->btnk", x, wk) + bk
        v = _einsum("btd,dnk->btnk", x, wv) + bv
        s = _einsum("bsnk,btnk->bnts", k, q)
        e = np.exp(s - s.max(-1, keepdims=True))
        probs = e / e.sum(-1, keepdims=True)
        h = _einsum("bnts,bsnk->btnk", probs, v)
        y1, ln1 = _layer_norm(x + _einsum("btnk,nkd->btd", h, wo) + bo, g1, be1, enc.EPSILON)
        z = y1 @ w1 + b1
        relu = np.maximum(z, 0)
        y2, ln2 = _layer_norm(y1 + relu @ w2 + b2, g2, be2, enc.EPSILON)
        return y2, (x, q, k, v, probs, h, y1, ln1, z, relu, ln2)

    def layer_backward(d_y2, p, saved):
        wq, bq, wk, bk, wv, bv, wo, bo, g1, be1, w1, b1, w2, b2, g2, be2 = p
        x, q, k, v, probs, h, y1, ln1, z, relu, ln2 = saved
        d_r2, d_g2, d_be2 = _layer_norm_backward(d_y2, g2, ln2)
        d_w2, d_b2 = _einsum("btf,btd->fd", relu, d_r2), d_r2.sum((0, 1))
        d_z = (d_r2 @ w2.T) * (z > 0)
        d_w1, d_b1 = _einsum("btd,btf->df", y1, d_z), d_z.sum((0, 1))
        d_r1, d_g1, d_be1 = _layer_norm_backward(d_r2 + d_z @ w1.T, g1, ln1)
        d_wo, d_bo = _einsum("btnk,btd->nkd", h, d_r1), d_r1.sum((0, 1))
        d_h = _einsum("btd,nkd->btnk", d_r1, wo)
        d_probs = _einsum("btnk,bsnk->bnts", d_h, v)
        d_v = _einsum("bnts,btnk->bsnk", probs, d_h)
        d_s = probs * (d_probs - (d_probs * probs).sum(-1, keepdims=True))
        d_q = _einsum("bnts,bsnk->btnk", d_s, k) * scale
        d_k = _einsum("bnts,btnk->bsnk", d_s, q)
        d_x = d_r1.copy()
        grads = []
        for d_proj, w in ((d_q, wq), (d_k, wk), (d_v, wv)):
            grads += [_einsum("btd,btnk->dnk", x, d_proj), d_proj.sum((0, 1))]
            d_x += _einsum("btnk,dnk->btd", d_proj, w)
        return d_x, grads + [d_wo, d_bo, d_g1, d_be1, d_w1, d_b1, d_w2, d_b2, d_g2, d_be2]

    def step():
        h, saved = enc.x, []
        for i in range(enc.layers):
            h, layer_saved = layer_forward(h, params[16 * i:16 * i + 16])
            saved.append(layer_saved)
        d = 2 * (h - enc.target) / h.size
        grads = [None] * len(params)
        for i in reversed(range(enc.layers)):
            d, grads[16 * i:16 * i + 16] = layer_backward(d, params[16 * i:16 * i + 16],
                                                          saved[i])
        for p, g in zip(params, grads):
            p -= enc.learning_rate * g
        return c.without_key_biases(grads)
    return step


def transformer(peers: dict) -> Case:
    """One SGD training step of a 2-layer post-norm Transformer encoder: batch 16, sequence
    64, d_model 64, 4 heads, feed-forward 128 (relu), mean squared error. tapeflow and
    TensorFlow run Keras layers (MultiHeadAttention, LayerNormalization, Dense); PyTorch
    runs nn.TransformerEncoderLayer (dropout 0)."""
    enc = Encoder()
    case = Case("transformer")
    case.add("numpy", lambda: numpy_encoder(enc))
    model = c.EncoderModel()
    case.add("tapeflow eager", lambda: model.tf_api(tapeflow, enc, function=False))
    case.add("tapeflow function", lambda: model.tf_api(tapeflow, enc, function=True))
    if "torch" in peers:
        case.add("torch eager", lambda: model.torch(peers["torch"], enc),
                 model.torch_to_numpy(enc))
    if "tensorflow" in peers:
        case.add("tensorflow eager", lambda: model.tf_api(peers["tensorflow"], enc, False))
        case.add("tf.function", lambda: model.tf_api(peers["tensorflow"], enc, True))
    return case


ALL = {"chain": chain, "chain_tnp": chain_tnp, "mlp_small": mlp_small, "mlp_large": mlp_large, "convnet": convnet,
       "jacobian": jacobian, "batch_jacobian": batch_jacobian, "hvp": hvp,
       "hvp_gradient": hvp_gradient, "conv2d": conv2d, "rnn": rnn, "lstm": lstm,
       "transformer": transformer, "sparse_matmul": sparse_matmul,
       "conv3d_transpose": conv3d_transpose, "resize_up": resize_up,
       "resize_down": resize_down, "resize_bicubic": resize_bicubic, "ragged": ragged}
