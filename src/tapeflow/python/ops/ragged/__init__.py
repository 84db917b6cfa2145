"""`tensorflow.python.ops.ragged`: where TF keeps `RaggedTensor` (see `ragged_tensor`)."""
