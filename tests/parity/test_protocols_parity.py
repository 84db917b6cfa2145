"""The Python protocols of tensors and Variables under TF and tapeflow: the cases of
tests/framework/test_protocols.py evaluated with both libraries give the same outcome, and
TF's is still the one recorded there."""
import importlib.util
import pathlib

import pytest

import tapeflow

pytestmark = pytest.mark.parity

_PATH = pathlib.Path(__file__).parent.parent / "framework" / "test_protocols.py"
_spec = importlib.util.spec_from_file_location("protocol_cases", _PATH)
CASES = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(CASES)


@pytest.mark.parametrize("case", CASES.ALL_CASES)
def test_protocol_matches_tensorflow(tensorflow, case):
    theirs = CASES.outcome(tensorflow, CASES.source_of(case))
    assert theirs == CASES.RECORDED[case]
    if case not in CASES.KNOWN_DIFFERENCES:
        assert CASES.outcome(tapeflow, CASES.source_of(case)) == theirs
