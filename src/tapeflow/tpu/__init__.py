"""tf.tpu: a CPU machine has no TPU; `experimental.initialize_tpu_system` fails as TF's
does where none can be reached."""
from . import experimental

__all__ = ["experimental"]
