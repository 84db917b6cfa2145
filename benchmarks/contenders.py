"""The contenders of each kind of case, written the way a user of each framework would.

A model class (Chain, Classifier) has one builder per API: `tf_api` (shared by tapeflow
and TensorFlow, since `import tapeflow as tf` runs TF code), `torch`, `jax` and
`autograd`. Each builder returns a zero-argument step that returns its gradients, in the
order and layout of the NumPy baseline (see harness.Case). `add_all` adds every contender
that can run here and notes the ones that cannot.
"""
from __future__ import annotations

import importlib

import numpy as np

import tapeflow


def add_all(case, peers: dict, data, model, tapeflow_missing: str | None = None) -> None:
    """Adds tapeflow eager and `function`, then each installed peer, to `case`."""
    if tapeflow_missing:
        case.skip("tapeflow eager", tapeflow_missing)
        case.skip("tapeflow function", tapeflow_missing)
    else:
        case.add("tapeflow eager", lambda: model.tf_api(tapeflow, data, function=False))
        if hasattr(tapeflow, "function"):
            case.add("tapeflow function", lambda: model.tf_api(tapeflow, data, function=True))
        else:
            case.skip("tapeflow function", "tapeflow.function does not exist yet")
    if "torch" in peers:
        case.add("torch eager", lambda: model.torch(peers["torch"], data),
                 model.torch_to_numpy(data))
    if "jax" in peers:
        case.add("jax", lambda: model.jax(peers["jax"], data, jit=False))
        case.add("jax.jit", lambda: model.jax(peers["jax"], data, jit=True))
    if "tensorflow" in peers:
        case.add("tensorflow eager", lambda: model.tf_api(peers["tensorflow"], data, False))
        case.add("tf.function", lambda: model.tf_api(peers["tensorflow"], data, True))
    if "autograd" in peers:
        case.add("autograd", lambda: model.autograd(peers["autograd"], data))


def torch_sgd(torch, loss, params: list, lr: float) -> tuple:
    """The gradients of `loss` for `params`, after `param -= lr * gradient` on each."""
    grads = torch.autograd.grad(loss, params)
    with torch.no_grad():
        for p, g in zip(params, grads):
            p.sub_(g, alpha=lr)
    return grads


class Chain:
    """x -> tanh(x * 1.01 + 0.1), `steps` times; the gradient of the result's sum."""

    def __init__(self, steps: int) -> None:
        self.steps = steps

    def tf_api(self, tf, x0: np.ndarray, function: bool):
        xt = tf.constant(x0)

        def step():
            with tf.GradientTape() as tape:
                tape.watch(xt)
                x = xt
                for _ in range(self.steps):
                    x = tf.tanh(x * 1.01 + 0.1)
            return [tape.gradient(x, xt)]
        return tf.function(step) if function else step

    def torch(self, torch, x0: np.ndarray):
        xt = torch.tensor(x0, requires_grad=True)
        ones = torch.ones_like(xt)

        def step():
            x = xt
            for _ in range(self.steps):
                x = torch.tanh(x * 1.01 + 0.1)
            return torch.autograd.grad(x, xt, ones)
        return step

    def torch_to_numpy(self, x0):
        return None

    def _forward(self, tanh, x):
        for _ in range(self.steps):
            x = tanh(x * 1.01 + 0.1)
        return x

    def jax(self, jax, x0: np.ndarray, jit: bool):
        jnp = jax.numpy
        grad = jax.grad(lambda x: jnp.sum(self._forward(jnp.tanh, x)))
        grad = jax.jit(grad) if jit else grad
        xj = jnp.asarray(x0)
        return lambda: [jax.block_until_ready(grad(xj))]

    def autograd(self, autograd, x0: np.ndarray):
        anp = importlib.import_module("autograd.numpy")
        grad = autograd.grad(lambda x: anp.sum(self._forward(anp.tanh, x)))
        return lambda: [grad(x0)]


class NumpyChain(Chain):
    """Chain written with tf.experimental.numpy's functions (tapeflow's and TF's); the peers
    run Chain's own code."""

    def tf_api(self, tf, x0: np.ndarray, function: bool):
        tnp = tf.experimental.numpy
        xt = tf.constant(x0)

        def step():
            with tf.GradientTape() as tape:
                tape.watch(xt)
                x = xt
                for _ in range(self.steps):
                    x = tnp.tanh(tnp.add(tnp.multiply(x, 1.01), 0.1))
            return [tape.gradient(x, xt)]
        return tf.function(step) if function else step


class Recurrent:
    """One SGD step of a cases.Recurrent: eagerly a Python loop over the steps, under
    tf.function a tf.while_loop indexing `xs[t]` with its loop counter."""

    def tf_api(self, tf, net, function: bool):
        variables = [tf.Variable(p) for p in net.fresh_params()]
        xs, lr = tf.constant(net.xs), float(net.learning_rate)
        steps = net.xs.shape[0]
        h0 = tf.zeros([net.xs.shape[1], net.params[1].shape[0]])

        def cell(x, h):
            w, u, b = variables
            return tf.tanh(tf.matmul(x, w) + tf.matmul(h, u) + b)

        def forward():
            if function:
                return tf.while_loop(lambda t, h: t < steps,
                                     lambda t, h: (t + 1, cell(xs[t], h)),
                                     (tf.constant(0), h0))[1]
            h = h0
            for t in range(steps):
                h = cell(xs[t], h)
            return h

        def step():
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(forward() ** 2)
            grads = tape.gradient(loss, variables)
            for v, g in zip(variables, grads):
                v.assign_sub(lr * g)
            return grads
        return tf.function(step) if function else step


class Classifier:
    """One SGD step of a cases.Network: forward, mean sparse softmax cross entropy,
    gradients, then every parameter -= learning_rate * gradient."""

    def tf_api(self, tf, net, function: bool):
        variables = [tf.Variable(p) for p in net.fresh_params()]
        x, y, lr = tf.constant(net.x), tf.constant(net.y), float(net.learning_rate)

        def forward():
            h, dense = x, variables
            if net.conv_filters:
                h = tf.nn.conv2d(h, variables[0], strides=1, padding="VALID") + variables[1]
                h = tf.reshape(tf.nn.relu(h), (net.batch, -1))
                dense = variables[2:]
            for i in range(0, len(dense), 2):
                h = tf.matmul(h, dense[i]) + dense[i + 1]
                if i + 2 < len(dense):
                    h = tf.nn.relu(h)
            return h

        def step():
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
                    labels=y, logits=forward()))
            grads = tape.gradient(loss, variables)
            for v, g in zip(variables, grads):
                v.assign_sub(lr * g)
            return grads
        return tf.function(step) if function else step

    # PyTorch convolves NCHW with OIHW filters and flattens channels first: the first dense
    # layer's rows are permuted to match, and the gradients are laid back out for the check.
    def _flatten_order(self, net) -> np.ndarray:
        oh, ow = net.conv_out
        return np.arange(oh * ow * net.conv_filters).reshape(oh, ow, -1).transpose(2, 0, 1).ravel()

    def torch(self, torch, net):
        functional = torch.nn.functional
        params = net.fresh_params()
        x = net.x
        if net.conv_filters:
            params[0] = params[0].transpose(3, 2, 0, 1).copy()
            params[2] = params[2][self._flatten_order(net)]
            x = x.transpose(0, 3, 1, 2).copy()
        params = [torch.tensor(p, requires_grad=True) for p in params]
        x, y = torch.from_numpy(x), torch.from_numpy(net.y.astype(np.int64))
        lr = float(net.learning_rate)

        def step():
            h, dense = x, params
            if net.conv_filters:
                h = functional.relu(functional.conv2d(h, params[0], params[1])).flatten(1)
                dense = params[2:]
            for i in range(0, len(dense), 2):
                h = torch.addmm(dense[i + 1], h, dense[i])
                if i + 2 < len(dense):
                    h = functional.relu(h)
            loss = functional.cross_entropy(h, y)
            return torch_sgd(torch, loss, params, lr)
        return step

    def torch_to_numpy(self, net):
        if not net.conv_filters:
            return None
        inverse = np.argsort(self._flatten_order(net))

        def to_numpy(grads):
            grads = [g.numpy() for g in grads]
            grads[0] = grads[0].transpose(2, 3, 1, 0)
            grads[2] = grads[2][inverse]
            return grads
        return to_numpy

    def jax(self, jax, net, jit: bool):
        jnp, lr = jax.numpy, net.learning_rate

        def loss_fn(params, x, y):
            h, dense = x, params
            if net.conv_filters:
                h = jax.lax.conv_general_dilated(h, params[0], (1, 1), "VALID",
                                                 dimension_numbers=("NHWC", "HWIO", "NHWC"))
                h = jax.nn.relu(h + params[1]).reshape(x.shape[0], -1)
                dense = params[2:]
            for i in range(0, len(dense), 2):
                h = h @ dense[i] + dense[i + 1]
                if i + 2 < len(dense):
                    h = jax.nn.relu(h)
            log_p = jax.nn.log_softmax(h)
            return -jnp.mean(jnp.take_along_axis(log_p, y[:, None], axis=1))

        grad = jax.grad(loss_fn)

        def update(params, x, y):
            grads = grad(params, x, y)
            return [p - lr * g for p, g in zip(params, grads)], grads
        update = jax.jit(update) if jit else update
        state = [[jnp.asarray(p) for p in net.fresh_params()]]
        x, y = jnp.asarray(net.x), jnp.asarray(net.y)

        def step():
            state[0], grads = update(state[0], x, y)
            return jax.block_until_ready(grads)
        return step

    def autograd(self, autograd, net):
        anp = importlib.import_module("autograd.numpy")
        logsumexp = importlib.import_module("autograd.scipy.special").logsumexp
        x, y, n, lr = net.x, net.y, net.batch, net.learning_rate
        rows = np.arange(n)

        def loss_fn(params):
            h, dense = x, params
            if net.conv_filters:
                oh, ow = net.conv_out
                patches = anp.stack([x[:, i:i + oh, j:j + ow, :]
                                     for i in range(3) for j in range(3)], axis=3)
                h = anp.dot(patches.reshape(n * oh * ow, -1),
                            anp.reshape(params[0], (-1, net.conv_filters))) + params[1]
                h = anp.maximum(h, 0).reshape(n, -1)
                dense = params[2:]
            for i in range(0, len(dense), 2):
                h = anp.dot(h, dense[i]) + dense[i + 1]
                if i + 2 < len(dense):
                    h = anp.maximum(h, 0)
            log_p = h - logsumexp(h, axis=1, keepdims=True)
            return -anp.mean(log_p[rows, y])

        grad = autograd.grad(loss_fn)
        params = net.fresh_params()

        def step():
            grads = grad(params)
            for p, g in zip(params, grads):
                p -= lr * g
            return grads
        return step


class TanhJacobian:
    """The Jacobian of tanh(W @ x) with respect to a vector x, or with `batch` the
    per-example Jacobians (batch_jacobian) of tanh(x @ W) for a batch of rows x.
    Data: (W, x). With `use_pfor=False`, TF's loop of one gradient call per output."""

    def __init__(self, batch: bool, use_pfor: bool = True) -> None:
        self.batch, self.use_pfor = batch, use_pfor

    def tf_api(self, tf, data, function: bool):
        w, x = tf.constant(data[0]), tf.constant(data[1])

        def step():
            with tf.GradientTape(persistent=not self.use_pfor) as tape:
                tape.watch(x)
                if self.batch:
                    y = tf.tanh(tf.matmul(x, w))
                else:
                    y = tf.tanh(tf.reshape(tf.matmul(w, tf.reshape(x, [-1, 1])), [-1]))
            method = tape.batch_jacobian if self.batch else tape.jacobian
            return [method(y, x, experimental_use_pfor=self.use_pfor)]
        return tf.function(step) if function else step

    def _row(self, tanh, w):
        return (lambda x: tanh(x @ w)) if self.batch else (lambda x: tanh(w @ x))

    def torch(self, torch, data):
        w, x = torch.tensor(data[0]), torch.tensor(data[1])
        jacobian = torch.func.jacrev(self._row(torch.tanh, w))
        if self.batch:
            jacobian = torch.func.vmap(jacobian)
        return lambda: [jacobian(x)]

    def torch_to_numpy(self, data):
        return None

    def jax(self, jax, data, jit: bool):
        jnp = jax.numpy
        jacobian = jax.jacrev(self._row(jnp.tanh, jnp.asarray(data[0])))
        if self.batch:
            jacobian = jax.vmap(jacobian)
        jacobian = jax.jit(jacobian) if jit else jacobian
        x = jnp.asarray(data[1])
        return lambda: [jax.block_until_ready(jacobian(x))]

    def autograd(self, autograd, data):
        anp = importlib.import_module("autograd.numpy")
        jacobian = autograd.jacobian(self._row(anp.tanh, data[0]))
        if self.batch:
            return lambda: [np.stack([jacobian(row) for row in data[1]])]
        return lambda: [jacobian(data[1])]


class TanhLoss:
    """sum(tanh(W @ x) ** 2) of a vector x: its Hessian-vector product along v (forward over
    reverse), or with `hvp=False` its gradient, the yardstick. Data: (W, x, v)."""

    def __init__(self, hvp: bool) -> None:
        self.hvp = hvp

    def tf_api(self, tf, data, function: bool):
        w, x, v = (tf.constant(a) for a in data)

        def gradient():
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = tf.reduce_sum(tf.tanh(tf.reshape(tf.matmul(w, tf.reshape(x, [-1, 1])),
                                                     [-1])) ** 2.0)
            return tape.gradient(y, x)

        def step():
            if not self.hvp:
                return [gradient()]
            with tf.autodiff.ForwardAccumulator(x, v) as acc:
                backward = gradient()
            return [acc.jvp(backward)]
        return tf.function(step) if function else step

    def _loss(self, np_like, w):
        return lambda x: np_like.sum(np_like.tanh(w @ x) ** 2)

    def torch(self, torch, data):
        w, x, v = (torch.tensor(a) for a in data)
        grad = torch.func.grad(self._loss(torch, w))
        if not self.hvp:
            return lambda: [grad(x)]
        return lambda: [torch.func.jvp(grad, (x,), (v,))[1]]

    def torch_to_numpy(self, data):
        return None

    def jax(self, jax, data, jit: bool):
        jnp = jax.numpy
        w, x, v = (jnp.asarray(a) for a in data)
        grad = jax.grad(self._loss(jnp, w))
        fn = (lambda x, v: jax.jvp(grad, (x,), (v,))[1]) if self.hvp else (lambda x, v: grad(x))
        fn = jax.jit(fn) if jit else fn
        return lambda: [jax.block_until_ready(fn(x, v))]

    def autograd(self, autograd, data):
        anp = importlib.import_module("autograd.numpy")
        w, x, v = data
        loss = self._loss(anp, w)
        if not self.hvp:
            grad = autograd.grad(loss)
            return lambda: [grad(x)]
        hvp = autograd.hessian_vector_product(loss)
        return lambda: [hvp(x, v)]


class LSTMLayer:
    """One SGD step of a cases.Sequences LSTM through each framework's LSTM layer (Keras's
    LSTM; PyTorch's nn.LSTM, whose gate order matches Keras's, with the bias in
    bias_ih and bias_hh zero)."""

    def tf_api(self, tf, data, function: bool):
        layer = tf.keras.layers.LSTM(data.y.shape[1])
        x, y, lr = tf.constant(data.x), tf.constant(data.y), float(data.learning_rate)
        layer(x)
        layer.set_weights(data.fresh_params())
        variables = layer.trainable_weights

        def step():
            with tf.GradientTape() as tape:
                loss = 0.5 * tf.reduce_mean(tf.square(layer(x) - y))
            grads = tape.gradient(loss, variables)
            for v, g in zip(variables, grads):
                v.assign_sub(lr * g)
            return grads
        return tf.function(step) if function else step

    def torch(self, torch, data):
        kernel, recurrent, bias = data.fresh_params()
        lstm = torch.nn.LSTM(kernel.shape[0], recurrent.shape[0], batch_first=True)
        with torch.no_grad():
            lstm.weight_ih_l0.copy_(torch.from_numpy(kernel.T.copy()))
            lstm.weight_hh_l0.copy_(torch.from_numpy(recurrent.T.copy()))
            lstm.bias_ih_l0.copy_(torch.from_numpy(bias))
            lstm.bias_hh_l0.zero_()
        params = [lstm.weight_ih_l0, lstm.weight_hh_l0, lstm.bias_ih_l0]
        x, y, lr = torch.from_numpy(data.x), torch.from_numpy(data.y), float(data.learning_rate)

        def step():
            lstm.zero_grad()
            out, _ = lstm(x)
            loss = 0.5 * torch.mean((out[:, -1] - y) ** 2)
            loss.backward()
            with torch.no_grad():
                for p in lstm.parameters():
                    p.sub_(p.grad, alpha=lr)
            return [p.grad for p in params]
        return step

    def torch_to_numpy(self, data):
        def to_numpy(grads):
            return [grads[0].numpy().T, grads[1].numpy().T, grads[2].numpy()]
        return to_numpy

    def jax(self, jax, data, jit: bool):
        raise NotImplementedError("no LSTM contender written for JAX")

    def autograd(self, autograd, data):
        raise NotImplementedError("no LSTM contender written for autograd")


def without_key_biases(grads: list) -> list:
    """An encoder step's gradients less the key projections' biases (the fourth of each
    layer's 16): a shift of every key by one vector leaves the softmax unchanged, so their
    gradient is zero but for rounding, which no tolerance relative to it can compare."""
    return [g for i, g in enumerate(grads) if i % 16 != 3]


class EncoderModel:
    """One SGD step of a cases.Encoder: the encoder layers, mean squared error against the
    target, gradients, then every parameter -= learning_rate * gradient. Steps return the
    gradients `without_key_biases`."""

    def tf_api(self, tf, enc, function: bool):
        layers = tf.keras.layers
        blocks, variables = [], []
        params = enc.fresh_params()
        for i in range(enc.layers):
            block = [layers.MultiHeadAttention(enc.heads, enc.head),
                     layers.LayerNormalization(epsilon=enc.EPSILON),
                     layers.Dense(enc.ff, activation="relu"), layers.Dense(enc.d_model),
                     layers.LayerNormalization(epsilon=enc.EPSILON)]
            zeros = tf.zeros(enc.x.shape)            # builds the layers
            block[1](block[0](zeros, zeros))
            block[4](block[3](block[2](zeros)))
            start = 16 * i
            for layer in block:
                count = len(layer.weights)
                layer.set_weights(params[start:start + count])
                variables += layer.trainable_weights
                start += count
            blocks.append(block)
        x, target, lr = tf.constant(enc.x), tf.constant(enc.target), float(enc.learning_rate)

        def forward():
            h = x
            for attention, norm1, dense1, dense2, norm2 in blocks:
                h = norm1(h + attention(h, h))
                h = norm2(h + dense2(dense1(h)))
            return h

        def step():
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(forward() - target))
            grads = tape.gradient(loss, variables)
            for v, g in zip(variables, grads):
                v.assign_sub(lr * g)
            return without_key_biases(grads)
        return tf.function(step) if function else step

    @staticmethod
    def _torch_params(enc) -> list:
        """Each layer's parameters in PyTorch's layout: in_proj weight and bias, out_proj
        weight and bias, linear1, linear2 (weights [out, in]), norm1, norm2."""
        d, params = enc.d_model, enc.fresh_params()
        out = []
        for i in range(enc.layers):
            wq, bq, wk, bk, wv, bv, wo, bo, g1, be1, w1, b1, w2, b2, g2, be2 = \
                params[16 * i:16 * i + 16]
            out += [np.concatenate([w.reshape(d, d).T for w in (wq, wk, wv)]),
                    np.concatenate([b.ravel() for b in (bq, bk, bv)]), wo.reshape(d, d).T, bo,
                    w1.T, b1, w2.T, b2, g1, be1, g2, be2]
        return out

    def torch(self, torch, enc):
        layers = [torch.nn.TransformerEncoderLayer(enc.d_model, enc.heads, enc.ff, dropout=0.0,
                                                   layer_norm_eps=enc.EPSILON, batch_first=True)
                  for _ in range(enc.layers)]
        values = iter(self._torch_params(enc))
        params = []
        with torch.no_grad():
            for layer in layers:
                for p in (layer.self_attn.in_proj_weight, layer.self_attn.in_proj_bias,
                          layer.self_attn.out_proj.weight, layer.self_attn.out_proj.bias,
                          layer.linear1.weight, layer.linear1.bias, layer.linear2.weight,
                          layer.linear2.bias, layer.norm1.weight, layer.norm1.bias,
                          layer.norm2.weight, layer.norm2.bias):
                    p.copy_(torch.from_numpy(next(values)))
                    params.append(p)
        x, target = torch.from_numpy(enc.x), torch.from_numpy(enc.target)
        lr = float(enc.learning_rate)

        def step():
            h = x
            for layer in layers:
                h = layer(h)
            loss = torch.nn.functional.mse_loss(h, target)
            return torch_sgd(torch, loss, params, lr)
        return step

    def torch_to_numpy(self, enc):
        d, heads, head = enc.d_model, enc.heads, enc.head

        def to_numpy(grads):
            grads = [g.numpy() for g in grads]
            out = []
            for i in range(enc.layers):
                w_in, b_in, wo, bo, w1, b1, w2, b2, g1, be1, g2, be2 = grads[12 * i:12 * i + 12]
                for j in range(3):
                    out += [w_in[j * d:(j + 1) * d].T.reshape(d, heads, head),
                            b_in[j * d:(j + 1) * d].reshape(heads, head)]
                out += [wo.T.reshape(heads, head, d), bo, g1, be1, w1.T, b1, w2.T, b2, g2, be2]
            return without_key_biases(out)
        return to_numpy
