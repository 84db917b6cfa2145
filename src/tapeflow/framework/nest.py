"""Flattening and re-packing of nested structures (lists, tuples, namedtuples, dicts)."""
from __future__ import annotations


def _is_sequence(x) -> bool:
    return isinstance(x, (list, tuple, dict))


def _is_flat(structure) -> bool:
    """A plain list or tuple of leaves (the common case, handled without recursion)."""
    if type(structure) is not list and type(structure) is not tuple:
        return False
    for item in structure:
        if isinstance(item, (list, tuple, dict)):
            return False
    return True


def flatten(structure) -> list:
    """The leaves of `structure` in order (dicts by sorted key); a leaf flattens to [leaf]."""
    if _is_flat(structure):
        return list(structure)
    if isinstance(structure, dict):
        return [leaf for k in sorted(structure) for leaf in flatten(structure[k])]
    if isinstance(structure, (list, tuple)):
        return [leaf for item in structure for leaf in flatten(item)]
    return [structure]


def pack_sequence_as(structure, flat: list):
    """Rebuilds `structure` with the leaves taken in order from `flat`."""
    if _is_flat(structure):
        return type(structure)(flat)
    return _build(structure, iter(flat))


# A module-level function, not a closure: a nested recursive one would be a reference cycle
# keeping `flat` (gradients, often large) alive until the garbage collector runs.
def _build(s, leaves):
    if isinstance(s, dict):
        built = {k: _build(s[k], leaves) for k in sorted(s)}
        return type(s)((k, built[k]) for k in s)
    if isinstance(s, (list, tuple)):
        items = [_build(item, leaves) for item in s]
        if isinstance(s, tuple) and hasattr(s, "_fields"):
            return type(s)(*items)
        return type(s)(items)
    return next(leaves)


def map_structure(fn, structure):
    return pack_sequence_as(structure, [fn(x) for x in flatten(structure)])
