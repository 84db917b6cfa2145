"""tf.config.experimental: memory, virtual devices and execution switches (with the device
functions under their older names).

tapeflow computes with NumPy on the CPU: float32 matmuls are exact float32 whatever the
TensorFloat-32 switch says, ops run synchronously, and results are deterministic; these
switches are kept and reported as TF reports them.
"""
from __future__ import annotations

from ..framework import errors
from .device_config import (LogicalDeviceConfiguration, get_device_details,
                            get_logical_device_configuration, get_memory_growth,
                            get_memory_info, get_memory_usage, get_visible_devices,
                            list_logical_devices, list_physical_devices, reset_memory_stats,
                            set_logical_device_configuration, set_memory_growth,
                            set_visible_devices)

__all__ = ["ClusterDeviceFilters", "VirtualDeviceConfiguration", "disable_mlir_bridge",
           "enable_mlir_bridge", "enable_op_determinism", "enable_tensor_float_32_execution",
           "get_device_details", "get_device_policy", "get_memory_growth", "get_memory_info",
           "get_memory_usage", "get_synchronous_execution", "get_virtual_device_configuration",
           "get_visible_devices", "list_logical_devices", "list_physical_devices",
           "reset_memory_stats", "set_device_policy", "set_memory_growth",
           "set_synchronous_execution", "set_virtual_device_configuration",
           "set_visible_devices", "tensor_float_32_execution_enabled"]

VirtualDeviceConfiguration = LogicalDeviceConfiguration
get_virtual_device_configuration = get_logical_device_configuration
set_virtual_device_configuration = set_logical_device_configuration

_switches = {"tensor_float_32": True, "synchronous": True, "device_policy": "silent",
             "op_determinism": False, "mlir_bridge": False}
_POLICIES = ("explicit", "warn", "silent", "silent_for_int32")


def enable_tensor_float_32_execution(enabled) -> None:
    """Allows (True, the default) or forbids TensorFloat-32 matmuls on GPUs that have them.

    Example:
        >>> import tapeflow as tf
        >>> tf.config.experimental.enable_tensor_float_32_execution(False)
        >>> tf.config.experimental.tensor_float_32_execution_enabled()
        False
        >>> tf.config.experimental.enable_tensor_float_32_execution(True)
    """
    _switches["tensor_float_32"] = bool(enabled)


def tensor_float_32_execution_enabled() -> bool:
    """Whether TensorFloat-32 execution is allowed (see `enable_tensor_float_32_execution`)."""
    return _switches["tensor_float_32"]


def set_synchronous_execution(enable) -> None:
    """Whether eager ops run synchronously (True, the default) or are queued.

    Example:
        >>> import tapeflow as tf
        >>> tf.config.experimental.get_synchronous_execution()
        True
    """
    _switches["synchronous"] = bool(enable)


def get_synchronous_execution() -> bool:
    """See `set_synchronous_execution`."""
    return _switches["synchronous"]


def set_device_policy(device_policy) -> None:
    """How an op treats inputs on another device: 'explicit', 'warn', 'silent' (None: the
    default, 'silent') or 'silent_for_int32'.

    Raises:
        ValueError: any other policy.

    Example:
        >>> import tapeflow as tf
        >>> tf.config.experimental.set_device_policy("warn")
        >>> tf.config.experimental.get_device_policy()
        'warn'
        >>> tf.config.experimental.set_device_policy(None)
    """
    if device_policy is None:
        device_policy = "silent"
    if device_policy not in _POLICIES:
        raise ValueError(f"Invalid argument `device_policy`: {device_policy!r}. Valid policies "
                         f"are {', '.join(map(repr, _POLICIES))} or None.")
    _switches["device_policy"] = device_policy


def get_device_policy() -> str:
    """The device policy (see `set_device_policy`); 'silent' by default."""
    return _switches["device_policy"]


def enable_op_determinism() -> None:
    """Asks that ops give the same results run after run. tapeflow's NumPy kernels are
    deterministic already; the request is recorded.

    Example:
        >>> import tapeflow as tf
        >>> tf.config.experimental.enable_op_determinism()
    """
    _switches["op_determinism"] = True


def enable_mlir_bridge() -> None:
    """Asks for TF's MLIR bridge to XLA (tapeflow has no XLA; the request is recorded)."""
    _switches["mlir_bridge"] = True


def disable_mlir_bridge() -> None:
    """Undoes `enable_mlir_bridge`."""
    _switches["mlir_bridge"] = False


class ClusterDeviceFilters:
    """Which devices each task of a cluster may see, for `experimental_connect_to_cluster`.

    Example:
        >>> import tapeflow as tf
        >>> filters = tf.config.experimental.ClusterDeviceFilters()
        >>> filters.set_device_filters("worker", 0, ["/job:ps"])
        >>> filters.device_filters(("worker", 0))
        ['/job:ps']
    """

    def __init__(self) -> None:
        self._filters: dict = {}

    def set_device_filters(self, job_name, task_index, device_filters) -> None:
        """Sets the device filters of task `task_index` of job `job_name`."""
        if not isinstance(job_name, str):
            raise ValueError(f"job_name must be a string, got {job_name!r}")
        if not isinstance(task_index, int) or task_index < 0:
            raise ValueError(f"task_index must be a non-negative int, got {task_index!r}")
        self._filters[(job_name, task_index)] = [str(f) for f in device_filters]

    def device_filters(self, task) -> list:
        """The filters set for `task`, a (job_name, task_index) pair."""
        return list(self._filters.get(tuple(task), []))


def connect_to_cluster(cluster_spec_or_resolver, job_name="localhost", task_index=0,
                       protocol=None, make_master_device_default=True,
                       cluster_device_filters=None) -> None:
    """Connects eager execution to remote workers. tapeflow runs remote work as MPI ranks
    (`tf.distribute.MultiWorkerMirroredStrategy` under `tapeflow run -n N`), not as remote
    eager devices.

    Raises:
        UnimplementedError: always.
    """
    raise errors.UnimplementedError(
        None, None, "experimental_connect_to_cluster: tapeflow has no remote eager devices; "
        "run the workers as MPI ranks with tf.distribute.MultiWorkerMirroredStrategy "
        "(tapeflow run -n N script.py).")


def connect_to_remote_host(remote_host=None, job_name="worker") -> None:
    """Connects eager execution to a remote host: see `connect_to_cluster`.

    Raises:
        UnimplementedError: always.
    """
    connect_to_cluster(None, job_name)
