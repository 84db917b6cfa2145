"""TensorFlow's error hierarchy: every runtime failure of an op is an OpError subclass."""
from __future__ import annotations

__all__ = [
    "OpError", "CancelledError", "UnknownError", "InvalidArgumentError",
    "DeadlineExceededError", "NotFoundError", "AlreadyExistsError", "PermissionDeniedError",
    "ResourceExhaustedError", "FailedPreconditionError", "AbortedError", "OutOfRangeError",
    "UnimplementedError", "InternalError", "UnavailableError", "DataLossError",
    "UnauthenticatedError",
]


class OpError(Exception):
    """An operation failed; `op` names it where known, `message` says why.

    Like TF's, the constructor takes `(node_def, op, message)`.
    """

    error_code = 2

    def __init__(self, node_def, op, message: str, *args) -> None:
        super().__init__(message)
        self.node_def = node_def
        self.op = op
        self.message = message

    def __str__(self) -> str:
        return self.message


def _error_class(name: str, code: int) -> type:
    return type(name, (OpError,), {"error_code": code, "__module__": __name__,
                                   "__doc__": f"TF's {name} (error code {code})."})


CancelledError = _error_class("CancelledError", 1)
UnknownError = _error_class("UnknownError", 2)
InvalidArgumentError = _error_class("InvalidArgumentError", 3)
DeadlineExceededError = _error_class("DeadlineExceededError", 4)
NotFoundError = _error_class("NotFoundError", 5)
AlreadyExistsError = _error_class("AlreadyExistsError", 6)
PermissionDeniedError = _error_class("PermissionDeniedError", 7)
ResourceExhaustedError = _error_class("ResourceExhaustedError", 8)
FailedPreconditionError = _error_class("FailedPreconditionError", 9)
AbortedError = _error_class("AbortedError", 10)
OutOfRangeError = _error_class("OutOfRangeError", 11)
UnimplementedError = _error_class("UnimplementedError", 12)
InternalError = _error_class("InternalError", 13)
UnavailableError = _error_class("UnavailableError", 14)
DataLossError = _error_class("DataLossError", 15)
UnauthenticatedError = _error_class("UnauthenticatedError", 16)


def invalid_argument(op_name: str, message: str) -> InvalidArgumentError:
    """An InvalidArgumentError raised by op `op_name`, its message starting with the op's name."""
    return InvalidArgumentError(None, op_name, f"{op_name}: {message}")


class SymbolicValueError(TypeError):
    """The value (or an unknown dimension) of a symbolic graph tensor was needed.

    Raised while a graph is built, when code asks for data that exists only when the graph
    runs, and when a graph tensor is used outside its graph. Graph-mode gradients catch it
    to run a rule at run time instead.
    """


class OperatorNotAllowedInGraphError(TypeError):
    """A Python operation (`if`, `bool`, iteration) was applied to a symbolic tensor."""
