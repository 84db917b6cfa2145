"""`tf.experimental`: TF's experimental names; today `Optional`."""
from ..ops.optional_ops import Optional

__all__ = ["Optional"]
