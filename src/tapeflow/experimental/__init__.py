"""tf.experimental: type-based dispatch of TF's ops to other types (the mechanism the
ragged ops register through; see ops/dispatch.py), DynamicRaggedShape, `Optional` and
`dtensor` (meshes and layouts)."""
from ..ops.optional_ops import Optional
from ..ops.ragged.dynamic_ragged_shape import DynamicRaggedShape
from ..ops.dispatch import (dispatch_for_api, dispatch_for_binary_elementwise_apis,
                            dispatch_for_unary_elementwise_apis, unregister_dispatch_for)
from . import dtensor  # noqa: F401

__all__ = ["DynamicRaggedShape", "Optional", "dispatch_for_api",
           "dispatch_for_binary_elementwise_apis", "dispatch_for_unary_elementwise_apis",
           "dtensor", "unregister_dispatch_for"]
