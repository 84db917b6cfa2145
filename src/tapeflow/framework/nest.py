"""Nested structures: flattening, re-packing, mapping and comparing them (`tf.nest`).

A structure is nested when it is a Mapping (dict, OrderedDict, defaultdict; flattened in
sorted key order, rebuilt in its own key order), a mapping view, an attrs class, a
`wrapt.ObjectProxy` of one of these, or a Sequence other than str and bytes (list, tuple,
namedtuple, deque, range). Everything else, sets and None included, is a leaf. With
`expand_composites=True` a CompositeTensor (SparseTensor) and a composite TypeSpec are
nested too: they stand for their component tensors (specs).

Every structure's kind is decided once per type and cached, so flattening a list of
tensors costs a dict look-up per item.
"""
from __future__ import annotations

import collections
import collections.abc
import sys

import numpy as np

from .composite_tensor import CompositeTensor, TypeSpec as CompositeSpec

__all__ = ["assert_same_structure", "flatten", "is_nested", "map_structure",
           "pack_sequence_as"]

# The kinds of structure; LEAF is 0 so that `if kind:` reads "nested".
LEAF, SEQUENCE, NAMEDTUPLE, MAPPING, VIEW, ATTRS, PROXY, COMPOSITE = range(8)

_KINDS: dict = {int: LEAF, float: LEAF, bool: LEAF, complex: LEAF, str: LEAF, bytes: LEAF,
                type(None): LEAF, np.ndarray: LEAF, list: SEQUENCE, tuple: SEQUENCE,
                dict: MAPPING}


def _classify(t: type) -> int:
    if issubclass(t, (str, bytes)):
        return LEAF
    wrapt = sys.modules.get("wrapt")
    if wrapt is not None and issubclass(t, wrapt.ObjectProxy):
        return PROXY
    if issubclass(t, collections.abc.Mapping):
        return MAPPING
    if issubclass(t, collections.abc.MappingView):
        return VIEW
    if getattr(t, "__attrs_attrs__", None) is not None:
        return ATTRS
    if issubclass(t, CompositeTensor) or issubclass(t, CompositeSpec) and t._is_composite():
        return COMPOSITE
    if issubclass(t, tuple) and _is_namedtuple_type(t):
        return NAMEDTUPLE
    if issubclass(t, collections.abc.Sequence):
        return SEQUENCE
    return LEAF


def _is_namedtuple_type(t: type) -> bool:
    fields = getattr(t, "_fields", None)
    return isinstance(fields, collections.abc.Sequence) and \
        all(isinstance(f, str) for f in fields)


def _kind(x, expand_composites: bool) -> int:
    """The kind of `x` (a proxy counts as what it wraps; a composite as a leaf unless
    expanded)."""
    t = type(x)
    kind = _KINDS.get(t)
    if kind is None:
        kind = _KINDS[t] = _classify(t)
    if kind == PROXY:
        return _kind(x.__wrapped__, expand_composites)
    if kind == COMPOSITE and not expand_composites:
        return LEAF
    return kind


def _sorted_keys(mapping) -> list:
    try:
        return sorted(mapping)
    except TypeError as e:
        raise TypeError(f"nest only supports dicts with sortable keys: {e}") from None


def _components(x) -> list:
    """The component tensors of a composite, or the component specs of a composite spec."""
    if isinstance(x, CompositeSpec):
        return list(x._component_specs)
    return list(x._type_spec._to_components(x))


def _children(x, kind: int):
    """The immediate substructures of a nested `x`, in flattening order."""
    if kind == SEQUENCE or kind == NAMEDTUPLE:
        return x
    if kind == MAPPING:
        return [x[k] for k in _sorted_keys(x)]
    if kind == ATTRS:
        return [getattr(x, a.name) for a in x.__attrs_attrs__]
    if kind == VIEW:
        return list(x)
    return _components(x)


def _rebuild(x, kind: int, items: list):
    """A structure like `x` holding `items` as its immediate substructures."""
    t = type(x)
    if _KINDS.get(t) == PROXY:
        return t(_rebuild(x.__wrapped__, kind, items))
    if kind == SEQUENCE:
        if t is list or t is tuple:
            return t(items)
        return list(items) if t is range else t(items)
    if kind == NAMEDTUPLE or kind == ATTRS:
        return t(*items)
    if kind == MAPPING:
        by_key = dict(zip(_sorted_keys(x), items))
        if t is collections.defaultdict:
            result = collections.defaultdict(x.default_factory)
            for k in x:
                result[k] = by_key[k]
            return result
        return t((k, by_key[k]) for k in x)
    if kind == VIEW:
        return list(items)
    spec = x if isinstance(x, CompositeSpec) else x._type_spec    # a composite
    return spec._from_components(items)


def is_nested(seq) -> bool:
    """Whether `seq` is a nested structure rather than a leaf.

    Args:
        seq: any value.

    Returns:
        True for Mappings, mapping views, attrs classes, Sequences other than str and bytes
        (and proxies of these); False otherwise, also for sets, tensors and composites.

    Example:
        >>> import tapeflow as tf
        >>> tf.nest.is_nested([1, 2]), tf.nest.is_nested("ab"), tf.nest.is_nested({1})
        (True, False, False)
    """
    return _kind(seq, False) != LEAF


def flatten(structure, expand_composites: bool = False) -> list:
    """The leaves of `structure`, in order; dicts give their values in sorted key order.

    Args:
        structure: a nested structure, or a leaf (which flattens to `[structure]`).
        expand_composites: whether a composite tensor (spec) stands for its components.

    Returns:
        A list of the leaves.

    Raises:
        TypeError: a dict whose keys cannot be sorted.

    Example:
        >>> import tapeflow as tf
        >>> tf.nest.flatten({"b": [1, 2], "a": (3, None)})
        [3, None, 1, 2]
    """
    t = type(structure)
    if t is list or t is tuple:
        kinds = _KINDS
        for item in structure:
            if kinds.get(type(item), 1):    # unseen types take the general path
                break
        else:
            return list(structure)
    leaves: list = []
    _flatten_into(structure, leaves, expand_composites)
    return leaves


def _flatten_into(x, leaves: list, expand: bool) -> None:
    t = type(x)
    kind = _KINDS.get(t)
    if kind == LEAF:
        leaves.append(x)
        return
    if t is list or t is tuple:
        for item in x:
            _flatten_into(item, leaves, expand)
        return
    kind = _kind(x, expand)
    if not kind:
        leaves.append(x)
        return
    for item in _children(x, kind):
        _flatten_into(item, leaves, expand)


def pack_sequence_as(structure, flat_sequence, expand_composites: bool = False):
    """Rebuilds `structure` with its leaves taken, in order, from `flat_sequence`.

    Args:
        structure: the nested structure (or leaf) to copy the shape of.
        flat_sequence: a flat sequence (list, tuple) of as many items as it has leaves.
        expand_composites: whether a composite tensor (spec) stands for its components.

    Returns:
        A structure like `structure`: namedtuples, attrs classes and dicts (in their key
        order) are rebuilt as their own types.

    Raises:
        TypeError: `flat_sequence` is not a sequence; a dict with unsortable keys.
        ValueError: `flat_sequence` has the wrong number of items.

    Example:
        >>> import tapeflow as tf
        >>> tf.nest.pack_sequence_as({"b": [0, 0], "a": 0}, [1, 2, 3])
        {'b': [2, 3], 'a': 1}
    """
    if not is_nested(flat_sequence):
        raise TypeError(f"Attempted to pack value:\n  {flat_sequence}\ninto a structure, but "
                        f"found incompatible type `{type(flat_sequence)}` instead.")
    t = type(structure)
    if t is list or t is tuple:
        kinds = _KINDS
        for item in structure:
            if kinds.get(type(item), 1):
                break
        else:
            if len(flat_sequence) == len(structure):
                return t(flat_sequence)
    if not _kind(structure, expand_composites):
        if len(flat_sequence) != 1:
            raise ValueError(
                f"The target structure is of type `{t}`\n  {structure}\nHowever the input is "
                f"a sequence ({type(flat_sequence)}) of length {len(flat_sequence)}.\n  "
                f"{flat_sequence}\nnest cannot guarantee that it is safe to map one to the "
                "other.")
        return flat_sequence[0]
    leaves = iter(flat_sequence)
    try:
        packed = _build(structure, leaves, expand_composites)
        exhausted = next(leaves, _END) is _END
    except StopIteration:
        exhausted = False
    if not exhausted:
        raise ValueError(
            f"Could not pack sequence. Structure had {len(flatten(structure, expand_composites))}"
            f" atoms, but flat_sequence had {len(flat_sequence)} items.  Structure: "
            f"{structure}, flat_sequence: {flat_sequence}.")
    return packed


_END = object()


# A module-level function, not a closure: a nested recursive one would be a reference cycle
# keeping `leaves` (gradients, often large) alive until the garbage collector runs.
def _build(s, leaves, expand: bool):
    t = type(s)
    kind = _KINDS.get(t)
    if kind == LEAF:
        return next(leaves)
    if t is list or t is tuple:     # the common containers, without the general dispatch
        return t([_build(item, leaves, expand) for item in s])
    if t is dict:
        built = {k: _build(s[k], leaves, expand) for k in _sorted_keys(s)}
        return {k: built[k] for k in s}
    kind = _kind(s, expand)
    if not kind:
        return next(leaves)
    return _rebuild(s, kind, [_build(item, leaves, expand) for item in _children(s, kind)])


def map_structure(func, *structure, **kwargs):
    """Applies `func` to the leaves of one or more structures of the same shape.

    Args:
        func: a callable taking one argument per structure.
        *structure: structures with the same nesting (checked as `assert_same_structure`).
        check_types: (keyword) whether the structures' sequence types must match too.
        expand_composites: (keyword) whether composites stand for their components.

    Returns:
        A structure like the first one holding `func(*leaves)` for each position.

    Raises:
        TypeError: `func` is not callable; sequence types differ (with check_types).
        ValueError: no structure, an unknown keyword, or nestings that differ.

    Example:
        >>> import tapeflow as tf
        >>> tf.nest.map_structure(lambda a, b: a + b, {"x": [1, 2]}, {"x": [10, 20]})
        {'x': [11, 22]}
    """
    if not callable(func):
        raise TypeError(f"func must be callable, got: {func}")
    if not structure:
        raise ValueError("Must provide at least one structure")
    check_types = kwargs.pop("check_types", True)
    expand = kwargs.pop("expand_composites", False)
    if kwargs:
        raise ValueError("Only valid keyword arguments are `check_types` and "
                         f"`expand_composites`, not: `{'`, `'.join(kwargs)}`")
    first = structure[0]
    if len(structure) == 1:
        return pack_sequence_as(first, [func(x) for x in flatten(first, expand)], expand)
    for other in structure[1:]:
        assert_same_structure(first, other, check_types, expand)
    flats = [flatten(s, expand) for s in structure]
    return pack_sequence_as(first, [func(*xs) for xs in zip(*flats)], expand)


def assert_same_structure(nest1, nest2, check_types: bool = True,
                          expand_composites: bool = False) -> None:
    """Checks that two structures nest the same way.

    Args:
        nest1, nest2: the structures.
        check_types: whether sequence types must match too (namedtuples by name and
            fields; any two Mappings match, and must then have the same keys).
        expand_composites: whether composites stand for their components (their type
            specs must then agree).

    Raises:
        ValueError: the nestings or numbers of elements differ, or dict keys do.
        TypeError: sequence types differ (with check_types).

    Example:
        >>> import tapeflow as tf
        >>> try:
        ...     tf.nest.assert_same_structure([1, (2, 3)], [1, 2])
        ... except ValueError as e:
        ...     print(str(e).splitlines()[0])
        The two structures don't have the same nested structure.
    """
    problem = _difference(nest1, nest2, check_types, expand_composites)
    if problem is None:
        return
    error, detail = problem
    raise error(
        "The two structures don't have the same nested structure.\n\n"
        f"First structure: {_describe(nest1)}\n\nSecond structure: {_describe(nest2)}\n\n"
        f"More specifically: {detail}\nEntire first structure:\n{_outline(nest1)}\n"
        f"Entire second structure:\n{_outline(nest2)}")


def _difference(a, b, check_types: bool, expand: bool):
    """(exception class, what differs) for the first place `a` and `b` differ, or None."""
    kind_a, kind_b = _kind(a, expand), _kind(b, expand)
    if bool(kind_a) != bool(kind_b):
        nested, leaf = (a, b) if kind_a else (b, a)
        return ValueError, (f'Substructure "{_describe(nested)}" is a sequence, while '
                            f'substructure "{_describe(leaf)}" is not')
    if not kind_a:
        return None
    if kind_a == COMPOSITE or kind_b == COMPOSITE:
        spec_a, spec_b = _spec(a), _spec(b)
        if not _compatible_specs(spec_a, spec_b):
            return ValueError, ("Incompatible CompositeTensor TypeSpecs: "
                                f"{_describe(spec_a)} vs. {_describe(spec_b)}")
    if check_types:
        type_a, type_b = _unwrapped_type(a), _unwrapped_type(b)
        if type_a is not type_b and not (kind_a == kind_b == MAPPING) and not (
                kind_a == kind_b == NAMEDTUPLE and type_a.__name__ == type_b.__name__
                and type_a._fields == type_b._fields):
            return TypeError, (
                "The two namedtuples don't have the same sequence type. First structure "
                f"{_describe(a)} has type {type_a.__name__}, while second structure "
                f"{_describe(b)} has type {type_b.__name__}")
        if kind_a == MAPPING and set(a) != set(b):
            return ValueError, (
                "The two dictionaries don't have the same set of keys. First structure has "
                f"keys {_describe(list(a))}, while second structure has keys "
                f"{_describe(list(b))}")
    children_a, children_b = _children(a, kind_a), _children(b, kind_b)
    if len(children_a) != len(children_b):
        return ValueError, ("The two structures don't have the same number of elements. "
                            f"First structure: {_describe(a)}. Second structure: "
                            f"{_describe(b)}")
    for x, y in zip(children_a, children_b):
        problem = _difference(x, y, check_types, expand)
        if problem is not None:
            return problem
    return None


def _spec(x):
    return x if not isinstance(x, CompositeTensor) else x._type_spec


def _compatible_specs(a, b) -> bool:
    """Composite specs of one type and dtype whose shapes have the same rank."""
    return type(a) is type(b) and getattr(a, "dtype", None) == getattr(b, "dtype", None) \
        and a.shape.rank == b.shape.rank


def _unwrapped_type(x) -> type:
    while _KINDS.get(type(x)) == PROXY:
        x = x.__wrapped__
    return type(x)


def _describe(x) -> str:
    return f"type={type(x).__name__} str={x}"


class _Dot:
    """A leaf shown as '.' in an outline of a structure."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "."


_DOT = _Dot()


def _outline(structure) -> str:
    return str(map_structure(lambda _: _DOT, structure))
