"""DeviceSpec and `device`: TF's device names, parsed and accepted. tapeflow computes on
the CPU with NumPy, so a device scope places nothing; code written for devices still runs."""
from __future__ import annotations

import contextlib

__all__ = ["DeviceSpec", "device"]

_FIELDS = ("job", "replica", "task", "device_type", "device_index")


def _device_type(name):
    return name.upper() if name is not None and name.lower() in ("cpu", "gpu", "tpu") else name


class DeviceSpec:
    """A (partial) device name: job, replica, task, device type and index; immutable.

    Args:
        job: the job name; replica, task: ints; device_type: "CPU", "GPU", ...;
        device_index: an int.

    Example:
        >>> import tapeflow as tf
        >>> spec = tf.DeviceSpec.from_string("/job:worker/task:1/device:GPU:3")
        >>> spec.task, spec.device_type, spec.replace(job="ps").to_string()
        (1, 'GPU', '/job:ps/task:1/device:GPU:3')
    """

    __slots__ = ("_job", "_replica", "_task", "_device_type", "_device_index")

    def __init__(self, job=None, replica=None, task=None, device_type=None,
                 device_index=None) -> None:
        self._job = None if job is None else str(job)
        self._replica = None if replica is None else int(replica)
        self._task = None if task is None else int(task)
        self._device_type = _device_type(device_type)
        self._device_index = None if device_index is None else int(device_index)

    job = property(lambda self: self._job)
    replica = property(lambda self: self._replica)
    task = property(lambda self: self._task)
    device_type = property(lambda self: self._device_type)
    device_index = property(lambda self: self._device_index)

    @classmethod
    def from_string(cls, spec: str) -> "DeviceSpec":
        """Parses "/job:<name>/replica:<n>/task:<n>/device:<type>:<n>" (any part may be
        left out; "cpu:0" and "/gpu:1" are accepted too).

        Raises:
            ValueError: a part that is none of these.
        """
        return cls().parse_from_string(spec)

    def parse_from_string(self, spec: str) -> "DeviceSpec":
        """A copy of this spec with the fields `spec` names replaced by its values."""
        fields = self._fields()
        for part in (spec or "").split("/"):
            if not part:
                continue
            pieces = part.split(":")
            key = pieces[0].lower()
            if len(pieces) == 2 and key in ("job", "replica", "task"):
                fields[key] = pieces[1] if key == "job" else int(pieces[1])
            elif len(pieces) == 3 and key == "device":
                fields["device_type"] = pieces[1]
                fields["device_index"] = None if pieces[2] == "*" else int(pieces[2])
            elif len(pieces) == 2 and key != "device" and pieces[1].isdigit():
                fields["device_type"], fields["device_index"] = pieces[0], int(pieces[1])
            elif len(pieces) == 2 and key != "device" and pieces[1] == "*":
                fields["device_type"], fields["device_index"] = pieces[0], None
            else:
                raise ValueError(f"Unknown attribute {part!r} is encountered while parsing "
                                 f"the device spec: {spec!r}.")
        return DeviceSpec(**fields)

    def _fields(self) -> dict:
        return {name: getattr(self, name) for name in _FIELDS}

    def make_merged_spec(self, dev: "DeviceSpec") -> "DeviceSpec":
        """This spec with the fields `dev` sets taken from `dev`."""
        fields = self._fields()
        fields.update({k: v for k, v in dev._fields().items() if v is not None})
        return DeviceSpec(**fields)

    def replace(self, **kwargs) -> "DeviceSpec":
        """A copy with the given fields changed."""
        fields = self._fields()
        fields.update(kwargs)
        return DeviceSpec(**fields)

    def to_string(self) -> str:
        parts = [f"/{name}:{value}" for name, value in
                 (("job", self._job), ("replica", self._replica), ("task", self._task))
                 if value is not None]
        if self._device_type is not None:
            index = "*" if self._device_index is None else self._device_index
            parts.append(f"/device:{self._device_type}:{index}")
        return "".join(parts)

    def __eq__(self, other) -> bool:
        return isinstance(other, DeviceSpec) and self.to_string() == other.to_string()

    def __hash__(self) -> int:
        return hash(self.to_string())

    def __repr__(self) -> str:
        return (f"<DeviceSpec(job={self._job}, replica={self._replica}, task={self._task}, "
                f"device_type={self._device_type}, device_index={self._device_index})>")


@contextlib.contextmanager
def device(device_name):
    """A scope naming the device ops inside run on; tapeflow runs everything on the CPU,
    so it only checks the name.

    Args:
        device_name: a device string ("/GPU:0", "/job:worker/device:CPU:0"), a DeviceSpec,
            or None.

    Raises:
        RuntimeError: a function (TF2 does not take device functions).
        ValueError: a device string that does not parse.

    Example:
        >>> import tapeflow as tf
        >>> with tf.device("/GPU:0"):
        ...     y = tf.constant(2.0) * 3.0
        >>> float(y)
        6.0
    """
    if callable(device_name):
        raise RuntimeError("tf.device does not support functions.")
    if isinstance(device_name, str):
        DeviceSpec.from_string(device_name)
    yield
