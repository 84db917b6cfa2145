"""The string ops: none differentiates (as in TF); their inputs are strings, integer code
points or SparseTensor parts, or (AsString) their output is a string, so no gradient
reaches them: their values are checked in tests/ops/test_string_ops.py and
tests/data/test_text_readers.py."""
from __future__ import annotations

from tapeflow.framework.registry import OpDef
from tapeflow.ops import (edit_distance_ops, string_codec_ops, string_convert_ops, string_ops,
                          unicode_ops)

from ._table import EXEMPT

for _module in (edit_distance_ops, string_codec_ops, string_convert_ops, string_ops,
                unicode_ops):
    for _op in vars(_module).values():
        if isinstance(_op, OpDef):
            EXEMPT[_op.name] = "tests/ops/test_string_ops.py (strings in or out: no gradient)"
