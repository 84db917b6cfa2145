"""tf.config.optimizer: options of TF's graph optimizer (Grappler) and of XLA's JIT.

tapeflow compiles traced graphs into plans of its own, which no option changes; the options
are kept and reported as TF reports them, for programs that set and read them.
"""
from __future__ import annotations

__all__ = ["get_experimental_options", "get_jit", "set_experimental_options", "set_jit"]

_DEFAULTS = {"disable_model_pruning": False, "disable_meta_optimizer": False}
_options: dict = {}
_jit = [""]


def set_experimental_options(options: dict) -> None:
    """Sets graph optimizer options (e.g. {'layout_optimizer': False}); merged into those
    set before.

    Example:
        >>> import tapeflow as tf
        >>> tf.config.optimizer.set_experimental_options({"constant_folding": True})
        >>> tf.config.optimizer.get_experimental_options()["constant_folding"]
        True
    """
    _options.update(dict(options))


def get_experimental_options() -> dict:
    """The graph optimizer options set, with TF's two that are always reported.

    Example:
        >>> import tapeflow as tf
        >>> tf.config.optimizer.get_experimental_options()["disable_meta_optimizer"]
        False
    """
    return {**_options, **{k: _options.get(k, v) for k, v in _DEFAULTS.items()}}


def set_jit(enabled) -> None:
    """Turns XLA's automatic clustering on (True or "autoclustering") or off (False).

    Example:
        >>> import tapeflow as tf
        >>> tf.config.optimizer.set_jit(True)
        >>> tf.config.optimizer.get_jit()
        'autoclustering'
        >>> tf.config.optimizer.set_jit(False)
    """
    if isinstance(enabled, str):
        _jit[0] = enabled
    else:
        _jit[0] = "autoclustering" if enabled else ""


def get_jit() -> str:
    """'autoclustering' when `set_jit` turned it on, else ''."""
    return _jit[0]
