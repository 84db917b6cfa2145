"""Variable assignment as graph ops, and compat.v1's `assign` functions.

Eagerly, `Variable.assign*` change the value at once. While a graph is built they add one
of these nodes; the plan running it stages the new value and commits it when the run
succeeds. Each kernel combines the current value with the operand.
"""
from __future__ import annotations

import numpy as np

from ..framework.registry import ASSIGN, UPDATE, define_op, no_gradient


def _replace(current, value):
    return value


AssignVariableOp = define_op("AssignVariableOp", _replace, family=ASSIGN)
AssignAddVariableOp = define_op("AssignAddVariableOp", np.add, family=UPDATE)
AssignSubVariableOp = define_op("AssignSubVariableOp", np.subtract, family=UPDATE)
no_gradient("AssignVariableOp")
no_gradient("AssignAddVariableOp")
no_gradient("AssignSubVariableOp")


def assign(ref, value, validate_shape=None, use_locking=None, name=None):
    """`ref.assign(value)`: in a graph, a node whose output is the new value.

    Example:
        >>> import tapeflow as tf
        >>> v = tf.Variable(1.0)
        >>> float(tf.compat.v1.assign(v, 5.0))
        5.0
    """
    return ref.assign(value)


def assign_add(ref, value, use_locking=None, name=None):
    """`ref.assign_add(value)`.

    Example:
        >>> import tapeflow as tf
        >>> float(tf.compat.v1.assign_add(tf.Variable(1.0), 2.0))
        3.0
    """
    return ref.assign_add(value)


def assign_sub(ref, value, use_locking=None, name=None):
    """`ref.assign_sub(value)`.

    Example:
        >>> import tapeflow as tf
        >>> float(tf.compat.v1.assign_sub(tf.Variable(1.0), 2.0))
        -1.0
    """
    return ref.assign_sub(value)
