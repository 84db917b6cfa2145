"""Row type and input makers for the gradient-check table."""
from __future__ import annotations

import zlib
from typing import Callable, NamedTuple

import numpy as np


class Case(NamedTuple):
    """One check: `fn(*args)` exercises op `op`; float arguments are differentiated."""

    op: str
    fn: Callable
    args: tuple
    differentiable: bool = True
    label: str = ""
    order: int = 2
    eps: float = 1e-6
    rtol: float = 1e-5

    @property
    def id(self) -> str:
        return f"{self.op}[{self.label}]" if self.label else self.op


CASES: list[Case] = []
# Ops checked elsewhere than this table, with where.
EXEMPT: dict[str, str] = {}
# Ops whose rows are differentiable once only (a LookupError beyond, as in TF), with why.
NO_SECOND_DERIVATIVE: dict[str, str] = {}


def case(op: str, fn: Callable, *args, differentiable: bool = True, label: str = "",
         order: int = 2, eps: float = 1e-6, rtol: float = 1e-5) -> None:
    """Adds a row; `args` are arrays or input makers called with a seeded generator.

    Rows through low-precision dtypes widen `eps` and `rtol` (say why beside the row).
    """
    rng = np.random.default_rng(zlib.crc32(f"{op}/{label}".encode()))
    made = tuple(a(rng) if callable(a) else np.asarray(a) for a in args)
    CASES.append(Case(op, fn, made, differentiable, label, order, eps, rtol))


def normal(*shape) -> Callable:
    return lambda rng: rng.standard_normal(shape)


def uniform(low: float, high: float, *shape) -> Callable:
    return lambda rng: rng.uniform(low, high, shape)


def positive(*shape) -> Callable:
    return uniform(0.5, 2.0, *shape)


def ints(high: int, *shape, dtype=np.int32) -> Callable:
    return lambda rng: rng.integers(0, high, shape).astype(dtype)
