"""Rows of tf.io's ops: serialize_tensor takes numbers (its gradient is None); the others
take strings or file names and are checked where their files are."""
from __future__ import annotations

import tapeflow as tf

from ._table import EXEMPT, case, normal

case("SerializeTensor", tf.io.serialize_tensor, normal(3, 2), differentiable=False)

EXEMPT.update({
    "ParseTensor": "tests/io/test_files.py (string input: no gradient)",
    "ReadFile": "tests/io/test_files.py (a file name in, the file out)",
    "WriteFile": "tests/io/test_files.py (writes a file; no outputs)",
    "MatchingFiles": "tests/io/test_files.py (file names in and out)",
    "DecodeRaw": "tests/io/test_files.py (string input: no gradient)",
    "DecodeCompressed": "tests/io/test_files.py (string input: no gradient)",
    "ParseExampleV2": "tests/io/test_parsing.py (string input: no gradient)",
    "ParseSequenceExampleV2": "tests/io/test_parsing.py (string input: no gradient)",
})
