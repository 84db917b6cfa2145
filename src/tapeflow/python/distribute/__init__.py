"""`tensorflow.python.distribute`: where TF keeps its distributed datasets (see
`input_lib`)."""
