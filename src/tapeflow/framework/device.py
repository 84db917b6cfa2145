"""DeviceSpec and `device`: TF's device names, parsed, merged and shown as TF shows them.

tapeflow computes on the CPU with NumPy, so a device scope moves no data: eagerly every
tensor lives on '/job:localhost/replica:0/task:0/device:CPU:0' and a GPU or TPU request is
placed softly on the CPU (as TF does with soft placement); in a graph each operation keeps
the device its scope requested (`op.device`, `tensor.device`), as TF's graphs do.
"""
from __future__ import annotations

import threading

from . import errors
from .context import state
from .devices import runtime

__all__ = ["DeviceSpec", "device", "device_v1", "device_of_new_op"]

_FIELDS = ("job", "replica", "task", "device_type", "device_index")


_KNOWN_TYPES = ("cpu", "gpu", "tpu")


def _device_type(name):
    return name.upper() if name is not None and name.lower() in _KNOWN_TYPES else name


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
            if len(pieces) == 1 and key in _KNOWN_TYPES:
                fields["device_type"], fields["device_index"] = pieces[0], None
            elif len(pieces) == 2 and key in ("job", "replica", "task"):
                fields[key] = pieces[1] if key == "job" else int(pieces[1])
            elif len(pieces) == 3 and key == "device":
                fields["device_type"] = pieces[1]
                fields["device_index"] = None if pieces[2] == "*" else int(pieces[2])
            elif len(pieces) == 2 and key in _KNOWN_TYPES and pieces[1].isdigit():
                fields["device_type"], fields["device_index"] = pieces[0], int(pieces[1])
            elif len(pieces) == 2 and key in _KNOWN_TYPES and pieces[1] == "*":
                fields["device_type"], fields["device_index"] = pieces[0], None
            else:
                raise ValueError(f"Unknown attribute {pieces[0]!r} is encountered while parsing "
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


class _EagerDevice(threading.local):
    def __init__(self) -> None:
        self.spec = DeviceSpec()


_eager_device = _EagerDevice()


def eager_scope() -> DeviceSpec:
    """The device the innermost eager `tf.device` scope of this thread names (an empty
    spec outside any), as given: a GPU scope stays a GPU here though ops run on the CPU."""
    return _eager_device.spec


def _as_spec(device_name) -> DeviceSpec:
    if isinstance(device_name, DeviceSpec):
        return device_name
    if isinstance(device_name, str):
        return DeviceSpec.from_string(device_name)
    raise ValueError(f"Expecting a string device name. Got {type(device_name)}"
                     f"({device_name!r})")


def _check_local(spec: DeviceSpec) -> None:
    """Raises TF's error for a device this process does not have, where placing on it
    cannot be soft (another job or task; any missing device without soft placement)."""
    full = DeviceSpec(job="localhost", replica=0, task=0, device_type="CPU",
                      device_index=0).make_merged_spec(spec)
    if (full.job, full.replica, full.task) != ("localhost", 0, 0):
        raise errors.InvalidArgumentError(None, None, f"{full.to_string()} unknown device.")
    if not runtime.soft_placement:
        available = runtime.local_device_names()
        if full.to_string() not in available:
            raise errors.InvalidArgumentError(
                None, None, f"Could not satisfy device specification {full.to_string()!r}. "
                "enable_soft_placement=0. Supported device types [CPU]. All available "
                f"devices [{', '.join(available)}].")


class device:
    """A scope naming the device the ops inside run on.

    Eagerly tapeflow runs everything on the CPU: a device this process has is used as it
    is, a GPU or TPU is placed softly on the CPU (an error with
    `tf.config.set_soft_device_placement(False)`). In a graph (a `tf.function` being
    traced, a `tf.Graph`) the operations made inside record the requested device, merged
    with the enclosing scope's, as `op.device`; None clears it.

    Args:
        device_name: a device string ("cpu", "CPU:0", "/device:GPU:0",
            "/job:localhost/replica:0/task:0/device:CPU:0"), a DeviceSpec, or None.

    Raises:
        RuntimeError: a function (TF2's `device` takes none; `tf.compat.v1.device` does).
        ValueError: a device string that does not parse, or neither a string nor a spec.
        InvalidArgumentError: eagerly, a device of another job or task.

    Example:
        >>> import tapeflow as tf
        >>> with tf.device("/GPU:0"):
        ...     y = tf.constant(2.0) * 3.0
        >>> float(y), y.device
        (6.0, '/job:localhost/replica:0/task:0/device:CPU:0')
        >>> @tf.function
        ... def f(x):
        ...     with tf.device("cpu"):
        ...         print((x + 1.0).device)
        ...     return x
        >>> _ = f(tf.constant(1.0))
        /device:CPU:*
    """

    __slots__ = ("_name", "_functions", "_exit")

    def __init__(self, device_name, _functions: bool = False) -> None:
        if callable(device_name) and not _functions:
            raise RuntimeError("tf.device does not support functions.")
        self._name = device_name
        self._functions = _functions
        self._exit = None

    def __enter__(self):
        graph = state.graph
        name = self._name
        if graph is not None:
            saved = graph._device, graph._device_function
            if callable(name) and not isinstance(name, DeviceSpec):
                graph._device_function = name
            elif name is None:
                graph._device, graph._device_function = "", None
            else:
                current = DeviceSpec.from_string(graph._device)
                graph._device = current.make_merged_spec(_as_spec(name)).to_string()
            self._exit = lambda: (setattr(graph, "_device", saved[0]),
                                  setattr(graph, "_device_function", saved[1]))
            return None
        if callable(name) and not isinstance(name, DeviceSpec):
            raise RuntimeError("tf.device does not support functions when eager execution "
                               "is enabled.")
        runtime.initialize()
        saved = _eager_device.spec
        spec = DeviceSpec() if name is None else saved.make_merged_spec(_as_spec(name))
        _check_local(spec)
        _eager_device.spec = spec
        self._exit = lambda: setattr(_eager_device, "spec", saved)
        return None

    def __exit__(self, *exc) -> None:
        self._exit()


def device_v1(device_name_or_function):
    """TF 1's `device`: also takes a function of the operation that returns its device
    (in a graph); eagerly as `tf.device`.

    Example:
        >>> import tapeflow as tf
        >>> with tf.Graph().as_default():
        ...     with tf.compat.v1.device(lambda op: "/cpu:0"):
        ...         c = tf.constant(1.0)
        >>> c.device
        '/cpu:0'
    """
    return device(device_name_or_function, _functions=True)


def device_of_new_op(graph, op) -> str:
    """The device string an operation added to `graph` now records."""
    function = graph._device_function
    if function is None:
        return graph._device
    chosen = function(op)
    if isinstance(chosen, DeviceSpec):
        return chosen.to_string()
    return chosen or ""

