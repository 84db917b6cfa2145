"""A classic TF1 training script, run on scikit-learn's 8x8 digits: placeholders, a
two-layer network made with variable_scope/get_variable, AdamOptimizer with a global step,
a Saver and a MonitoredTrainingSession stopping at a step (checkpoints in --model-dir).

Only the import differs from the TensorFlow 1 script (with TF 2.21 it runs unchanged
otherwise, to about the same accuracy):
    import tapeflow.compat.v1 as tf   (instead of: import tensorflow.compat.v1 as tf)

    python examples/tf1_mnist.py --steps 600 --model-dir /tmp/digits
"""
import argparse
import tempfile

import numpy as np

import tapeflow.compat.v1 as tf


def load_digits(seed: int):
    """(train images, train labels, test images, test labels): 8x8 digits in [0, 1]."""
    from sklearn.datasets import load_digits as sklearn_digits
    from sklearn.model_selection import train_test_split
    data = sklearn_digits()
    images = (data.images.reshape(-1, 64) / 16.0).astype(np.float32)
    return train_test_split(images, data.target.astype(np.int64), test_size=0.2,
                            random_state=seed, stratify=data.target)


def network(images, hidden: int):
    """Logits of a 64-hidden-10 network with ReLU."""
    with tf.variable_scope("hidden"):
        w = tf.get_variable("weights", [64, hidden],
                            initializer=tf.truncated_normal_initializer(stddev=0.1))
        b = tf.get_variable("biases", [hidden], initializer=tf.zeros_initializer())
        h = tf.nn.relu(tf.matmul(images, w) + b)
    with tf.variable_scope("softmax"):
        w = tf.get_variable("weights", [hidden, 10])
        b = tf.get_variable("biases", [10], initializer=tf.constant_initializer(0.0))
        return tf.matmul(h, w) + b


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=600)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--learning-rate", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--model-dir", default=None)
    args = parser.parse_args(argv)
    model_dir = args.model_dir or tempfile.mkdtemp(prefix="tf1_digits_")

    tf.disable_v2_behavior()
    tf.reset_default_graph()
    tf.set_random_seed(args.seed)
    train_x, test_x, train_y, test_y = load_digits(args.seed)

    images = tf.placeholder(tf.float32, [None, 64], name="images")
    labels = tf.placeholder(tf.int64, [None], name="labels")
    logits = network(images, args.hidden)
    loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    correct = tf.equal(tf.argmax(logits, 1), labels)
    accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))
    global_step = tf.train.get_or_create_global_step()
    train_op = tf.train.AdamOptimizer(args.learning_rate).minimize(loss, global_step)

    hooks = [tf.train.StopAtStepHook(last_step=args.steps),
             tf.train.LoggingTensorHook({"step": global_step, "loss": loss}, every_n_iter=100)]
    rng = np.random.default_rng(args.seed)
    with tf.train.MonitoredTrainingSession(checkpoint_dir=model_dir, hooks=hooks,
                                           save_checkpoint_steps=200) as sess:
        while not sess.should_stop():
            batch = rng.choice(len(train_x), args.batch_size, replace=False)
            _, step, value = sess.run([train_op, global_step, loss],
                                      {images: train_x[batch], labels: train_y[batch]})
            if step % 100 == 0:
                print(f"step {step}: loss {value:.4f}")

    saver = tf.train.Saver()
    with tf.Session() as sess:
        saver.restore(sess, tf.train.latest_checkpoint(model_dir))
        test_accuracy = float(sess.run(accuracy, {images: test_x, labels: test_y}))
        print(f"restored step {sess.run(global_step)}; test accuracy: {100 * test_accuracy:.1f}%")
    return {"test_accuracy": test_accuracy, "model_dir": model_dir}


if __name__ == "__main__":
    main()
