"""tapeflow's own switches, beyond TF's: gradient diagnostics.

Both are off by default and then cost nothing: no op does any extra work.
"""
from __future__ import annotations

from ..eager import op_history, tape
from ..eager.diagnostics import NoneGradientWarning

__all__ = ["set_diagnostics", "diagnostics_enabled", "set_explain_none_gradients",
           "explain_none_gradients_enabled", "NoneGradientWarning"]

_diagnostics_requested = False


def _apply() -> None:
    if _diagnostics_requested or tape.warn_none_gradients():
        op_history.enable()
    else:
        op_history.disable()


def set_diagnostics(enabled: bool) -> None:
    """Turns the op history that `GradientTape.explain` and `to_dot` read on or off.

    While on, every executed operation is remembered (ids, dtypes, shapes and the file:line
    of the user code that ran it, never values; the last 100,000 operations), as are the
    moments each tape starts and stops recording and the tensors whose values leave the
    library (`.numpy()`, `float()`, NumPy conversions). That lets `explain` name where an
    operation was created and recognise work done outside the tape or through NumPy. It
    costs a few microseconds per operation, on the thread that turned it on; off (the
    default), it costs nothing.

    Args:
        enabled: True to keep the history, False to drop it.

    Example:
        >>> import tapeflow as tf
        >>> tf.config.set_diagnostics(True)
        >>> tf.config.diagnostics_enabled()
        True
        >>> tf.config.set_diagnostics(False)
        >>> tf.config.diagnostics_enabled()
        False
    """
    global _diagnostics_requested
    _diagnostics_requested = bool(enabled)
    _apply()


def diagnostics_enabled() -> bool:
    """Whether the op history is kept (by `set_diagnostics` or the None-gradient warnings)."""
    return op_history.enabled()


def set_explain_none_gradients(enabled: bool) -> None:
    """Makes `GradientTape.gradient` warn once for each None it returns, saying why.

    The warning (a `NoneGradientWarning`) carries `tape.explain(target, source)` for the
    source whose gradient is None. Turning it on also turns diagnostics on (see
    `set_diagnostics`), so the explanations name causes and places; turning it off leaves
    diagnostics on only if `set_diagnostics(True)` asked for them. Sources whose gradient
    is replaced by zeros (`unconnected_gradients='zero'`) are not warned about.

    Args:
        enabled: True to warn, False (the default) to stay silent as TensorFlow does.

    Example:
        >>> import warnings
        >>> import tapeflow as tf
        >>> tf.config.set_explain_none_gradients(True)
        >>> x = tf.constant(1.0)
        >>> with tf.GradientTape() as tape:
        ...     y = x * 2.0
        >>> with warnings.catch_warnings(record=True) as caught:
        ...     warnings.simplefilter("always")
        ...     grad = tape.gradient(y, x)
        >>> grad is None, caught[0].category.__name__
        (True, 'NoneGradientWarning')
        >>> tf.config.set_explain_none_gradients(False)
    """
    tape.set_warn_none_gradients(enabled)
    _apply()


def explain_none_gradients_enabled() -> bool:
    """Whether `gradient()` warns about None results."""
    return tape.warn_none_gradients()
