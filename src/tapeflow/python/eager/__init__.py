"""`tensorflow.python.eager`: the execution context (`context`)."""
