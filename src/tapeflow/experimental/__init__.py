"""tf.experimental: type-based dispatch of TF's ops to other types (the mechanism the
ragged ops register through; see ops/dispatch.py), extension types (ops/extension_type.py),
DynamicRaggedShape, `Optional`, `dtensor` (meshes and layouts), `dlpack`, the narrow dtypes
(ml_dtypes'), the runtime controls (runtime.py) and the numpy namespace
(`tf.experimental.numpy`, imported on first use)."""
import importlib

from ..eager.function import function_executor_type
from ..framework.dtypes import (float4_e2m1fn, float8_e4m3fn, float8_e4m3fnuz, float8_e5m2,
                                int2, int4, uint4)
from ..ops.dispatch import (dispatch_for_api, dispatch_for_binary_elementwise_apis,
                            dispatch_for_binary_elementwise_assert_apis,
                            dispatch_for_unary_elementwise_apis, unregister_dispatch_for)
from ..ops.extension_type import (BatchableExtensionType, ExtensionType,
                                  ExtensionTypeBatchEncoder, ExtensionTypeSpec)
from ..ops.optional_ops import Optional
from ..ops.ragged.dynamic_ragged_shape import DynamicRaggedShape
from . import dlpack, dtensor, extension_type  # noqa: F401
from .runtime import (async_clear_error, async_scope, enable_strict_mode,
                      register_filesystem_plugin)

__all__ = ["BatchableExtensionType", "DynamicRaggedShape", "ExtensionType",
           "ExtensionTypeBatchEncoder", "ExtensionTypeSpec", "async_clear_error", "async_scope",
           "dlpack", "enable_strict_mode", "extension_type", "float4_e2m1fn", "float8_e4m3fn",
           "float8_e4m3fnuz", "float8_e5m2", "function_executor_type", "int2", "int4",
           "register_filesystem_plugin", "uint4", "Optional", "dispatch_for_api",
           "dispatch_for_binary_elementwise_apis", "dispatch_for_binary_elementwise_assert_apis",
           "dispatch_for_unary_elementwise_apis",
           "dtensor", "unregister_dispatch_for"]

_LAZY_SUBMODULES = frozenset(["numpy"])


def __getattr__(name: str):
    if name in _LAZY_SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'tapeflow.experimental' has no attribute {name!r}")


def __dir__() -> list:
    return sorted(set(globals()) | _LAZY_SUBMODULES)
