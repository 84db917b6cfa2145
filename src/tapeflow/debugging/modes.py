"""Process-wide debugging modes that watch every eager op: the NaN/Inf check
(`enable_check_numerics`) and the placement log (`set_log_device_placement`).

Each is an observer of the execute chokepoint, added while the mode is on, so ops pay
nothing for a mode that is off.
"""
from __future__ import annotations

import sys

from ..framework import dtypes, errors
from ..framework.execute import add_op_observer, remove_op_observer
from ..ops.numerics_ops import CheckNumerics, bad_values

__all__ = ["enable_check_numerics", "disable_check_numerics", "set_log_device_placement",
           "get_log_device_placement"]

_DEVICE = "/job:localhost/replica:0/task:0/device:CPU:0"


def _check_outputs(op, inputs, outputs) -> None:
    if op is CheckNumerics:
        return
    for index, value in enumerate(outputs):
        dtype = getattr(value, "dtype", None)
        if dtype is None or not dtypes.as_dtype(dtype).is_floating:
            continue
        found = bad_values(value)
        if found:
            raise errors.InvalidArgumentError(
                None, "CheckNumericsV2", _report(op, inputs, outputs, index, value, found))


def _report(op, inputs, outputs, index, value, found) -> str:
    counts = {"-Inf": int((value == -float("inf")).sum()),
              "+Inf": int((value == float("inf")).sum()),
              "NaN": int((value != value).sum())}
    lines = [f"\n\n!!! Detected Infinity or NaN in output {index} of eagerly-executing op "
             f'"{op.name}" (# of outputs: {len(outputs)}) !!!',
             f"  dtype: {dtypes.as_dtype(value.dtype)}", f"  shape: {tuple(value.shape)}"]
    lines += [f"  # of {'+NaN' if k == 'NaN' else k} elements: {counts[k]}" for k in found]
    lines.append("")
    if len(inputs) == 1:
        lines.append(f"  Input tensor: {inputs[0]!s}")
    else:
        lines.append(f"  Input tensors ({len(inputs)}):")
        lines += [f"         {i}: {x!s}" for i, x in enumerate(inputs)]
    kinds = found[0] if len(found) == 1 else " and ".join(found) if len(found) == 2 \
        else f"{found[0]}, {found[1]}, and {found[2]}"
    return "\n".join(lines) + f"\n\n : Tensor had {kinds} values"


def enable_check_numerics(stack_height_limit=30, path_length_limit=50) -> None:
    """From now on every eager op whose floating output holds a NaN or Inf raises.

    Args:
        stack_height_limit, path_length_limit: accepted as TF's are (how much of the
            op's creation stack a graph op's report shows).

    Raises:
        (then, from each such op) InvalidArgumentError naming the op, the output, its dtype
        and shape, how many -Inf, +Inf and NaN entries it has, and the op's inputs.

    Example:
        >>> import tapeflow as tf
        >>> tf.debugging.enable_check_numerics()
        >>> try:
        ...     tf.math.log(tf.constant([-1.0]))
        ... except tf.errors.InvalidArgumentError as e:
        ...     print(e.message.splitlines()[2])
        !!! Detected Infinity or NaN in output 0 of eagerly-executing op "Log" (# of outputs: 1) !!!
        >>> tf.debugging.disable_check_numerics()
    """
    add_op_observer(_check_outputs)


def disable_check_numerics() -> None:
    """Ends `enable_check_numerics`; nothing happens when it is not on.

    Example:
        >>> import tapeflow as tf
        >>> tf.debugging.disable_check_numerics()
        >>> print(tf.math.log(tf.constant(-1.0)).numpy())
        nan
    """
    remove_op_observer(_check_outputs)


def _log_placement(op, inputs, outputs) -> None:
    sys.stderr.write(f"Executing op {op.name} in device {_DEVICE}\n")


_placement_logged = False


def set_log_device_placement(enabled) -> None:
    """Turns the placement log on or off: while on, each eager op writes
    'Executing op MatMul in device /job:localhost/replica:0/task:0/device:CPU:0' to stderr.

    Example:
        >>> import tapeflow as tf
        >>> tf.debugging.set_log_device_placement(False)
        >>> tf.debugging.get_log_device_placement()
        False
    """
    global _placement_logged
    _placement_logged = bool(enabled)
    (add_op_observer if enabled else remove_op_observer)(_log_placement)


def get_log_device_placement() -> bool:
    """Whether the placement log (`set_log_device_placement`) is on.

    Example:
        >>> import tapeflow as tf
        >>> tf.debugging.get_log_device_placement()
        False
    """
    return _placement_logged
