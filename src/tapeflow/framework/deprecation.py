"""Deprecated entry points, and strict mode (`tf.experimental.enable_strict_mode`): the first
use of each deprecated name or argument logs a warning on tapeflow's logger (`tf.get_logger()`), or, in
strict mode, logs it as an error and raises RuntimeError."""
from __future__ import annotations

__all__ = ["enable_strict_mode", "is_strict_mode", "log_deprecation"]

_STRICT = [False]
_LOGGED: set = set()


def enable_strict_mode() -> None:
    """Makes the first use of each deprecated name or argument raise RuntimeError (after
    logging its message as an error) instead of warning.

    Example:
        >>> import tapeflow as tf
        >>> from tapeflow.framework import deprecation
        >>> deprecation.is_strict_mode()
        False
    """
    _STRICT[0] = True


def is_strict_mode() -> bool:
    """Whether `enable_strict_mode` has been called."""
    return _STRICT[0]


def log_deprecation(key, message: str) -> None:
    """Reports the first use of deprecated `key` (later uses pass silently).

    Raises:
        RuntimeError: in strict mode, on the first use.
    """
    if key in _LOGGED:
        return
    _LOGGED.add(key)
    import logging
    logger = logging.getLogger("tapeflow")
    if _STRICT[0]:
        logger.error(message)
        raise RuntimeError("This behavior has been deprecated, which raises an error in "
                           "strict mode.")
    logger.warning(message)
