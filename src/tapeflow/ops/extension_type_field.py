"""The fields of extension types: what their annotations may be, how a value is converted
to a field's type (`_convert`), a field value's spec (`spec_of`), and the walks over field
specs that list, and rebuild from, the tensors a field holds (its components)."""
from __future__ import annotations

import collections.abc
import inspect
import typing

from ..framework import dtypes
from ..framework.composite_tensor import CompositeTensor
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_spec import TensorSpec, TypeSpec

__all__ = ["ImmutableDict", "NO_DEFAULT", "type_hints", "check_annotation", "convert",
           "spec_of", "components", "component_specs", "from_components", "hashable",
           "map_field_spec"]

NO_DEFAULT = inspect.Parameter.empty
_PYTHON_TYPES = (int, float, str, bool, bytes)


class ImmutableDict(collections.abc.Mapping):
    """The read-only mapping a `typing.Mapping` field holds.

    Example:
        >>> from tapeflow.ops.extension_type import ImmutableDict
        >>> ImmutableDict({"a": 1})
        ImmutableDict({'a': 1})
    """

    __slots__ = ("_dict",)

    def __init__(self, *args, **kwargs) -> None:
        object.__setattr__(self, "_dict", dict(*args, **kwargs))

    def __getitem__(self, key):
        return self._dict[key]

    def __iter__(self):
        return iter(self._dict)

    def __len__(self) -> int:
        return len(self._dict)

    def __setattr__(self, name, value):
        raise AttributeError("ImmutableDict is immutable")

    def __repr__(self) -> str:
        return f"ImmutableDict({self._dict!r})"


# ---------------------------------------------------------------- field annotations


def type_hints(cls, frame) -> dict:
    """The class's annotations evaluated (string ones, under `from __future__ import
    annotations`, in its module, else in the scope that defines the class)."""
    try:
        return typing.get_type_hints(cls)
    except NameError:
        return typing.get_type_hints(cls, globalns=frame.f_globals, localns=frame.f_locals)


def check_annotation(annotation, field: str) -> None:
    """Raises TypeError naming `field` for an annotation extension types do not support."""
    origin = typing.get_origin(annotation)
    if origin is typing.Union or origin in (tuple, collections.abc.Mapping):
        for arg in typing.get_args(annotation):
            if arg is not Ellipsis:
                check_annotation(arg, field)
        return
    if annotation is None or annotation is type(None) or annotation in _PYTHON_TYPES or \
            annotation in (TensorShape, dtypes.DType, typing.Any) or \
            (isinstance(annotation, type) and
             issubclass(annotation, (Tensor, CompositeTensor))):
        return
    name = getattr(annotation, "__name__", None) or repr(annotation)
    raise TypeError(f"In field {field!r}: Unsupported type annotation {name!r}")


def _type_name(annotation) -> str:
    return getattr(annotation, "__name__", None) or repr(annotation)


def convert(value, annotation, field: str, for_spec: bool = False):
    """`value` made a value of field type `annotation` (lists become tensors and tuples,
    shapes TensorShapes, dtypes DTypes); for a Spec, tensor fields take TensorSpecs.

    Raises:
        TypeError: `value` cannot be a value of that type (the message names `field`).
    """
    origin = typing.get_origin(annotation)
    if annotation is typing.Any:
        return value
    if origin is typing.Union:
        args = typing.get_args(annotation)
        for arg in args:
            try:
                return convert(value, arg, field, for_spec)
            except (TypeError, ValueError):
                continue
        raise TypeError(f"{field}: expected {' or '.join(_type_name(a) for a in args)}, "
                        f"got {type(value).__name__!r}")
    if origin is tuple:
        if not isinstance(value, (tuple, list)):
            raise TypeError(f"{field}: expected 'tuple', got {type(value).__name__!r}")
        args = typing.get_args(annotation)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(convert(v, args[0], f"{field}[{i}]", for_spec)
                         for i, v in enumerate(value))
        if args == ((),):
            args = ()
        if len(args) != len(value):
            raise TypeError(f"{field}: expected a tuple of length {len(args)}, got "
                            f"{len(value)}")
        return tuple(convert(v, a, f"{field}[{i}]", for_spec)
                     for i, (v, a) in enumerate(zip(value, args)))
    if origin is collections.abc.Mapping:
        if not isinstance(value, collections.abc.Mapping):
            raise TypeError(f"{field}: expected 'Mapping', got {type(value).__name__!r}")
        key_type, value_type = typing.get_args(annotation)
        items = {convert(k, key_type, f"{field}[<key>]", for_spec):
                 convert(v, value_type, f"{field}[{k!r}]", for_spec)
                 for k, v in value.items()}
        return dict(items) if for_spec else ImmutableDict(items)
    if annotation is None or annotation is type(None):
        if value is not None:
            raise TypeError(f"{field}: expected None, got {type(value).__name__!r}")
        return None
    if isinstance(annotation, type) and issubclass(annotation, Tensor):
        if for_spec:
            if not isinstance(value, TensorSpec):
                raise TypeError(f"{field}: expected a TensorSpec, got "
                                f"{type(value).__name__!r}")
            return value
        if isinstance(value, CompositeTensor):
            raise TypeError(f"{field}: expected a Tensor, got {type(value).__name__!r}")
        try:
            return convert_to_tensor(value)
        except (TypeError, ValueError) as e:
            raise TypeError(f"{field}: expected a Tensor, got {type(value).__name__!r}: "
                            f"{e}") from None
    if isinstance(annotation, type) and issubclass(annotation, CompositeTensor):
        if for_spec:
            if not isinstance(value, TypeSpec) or \
                    not issubclass(value.value_type, annotation):
                raise TypeError(f"{field}: expected a TypeSpec of {annotation.__name__}, "
                                f"got {type(value).__name__!r}")
            return value
        if not isinstance(value, annotation):
            raise TypeError(f"{field}: expected {annotation.__name__!r}, got "
                            f"{type(value).__name__!r}")
        return value
    if annotation is TensorShape:
        try:
            return TensorShape(value)
        except (TypeError, ValueError):
            raise TypeError(f"{field}: expected 'TensorShape', got "
                            f"{type(value).__name__!r}") from None
    if annotation is dtypes.DType:
        try:
            return dtypes.as_dtype(value)
        except (TypeError, ValueError):
            raise TypeError(f"{field}: expected 'DType', got {type(value).__name__!r}") \
                from None
    if annotation is int and isinstance(value, bool):
        raise TypeError(f"{field}: expected 'int', got 'bool'")
    if isinstance(annotation, type) and isinstance(value, annotation):
        return value
    raise TypeError(f"{field}: expected {_type_name(annotation)!r}, got "
                    f"{type(value).__name__!r}")


def spec_of(value):
    """A field value's spec: TensorSpec for a tensor, a composite's TypeSpec, tuples and
    dicts of those, the value itself for a Python value."""
    if isinstance(value, Tensor):
        return TensorSpec(value.shape, value.dtype)
    if isinstance(value, CompositeTensor):
        return value._type_spec
    if isinstance(value, tuple):
        return tuple(spec_of(v) for v in value)
    if isinstance(value, ImmutableDict):
        return {k: spec_of(v) for k, v in value.items()}
    return value


def components(value, spec, out: list) -> list:
    """Appends the tensors of field `value` (of field spec `spec`) to `out`."""
    if isinstance(spec, TensorSpec):
        out.append(value)
    elif isinstance(spec, TypeSpec) and spec._is_composite():
        out.extend(spec._to_components(value))
    elif isinstance(spec, tuple):
        for v, s in zip(value, spec):
            components(v, s, out)
    elif isinstance(spec, dict):
        for k in sorted(spec):
            components(value[k], spec[k], out)
    return out


def component_specs(spec, out: list) -> list:
    if isinstance(spec, TensorSpec):
        out.append(spec)
    elif isinstance(spec, TypeSpec) and spec._is_composite():
        out.extend(spec._component_specs)
    elif isinstance(spec, tuple):
        for s in spec:
            component_specs(s, out)
    elif isinstance(spec, dict):
        for k in sorted(spec):
            component_specs(spec[k], out)
    return out


def from_components(spec, parts):
    """The field value of field spec `spec`, taking its tensors from iterator
    `parts`."""
    if isinstance(spec, TensorSpec):
        return next(parts)
    if isinstance(spec, TypeSpec) and spec._is_composite():
        return spec._from_components([next(parts) for _ in spec._component_specs])
    if isinstance(spec, tuple):
        return tuple(from_components(s, parts) for s in spec)
    if isinstance(spec, dict):
        values = {k: from_components(spec[k], parts) for k in sorted(spec)}
        return ImmutableDict((k, values[k]) for k in spec)
    return spec


def hashable(spec):
    if isinstance(spec, dict):
        return (dict, tuple((k, hashable(spec[k])) for k in sorted(spec)))
    if isinstance(spec, tuple):
        return tuple(hashable(s) for s in spec)
    return spec


def map_field_spec(spec, fn):
    """`spec` with `fn` applied to each TensorSpec and composite spec in it."""
    if isinstance(spec, TypeSpec):
        return fn(spec)
    if isinstance(spec, tuple):
        return tuple(map_field_spec(s, fn) for s in spec)
    if isinstance(spec, dict):
        return {k: map_field_spec(s, fn) for k, s in spec.items()}
    return spec
