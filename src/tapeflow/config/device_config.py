"""tf.config's devices: listing them, choosing the visible ones, splitting the CPU into
logical CPUs, and the per-device memory queries, with TF's rules for a CPU machine.

The runtime's device configuration is fixed once its devices are first used (see
`framework/devices.py`); changing it later is a RuntimeError.
"""
from __future__ import annotations

from ..framework.device import DeviceSpec
from ..framework.devices import (LogicalDevice, LogicalDeviceConfiguration, PhysicalDevice,
                                 runtime)

__all__ = ["LogicalDevice", "LogicalDeviceConfiguration", "PhysicalDevice",
           "get_logical_device_configuration", "get_memory_growth", "get_memory_info",
           "get_memory_usage", "get_device_details", "get_soft_device_placement",
           "get_visible_devices", "list_logical_devices", "list_physical_devices",
           "reset_memory_stats", "set_logical_device_configuration", "set_memory_growth",
           "set_soft_device_placement", "set_visible_devices"]


def list_physical_devices(device_type=None) -> list:
    """The machine's devices (of `device_type`, matched exactly, when given).

    Args:
        device_type: "CPU", "GPU", "TPU"... or None for all.

    Returns:
        A list of `PhysicalDevice`: on a CPU machine the one CPU.

    Example:
        >>> import tapeflow as tf
        >>> tf.config.list_physical_devices(), tf.config.list_physical_devices("GPU")
        ([PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')], [])
    """
    return [d for d in runtime.physical if device_type is None or d.device_type == device_type]


def list_logical_devices(device_type=None) -> list:
    """The devices ops can run on: each visible physical device, or the logical devices it
    was split into (`set_logical_device_configuration`). Listing them initializes the
    runtime: the device configuration is fixed from then on.

    Args:
        device_type: "CPU", "GPU"... (matched exactly) or None for all.

    Returns:
        A list of `LogicalDevice` ('/device:CPU:0', ...).

    Raises:
        NotFoundError: no CPU is visible (`set_visible_devices([], "CPU")`).

    Example:
        >>> import tapeflow as tf
        >>> tf.config.list_logical_devices()
        [LogicalDevice(name='/device:CPU:0', device_type='CPU')]
    """
    return [d for d in runtime.logical_devices()
            if device_type is None or d.device_type == device_type]


def get_visible_devices(device_type=None) -> list:
    """The physical devices the runtime may use (of `device_type` when given).

    Example:
        >>> import tapeflow as tf
        >>> tf.config.get_visible_devices("CPU")
        [PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]
    """
    return [d for d in runtime.visible if device_type is None or d.device_type == device_type]


def set_visible_devices(devices, device_type=None) -> None:
    """Chooses the physical devices the runtime may use: `devices` (a list, or one) replace
    all visible devices, or only those of `device_type` when given.

    Args:
        devices: PhysicalDevice objects from `list_physical_devices`.
        device_type: restricts the change to this device type.

    Raises:
        ValueError: a device this machine does not have, or not of `device_type`.
        RuntimeError: the runtime is initialized and the choice differs from the current.

    Example:
        >>> import tapeflow as tf
        >>> cpus = tf.config.list_physical_devices("CPU")
        >>> tf.config.set_visible_devices(cpus)     # unchanged: allowed at any time
        >>> tf.config.get_visible_devices() == cpus
        True
    """
    runtime.set_visible(devices, device_type)


def get_logical_device_configuration(device):
    """The logical devices `device` is split into: a list of LogicalDeviceConfiguration,
    or None when it is not split.

    Raises:
        ValueError: `device` is not one of `list_physical_devices()`.

    Example:
        >>> import tapeflow as tf
        >>> print(tf.config.get_logical_device_configuration(
        ...     tf.config.list_physical_devices("CPU")[0]))
        None
    """
    runtime.check_physical(device)
    configurations = runtime.virtual.get(device)
    return None if configurations is None else list(configurations)


def set_logical_device_configuration(device, logical_devices) -> None:
    """Splits physical `device` into one logical device per configuration: a CPU split in
    N gives '/device:CPU:0' ... '/device:CPU:N-1' (MirroredStrategy replicates over them).
    Allowed until the runtime is initialized (the first device listing, device scope,
    strategy, or tensor device read); afterwards only the current configuration may be set.

    Args:
        device: a PhysicalDevice from `list_physical_devices`.
        logical_devices: a list of `LogicalDeviceConfiguration` (a CPU takes no
            `memory_limit`); an empty list undoes the split.

    Raises:
        ValueError: an unknown device, or a memory limit on a CPU.
        TypeError: `logical_devices` is None.
        RuntimeError: the runtime is initialized and the configuration differs.

    Example:
        >>> import subprocess, sys
        >>> code = '''
        ... import tapeflow as tf
        ... cpu, = tf.config.list_physical_devices("CPU")
        ... tf.config.set_logical_device_configuration(
        ...     cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
        ... print([d.name for d in tf.config.list_logical_devices()])'''
        >>> print(subprocess.run([sys.executable, "-c", code], capture_output=True,
        ...                      text=True).stdout.strip())
        ['/device:CPU:0', '/device:CPU:1']
    """
    runtime.set_virtual(device, logical_devices)


def set_memory_growth(device, enable) -> None:
    """Lets a GPU's memory grow as needed; a CPU machine has no device that takes it.

    Raises:
        ValueError: always here: an unknown device, a device split into logical devices,
            or a CPU (TF's rules).

    Example:
        >>> import tapeflow as tf
        >>> cpu = tf.config.list_physical_devices("CPU")[0]
        >>> try:
        ...     tf.config.experimental.set_memory_growth(cpu, True)
        ... except ValueError as e:
        ...     print(e)
        Cannot set memory growth on non-GPU and non-Pluggable devices
    """
    runtime.check_physical(device)
    if runtime.virtual.get(device):
        raise ValueError("Cannot set memory growth on device when virtual devices configured")
    raise ValueError("Cannot set memory growth on non-GPU and non-Pluggable devices")


def get_memory_growth(device) -> bool:
    """Whether memory growth is on for a GPU.

    Raises:
        ValueError: `device` is not a physical device of this machine.
        KeyError: a CPU, which has no memory growth setting (as in TF).
    """
    runtime.check_physical(device)
    raise KeyError(device)


def get_device_details(device) -> dict:
    """Details of a physical device (a GPU's name and compute capability): {} for a CPU.

    Raises:
        ValueError: `device` is not a PhysicalDevice.

    Example:
        >>> import tapeflow as tf
        >>> tf.config.experimental.get_device_details(tf.config.list_physical_devices()[0])
        {}
    """
    if not isinstance(device, PhysicalDevice):
        raise ValueError(f"device must be a tf.config.PhysicalDevice, but got: {device}")
    runtime.check_physical(device)
    return {}


def _logical_device(device: str) -> str:
    spec = DeviceSpec.from_string(device)
    if spec.device_type is None or spec.device_index is None:
        raise ValueError(f"Failed parsing device name: {device!r}. Note a valid device string "
                         "should at least contain a device type and a device index, like "
                         '"GPU:0".')
    name = f"/device:{spec.device_type}:{spec.device_index}"
    if name not in [d.name for d in runtime.logical_devices()]:
        raise ValueError(f"No matching devices found for {device!r}")
    return name


def get_memory_info(device) -> dict:
    """The bytes in use and the peak on a device: `{'current': ..., 'peak': ...}`. The CPU
    allocator keeps no statistics, so a CPU reports 0 for both, as in TF.

    Args:
        device: a logical device string with type and index, e.g. "CPU:0".

    Raises:
        ValueError: a string without a type and index, or a device this process lacks.

    Example:
        >>> import tapeflow as tf
        >>> tf.config.experimental.get_memory_info("CPU:0")
        {'current': 0, 'peak': 0}
    """
    _logical_device(device)
    return {"current": 0, "peak": 0}


def get_memory_usage(device) -> int:
    """`get_memory_info(device)['current']` (TF's older name)."""
    return get_memory_info(device)["current"]


def reset_memory_stats(device) -> None:
    """Resets a device's peak memory statistic (nothing to reset on a CPU).

    Raises:
        ValueError: as `get_memory_info`.
    """
    _logical_device(device)


def get_soft_device_placement() -> bool:
    """Whether a device scope naming a device this process lacks (a GPU, CPU:3) falls back
    to one it has (True, the default) instead of raising.

    Example:
        >>> import tapeflow as tf
        >>> tf.config.get_soft_device_placement()
        True
    """
    return runtime.soft_placement


def set_soft_device_placement(enabled) -> None:
    """Sets soft placement (see `get_soft_device_placement`); without it, entering
    `tf.device("GPU:0")` eagerly raises InvalidArgumentError.

    Example:
        >>> import tapeflow as tf
        >>> tf.config.set_soft_device_placement(False)
        >>> try:
        ...     with tf.device("GPU:0"):
        ...         pass
        ... except tf.errors.InvalidArgumentError:
        ...     print("no GPU here")
        no GPU here
        >>> tf.config.set_soft_device_placement(True)
    """
    runtime.soft_placement = bool(enabled)
