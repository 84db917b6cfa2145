"""Op definitions and the gradient / JVP rule registries, keyed by op name.

An op is one `OpDef`: a NumPy kernel plus the rules that differentiate it. Calling an OpDef
directly is the "dual" form gradient rules are written in: on raw arrays it runs the kernel
at once; when any argument is a Tensor it goes through `execute`, so recording tapes see it.
"""
from __future__ import annotations

from typing import Callable, Optional

from .execute import execute_mixed

__all__ = ["OpDef", "define_op", "get_op", "RegisterGradient", "RegisterJVP", "no_gradient",
           "NO_GRADIENT", "gradient_rule"]


class _NoGradient:
    """Marks an op as truly not differentiable (as opposed to a rule not written yet)."""

    def __repr__(self) -> str:
        return "NO_GRADIENT"


NO_GRADIENT = _NoGradient()


class OpDef:
    """One op: its name, NumPy kernel, output count and differentiation rules.

    Attributes:
        name: TF's op type name ("MatMul", "Tanh").
        kernel: `kernel(*arrays, **attrs)`, returning one array, or a tuple when
            `num_outputs` is not 1.
        num_outputs: 1, a fixed count, or None when the kernel decides (split, unstack).
        grad: `grad(op, *output_grads)` returning one gradient per input; None when
            unregistered, NO_GRADIENT when not differentiable.
        jvp: `jvp(op, *input_tangents)` returning one tangent per output, or None.
        grad_takes_tensors: the rule needs Tensors even when nothing records it
            (user code such as a custom_gradient's grad_fn).
        grad_takes_indexed_slices: the rule passes an IndexedSlices upstream gradient on
            sparse (Identity, Neg, ...); every other rule is handed it dense.
    """

    __slots__ = ("name", "kernel", "num_outputs", "grad", "jvp", "grad_takes_tensors",
                 "grad_takes_indexed_slices", "shape_fn", "__weakref__")

    def __init__(self, name: str, kernel: Callable, num_outputs: Optional[int] = 1,
                 grad_takes_tensors: bool = False) -> None:
        self.name = name
        self.kernel = kernel
        self.num_outputs = num_outputs
        self.grad = None
        self.jvp = None
        self.grad_takes_tensors = grad_takes_tensors
        self.grad_takes_indexed_slices = False
        self.shape_fn = None

    def __call__(self, *inputs, **attrs):
        for x in inputs:
            if hasattr(x, "_id"):
                return execute_mixed(self, inputs, attrs)
        return self.kernel(*inputs, **attrs)

    def __repr__(self) -> str:
        return f"<OpDef {self.name}>"


_OPS: dict[str, OpDef] = {}


def define_op(name: str, kernel: Callable, num_outputs: Optional[int] = 1,
              grad_takes_tensors: bool = False) -> OpDef:
    """Registers and returns the op `name`; each name is defined once."""
    if name in _OPS:
        raise KeyError(f"op {name!r} is already defined")
    op = OpDef(name, kernel, num_outputs, grad_takes_tensors)
    _OPS[name] = op
    return op


def get_op(name: str) -> OpDef:
    try:
        return _OPS[name]
    except KeyError:
        raise LookupError(f"No op named {name!r} is defined") from None


def all_ops() -> dict[str, OpDef]:
    return dict(_OPS)


class RegisterGradient:
    """Decorator registering `fn(op, *grads)` as the gradient rule of op `op_type`.

    With `takes_indexed_slices`, the rule is handed an IndexedSlices upstream gradient as
    it is (and must pass it on); otherwise the engine makes it dense first.

    Example:
        >>> import tapeflow as tf
        >>> from tapeflow.framework import registry
        >>> registry.get_op("Tanh").grad is not None
        True
    """

    def __init__(self, op_type: str, takes_indexed_slices: bool = False) -> None:
        self._op = get_op(op_type)
        self._takes_indexed_slices = takes_indexed_slices

    def __call__(self, fn: Callable) -> Callable:
        if self._op.grad is not None:
            raise KeyError(f"a gradient for op {self._op.name!r} is already registered")
        self._op.grad = fn
        self._op.grad_takes_indexed_slices = self._takes_indexed_slices
        return fn


class RegisterJVP:
    """Decorator registering `fn(op, *tangents)` as the forward-mode rule of `op_type`."""

    def __init__(self, op_type: str) -> None:
        self._op = get_op(op_type)

    def __call__(self, fn: Callable) -> Callable:
        self._op.jvp = fn
        return fn


def no_gradient(op_type: str) -> None:
    """Declares op `op_type` not differentiable: gradients through it are None."""
    op = get_op(op_type)
    if op.grad is not None:
        raise KeyError(f"a gradient for op {op_type!r} is already registered")
    op.grad = NO_GRADIENT


def gradient_rule(op: OpDef) -> Callable:
    """The rule of `op`, raising LookupError naming it when none is registered."""
    if op.grad is None:
        raise LookupError(f"No gradient defined for operation '{op.name}' (op type: "
                          f"{op.name}). Register one with RegisterGradient('{op.name}') or "
                          f"declare it with no_gradient('{op.name}').")
    return op.grad
