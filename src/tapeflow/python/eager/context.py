"""`tensorflow.python.eager.context`: the execution context, over tapeflow's own.

`context()` is this process's one `Context`; what it reports comes from tapeflow's
per-thread state (`tapeflow.framework.context`: eager or building a graph), its device
scopes (`tf.device`) and its device configuration (`tf.config`).

Example:
    >>> import tapeflow as tf
    >>> from tapeflow.python.eager import context
    >>> ctx = context.context()
    >>> ctx.executing_eagerly(), ctx.device_name
    (True, '')
    >>> with tf.device("/GPU:0"):
    ...     ctx.device_name, ctx.device_spec.device_type
    ('/job:localhost/replica:0/task:0/device:GPU:0', 'GPU')
    >>> with context.graph_mode():
    ...     context.executing_eagerly()
    False
"""
from __future__ import annotations

import contextlib

from ...framework import context as _state
from ...framework import device as _device
from ...framework.devices import runtime as _runtime
from ...framework.graph import get_current_name_scope, get_default_graph

__all__ = ["Context", "context", "context_safe", "executing_eagerly", "eager_mode",
           "graph_mode", "in_eager_mode", "is_in_graph_mode", "num_gpus",
           "ensure_initialized", "device", "is_tfrt_enabled", "async_wait", "async_clear_error",
           "EAGER_MODE", "GRAPH_MODE"]

GRAPH_MODE = 0
EAGER_MODE = 1

_LOCAL = _device.DeviceSpec(job="localhost", replica=0, task=0)


class Context:
    """What TF's eager context reports, read from tapeflow's state on each access."""

    def executing_eagerly(self) -> bool:
        """Whether ops run now rather than being added to a graph (this thread)."""
        return _state.executing_eagerly()

    @property
    def device_spec(self) -> _device.DeviceSpec:
        """The innermost `tf.device` scope's device (local job filled in), or an empty
        spec outside any scope."""
        scope = _device.eager_scope()
        return scope if scope == _device.DeviceSpec() else _LOCAL.make_merged_spec(scope)

    @property
    def device_name(self) -> str:
        """`device_spec` as a string: '' outside any scope."""
        return self.device_spec.to_string()

    @property
    def scope_name(self) -> str:
        """The current name scope, with its trailing '/' ('' at the top)."""
        current = get_current_name_scope()
        return current + "/" if current else ""

    def num_gpus(self) -> int:
        """The GPUs this process uses: none (tapeflow runs on the CPU)."""
        return 0

    def ensure_initialized(self) -> None:
        """Fixes the device configuration, as TF's first use of its devices does."""
        _runtime.initialize()

    def clear_kernel_cache(self) -> None:
        """Drops what the ops keep between calls: tapeflow's kernels are NumPy functions
        with nothing compiled, so that is the cache of Python scalars already converted
        to constants."""
        from ...ops.op_util import SCALARS
        SCALARS.clear()

    def list_logical_devices(self, device_type=None) -> list:
        """As `tf.config.list_logical_devices`."""
        return [d for d in _runtime.logical_devices()
                if device_type is None or d.device_type == device_type]

    def list_physical_devices(self, device_type=None) -> list:
        """As `tf.config.list_physical_devices`."""
        return [d for d in _runtime.physical
                if device_type is None or d.device_type == device_type]


_CONTEXT = Context()


def context() -> Context:
    """This process's context."""
    return _CONTEXT


def context_safe() -> Context:
    """This process's context (always made: tapeflow's state exists from import)."""
    return _CONTEXT


def executing_eagerly() -> bool:
    """As `tf.executing_eagerly()`."""
    return _state.executing_eagerly()


def in_eager_mode() -> bool:
    """As `executing_eagerly()` (TF's older name)."""
    return _state.executing_eagerly()


def is_in_graph_mode() -> bool:
    """Whether a graph is being built on this thread."""
    return not _state.executing_eagerly()


@contextlib.contextmanager
def eager_mode():
    """Runs the block eagerly, also inside a graph being built."""
    with _state.switched(graph=None):
        yield


@contextlib.contextmanager
def graph_mode():
    """Builds the block into the default graph (TF 1's mode)."""
    with get_default_graph().as_default():
        yield


def num_gpus() -> int:
    """The GPUs this process uses: none."""
    return 0


def ensure_initialized() -> None:
    """Fixes the device configuration (see `Context.ensure_initialized`)."""
    _runtime.initialize()


def device(name):
    """As `tf.device(name)`."""
    return _device.device(name)


def is_tfrt_enabled() -> bool:
    """TF's newer runtime is not in use: tapeflow runs NumPy kernels."""
    return False


def async_wait() -> None:
    """Waits for the ops dispatched so far: tapeflow runs each op when it is called, so
    they are done (an error has already been raised where it happened)."""


def async_clear_error() -> None:
    """Clears a pending error of asynchronous execution: tapeflow's errors are raised when
    the op runs, so none is pending."""


def _reset_context() -> None:
    """Starts the context afresh, as TF's tests do: the device configuration is the
    process's initial one again and may be changed (visible and logical devices)."""
    _runtime.reset()
