"""tf.config: the devices TF presents on a CPU machine (physical, visible, logical and
virtual CPUs), soft placement, `run_functions_eagerly`, and the `experimental`,
`threading` and `optimizer` switches; beyond TF, tapeflow's gradient diagnostics.
"""
from __future__ import annotations

from ..eager.function import eager_functions
from . import experimental, optimizer, threading
from .device_config import (LogicalDevice, LogicalDeviceConfiguration, PhysicalDevice,
                            get_logical_device_configuration, get_soft_device_placement,
                            get_visible_devices, list_logical_devices, list_physical_devices,
                            set_logical_device_configuration, set_soft_device_placement,
                            set_visible_devices)
from .diagnostics import (NoneGradientWarning, diagnostics_enabled,
                          explain_none_gradients_enabled, set_diagnostics,
                          set_explain_none_gradients)
from .experimental import connect_to_cluster as experimental_connect_to_cluster
from .experimental import connect_to_remote_host as experimental_connect_to_host

__all__ = ["LogicalDevice", "LogicalDeviceConfiguration", "PhysicalDevice", "experimental",
           "experimental_connect_to_cluster", "experimental_connect_to_host",
           "experimental_functions_run_eagerly", "experimental_run_functions_eagerly",
           "functions_run_eagerly", "get_logical_device_configuration",
           "get_soft_device_placement", "get_visible_devices", "list_logical_devices",
           "list_physical_devices", "optimizer", "run_functions_eagerly",
           "set_logical_device_configuration", "set_soft_device_placement",
           "set_visible_devices", "threading"]
# tapeflow's own, beyond TF's.
__all__ += ["NoneGradientWarning", "diagnostics_enabled", "explain_none_gradients_enabled",
            "set_diagnostics", "set_explain_none_gradients"]


def run_functions_eagerly(run_eagerly) -> None:
    """Makes every `tf.function` call its Python function as it is (True) instead of
    running a trace (False, the default): prints, breakpoints and NumPy calls inside then
    run on each call. For debugging; it turns off graph compilation everywhere.

    Example:
        >>> import tapeflow as tf
        >>> @tf.function
        ... def f(x):
        ...     print("called with", float(x))
        ...     return x + 1.0
        >>> tf.config.run_functions_eagerly(True)
        >>> float(f(tf.constant(1.0)))
        called with 1.0
        2.0
        >>> tf.config.run_functions_eagerly(False)
    """
    eager_functions.enabled = bool(run_eagerly)


def functions_run_eagerly() -> bool:
    """Whether `run_functions_eagerly(True)` is in force.

    Example:
        >>> import tapeflow as tf
        >>> tf.config.functions_run_eagerly()
        False
    """
    return eager_functions.enabled


def experimental_run_functions_eagerly(run_eagerly) -> None:
    """`run_functions_eagerly` under its older name (deprecated: its first use warns, or
    raises RuntimeError in strict mode)."""
    from ..framework.deprecation import log_deprecation
    log_deprecation("experimental_run_functions_eagerly",
                    "experimental_run_functions_eagerly is deprecated and will be removed in a "
                    "future version.\nInstructions for updating:\nUse "
                    "`tf.config.run_functions_eagerly` instead of the experimental version.")
    run_functions_eagerly(run_eagerly)


def experimental_functions_run_eagerly() -> bool:
    """`functions_run_eagerly` under its older name (deprecated)."""
    return functions_run_eagerly()
