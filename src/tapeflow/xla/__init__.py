"""`tf.xla`: XLA's entry points; tapeflow runs the computation as a compiled plan."""
from . import experimental  # noqa: F401

__all__ = ["experimental"]
