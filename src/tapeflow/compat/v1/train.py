"""tf.compat.v1.train: TF1's optimizers (graph mode and eager)."""
from __future__ import annotations

from ...framework.context import executing_eagerly
from ...framework.graph import GraphKeys, get_default_graph
from ...framework.indexed_slices import IndexedSlices
from ...framework.tensor import convert_to_tensor
from ...ops.control_flow_ops import group

__all__ = ["Optimizer", "GradientDescentOptimizer"]


class Optimizer:
    """TF1's optimizer interface: `compute_gradients`, `apply_gradients`, `minimize`.

    Subclasses define `_apply_dense(grad, var)`, returning an assignment. See
    `GradientDescentOptimizer` for an example.
    """

    GATE_NONE = 0
    GATE_OP = 1
    GATE_GRAPH = 2

    def __init__(self, use_locking: bool, name: str) -> None:
        if not name:
            raise ValueError("Must specify the optimizer name")
        self._name = name
        self._use_locking = use_locking

    def get_name(self) -> str:
        return self._name

    def compute_gradients(self, loss, var_list=None, gate_gradients=GATE_OP,
                          aggregation_method=None, colocate_gradients_with_ops=False,
                          grad_loss=None) -> list:
        """[(gradient, variable)] of `loss` for `var_list` (default: trainable variables).

        When executing eagerly, `loss` must be a function of no arguments.

        Raises:
            ValueError: no variables to optimize.
            RuntimeError: a non-callable loss while executing eagerly.
        """
        from ...eager.backprop import GradientTape
        from ...eager.graph_gradients import gradients
        if executing_eagerly():
            if not callable(loss):
                raise RuntimeError("`loss` passed to Optimizer.compute_gradients should be a "
                                   "function when eager execution is enabled.")
            with GradientTape() as tape:
                value = loss()
            var_list = list(var_list) if var_list is not None else list(tape.watched_variables())
            if not var_list:
                raise ValueError("No variables to optimize.")
            grads = tape.gradient(value, var_list,
                                  output_gradients=None if grad_loss is None else [grad_loss])
            return list(zip(grads, var_list))
        if callable(loss):
            loss = loss()
        if var_list is None:
            var_list = get_default_graph().get_collection(GraphKeys.TRAINABLE_VARIABLES)
        var_list = list(var_list)
        if not var_list:
            raise ValueError("No variables to optimize.")
        grads = gradients(loss, var_list, grad_ys=None if grad_loss is None else [grad_loss],
                          aggregation_method=aggregation_method)
        return list(zip(grads, var_list))

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """Applies each gradient to its variable; in a graph, returns the grouped op.

        Raises:
            ValueError: no gradient at all (every gradient is None).
        """
        pairs = [(g, v) for g, v in grads_and_vars if g is not None]
        if not pairs:
            raise ValueError("No gradients provided for any variable: "
                             f"{[v.name for _, v in grads_and_vars]}.")
        updates = []
        for grad, var in pairs:
            if isinstance(grad, IndexedSlices):
                grad = convert_to_tensor(grad)
            updates.append(self._apply_dense(grad, var))
        if global_step is not None:
            updates.append(global_step.assign_add(1))
        if executing_eagerly():
            return None
        return group(*updates, name=name or self._name)

    def minimize(self, loss, global_step=None, var_list=None, gate_gradients=GATE_OP,
                 aggregation_method=None, colocate_gradients_with_ops=False, name=None,
                 grad_loss=None):
        """`apply_gradients(compute_gradients(loss, var_list))`.

        Example:
            >>> import tapeflow.compat.v1 as tf1
            >>> with tf1.Graph().as_default():
            ...     w = tf1.Variable(3.0)
            ...     step = tf1.train.GradientDescentOptimizer(0.25).minimize(w * w)
            ...     with tf1.Session() as sess:
            ...         _ = sess.run(tf1.global_variables_initializer())
            ...         _ = sess.run(step)
            ...         print(sess.run(w))
            1.5
        """
        grads_and_vars = self.compute_gradients(
            loss, var_list=var_list, gate_gradients=gate_gradients,
            aggregation_method=aggregation_method, grad_loss=grad_loss)
        return self.apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def _apply_dense(self, grad, var):
        raise NotImplementedError


class GradientDescentOptimizer(Optimizer):
    """var -= learning_rate * gradient.

    Args:
        learning_rate: a float or a scalar tensor.
        use_locking: accepted for compatibility.
        name: the name of the update operation.

    Example:
        >>> import tapeflow as tf
        >>> w = tf.Variable(2.0)
        >>> opt = tf.compat.v1.train.GradientDescentOptimizer(0.5)
        >>> opt.apply_gradients([(tf.constant(1.0), w)])
        >>> float(w)
        1.5
    """

    def __init__(self, learning_rate, use_locking: bool = False,
                 name: str = "GradientDescent") -> None:
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate

    def _apply_dense(self, grad, var):
        return var.assign_sub(grad * self._learning_rate)
