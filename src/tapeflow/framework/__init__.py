"""The framework layer: tensors, graphs, the op registry and execution."""
from .allocator import keep_freed_memory

keep_freed_memory()
