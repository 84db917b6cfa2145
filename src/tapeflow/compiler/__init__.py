"""`tensorflow.compiler`: the private XLA modules libraries import (the stand-in maps
`tensorflow.compiler.X` here). Today `tf2xla.python.xla`'s dynamic slices."""
