"""tf.experimental.dlpack: tensors to and from DLPack capsules (the "dltensor" PyCapsules
that NumPy and other array libraries exchange), through NumPy's DLPack support; the
memory is shared, not copied."""
from __future__ import annotations

import numpy as np

from ..framework import errors
from ..framework.tensor import convert_to_tensor

__all__ = ["to_dlpack", "from_dlpack"]


def _capsule_name(capsule):
    import ctypes
    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype, get_name.argtypes = ctypes.c_char_p, [ctypes.py_object]
    name = get_name(capsule)
    return None if name is None else name.decode()


class _Exporter:
    """What NumPy's `from_dlpack` takes: an object handing over a capsule (of CPU memory,
    tapeflow's one device kind)."""

    def __init__(self, capsule) -> None:
        self._capsule = capsule

    def __dlpack__(self, **kwargs):
        return self._capsule

    def __dlpack_device__(self) -> tuple:
        return (1, 0)  # kDLCPU, device 0


def to_dlpack(tf_tensor):
    """A DLPack capsule of `tf_tensor`'s memory (consumed once, by a `from_dlpack`).

    Args:
        tf_tensor: a tensor (or what converts to one) of a numeric or bool dtype.

    Returns:
        A PyCapsule named "dltensor".

    Raises:
        InvalidArgumentError: a dtype DLPack cannot describe (strings).

    Example:
        >>> import numpy as np
        >>> import tapeflow as tf
        >>> capsule = tf.experimental.dlpack.to_dlpack(tf.constant([1.0, 2.0]))
        >>> tf.experimental.dlpack.from_dlpack(capsule).numpy()
        array([1., 2.], dtype=float32)
    """
    tensor = convert_to_tensor(tf_tensor)
    array = np.asarray(tensor.numpy())
    if array.dtype.kind not in "biufc":
        raise errors.InvalidArgumentError(
            None, "to_dlpack", f"to_dlpack: DLPack cannot describe a tensor of dtype "
            f"{tensor.dtype.name} (shape {tensor.shape}).")
    if not array.flags.writeable:
        array = array.copy()
    return array.__dlpack__()


def from_dlpack(dlcapsule):
    """The tensor whose memory a DLPack capsule describes (the capsule is consumed).

    Args:
        dlcapsule: a PyCapsule named "dltensor" (from `to_dlpack`, or NumPy's
            `ndarray.__dlpack__()`).

    Returns:
        A Tensor sharing the capsule's memory.

    Raises:
        TypeError: `dlcapsule` is not a capsule.
        InvalidArgumentError: the capsule was consumed already.

    Example:
        >>> import numpy as np
        >>> import tapeflow as tf
        >>> tf.experimental.dlpack.from_dlpack(np.arange(3.0).__dlpack__())
        <tf.Tensor: shape=(3,), dtype=float64, numpy=array([0., 1., 2.])>
    """
    if type(dlcapsule).__name__ != "PyCapsule":
        raise TypeError(f"from_dlpack: expected a DLPack capsule (a PyCapsule named "
                        f"\"dltensor\"), got {type(dlcapsule).__name__}.")
    name = _capsule_name(dlcapsule)
    if name != "dltensor":
        raise errors.InvalidArgumentError(
            None, "from_dlpack", f'DLPack tensor must be a capsule with name "dltensor", '
            f'got "{name}". Note that a DLPack tensor may be consumed at most once.')
    return convert_to_tensor(np.from_dlpack(_Exporter(dlcapsule)))
