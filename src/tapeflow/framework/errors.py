"""TensorFlow's error hierarchy: every runtime failure of an op is an OpError subclass."""
from __future__ import annotations

__all__ = [
    "OpError", "CancelledError", "UnknownError", "InvalidArgumentError",
    "DeadlineExceededError", "NotFoundError", "AlreadyExistsError", "PermissionDeniedError",
    "ResourceExhaustedError", "FailedPreconditionError", "AbortedError", "OutOfRangeError",
    "UnimplementedError", "InternalError", "UnavailableError", "DataLossError",
    "UnauthenticatedError", "OperatorNotAllowedInGraphError",
    "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
    "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
    "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
    "UNAUTHENTICATED",
]

# TF's error codes, in order: each error class below carries its own as `error_code`.
(OK, CANCELLED, UNKNOWN, INVALID_ARGUMENT, DEADLINE_EXCEEDED, NOT_FOUND, ALREADY_EXISTS,
 PERMISSION_DENIED, RESOURCE_EXHAUSTED, FAILED_PRECONDITION, ABORTED, OUT_OF_RANGE,
 UNIMPLEMENTED, INTERNAL, UNAVAILABLE, DATA_LOSS, UNAUTHENTICATED) = range(17)


class OpError(Exception):
    """An operation failed; `op` names it where known, `message` says why.

    Like TF's, the constructor takes `(node_def, op, message)`.
    """

    error_code = UNKNOWN

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


CancelledError = _error_class("CancelledError", CANCELLED)
UnknownError = _error_class("UnknownError", UNKNOWN)
InvalidArgumentError = _error_class("InvalidArgumentError", INVALID_ARGUMENT)
DeadlineExceededError = _error_class("DeadlineExceededError", DEADLINE_EXCEEDED)
NotFoundError = _error_class("NotFoundError", NOT_FOUND)
AlreadyExistsError = _error_class("AlreadyExistsError", ALREADY_EXISTS)
PermissionDeniedError = _error_class("PermissionDeniedError", PERMISSION_DENIED)
ResourceExhaustedError = _error_class("ResourceExhaustedError", RESOURCE_EXHAUSTED)
FailedPreconditionError = _error_class("FailedPreconditionError", FAILED_PRECONDITION)
AbortedError = _error_class("AbortedError", ABORTED)
OutOfRangeError = _error_class("OutOfRangeError", OUT_OF_RANGE)
UnimplementedError = _error_class("UnimplementedError", UNIMPLEMENTED)
InternalError = _error_class("InternalError", INTERNAL)
UnavailableError = _error_class("UnavailableError", UNAVAILABLE)
DataLossError = _error_class("DataLossError", DATA_LOSS)
UnauthenticatedError = _error_class("UnauthenticatedError", UNAUTHENTICATED)


def invalid_argument(op_name: str, message: str) -> InvalidArgumentError:
    """An InvalidArgumentError raised by op `op_name`, its message starting with the op's name."""
    return InvalidArgumentError(None, op_name, f"{op_name}: {message}")


def out_of_memory(op_name: str, error: MemoryError) -> ResourceExhaustedError:
    """TF's ResourceExhaustedError for an allocation NumPy could not make in op `op_name`."""
    shape = getattr(error, "shape", None)
    dtype = getattr(error, "dtype", None)
    what = "a tensor" if shape is None else \
        f"tensor with shape[{','.join(map(str, shape))}] and type {dtype}"
    return ResourceExhaustedError(None, op_name, f"{op_name}: OOM when allocating {what}")


class SymbolicValueError(TypeError):
    """The value (or an unknown dimension) of a symbolic graph tensor was needed.

    Raised while a graph is built, when code asks for data that exists only when the graph
    runs, and when a graph tensor is used outside its graph. Graph-mode gradients catch it
    to run a rule at run time instead.
    """


class OperatorNotAllowedInGraphError(TypeError):
    """A Python operation (`if`, `bool`, iteration) was applied to a symbolic tensor."""


class InaccessibleTensorError(ValueError):
    """A tensor of a graph that is not this one nor one it is nested in (a `tf.function`'s
    or loop body's graph, finished) was used by an op of this graph.

    Not among `tf.errors`' names (TF keeps it in `errors_impl`): `__all__` leaves it out.
    """
