"""tf.compat: `v1` (TF1's graph-and-Session API), `v2` (this package itself) and the
conversions between text and bytes (`as_text`, `as_bytes`, ...)."""
from __future__ import annotations

import sys

from . import v1
from .text import (as_bytes, as_str, as_str_any, as_text, bytes_or_text_types, complex_types,
                   integral_types, path_to_str, real_types)

v2 = sys.modules[__name__.rsplit(".", 1)[0]]

__all__ = ["v1", "v2", "as_bytes", "as_str", "as_str_any", "as_text", "bytes_or_text_types",
           "complex_types", "integral_types", "path_to_str", "real_types"]
