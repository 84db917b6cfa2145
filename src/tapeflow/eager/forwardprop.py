"""Forward mode: ForwardAccumulator and the per-op tangent propagation it runs.

An accumulator is a recorder, like a tape: `execute` offers it every op, and it computes the
op's output tangents (JVPs) from its input tangents at once. Recorders are ordered by when
they were entered; an accumulator runs its tangent computation so that only the recorders
entered before it see those ops (TF's strict nesting): an outer accumulator differentiates
an inner one's tangents (higher order), and an accumulator around a tape differentiates the
tape's backward pass (Hessian-vector products). When no earlier recorder exists the tangent
computation runs on raw NumPy arrays, as the backward pass does. Inside a graph
(tf.function) tangents are graph tensors built by the same rules.

Each op's forward rule is its registered JVP rule, or else one derived from its gradient
rule: the gradient rule is linear in the upstream gradient u, so <vjp(u), v> = <u, J v> and
its gradient with respect to u is J v (computed with a private tape over u).
"""
from __future__ import annotations

import weakref

import numpy as np

from ..framework import nest
from ..framework.context import state, switched
from ..framework.errors import SymbolicValueError
from ..framework.indexed_slices import IndexedSlices, to_dense
from ..framework.registry import NO_GRADIENT, get_op, gradient_rule
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.variables import Variable
from ..ops.array_ops import BroadcastTo
from ..ops.math_ops import Mul, Sum
from ..ops.op_util import shape_of
from ..ops.script_ops import spec_of
from .backward import UnconnectedGradients, as_unconnected, backward, one_per_input
from .domains import GraphDomain, dense, eager_domain, filled_like, run_later, unbroadcast
from .tape import OpRecord, Tape, is_trainable, log_warning

__all__ = ["ForwardAccumulator", "output_tangents", "tangent_of"]



class ForwardAccumulator:
    """Computes Jacobian-vector products ("JVPs") with forward-mode autodiff.

    Each watched primal gets a tangent (the "vector"); while the accumulator is active, every
    op on watched tensors also computes the tangents of its outputs, which `jvp` looks up.
    Forward mode suits functions with few inputs and many outputs, and keeps no
    intermediate results alive.

    Accumulators (and tapes) nest strictly: an accumulator sees the tangent computation of
    accumulators entered after it, so `outer.jvp(inner.jvp(y))` is a second derivative,
    and an accumulator around a `GradientTape` gives Hessian-vector products.

    Args:
        primals: a Tensor or Variable, or a nested structure of them, to watch.
        tangents: a structure like `primals`; each tangent is converted to its primal's
            dtype and must have its shape.

    Raises:
        ValueError: a primal is listed twice, or a tangent's shape differs from its primal's.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.constant(1.1)
        >>> with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as outer:
        ...     with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as inner:
        ...         y = x ** tf.constant(3.5)
        >>> inner.jvp(y)  # 3.5 * 1.1 ** 2.5
        <tf.Tensor: shape=(), dtype=float32, numpy=4.4417057>
        >>> outer.jvp(inner.jvp(y))  # 3.5 * 2.5 * 1.1 ** 1.5
        <tf.Tensor: shape=(), dtype=float32, numpy=10.094786>

        Forward over backward, a Hessian-vector product:

        >>> v = tf.Variable([1.0, 2.0])
        >>> with tf.autodiff.ForwardAccumulator(v, tf.constant([1.0, 0.0])) as acc:
        ...     with tf.GradientTape() as tape:
        ...         y = tf.reduce_sum(v ** 3.0)
        ...     backward = tape.gradient(y, v)
        >>> backward.numpy(), acc.jvp(backward).numpy()
        (array([ 3., 12.], dtype=float32), array([6., 0.], dtype=float32))
    """

    def __init__(self, primals, tangents) -> None:
        self._tangents: dict = {}
        self._tensor_refs: dict = {}
        self._recording = False
        self._entered = False
        flat_primals = nest.flatten(primals)
        flat_tangents = nest.flatten(tangents)
        if len(flat_primals) != len(flat_tangents):
            raise ValueError(f"primals and tangents must have the same structure: "
                             f"{len(flat_primals)} primals, {len(flat_tangents)} tangents.")
        seen = set()
        for primal in flat_primals:
            if id(primal) in seen:
                raise ValueError(f"Tensor {primal!r} was specified as a primal multiple times. "
                                 "This may indicate an error. If it was intended, please sum "
                                 "the corresponding tangents.")
            seen.add(id(primal))
        for primal, tangent in zip(flat_primals, flat_tangents):
            self._watch(primal, tangent)

    def _watch(self, primal, tangent) -> None:
        if not isinstance(primal, (Tensor, Variable)):
            raise ValueError(f"ForwardAccumulator primals must be Tensors or Variables, got "
                             f"{primal!r}")
        if not primal.dtype.is_floating:
            log_warning("The dtype of the watched primal must be floating (e.g. tf.float32), "
                         "got %r", primal.dtype)
        tangent = convert_to_tensor(tangent, dtype=primal.dtype)
        if not primal.shape.is_compatible_with(tangent.shape) or (
                primal.shape.is_fully_defined() and shape_of(tangent) != shape_of(primal)):
            raise ValueError(f"The tangent of a primal of shape {primal.shape.as_list()} has "
                             f"shape {tangent.shape.as_list()}; give one of the primal's shape.")
        if is_trainable(primal):  # integer paths carry no tangent, as they carry no gradient
            self._tangents[primal._id] = tangent

    def __enter__(self) -> "ForwardAccumulator":
        if self._recording:
            raise ValueError("Accumulator is already recording.")
        state.recorders.append(self)
        self._recording = self._entered = True
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if self._recording:
            state.recorders.remove(self)
            self._recording = False

    def _variable_accessed(self, variable) -> None:
        """Reading a variable watches nothing: only the primals carry tangents."""

    def _record_operation(self, op, inputs: tuple, outputs: tuple, attrs: dict) -> None:
        tangents = self._tangents
        for x in inputs:
            if x._id in tangents:
                break
        else:
            return
        in_tangents = [tangents.get(x._id) for x in inputs]
        recorders = state.recorders
        position = recorders.index(self)
        # Only the recorders entered before this one see the tangent computation; inside a
        # graph the rules run on its symbolic tensors and add graph ops.
        with switched(recorders=recorders[:position]):
            out_tangents = output_tangents(op, inputs, outputs, attrs, in_tangents,
                                           raw=not position and state.graph is None)
        for o, t in zip(outputs, out_tangents):
            if t is not None:
                key = o._id
                tangents[key] = t
                # As in TF, a JVP lives as long as its tensor: nothing can use it afterwards.
                self._tensor_refs[key] = weakref.ref(o, lambda _, key=key: self._forget(key))

    def _forget(self, key: int) -> None:
        self._tangents.pop(key, None)
        self._tensor_refs.pop(key, None)

    def jvp(self, primals, unconnected_gradients=UnconnectedGradients.NONE):
        """The JVPs computed for `primals` (watched tensors or tensors computed from them).

        Looks the JVPs up; computes nothing. Works after the context has exited.

        Args:
            primals: a Tensor or Variable, or a nested structure of them.
            unconnected_gradients: 'none' (None for a tensor with no JVP) or 'zero'.

        Returns:
            A structure like `primals`: each JVP has its tensor's shape and dtype.

        Raises:
            ValueError: the accumulator was never entered, or an unknown
                `unconnected_gradients`.

        Example:
            >>> import tapeflow as tf
            >>> x = tf.constant([1.0, 2.0])
            >>> with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 1.0])) as acc:
            ...     y = x * x
            ...     z = tf.constant(3.0)
            >>> acc.jvp(y).numpy(), acc.jvp(z), float(acc.jvp(z, unconnected_gradients='zero'))
            (array([2., 4.], dtype=float32), None, 0.0)
        """
        unconnected = as_unconnected(unconnected_gradients)
        if not self._entered:
            raise ValueError("Called jvp() without first tracing anything.")

        return nest.map_structure(lambda t: tangent_of(self._tangents, t, unconnected), primals)


def tangent_of(tangents: dict, tensor, unconnected: UnconnectedGradients):
    """The tangent `tangents` holds for `tensor` as a Tensor (kept, so it stays the same
    object); zeros or None when there is none.
    """
    if not isinstance(tensor, (Tensor, Variable)):
        raise ValueError(f"jvp() takes Tensors or Variables, got {tensor!r}")
    tangent = tangents.get(tensor._id)
    if tangent is None:
        if unconnected is UnconnectedGradients.ZERO:
            return Tensor(np.zeros_like(tensor._value))
        return None
    if not isinstance(tangent, Tensor):
        tangent = tangents[tensor._id] = Tensor(tangent)
    return tangent


def output_tangents(op, inputs: tuple, outputs: tuple, attrs: dict, in_tangents: list,
                    raw: bool) -> list:
    """The tangents of an op's outputs (None where none) from those of its inputs.

    With `raw`, the rule runs on NumPy arrays and returns arrays; otherwise on Tensors, so
    active recorders see the computation. `in_tangents` may mix arrays and Tensors; only
    tensors of trainable dtypes have one.

    Raises:
        LookupError: the op has neither a JVP rule nor a gradient rule.
    """
    if op.grad is NO_GRADIENT:
        return [None] * len(outputs)
    if raw:
        in_tangents = [t._value if type(t) is Tensor else t for t in in_tangents]
        view = OpRecord(op, [x._value for x in inputs], [o._value for o in outputs], attrs)
        view._tensors = inputs
    else:
        in_tangents = [t if t is None or type(t) is Tensor else _as_tensor(t)
                       for t in in_tangents]
        view = OpRecord(op, inputs, outputs, attrs)
    if raw or state.graph is None:
        result = _apply_rule(op, view, inputs, outputs, attrs, in_tangents)
    else:
        try:
            result = _apply_rule(op, view, inputs, outputs, attrs, in_tangents)
        except SymbolicValueError:  # the rule needs unknown dimensions: run it later
            result = _runtime_tangents(op, inputs, outputs, attrs, in_tangents)
    if len(outputs) == 1 and not isinstance(result, (tuple, list)):
        result = (result,)
    elif not isinstance(result, (tuple, list)) or len(result) != len(outputs):
        raise ValueError(f"The JVP rule of op '{op.name}' returned the wrong number of tangents; "
                         f"the op has {len(outputs)} outputs and needs one tangent (or None) "
                         "each.")
    tangents = []
    for o, t in zip(outputs, result):
        if t is not None:
            if not is_trainable(o):
                t = None
            else:
                if raw and type(t) is Tensor:
                    t = t._value
                if _shape_differs(t, o):
                    t = BroadcastTo(t, o._value.shape)
        tangents.append(t)
    return tangents


def _shape_differs(t, o) -> bool:
    try:
        return shape_of(t) != o._value.shape
    except SymbolicValueError:  # a graph tensor of unknown shape: the rule's result fits it
        return False


def _apply_rule(op, view: OpRecord, inputs: tuple, outputs: tuple, attrs: dict,
                in_tangents: list):
    if op.jvp is not None:
        return op.jvp(view, *in_tangents)
    return jvp_from_gradient(op, inputs, outputs, attrs, in_tangents)


def _runtime_tangents(op, inputs: tuple, outputs: tuple, attrs: dict, in_tangents: list):
    """The output tangents of graph op `op`, computed when the graph runs (`run_later`), for
    a rule that needs what the graph does not know while it is built."""
    wanted = [i for i, o in enumerate(outputs) if is_trainable(o)]

    def compute(record, tangents):
        _, ins, outs, _ = record
        result = output_tangents(op, ins, outs, attrs, tangents, raw=not state.recorders)
        return [np.zeros_like(outs[i]._value) if result[i] is None else result[i]
                for i in wanted]

    outs = run_later((op, inputs, outputs, attrs), in_tangents, compute,
                     [spec_of(outputs[i]) for i in wanted])
    result: list = [None] * len(outputs)
    for i, t in zip(wanted, outs):
        result[i] = t
    return result


def jvp_from_gradient(op, inputs: tuple, outputs: tuple, attrs: dict, tangents: list) -> list:
    """Output tangents of an op from its gradient rule, by transposing the linear VJP.

    The rule maps upstream gradients u to input gradients linearly, so the gradient of
    sum_i <vjp_i(u), conj(v_i)> with respect to u is J v. Runs on Tensors; the private tape
    sees only ops on u, and the recorders already active see the whole computation.
    """
    rule = gradient_rule(op)
    graph = state.graph is not None
    # Any point serves a linear map; ones keep rules that split u by sign (or take its log,
    # as cumulative_logsumexp's) away from the kink at 0.
    upstream = [filled_like(o, 1) if graph else Tensor(np.ones_like(o._value))
                for o in outputs]
    tape = Tape()
    for u in upstream:
        tape.watch(u)
    recorders = state.recorders
    recorders.append(tape)
    try:
        record = OpRecord(op, inputs, outputs, attrs)
        # Only the inputs with tangents need their slopes (the rule may skip the others).
        record._needed = {x._id for x, v in zip(inputs, tangents) if v is not None}
        grads = rule(record, *upstream)
        grads = one_per_input(op, grads, len(inputs))
        total = None
        for x, g, v in zip(inputs, grads, tangents):
            if g is None or v is None:
                continue
            if type(g) is IndexedSlices:
                g = to_dense(g)
            g = unbroadcast(_as_tensor(g), x._value.shape)
            if x.dtype.is_complex:
                v = get_op("Conj")(_as_tensor(v))
            term = Sum(Mul(g, _as_tensor(v)), axis=tuple(range(g.ndim)), keepdims=False)
            total = term if total is None else total + term
    finally:
        recorders.remove(tape)
    if total is None:
        return [None] * len(outputs)
    domain = GraphDomain() if graph else eager_domain()
    return [dense(t) for t in backward(tape.entries, [total], [None], upstream, domain,
                                       tape=tape, consume=True)]


def _as_tensor(t):
    if isinstance(t, Tensor):
        return t
    return Tensor(t if isinstance(t, (np.ndarray, np.generic)) else np.asarray(t))
