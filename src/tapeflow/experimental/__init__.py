"""tf.experimental: type-based dispatch of TF's ops to other types (the mechanism the
ragged ops register through; see ops/dispatch.py), and DynamicRaggedShape."""
from ..ops.ragged.dynamic_ragged_shape import DynamicRaggedShape
from ..ops.dispatch import (dispatch_for_api, dispatch_for_binary_elementwise_apis,
                            dispatch_for_unary_elementwise_apis, unregister_dispatch_for)

__all__ = ["DynamicRaggedShape", "dispatch_for_api", "dispatch_for_binary_elementwise_apis",
           "dispatch_for_unary_elementwise_apis", "unregister_dispatch_for"]
