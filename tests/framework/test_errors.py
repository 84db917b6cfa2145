import pytest

import tapeflow as tf


@pytest.mark.parametrize("name, code", [
    ("CancelledError", 1), ("UnknownError", 2), ("InvalidArgumentError", 3),
    ("DeadlineExceededError", 4), ("NotFoundError", 5), ("AlreadyExistsError", 6),
    ("PermissionDeniedError", 7), ("ResourceExhaustedError", 8),
    ("FailedPreconditionError", 9), ("AbortedError", 10), ("OutOfRangeError", 11),
    ("UnimplementedError", 12), ("InternalError", 13), ("UnavailableError", 14),
    ("DataLossError", 15), ("UnauthenticatedError", 16)])
def test_error_hierarchy(name, code):
    cls = getattr(tf.errors, name)
    err = cls(None, None, "boom")
    assert isinstance(err, tf.errors.OpError) and err.error_code == code
    assert err.message == "boom" and str(err) == "boom" and err.op is None
