"""The C allocator's settings for NumPy's temporaries.

A training step allocates and frees many arrays of a few hundred KiB to a few MiB. glibc's
malloc serves those from fresh memory maps, or trims its heap after they are freed, so each
step pays the kernel again for pages it just gave back (page faults cost as much as the
arithmetic at these sizes). `keep_freed_memory` raises the map threshold to its maximum and
the trim threshold to 256 MiB, as frameworks' caching allocators do: freed memory is reused
by the next step instead. It changes nothing where the C library has no `mallopt` (not
glibc), where the user set `MALLOC_MMAP_THRESHOLD_` or `MALLOC_TRIM_THRESHOLD_`, or where
`TAPEFLOW_SYSTEM_MALLOC` is set.

`references` tells whether an array may be reused in place: only where nothing else holds it
(a variable's update, a gradient summed by the reverse loop).
"""
from __future__ import annotations

import ctypes
import os
import sys

__all__ = ["keep_freed_memory", "references"]

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
_MMAP_THRESHOLD = 32 * 2**20   # glibc's largest on 64-bit machines
_TRIM_THRESHOLD = 256 * 2**20
_OPT_OUT = ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "TAPEFLOW_SYSTEM_MALLOC")


def keep_freed_memory() -> bool:
    """Makes malloc keep freed memory for reuse (see the module); True when it did."""
    if not sys.platform.startswith("linux") or any(v in os.environ for v in _OPT_OUT):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, _MMAP_THRESHOLD)) and \
        bool(mallopt(_M_TRIM_THRESHOLD, _TRIM_THRESHOLD))


# The references to an object: exact (sys.getrefcount) on CPython up to 3.13; elsewhere
# (borrowed references from 3.14, other interpreters) -1, so no array is reused in place.
if sys.implementation.name == "cpython" and sys.version_info < (3, 14):
    references = sys.getrefcount
else:
    def references(obj) -> int:
        return -1
