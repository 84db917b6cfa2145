"""`tensorflow.python.framework`: where TF keeps its tensor classes (see `tensor`,
`sparse_tensor`)."""
