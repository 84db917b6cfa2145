"""Gradient rule of Einsum. Works on raw arrays and on Tensors."""
from __future__ import annotations

import string

import numpy as np

from ..framework.registry import RegisterGradient
from .array_ops import BroadcastTo, Reshape
from .op_util import dtype_of, shape_of
from .special_math_ops import Einsum


@RegisterGradient("Einsum")
def _einsum_grad(op, g):
    lhs, out = op.attrs["equation"].split("->")
    terms = lhs.split(",")
    spare = iter(c for c in string.ascii_letters if c not in op.attrs["equation"])
    return tuple(_operand_grad(g, out, terms, op.inputs, i, spare) for i in range(len(terms)))


def _operand_grad(g, out: str, terms: list, inputs, i: int, spare):
    """d(einsum)/d(operand i): contract g with the other operands onto operand i's letters."""
    term = terms[i]
    others = [t for j, t in enumerate(terms) if j != i]
    other_inputs = [x for j, x in enumerate(inputs) if j != i]
    sizes = dict(zip(term, shape_of(inputs[i])))
    unique = "".join(dict.fromkeys(term))
    reachable = set(out).union(*others)
    kept = "".join(c for c in unique if c in reachable)
    grad = Einsum(g, *other_inputs, equation=",".join([out] + others) + "->" + kept)
    # Letters summed away inside this operand alone: the gradient is constant along them.
    got = dict(zip(kept, shape_of(grad)))
    if kept != unique:
        grad = Reshape(grad, tuple(got.get(c, 1) for c in unique))
    target = tuple(sizes[c] if sizes[c] != 1 else got.get(c, 1) for c in unique)
    if tuple(got.get(c, 1) for c in unique) != target:
        grad = BroadcastTo(grad, target)
    if unique == term:
        return grad
    # Repeated letters (a diagonal such as 'ii'): place the gradient back on the diagonal.
    renamed, deltas, seen = [], [], set()
    for c in term:
        if c in seen:
            deltas.append((c, next(spare)))
            renamed.append(deltas[-1][1])
        else:
            seen.add(c)
            renamed.append(c)
    eyes = [np.eye(sizes[c], dtype=dtype_of(g)) for c, _ in deltas]
    equation = ",".join([unique] + [c + f for c, f in deltas]) + "->" + "".join(renamed)
    return Einsum(grad, *eyes, equation=equation)
