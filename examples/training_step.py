"""The seed article's training step, with a Keras model, loss object and optimizer:

    with tf.GradientTape() as tape:
        predictions = model(images)
        loss = loss_object(labels, predictions)
    gradients = tape.gradient(loss, model.trainable_variables)

Here `model` is a softmax regression (one Dense layer, zero-initialized) on two Gaussian
blobs, trained with plain SGD; trainable variables are watched automatically.
"""
import numpy as np

import tapeflow as tf

rng = np.random.default_rng(0)
images = tf.constant(np.concatenate([rng.normal(-1, 1, (64, 2)), rng.normal(1, 1, (64, 2))])
                     .astype(np.float32))
labels = tf.constant(np.repeat([0, 1], 64).astype(np.int32))

model = tf.keras.Sequential([tf.keras.layers.Dense(2, kernel_initializer="zeros")])
loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = tf.keras.optimizers.SGD(learning_rate=0.5)

for step in range(50):
    with tf.GradientTape() as tape:
        predictions = model(images)
        loss = loss_object(labels, predictions)
    gradients = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    if step in (0, 49):
        print(f"step {step}: loss {float(loss):.4f}")

accuracy = tf.keras.metrics.SparseCategoricalAccuracy()
accuracy.update_state(labels, model(images))
print(f"training accuracy: {100 * float(accuracy.result()):.1f}%")
