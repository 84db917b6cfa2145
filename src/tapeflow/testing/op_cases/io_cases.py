"""tf.io's ops in the gradient-check table: none is differentiable (their inputs or
outputs are strings or file names), each is checked where its files are."""
from __future__ import annotations

from ._table import EXEMPT

EXEMPT.update({
    "SerializeTensor": "tests/io/test_files.py (string output: no gradient)",
    "SerializeSparse": "tests/io/test_files.py (string output: no gradient)",
    "SerializeManySparse": "tests/io/test_files.py (string output: no gradient)",
    "DeserializeManySparse": "tests/io/test_files.py (string input: no gradient)",
    "ParseTensor": "tests/io/test_files.py (string input: no gradient)",
    "ReadFile": "tests/io/test_files.py (a file name in, the file out)",
    "WriteFile": "tests/io/test_files.py (writes a file; no outputs)",
    "MatchingFiles": "tests/io/test_files.py (file names in and out)",
    "DecodeRaw": "tests/io/test_files.py (string input: no gradient)",
    "DecodeCompressed": "tests/io/test_files.py (string input: no gradient)",
    "ParseExampleV2": "tests/io/test_parsing.py (string input: no gradient)",
    "ParseSequenceExampleV2": "tests/io/test_parsing.py (string input: no gradient)",
})
