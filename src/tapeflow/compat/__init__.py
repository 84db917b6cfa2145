"""tf.compat: `v1` (TF1's graph-and-Session API) and `v2` (this package itself)."""
from __future__ import annotations

import sys

from . import v1

v2 = sys.modules[__name__.rsplit(".", 1)[0]]

__all__ = ["v1", "v2"]
