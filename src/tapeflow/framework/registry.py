"""Op definitions and the gradient / JVP rule registries, keyed by op name.

An op is one `OpDef`: a NumPy kernel, the facts about it that the engine derives rules from
(its family, how its gradient rule batches), and the rules that differentiate it. Facts are
declared once, at `define_op`; a rule registered by name overrides what the family derives,
and every registration names a defined op (LookupError otherwise). Calling an OpDef directly
is the "dual" form gradient rules are written in: on raw arrays it runs the kernel at once;
when any argument is a Tensor it goes through `execute`, so recording tapes see it.
"""
from __future__ import annotations

from typing import Callable, Optional

from .execute import execute_mixed

__all__ = ["OpDef", "define_op", "get_op", "RegisterGradient", "RegisterJVP", "no_gradient",
           "NO_GRADIENT", "gradient_rule", "Family", "ELEMENTWISE", "LINEAR", "MULTILINEAR",
           "IDENTITY", "SHAPE_ONLY", "ASSIGN", "UPDATE", "OUTPUT", "OTHER", "TRANSPARENT",
           "Stacking", "STACKED", "BATCH", "register_family_jvp"]


class _NoGradient:
    """Marks an op as truly not differentiable (as opposed to a rule not written yet)."""

    def __repr__(self) -> str:
        return "NO_GRADIENT"


NO_GRADIENT = _NoGradient()


class _Transparent:
    """`batching` of an op whose gradient rule only combines the upstream gradient
    elementwise (broadcasting) or by matmul, so that it is right on a batch of gradients
    (a leading axis) as it is."""

    def __repr__(self) -> str:
        return "TRANSPARENT"


TRANSPARENT = _Transparent()

# In `Stacking.leading`, stands for the batch size.
BATCH = object()


class Stacking:
    """`batching` of an op whose gradient rule uses axes or shapes: the rule is shown the op
    as if it had run on a stack of copies of its inputs (along a new first axis), which
    makes its gradients the batched ones, once its attributes say so.

    Args:
        axes: attributes holding an axis (or a tuple of them), moved one place right.
        perms: attributes holding a permutation, which gains the new axis first.
        leading: {attribute: first entry} for per-axis tuples, which gain that entry
            (BATCH for the batch size).
        transform: `transform(attrs)` makes any other change, or returns None where
            stacking cannot express the op (its rule then runs once per batch row).
    """

    __slots__ = ("axes", "perms", "leading", "transform")

    def __init__(self, axes: tuple = ("axis",), perms: tuple = (),
                 leading: Optional[dict] = None, transform: Optional[Callable] = None) -> None:
        self.axes = axes
        self.perms = perms
        self.leading = leading or {}
        self.transform = transform

    def attrs(self, attrs: dict, batch: int) -> Optional[dict]:
        """`attrs` of the op run on a stack of `batch` copies of its inputs."""
        shifted = dict(attrs)
        for name, first in self.leading.items():
            if name in attrs:
                shifted[name] = (batch if first is BATCH else first,) + tuple(attrs[name])
        for name in self.axes:
            if name in attrs:
                value = attrs[name]
                shifted[name] = tuple(_shift(a) for a in value) if isinstance(value, tuple) \
                    else _shift(value)
        for name in self.perms:
            if name in attrs:
                shifted[name] = (0,) + tuple(p + 1 for p in attrs[name])
        return shifted if self.transform is None else self.transform(shifted)

    def __repr__(self) -> str:
        return (f"Stacking(axes={self.axes!r}, perms={self.perms!r}, leading={self.leading!r}, "
                f"transform={self.transform!r})")


def _shift(axis: int) -> int:
    return axis + 1 if axis >= 0 else axis


# The op stacked along a new first axis with its `axis` attribute moved one place right:
# reductions, scans, concatenations and the like.
STACKED = Stacking()


class Family:
    """What kind of function an op computes, declared at `define_op(..., family=...)`, and
    what the engine derives from it.

    Attributes:
        name: the family's name.
        batching: how the gradient rules of the family's ops batch, unless an op declares
            otherwise (None: once per batch row).
        stateful: the op writes a variable; a graph runs it even when nothing reads it.
        jvp: the forward-mode rule of every op of the family without one of its own
            (set by `register_family_jvp`; None: derived from the gradient rule).
    """

    __slots__ = ("name", "batching", "stateful", "jvp")

    def __init__(self, name: str, batching=None, stateful: bool = False) -> None:
        self.name, self.batching, self.stateful, self.jvp = name, batching, stateful, None

    def __repr__(self) -> str:
        return f"<Family {self.name}>"


# Each output element a function of the input elements at its position (after
# broadcasting), holomorphic on complex values or real: the JVP follows from the slopes
# the gradient rule gives, and the rule works on batched gradients as it is.
ELEMENTWISE = Family("elementwise", batching=TRANSPARENT)
# Linear in its floating inputs jointly (reshapes, slices, gathers, sums, casts): the JVP
# is the op applied to the tangents.
LINEAR = Family("linear")
# Linear in each floating input separately (products): the JVP is the product rule.
MULTILINEAR = Family("multilinear")
# Returns its input: linear, batch-transparent, and a compiled plan names the input
# instead of running the op.
IDENTITY = Family("identity", batching=TRANSPARENT)
# Outputs depend only on the inputs' shapes: constants once the shapes are known.
SHAPE_ONLY = Family("shape_only")
# Writes its operand into a variable (the kernel's first argument, the old value, unused).
ASSIGN = Family("assign", stateful=True)
# Writes `kernel(old value, operand)` into a variable.
UPDATE = Family("update", stateful=True)
# Writes outside the program (tf.print): a graph runs it even when nothing reads it.
OUTPUT = Family("output", stateful=True)
# None of these: the JVP is derived by transposing the gradient rule.
OTHER = Family("other")


class OpDef:
    """One op: its name, NumPy kernel, output count, facts and differentiation rules.

    Attributes:
        name: TF's op type name ("MatMul", "Tanh").
        kernel: `kernel(*arrays, **attrs)`, returning one array, or a tuple when
            `num_outputs` is not 1.
        num_outputs: 1, a fixed count, or None when the kernel decides (split, unstack).
        family: the op's `Family` (OTHER when none of them).
        batching: how its gradient rule handles a batch of upstream gradients: TRANSPARENT,
            a `Stacking`, or None (once per batch row).
        view: the output is input 0's elements in order (a reshape): a compiled plan names
            the input when the shape stays.
        grad: `grad(op, *output_grads)` returning one gradient per input; None when
            unregistered, NO_GRADIENT when not differentiable.
        jvp: `jvp(op, *input_tangents)` returning one tangent per output: the family's
            rule unless one is registered for the op; None when derived from `grad`.
        batched_grad: `grad` for gradients with a leading batch axis, registered where it
            is faster than `batching`; None otherwise.
        grad_takes_tensors: the rule needs Tensors even when nothing records it
            (user code such as a custom_gradient's grad_fn).
        grad_takes_indexed_slices: the rule passes an IndexedSlices upstream gradient on
            sparse (Identity, Neg, ...); every other rule is handed it dense.
        shape_fn: `shape_fn(inputs, attrs)` giving the output specs in a graph, where
            probing the kernel cannot (see shape_inference); None otherwise.
        value_fn: `value_fn(inputs, attrs)` giving what a graph knows of the (integer)
            output's value from what it knows of its inputs' (see
            shape_inference.known_value); None otherwise.
    """

    __slots__ = ("name", "kernel", "num_outputs", "family", "batching", "view", "grad", "jvp",
                 "batched_grad", "grad_takes_tensors", "grad_takes_indexed_slices", "shape_fn",
                 "value_fn", "__weakref__")

    def __init__(self, name: str, kernel: Callable, num_outputs: Optional[int] = 1,
                 grad_takes_tensors: bool = False, family: Family = OTHER, batching=None,
                 view: bool = False) -> None:
        self.name = name
        self.kernel = kernel
        self.num_outputs = num_outputs
        self.family = family
        self.batching = family.batching if batching is None else batching
        self.view = view
        self.grad = None
        self.jvp = family.jvp
        self.batched_grad = None
        self.grad_takes_tensors = grad_takes_tensors
        self.grad_takes_indexed_slices = False
        self.shape_fn = None
        self.value_fn = None

    def __call__(self, *inputs, **attrs):
        for x in inputs:
            if hasattr(x, "_id"):
                return execute_mixed(self, inputs, attrs)
        return self.kernel(*inputs, **attrs)

    def __repr__(self) -> str:
        return f"<OpDef {self.name}>"


_OPS: dict[str, OpDef] = {}


def define_op(name: str, kernel: Callable, num_outputs: Optional[int] = 1,
              grad_takes_tensors: bool = False, *, family: Family = OTHER, batching=None,
              view: bool = False) -> OpDef:
    """Registers and returns the op `name`; each name is defined once.

    Args:
        name: TF's op type name.
        kernel: `kernel(*arrays, **attrs)`.
        num_outputs: 1, a fixed count, or None when the kernel decides.
        grad_takes_tensors: its gradient rule needs Tensors even when nothing records it.
        family: what kind of function it computes (ELEMENTWISE, LINEAR, MULTILINEAR,
            IDENTITY, SHAPE_ONLY, ASSIGN, UPDATE, OUTPUT or OTHER); its JVP rule and batching
            follow from it.
        batching: TRANSPARENT or a `Stacking`, where the family's (if any) does not fit.
        view: the output is input 0 reshaped (a no-op when the shape stays).

    Raises:
        KeyError: `name` is already defined.
        TypeError: `family` or `batching` is not one of the above.

    Example:
        >>> from tapeflow.framework import registry
        >>> op = registry.get_op("Exp")
        >>> op.family.name, op.batching, op.jvp.__name__
        ('elementwise', TRANSPARENT, 'elementwise_jvp')
    """
    if name in _OPS:
        raise KeyError(f"op {name!r} is already defined")
    if not isinstance(family, Family):
        raise TypeError(f"define_op({name!r}): family must be a Family, got {family!r}")
    if batching is not None and batching is not TRANSPARENT and \
            not isinstance(batching, Stacking):
        raise TypeError(f"define_op({name!r}): batching must be TRANSPARENT or a Stacking, "
                        f"got {batching!r}")
    op = OpDef(name, kernel, num_outputs, grad_takes_tensors, family, batching, view)
    _OPS[name] = op
    return op


def register_family_jvp(family: Family, rule: Callable) -> None:
    """Makes `rule(op, *tangents)` the JVP rule of every op of `family` that has none of
    its own, those defined already and those defined later."""
    family.jvp = rule
    for op in _OPS.values():
        if op.family is family and op.jvp is None:
            op.jvp = rule


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
    """Decorator registering `fn(op, *tangents)` as the forward-mode rule of `op_type`, in
    place of the one its family derives (a speed-up, or a family that does not fit)."""

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
