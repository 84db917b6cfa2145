"""`tensorflow.compiler.tf2xla.python.xla`: XLA's ops as TF functions; tapeflow's are the
ops of `tapeflow.ops.xla_ops` (run as NumPy kernels, differentiable).

Example:
    >>> import tapeflow as tf
    >>> from tapeflow.compiler.tf2xla.python import xla
    >>> xla.dynamic_update_slice(tf.zeros((3,)), tf.ones((2,)), [2]).numpy().tolist()
    [0.0, 1.0, 1.0]
"""
from ....ops.xla_ops import dynamic_slice, dynamic_update_slice

__all__ = ["dynamic_slice", "dynamic_update_slice"]
