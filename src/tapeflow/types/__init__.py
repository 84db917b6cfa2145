"""tf.types: the abstract types of TF's public objects (`tf.types.experimental`)."""
from . import experimental  # noqa: F401

__all__ = ["experimental"]
