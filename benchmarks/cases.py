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


ALL = {"chain": chain, "mlp_small": mlp_small, "mlp_large": mlp_large, "convnet": convnet}
