"""What TF's serving and GPU-memory machinery offers, as it runs on NumPy:
`nondifferentiable_batch_function` (each call is its own batch) and `check_pinned`
(tapeflow's tensors are never in pinned GPU host memory)."""
from __future__ import annotations

import functools

from ..framework import errors, nest
from ..framework.execute import execute
from ..framework.registry import define_op, no_gradient
from ..framework.tensor import Tensor
from .array_ops import PreventGradient
from .op_util import NO_ATTRS, as_input

__all__ = ["check_pinned", "nondifferentiable_batch_function"]


def _check_pinned(x):
    # TF's CPU-only builds answer this way too: pinnedness is a question for a CUDA build.
    raise errors.FailedPreconditionError(
        None, "CheckPinned", f"CheckPinned: to check pinnedness, must be built with CUDA (a "
        f"{x.dtype} tensor of shape {list(x.shape)} in NumPy memory; tapeflow has no GPU)")


CheckPinned = define_op("CheckPinned", _check_pinned)
CheckPinned.shape_fn = lambda inputs, attrs: [(inputs[0]._value.dtype, inputs[0]._dims)]
no_gradient("CheckPinned")


def check_pinned(tensor, name=None) -> Tensor:
    """Checks, when it runs, that `tensor` is in host memory pinned for a GPU; tapeflow's
    never are, as on TF's CPU-only builds.

    Raises:
        FailedPreconditionError: always, when it runs (as TF's CPU-only builds).

    Example:
        >>> import tapeflow as tf
        >>> try:
        ...     tf.check_pinned(tf.constant([1.0]))
        ... except tf.errors.FailedPreconditionError:
        ...     print("cannot tell")
        cannot tell
    """
    return execute(CheckPinned, (as_input(tensor),), NO_ATTRS)


def nondifferentiable_batch_function(num_batch_threads, max_batch_size, batch_timeout_micros,
                                     allowed_batch_sizes=None, max_enqueued_batches=10,
                                     autograph=True, enable_large_batch_splitting=True):
    """A decorator for functions of batched tensors that TF would batch across concurrent
    calls for serving; here each call runs as its own batch. Its outputs are not
    differentiable: a gradient through them is a LookupError, as in TF.

    Args:
        num_batch_threads, max_batch_size, batch_timeout_micros, allowed_batch_sizes,
            max_enqueued_batches, autograph, enable_large_batch_splitting: TF's batching
            settings, accepted.

    Returns:
        The decorator.

    Example:
        >>> import tapeflow as tf
        >>> @tf.nondifferentiable_batch_function(1, 4, 100)
        ... def double(x):
        ...     return x * 2
        >>> double(tf.constant([[1.0], [2.0]])).numpy().ravel().tolist()
        [2.0, 4.0]
    """
    def decorator(fn):
        @functools.wraps(fn)
        def batched(*args):
            return nest.map_structure(
                lambda out: PreventGradient(as_input(out), message="a batch function's outputs "
                                            "are not differentiable"), fn(*args))
        return batched
    return decorator
