"""Rows of the string ops: as_string takes numbers (no gradient, as TF's AsString); the
others take strings, integer code points or SparseTensor parts, which tapes never record:
their values are checked in tests/ops/test_string_ops.py and tests/data/test_text_readers.py."""
from __future__ import annotations

import tapeflow as tf
from tapeflow.framework.registry import OpDef
from tapeflow.ops import (edit_distance_ops, string_codec_ops, string_convert_ops, string_ops,
                          unicode_ops)

from ._table import EXEMPT, case, normal

case("AsString", tf.strings.as_string, normal(3), differentiable=False)
for _module in (edit_distance_ops, string_codec_ops, string_convert_ops, string_ops,
                unicode_ops):
    for _op in vars(_module).values():
        if isinstance(_op, OpDef) and _op.name != "AsString":
            EXEMPT[_op.name] = "tests/ops/test_string_ops.py (string inputs: never recorded)"
