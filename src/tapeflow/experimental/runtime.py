"""The runtime controls of tf.experimental: `async_scope` and `async_clear_error` (tapeflow
runs every op when it is called, so no error is ever pending), `register_filesystem_plugin`
(tapeflow reads files through Python, so it loads no C filesystem plugins) and
`enable_strict_mode` (deprecated entry points raise)."""
from __future__ import annotations

import contextlib
import os

from ..framework import errors
from ..framework.deprecation import enable_strict_mode

__all__ = ["async_scope", "async_clear_error", "register_filesystem_plugin",
           "enable_strict_mode"]


def async_clear_error() -> None:
    """Clears the error asynchronous execution left pending; tapeflow raises each error
    where its op runs, so none is pending.

    Example:
        >>> import tapeflow as tf
        >>> tf.experimental.async_clear_error()
    """


@contextlib.contextmanager
def async_scope():
    """A scope whose ops TF may run asynchronously, waiting for them at its end; tapeflow's
    ops have finished when they return, so an error is raised by the op that fails. An
    error leaving the scope clears pending errors first, as in TF.

    Example:
        >>> import tapeflow as tf
        >>> with tf.experimental.async_scope():
        ...     x = tf.constant(1) + 1
        >>> int(x)
        2
    """
    try:
        yield
    except Exception:
        async_clear_error()
        raise


def register_filesystem_plugin(plugin_location) -> None:
    """Loads a C filesystem plugin (a shared library) in TF; tapeflow's file access is
    Python's (tf.io.gfile), so it loads none.

    Args:
        plugin_location: the path of the plugin's shared library.

    Raises:
        FileNotFoundError: there is no such file (TF's error).
        NotFoundError: the file is not a loadable library (the loader's message, as TF).
        UnimplementedError: a loadable library: tapeflow has no C filesystem layer to
            register it in.

    Example:
        >>> import tapeflow as tf
        >>> tf.experimental.register_filesystem_plugin("/no/such/plugin.so")
        Traceback (most recent call last):
        ...
        FileNotFoundError: [Errno 2] The file to load file system plugin from does not exist.: '/no/such/plugin.so'
    """
    if not isinstance(plugin_location, (str, bytes, os.PathLike)) or \
            not os.path.exists(plugin_location):
        raise FileNotFoundError(2, "The file to load file system plugin from does not exist.",
                                plugin_location)
    import ctypes
    try:
        ctypes.CDLL(os.fspath(plugin_location))
    except OSError as e:
        raise errors.NotFoundError(None, None, str(e)) from None
    raise errors.UnimplementedError(
        None, None, f"register_filesystem_plugin: {plugin_location!r} is a shared library, "
        "but tapeflow reads files through Python (tf.io.gfile) and has no C filesystem "
        "layer to register a plugin in.")
