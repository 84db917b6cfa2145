"""`tf.experimental`: TF's experimental names; today `Optional` and `dtensor` (meshes and
layouts)."""
from ..ops.optional_ops import Optional
from . import dtensor  # noqa: F401

__all__ = ["Optional", "dtensor"]
