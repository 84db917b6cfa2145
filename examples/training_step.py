"""The seed article's training step: trainable variables are watched automatically.

    with tf.GradientTape() as tape:
        predictions = model(images)
        loss = loss_object(labels, predictions)
    gradients = tape.gradient(loss, model.trainable_variables)

Here `model` is a softmax regression on two Gaussian blobs, trained with plain SGD.
"""
import numpy as np

import tapeflow as tf


class SoftmaxRegression:
    def __init__(self, features: int, classes: int) -> None:
        self.w = tf.Variable(np.zeros((features, classes), np.float32), name="w")
        self.b = tf.Variable(np.zeros(classes, np.float32), name="b")

    @property
    def trainable_variables(self):
        return [self.w, self.b]

    def __call__(self, images):
        return tf.matmul(images, self.w) + self.b


def loss_object(labels, logits):
    return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits))


rng = np.random.default_rng(0)
images = tf.constant(np.concatenate([rng.normal(-1, 1, (64, 2)), rng.normal(1, 1, (64, 2))])
                     .astype(np.float32))
labels = tf.constant(np.repeat([0, 1], 64).astype(np.int32))
model = SoftmaxRegression(2, 2)

for step in range(50):
    with tf.GradientTape() as tape:
        predictions = model(images)
        loss = loss_object(labels, predictions)
    gradients = tape.gradient(loss, model.trainable_variables)
    for variable, gradient in zip(model.trainable_variables, gradients):
        variable.assign_sub(0.5 * gradient)
    if step in (0, 49):
        print(f"step {step}: loss {float(loss):.4f}")

accuracy = np.mean(np.argmax(model(images).numpy(), axis=1) == labels.numpy())
print(f"training accuracy: {100 * accuracy:.1f}%")
