"""The C allocator's settings: applied on glibc, left alone where the user opts out."""
import platform
import sys

import pytest

from tapeflow.framework import allocator


@pytest.mark.parametrize("variable", ["TAPEFLOW_SYSTEM_MALLOC", "MALLOC_TRIM_THRESHOLD_",
                                      "MALLOC_MMAP_THRESHOLD_"])
def test_an_environment_variable_keeps_the_c_library_defaults(monkeypatch, variable):
    monkeypatch.setenv(variable, "1")
    assert allocator.keep_freed_memory() is False


@pytest.mark.skipif(not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc",
                    reason="glibc's mallopt")
def test_thresholds_are_set_on_glibc(monkeypatch):
    for variable in allocator._OPT_OUT:
        monkeypatch.delenv(variable, raising=False)
    assert allocator.keep_freed_memory() is True
