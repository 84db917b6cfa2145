"""einsum (the Einsum op) and tensordot built on it.

The gradient rule of Einsum lives in `special_math_grad.py`.
"""
from __future__ import annotations

import functools
import math
import string

import numpy as np

from ..framework import errors
from ..framework.execute import execute
from ..framework.graph_def import graph_def_form
from ..framework.numpy_warnings import silenced
from ..framework.registry import MULTILINEAR, Stacking, define_op
from ..framework.tensor import Tensor
from .op_util import as_input, int_value, int_values, normalize_axis, same_dtype_inputs


@silenced
def _einsum(*operands, equation):
    if len(operands) == 2 and operands[0].dtype == operands[1].dtype and \
            operands[0].dtype.kind in "fc":
        plan = _as_matmul(equation, operands[0].shape, operands[1].shape)
        if plan is not None:
            swap, perm_a, shape_a, perm_b, shape_b, shape_out, perm_out = plan
            first, second = operands[::-1] if swap else operands
            a = first.transpose(perm_a).reshape(shape_a)
            b = second.transpose(perm_b).reshape(shape_b)
            product = np.matmul(a, b).reshape(shape_out)
            return product if perm_out is None else \
                np.ascontiguousarray(product.transpose(perm_out))
    return np.einsum(equation, *operands, optimize=len(operands) > 1)


@functools.lru_cache(maxsize=512)
def _as_matmul(equation: str, shape_a: tuple, shape_b: tuple):
    """A two-operand einsum as one batched matmul, worked out once per equation and
    shapes (NumPy's einsum plans its contraction again on every call): whether the
    operands swap places, the transposes and shapes (batch, rows, inner) and (batch,
    inner, columns) of the operands, then the shape and transpose (None: none) of the
    product. The operands swap when that makes the product the result's own layout (no
    transposed view for the ops that read it). None where the equation is not such a
    product (an ellipsis, a repeated subscript, a subscript summed in one operand alone,
    sizes that broadcast)."""
    if "->" not in equation or "." in equation:
        return None
    lhs, out = equation.split("->")
    terms = lhs.split(",")
    if len(terms) != 2:
        return None
    plan = _matmul_plan(*terms, out, shape_a, shape_b)
    if plan is not None and plan[-1] is not None:
        swapped = _matmul_plan(*terms[::-1], out, shape_b, shape_a)
        if swapped[-1] is None:
            return (True, *swapped)
    return None if plan is None else (False, *plan)


def _matmul_plan(ta: str, tb: str, out: str, shape_a: tuple, shape_b: tuple):
    """`_as_matmul` for the operands in this order."""
    if any(len(set(t)) != len(t) for t in (ta, tb, out)) or \
            (len(ta), len(tb)) != (len(shape_a), len(shape_b)):
        return None
    size = dict(zip(ta, shape_a))
    if any(size.setdefault(c, d) != d for c, d in zip(tb, shape_b)):
        return None
    batch = [c for c in ta if c in tb and c in out]
    inner = [c for c in ta if c in tb and c not in out]
    rows = [c for c in ta if c not in tb]
    columns = [c for c in tb if c not in ta]
    if sorted(out) != sorted(batch + rows + columns):
        return None
    n_batch, n_rows, n_inner, n_columns = (math.prod(size[c] for c in group) for group in
                                           (batch, rows, inner, columns))
    product = batch + rows + columns
    perm_out = [product.index(c) for c in out]
    return ([ta.index(c) for c in batch + rows + inner], (n_batch, n_rows, n_inner),
            [tb.index(c) for c in batch + inner + columns], (n_batch, n_inner, n_columns),
            tuple(size[c] for c in product),
            None if perm_out == list(range(len(out))) else perm_out)


def _stacked_equation(attrs: dict) -> dict:
    """A fresh letter in front of every operand and of the output: the stacking axis."""
    equation = attrs["equation"]
    letter = next(c for c in string.ascii_letters if c not in equation)
    lhs, out = equation.split("->")
    return {**attrs, "equation": ",".join(letter + term for term in lhs.split(","))
            + "->" + letter + out}


Einsum = define_op("Einsum", _einsum, family=MULTILINEAR,
                   batching=Stacking(axes=(), transform=_stacked_equation))


def _two_operands(op) -> str:
    if len(op.inputs) > 2:
        raise errors.UnimplementedError(
            None, "Einsum", f"node {op.name!r}: TF's Einsum takes one or two operands, not "
            f"{len(op.inputs)}")
    return "Einsum"


graph_def_form("Einsum", tf_type=_two_operands)  # as a GraphDef node


def _einsum_dims(inputs, attrs):
    """The static shape of an einsum with an operand of unknown rank: the explicit
    equation's output subscripts, sized where another operand knows them."""
    if all(x._dims is not None for x in inputs):
        return None  # probing the kernel tells
    lhs, out = attrs["equation"].split("->")
    sizes: dict = {}
    for term, x in zip(lhs.split(","), inputs):
        for c, d in zip(term, x._dims or ()):
            if d is not None:
                sizes.setdefault(c, d)
    return [(inputs[0]._value.dtype, tuple(sizes.get(c) for c in out))]


Einsum.shape_fn = _einsum_dims


def explicit_equation(equation: str, ranks: list) -> str:
    """`equation` with '->' and its output spelt out and each '...' replaced by letters.

    Ellipsis dimensions are right-aligned across operands, as in NumPy.

    Raises:
        ValueError: a malformed equation, or one whose operand count or subscript lengths do
            not match the operands.
        TypeError: an equation that is not a string.
    """
    if not isinstance(equation, str):
        raise TypeError(f"einsum: the equation must be a string such as 'ij,jk->ik', got "
                        f"{equation!r}")
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(ranks):
        raise ValueError(f"einsum: the equation {equation!r} names {len(terms)} operands but "
                         f"{len(ranks)} were given")
    letters = set(eq) - {".", ",", "-", ">"}
    if any(c not in string.ascii_letters for c in letters):
        raise ValueError(f"einsum: invalid subscript in {equation!r}; use letters, ',', '->' "
                         "and '...'")
    free = [c for c in string.ascii_letters if c not in letters]
    widths = []
    for term, rank in zip(terms, ranks):
        fixed = len(term.replace("...", ""))
        if rank is None:  # an operand of unknown rank (in a graph): its subscripts say it
            if "..." in term:
                raise ValueError(f"einsum: subscripts {term!r} with '...' need the rank of "
                                 f"their operand, unknown while the graph is built, in "
                                 f"{equation!r}")
            rank = fixed
        width = rank - fixed if "..." in term else 0
        if width < 0 or (width == 0 and "..." not in term and fixed != rank):
            raise ValueError(f"einsum: subscripts {term!r} do not fit an operand of rank {rank} "
                             f"in {equation!r}")
        widths.append(width)
    ellipsis = "".join(free[:max(widths, default=0)])
    terms = [t.replace("...", ellipsis[len(ellipsis) - w:]) for t, w in zip(terms, widths)]
    if arrow:
        out = rhs.replace("...", ellipsis)
    else:
        counts = {c: "".join(terms).count(c) for c in set("".join(terms))}
        out = ellipsis + "".join(sorted(c for c, n in counts.items()
                                        if n == 1 and c not in ellipsis))
    if len(set(out)) != len(out) or any(c not in "".join(terms) for c in out):
        raise ValueError(f"einsum: output subscripts {out!r} must be distinct and appear in "
                         f"the inputs of {equation!r}")
    return ",".join(terms) + "->" + out


def einsum(equation, *inputs, **kwargs) -> Tensor:
    """Tensor contraction in Einstein notation, e.g. 'ij,jk->ik' (matmul), 'ii->' (trace),
    'b...i->b...' or implicit 'ij,jk' (output: the letters used once, sorted).

    Raises:
        ValueError: a malformed equation or one that does not fit the operands.
        InvalidArgumentError: dimensions of one letter disagree, or dtypes differ.

    Example:
        >>> import tapeflow as tf
        >>> m = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        >>> tf.einsum("ij,j->i", m, tf.constant([1.0, 1.0])).numpy()
        array([3., 7.], dtype=float32)
    """
    kwargs.pop("name", None)
    kwargs.pop("optimize", None)
    if kwargs:
        raise TypeError(f"einsum: unexpected keyword arguments {sorted(kwargs)}")
    operands = same_dtype_inputs("Einsum", inputs)
    if operands and operands[0].dtype.is_bool:
        raise errors.NotFoundError(None, "Einsum", "Einsum: no kernel for dtype bool (shapes "
                                   f"{[o.shape.as_list() for o in operands]}).")
    eq = explicit_equation(equation, [x.ndim for x in operands])
    sizes: dict = {}
    for term, x in zip(eq.split("->")[0].split(","), operands):
        if x.shape.rank is None:  # (checked when the graph runs)
            continue
        for c, d in zip(term, x.shape.as_list()):
            if d is None:
                continue
            if sizes.setdefault(c, d) != d and 1 not in (d, sizes[c]):
                raise errors.InvalidArgumentError(
                    None, "Einsum", f"Einsum: dimension {c!r} is {sizes[c]} in one operand and "
                    f"{d} in another (equation {equation!r}, shapes "
                    f"{[o.shape.as_list() for o in operands]})")
    return execute(Einsum, tuple(operands), {"equation": eq})


def tensordot(a, b, axes, name=None) -> Tensor:
    """Sums the products of `a` and `b` over the given axes.

    `axes` is N (the last N axes of `a` with the first N of `b`) or a pair of axis lists.
    The result's axes are `a`'s free axes followed by `b`'s.

    Raises:
        ValueError: `axes` is malformed or names more axes than a tensor has.
        InvalidArgumentError: contracted dimensions differ.

    Example:
        >>> import tapeflow as tf
        >>> tf.tensordot(tf.ones([2, 3]), tf.ones([3, 4]), axes=1).shape
        TensorShape([2, 4])
    """
    a, b = same_dtype_inputs("Einsum", [as_input(a), as_input(b)])  # converted apart, as TF
    if a.dtype.is_bool:  # TF's tensordot is a MatMul, which rejects bool
        raise errors.InvalidArgumentError(
            None, "MatMul", f"MatMul: got bool tensors of shapes {a.shape.as_list()} and "
            f"{b.shape.as_list()}; MatMul takes numbers only.")
    if not isinstance(axes, (list, tuple)) and np.ndim(getattr(axes, "_value", axes)) == 0:
        n = int_value("Tensordot", axes, "axes")
        if n < 0 or n > a.ndim or n > b.ndim:
            raise ValueError(f"tensordot: 'axes' must be in [0, min(rank(a), rank(b))] = "
                             f"[0, {min(a.ndim, b.ndim)}], got {n}")
        axes_a, axes_b = list(range(a.ndim - n, a.ndim)), list(range(n))
    else:
        if len(axes) != 2:
            raise ValueError(f"tensordot: 'axes' must be an integer or a pair of axis lists, "
                             f"got {axes!r}")
        axes_a = [normalize_axis("Tensordot", x, a.ndim)
                  for x in int_values("Tensordot", axes[0], "axes")]
        axes_b = [normalize_axis("Tensordot", x, b.ndim)
                  for x in int_values("Tensordot", axes[1], "axes")]
        if len(axes_a) != len(axes_b):
            raise ValueError(f"tensordot: different numbers of contraction axes for a and b: "
                             f"{axes_a} and {axes_b}")
    letters = iter(string.ascii_letters)
    sub_a = [next(letters) for _ in range(a.ndim)]
    sub_b = [next(letters) for _ in range(b.ndim)]
    for i, j in zip(axes_a, axes_b):
        if a.shape[i] != b.shape[j]:
            raise errors.InvalidArgumentError(
                None, "Tensordot", f"Tensordot: contracted dimensions differ: a.shape[{i}] = "
                f"{a.shape[i]} and b.shape[{j}] = {b.shape[j]}")
        sub_b[j] = sub_a[i]
    out = [c for i, c in enumerate(sub_a) if i not in axes_a] + \
        [c for j, c in enumerate(sub_b) if j not in axes_b]
    eq = f"{''.join(sub_a)},{''.join(sub_b)}->{''.join(out)}"
    return execute(Einsum, (a, b), {"equation": eq})
