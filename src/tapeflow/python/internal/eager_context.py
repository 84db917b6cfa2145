"""`tf.__internal__.eager_context`: the execution context's switches
(`tensorflow.python.eager.context`)."""
from ..eager.context import eager_mode

__all__ = ["eager_mode", "get_device_name"]


def get_device_name() -> str:
    """The innermost `tf.device` scope's full device name, '' outside any.

    Example:
        >>> import tapeflow as tf
        >>> with tf.device("/CPU:0"):
        ...     tf.__internal__.eager_context.get_device_name()
        '/job:localhost/replica:0/task:0/device:CPU:0'
    """
    from ..eager.context import context
    return context().device_name
