"""The op library: forward ops (`*_ops.py`, each `define_op` declaring the op's family and
batching) and beside them their rules (`*_grad.py`; the JVP rules families derive in
`jvp_util.py`, hand-written ones in `*_jvp.py`; batched rules in `batched_grad.py`).
Importing this package registers every rule, except those that run a tape or trace a
function, which the eager layer registers: the rule of EagerPyFunc (tf.py_function) in
eager/script_grad.py, those of If and While (tf.cond, tf.while_loop, defined there too) in
eager/control_flow.py.
"""
from . import (array_grad, bitwise_grad, comparison_grad, complex_grad,  # noqa: F401
               conv_grad, diag_grad, gather_grad, indexing_grad, linalg_grad, math_grad,
               counting_grad, linalg_extra_grad, matrix_function_grad, partition_grad,
               segment_grad, space_grad, tridiagonal_grad,
               nn_grad, random_grad, reduction_grad, special_fn_grad, special_grad,
               special_math_grad, sparse_grad, state_ops, tensor_array_grad, numerics_grad,
               xla_grad)
from . import array_jvp, batched_grad, jvp_util, math_jvp, nn_jvp  # noqa: F401
from . import ctc_grad, image_grad, signal_grad  # noqa: E402,F401
from . import variable_ops  # noqa: F401  (Variable's sparse reads and scatter writes)
