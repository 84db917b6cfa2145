"""tf.experimental: type-based dispatch of TF's ops to other types (the mechanism the
ragged ops register through; see ops/dispatch.py), DynamicRaggedShape, `Optional`, `dtensor`
(meshes and layouts), and the numpy namespace (`tf.experimental.numpy`, imported on first
use)."""
import importlib

from ..ops.optional_ops import Optional
from ..ops.extension_type import (BatchableExtensionType, BatchableExtensionTypeSpec,
                                  ExtensionType, ExtensionTypeBatchEncoder, ExtensionTypeSpec)
from ..ops.ragged.dynamic_ragged_shape import DynamicRaggedShape
from ..ops.dispatch import (dispatch_for_api, dispatch_for_binary_elementwise_apis,
                            dispatch_for_unary_elementwise_apis, unregister_dispatch_for)
from . import dtensor  # noqa: F401

__all__ = ["BatchableExtensionType", "BatchableExtensionTypeSpec", "DynamicRaggedShape",
           "ExtensionType", "ExtensionTypeBatchEncoder", "ExtensionTypeSpec", "Optional", "dispatch_for_api",
           "dispatch_for_binary_elementwise_apis", "dispatch_for_unary_elementwise_apis",
           "dtensor", "unregister_dispatch_for"]

_LAZY_SUBMODULES = frozenset(["numpy"])


def __getattr__(name: str):
    if name in _LAZY_SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'tapeflow.experimental' has no attribute {name!r}")


def __dir__() -> list:
    return sorted(set(globals()) | _LAZY_SUBMODULES)
