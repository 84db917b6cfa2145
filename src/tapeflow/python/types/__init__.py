"""`tensorflow.python.types`: the abstract types of TF's values (`core`)."""
