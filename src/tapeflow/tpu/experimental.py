"""tf.tpu.experimental: starting and stopping the TPU system (none on a CPU machine)."""
from ..distribute.tpu import initialize_tpu_system, shutdown_tpu_system

__all__ = ["initialize_tpu_system", "shutdown_tpu_system"]
