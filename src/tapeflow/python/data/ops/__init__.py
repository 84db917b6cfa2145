"""`tensorflow.python.data.ops`: TF's modules of `tf.data`'s classes."""
