"""`tensorflow.python.data`: where TF keeps `tf.data`'s classes (see `ops.dataset_ops`)."""
