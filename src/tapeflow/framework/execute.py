"""The chokepoint every op runs through.

Eagerly it runs the kernel, wraps the results, and offers the operation to each active
recorder (tape or forward accumulator); while a graph is being built it adds a node instead.
When nothing records, an op costs one kernel call, one Tensor per output and two
thread-local reads.
"""
from __future__ import annotations

import math
import re
import sys
import warnings

import numpy as np

from . import errors
from .context import state
from .numpy_warnings import QUIET_FILTER, quiet_numpy_warnings
from .tensor import Tensor
from .variables import Variable

__all__ = ["execute", "execute_mixed", "describe_inputs", "kernel_error", "tf_wording",
           "add_op_observer", "remove_op_observer"]

# Functions told of every eager op once its kernel ran, as observer(op, inputs, outputs)
# with the output arrays: tf.debugging's NaN check and placement log. Empty when none is
# on, which the hot path pays for with one global read.
_observers: tuple = ()


def add_op_observer(observer) -> None:
    """Calls `observer(op, inputs, output_arrays)` after every eager op (until removed);
    it may raise to fail the op."""
    global _observers
    if observer not in _observers:
        _observers = _observers + (observer,)


def remove_op_observer(observer) -> None:
    """Stops calling `observer`; one that is not added is ignored."""
    global _observers
    _observers = tuple(o for o in _observers if o is not observer)


def execute(op, inputs: tuple, attrs: dict):
    """Runs `op` on `inputs` (Tensors or Variables) with `attrs`.

    Returns one Tensor, or a tuple of Tensors when the op has several outputs.
    """
    st = state
    if st.graph is not None:
        return st.graph._create_op(op, inputs, attrs, sys._getframe(1))
    filters = warnings.filters  # keep_numpy_quiet, inline: this runs for every eager op
    if not filters or filters[0] is not QUIET_FILTER:
        quiet_numpy_warnings()
    try:
        arity = len(inputs)
        # Without attributes, the kernel (often a NumPy ufunc) takes its fast call path.
        if arity == 2:
            out = op.kernel(inputs[0]._value, inputs[1]._value, **attrs) if attrs else \
                op.kernel(inputs[0]._value, inputs[1]._value)
        elif arity == 1:
            out = op.kernel(inputs[0]._value, **attrs) if attrs else op.kernel(inputs[0]._value)
        else:
            out = op.kernel(*[x._value for x in inputs], **attrs)
    except (errors.OpError, errors.SymbolicValueError):
        raise
    except (ValueError, TypeError, IndexError, ArithmeticError, MemoryError) as e:
        raise kernel_error(op.name, e, inputs) from None
    if _observers:
        for observe in _observers:
            observe(op, inputs, (out,) if op.num_outputs == 1 else tuple(out))
    if op.num_outputs == 1:
        result = Tensor(out)
        recorders = st.recorders
        if recorders:
            for x in inputs:
                if type(x) is not Tensor:
                    record_operation(op, inputs, (result,), attrs)
                    break
            else:
                outputs = (result,)
                for recorder in recorders:
                    recorder._record_operation(op, inputs, outputs, attrs)
        return result
    result = tuple([Tensor(o) for o in out])
    if st.recorders:
        record_operation(op, inputs, result, attrs)
    return result


def record_operation(op, inputs: tuple, outputs: tuple, attrs: dict) -> None:
    """Offers an executed operation to every active recorder.

    Variables among the inputs are replaced by a snapshot of the value read (carrying the
    variable's identity), and recorders are told the variable was accessed.
    """
    recorders = state.recorders
    for x in inputs:
        if type(x) is not Tensor and isinstance(x, Variable):
            inputs = tuple([v._read_for_recorders(recorders) if isinstance(v, Variable) else v
                            for v in inputs])
            break
    for recorder in recorders:
        recorder._record_operation(op, inputs, outputs, attrs)


def execute_mixed(op, inputs: tuple, attrs: dict):
    """`execute` for inputs mixing Tensors with raw arrays, Python scalars and shapes.

    Python scalars take the dtype of the first tensor input, as they would in TF; tuples
    are shapes and become int64 tensors.
    """
    like = next(x for x in inputs if hasattr(x, "_id"))
    return execute(op, tuple([x if hasattr(x, "_id") else _constant_input(x, like)
                              for x in inputs]), attrs)


def _constant_input(x, like) -> Tensor:
    if isinstance(x, (int, float, complex)):
        return Tensor(np.asarray(x, like.dtype._np))
    if isinstance(x, tuple):
        return Tensor(np.asarray(x, np.int64))
    return Tensor(np.asarray(x))


_NUMPY_BROADCAST = re.compile(r"operands could not be broadcast together")
_NUMPY_RESHAPE = re.compile(r"cannot reshape array of size (\d+) into shape \(([^)]*)\)")


def kernel_error(op_name: str, e: Exception, inputs) -> errors.OpError:
    """The OpError for NumPy's exception `e` in op `op_name`'s kernel, worded as TF's.

    MemoryError is ResourceExhaustedError; anything else InvalidArgumentError, naming the
    inputs' shapes and dtypes.
    """
    if isinstance(e, MemoryError):
        return errors.out_of_memory(op_name, e)
    return errors.InvalidArgumentError(
        None, op_name, f"{op_name}: {tf_wording(e, inputs)} ({describe_inputs(inputs)})")


def tf_wording(e: Exception, inputs) -> str:
    """NumPy's message in `e` as TF words the same fault (broadcasting, reshape sizes)."""
    text = str(e)
    if _NUMPY_BROADCAST.search(text):
        return "Incompatible shapes: " + " vs. ".join(
            "[" + ",".join(map(str, x.shape)) + "]" for x in inputs if hasattr(x, "shape"))
    match = _NUMPY_RESHAPE.search(text)
    if match:
        dims = [d.strip() for d in match.group(2).split(",") if d.strip()]
        known = math.prod(int(d) for d in dims if d.isdigit())
        wanted = f"has {known}" if all(d.isdigit() for d in dims) \
            else f"requires a multiple of {known}"
        return f"Input to reshape is a tensor with {match.group(1)} values, but the " \
               f"requested shape {wanted}"
    return text


def describe_inputs(inputs) -> str:
    """'shapes [2,3] and [3,4], dtypes float32 and float32' for an error message."""
    shapes = [str(list(x.shape)) if hasattr(x, "shape") else repr(x) for x in inputs]
    kinds = [x.dtype.name if hasattr(x, "dtype") else type(x).__name__ for x in inputs]
    return f"shapes {', '.join(shapes)}; dtypes {', '.join(kinds)}"

