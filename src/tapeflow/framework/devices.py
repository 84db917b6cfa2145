"""The process's devices as TF presents a CPU machine: one physical CPU, which may be split
into several logical (virtual) CPUs before the runtime starts using its devices.

The runtime is *initialized* the first time its devices are used: logical devices listed,
a device scope entered eagerly, a distribution strategy made, a tensor's device read.
From then on the device configuration is fixed (changing it is a RuntimeError, as in TF).
Executing ops does not initialize it: the eager hot path does no device work.
"""
from __future__ import annotations

import collections

from . import errors

__all__ = ["LogicalDevice", "LogicalDeviceConfiguration", "PhysicalDevice", "runtime",
           "LOCAL_PREFIX", "eager_device"]

# The full name of a local device: LOCAL_PREFIX + "CPU:0".
LOCAL_PREFIX = "/job:localhost/replica:0/task:0/device:"

PhysicalDevice = collections.namedtuple("PhysicalDevice", ["name", "device_type"])
PhysicalDevice.__doc__ = """A device of the machine: `name` ('/physical_device:CPU:0') and
`device_type` ('CPU').

Example:
    >>> import tapeflow as tf
    >>> tf.config.list_physical_devices()
    [PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]
"""

LogicalDevice = collections.namedtuple("LogicalDevice", ["name", "device_type"])
LogicalDevice.__doc__ = """A device ops can be placed on: `name` ('/device:CPU:0') and
`device_type` ('CPU').

Example:
    >>> import tapeflow as tf
    >>> tf.config.list_logical_devices("CPU")[0].name
    '/device:CPU:0'
"""


class LogicalDeviceConfiguration(collections.namedtuple(
        "LogicalDeviceConfiguration",
        ["memory_limit", "experimental_priority", "experimental_device_ordinal"])):
    """The configuration of one logical device made from a physical one.

    Args:
        memory_limit: megabytes (GPUs only; a CPU takes None).
        experimental_priority, experimental_device_ordinal: GPU scheduling hints.

    Example:
        >>> import tapeflow as tf
        >>> tf.config.LogicalDeviceConfiguration()
        LogicalDeviceConfiguration(memory_limit=None, experimental_priority=None, \
experimental_device_ordinal=None)
    """

    __slots__ = ()

    def __new__(cls, memory_limit=None, experimental_priority=None,
                experimental_device_ordinal=None):
        return super().__new__(cls, memory_limit, experimental_priority,
                               experimental_device_ordinal)


_CPU = PhysicalDevice("/physical_device:CPU:0", "CPU")


class Runtime:
    """The device configuration of this process and whether it is fixed yet."""

    def __init__(self) -> None:
        self.physical = (_CPU,)
        self.visible = [_CPU]
        self.virtual: dict = {}
        self.initialized = False
        self.soft_placement = True

    def initialize(self) -> None:
        self.initialized = True

    def reset(self) -> None:
        """Back to the configuration the process started with, not yet fixed."""
        self.__init__()

    def check_physical(self, device) -> PhysicalDevice:
        if device not in self.physical:
            raise ValueError(f"Unrecognized device: {device!r}")
        return device

    def set_visible(self, devices, device_type=None) -> None:
        if devices is None:
            devices = []
        elif isinstance(devices, PhysicalDevice):
            devices = [devices]
        devices = [self.check_physical(d) for d in devices]
        if device_type is not None:
            for d in devices:
                if d.device_type != device_type:
                    raise ValueError(f"Unrecognized device: {d!r}")
            wanted = [d for d in self.visible if d.device_type != device_type] + devices
        else:
            wanted = devices
        wanted = [d for d in self.physical if d in wanted]
        if wanted == self.visible:
            return
        if self.initialized:
            raise RuntimeError("Visible devices cannot be modified after being initialized")
        self.visible = wanted

    def set_virtual(self, device, configurations) -> None:
        self.check_physical(device)
        configurations = list(configurations) if configurations is not None else None
        if configurations is None:
            raise TypeError("'NoneType' object is not iterable")
        for c in configurations:
            if not isinstance(c, LogicalDeviceConfiguration):
                raise ValueError(f"logical_devices must be LogicalDeviceConfiguration "
                                 f"objects, got {c!r}")
            if device.device_type == "CPU" and c.memory_limit is not None:
                raise ValueError("Setting memory limit on CPU virtual devices is currently "
                                 "not supported")
        current = self.virtual.get(device)
        if (configurations or None) == current:
            return
        if self.initialized:
            raise RuntimeError("Virtual devices cannot be modified after being initialized")
        self.virtual[device] = configurations or None

    def logical_devices(self) -> list:
        """The logical devices; lists them, so the runtime is initialized (unless it
        cannot start: no CPU is visible)."""
        if not any(d.device_type == "CPU" for d in self.visible):
            raise errors.NotFoundError(None, None,
                                       "No CPU devices are available in this process")
        self.initialize()
        devices = []
        for physical in self.visible:
            count = len(self.virtual.get(physical) or (None,))
            devices += [LogicalDevice(f"/device:{physical.device_type}:{i}",
                                      physical.device_type) for i in range(count)]
        return devices

    def local_device_names(self, device_type: str = "CPU") -> list:
        """The full names of the local logical devices of one type."""
        return [LOCAL_PREFIX + d.name[len("/device:"):] for d in self.logical_devices()
                if d.device_type == device_type]


runtime = Runtime()


def eager_device() -> str:
    """The device of every eager tensor and variable (reading it initializes the runtime)."""
    runtime.initialized = True
    return LOCAL_PREFIX + "CPU:0"
