"""`tf.__internal__.tf2`: whether TF 2 behaviour is on (always, in tapeflow)."""

__all__ = ["enabled"]


def enabled() -> bool:
    """True: tapeflow has only TF 2's behaviour (eager by default, resource variables).

    Example:
        >>> import tapeflow as tf
        >>> tf.__internal__.tf2.enabled()
        True
    """
    return True
