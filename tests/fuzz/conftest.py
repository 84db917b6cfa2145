"""Hypothesis profiles of the fuzzers.

`fuzz-ci` (the default, part of `make test`): a fixed budget of examples, derandomized, so
every run tests the same programs and stays within a few seconds a test. `fuzz-long`
(`make fuzz`, or TAPEFLOW_FUZZ=fuzz-long): many more, random each run, with failures kept in
.hypothesis/ and shrunk. Failures found are kept as literal regression cases in the tests.
"""
import os

from hypothesis import HealthCheck, settings

_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
settings.register_profile("fuzz-ci", max_examples=100, derandomize=True, deadline=None,
                          database=None, suppress_health_check=_QUIET, print_blob=True)
settings.register_profile("fuzz-long", max_examples=1500, deadline=None,
                          suppress_health_check=_QUIET, print_blob=True)
PROFILE = os.environ.get("TAPEFLOW_FUZZ", "fuzz-ci")
settings.get_profile(PROFILE)  # an unknown name fails here, not in the middle of a run
