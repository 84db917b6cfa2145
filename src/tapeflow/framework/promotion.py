"""The dtype-conversion modes of binary ops, and TF's lattice of weak and strong dtypes.

"off" (the default) refuses operands of different dtypes and gives Python numbers the
tensor's dtype; "legacy" makes the Python operators of tensors promote as NumPy does (the
numpy namespace installs them: `experimental_enable_numpy_behavior`), the functions stay as
"off"; "all" and "safe" promote along the lattice in which a Python number is *weak* (it
adapts to the other operand), "safe" refusing what may lose precision, in every binary op.
Only the conversion paths that "off" refuses consult the mode, so the hot path is the same
in every mode.
"""
from __future__ import annotations

import numpy as np

MODES = ("off", "legacy", "safe", "all")
LATTICE_MODES = ("safe", "all")
mode = "off"


def set_mode(name: str) -> None:
    """Sets the process-wide dtype-conversion mode ("off", "legacy", "safe" or "all").

    Raises:
        ValueError: an unknown mode.
    """
    global mode
    if name not in MODES:
        raise ValueError(f"dtype_conversion_mode must be one of {', '.join(MODES)}, got "
                         f"{name!r}")
    mode = name


# The lattice's nodes: each dtype's name, and "i*", "f*", "c*" for weak integers, floats and
# complex numbers; an edge leads to the types a node converts to.
_EDGES = {
    "bool": ["i*"], "i*": ["uint8", "int8"],
    "uint8": ["uint16", "int16"], "uint16": ["uint32", "int32"], "uint32": ["uint64", "int64"],
    "uint64": ["f*"], "int8": ["int16"], "int16": ["int32"], "int32": ["int64"], "int64": ["f*"],
    "f*": ["bfloat16", "float16", "c*"], "bfloat16": ["float32"], "float16": ["float32"],
    "float32": ["float64", "complex64"], "float64": ["complex128"], "c*": ["complex64"],
    "complex64": ["complex128"], "complex128": [],
}


def _above(node: str) -> frozenset:
    reached, todo = {node}, [node]
    while todo:
        for up in _EDGES[todo.pop()]:
            if up not in reached:
                reached.add(up)
                todo.append(up)
    return frozenset(reached)


_UPPER = {node: _above(node) for node in _EDGES}
# Bits of an integer's magnitude, and of a float's significand (with the implicit bit).
_INTEGER_BITS = {"uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64, "int8": 7, "int16": 15,
                 "int32": 31, "int64": 63}
_SIGNIFICAND_BITS = {"bfloat16": 8, "float16": 11, "float32": 24, "float64": 53,
                     "complex64": 24, "complex128": 53}
_WEAK_DTYPE = {"i*": "int32", "f*": "float32", "c*": "complex128"}
# The inexact dtypes that hold every value of each inexact dtype.
_WIDER_INEXACT = {"float16": ("float32", "float64", "complex64", "complex128"),
                  "bfloat16": ("float32", "float64", "complex64", "complex128"),
                  "float32": ("float64", "complex64", "complex128"),
                  "float64": ("complex128",), "complex64": ("complex128",)}


def join(a: str, b: str) -> str:
    """The least node above both `a` and `b` in the lattice."""
    common = _UPPER[a] & _UPPER[b]
    return next(n for n in common if common <= _UPPER[n])


def _fits(value: tuple, result: tuple) -> bool:
    """Whether every value of (dtype name, weak) `value` is exactly one of `result`."""
    name, weak = value
    target = result[0]
    if weak or name == "bool" or name == target:
        return True
    if name in _INTEGER_BITS:
        if target in _INTEGER_BITS:
            return target.startswith("int") or name.startswith("uint") and \
                _INTEGER_BITS[name] <= _INTEGER_BITS[target]
        return _INTEGER_BITS[name] <= _SIGNIFICAND_BITS[target]
    return target in _WIDER_INEXACT.get(name, ())


def result_type(a: tuple, b: tuple) -> tuple:
    """The (dtype name, weak) of a binary op on operands (dtype name, weak) in "all" mode."""
    node_a = a[0] if not a[1] else _weak_node(a[0])
    node_b = b[0] if not b[1] else _weak_node(b[0])
    node = join(node_a, node_b)
    if node not in _WEAK_DTYPE:
        return node, False
    if node == "f*" and any(n in _INTEGER_BITS for n in (node_a, node_b)):
        return "float64", True  # a strong integer widened to a weak float keeps its digits
    weak = a if node_a == node else b if node_b == node else None
    return (weak[0] if weak else _WEAK_DTYPE[node]), True


_PYTHON_TYPES = {int: "int32", float: "float32", complex: "complex128"}


def python_type(value):
    """(dtype name, True) for Python data with a weak type: a number (not a bool) or a
    nested list or tuple of them (the widest kind among them: int32, float32 or
    complex128); None for anything else."""
    kind = type(value)
    if kind in _PYTHON_TYPES:
        return _PYTHON_TYPES[kind], True
    if kind not in (list, tuple) or not value:
        return None
    names = [python_type(v) for v in value]
    if None in names:
        return None
    order = list(_PYTHON_TYPES.values())
    return max((n for n, _ in names), key=order.index), True


def _weak_node(name: str) -> str:
    kind = "f" if name == "bfloat16" else np.dtype(name).kind
    return {"i": "i*", "u": "i*", "b": "i*", "f": "f*", "c": "c*"}[kind]


def is_safe(a: tuple, b: tuple, result: tuple) -> bool:
    """Whether "safe" mode allows promoting (dtype, weak) `a` and `b` to `result`: the
    result is one of the operands' dtypes, and the other converts to it exactly."""
    if result[0] not in (a[0], b[0]):
        return False
    return _fits(a, result) and _fits(b, result)
