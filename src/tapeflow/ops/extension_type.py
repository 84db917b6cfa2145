"""Extension types: user classes whose fields, declared by annotations, hold tensors,
composites and Python values (`tf.experimental.ExtensionType`).

A subclass gets a constructor that converts and checks each field, immutability, `__repr__`
and `__eq__`, and a nested `Spec` class: its TypeSpec, an `ExtensionTypeSpec` holding each
field's spec (TensorSpec for a tensor, a composite's TypeSpec, the value itself for a Python
field). The spec is a composite spec (the one TypeSpec mechanism of
`framework/tensor_spec.py`): its components are the fields' tensors, so an extension type
passes through tf.function (traced by spec), nest (`expand_composites=True`) and tf.data
(a `BatchableExtensionType` batches field by field) as RaggedTensors do.
"""
from __future__ import annotations

import inspect
import sys

from ..framework.composite_tensor import CompositeTensor
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_spec import TensorSpec, TypeSpec
from .extension_type_field import (NO_DEFAULT, ImmutableDict, check_annotation,
                                   component_specs, components, convert, from_components,
                                   hashable, map_field_spec, spec_of, type_hints)

__all__ = ["ExtensionType", "BatchableExtensionType", "ExtensionTypeSpec",
           "BatchableExtensionTypeSpec", "ExtensionTypeBatchEncoder", "ImmutableDict"]

_OPEN = object()  # in a spec's fields while a user's Spec constructor sets them


# ---------------------------------------------------------------- values


class ExtensionType(CompositeTensor):
    """The base of user types made of tensors and Python values, declared as annotated
    fields; instances are immutable and pass through tf.function, nest and tf.cond.

    Supported annotations: `tf.Tensor`, composite types (RaggedTensor, SparseTensor,
    other extension types), `tf.TensorShape`, `tf.DType`, int, float, str, bool, None, and
    `typing.Union`, `Optional`, `Tuple` and `Mapping` of those (as in TF, not TypeSpecs).
    A class attribute gives a field's default. `__validate__`, when defined, runs after
    the constructor.

    Example:
        >>> import tapeflow as tf
        >>> class MaskedTensor(tf.experimental.ExtensionType):
        ...     values: tf.Tensor
        ...     mask: tf.Tensor
        >>> mt = MaskedTensor([1, 2], [True, False])
        >>> mt.values.numpy()
        array([1, 2], dtype=int32)
        >>> mt._type_spec
        MaskedTensor.Spec(values=TensorSpec(shape=(2,), dtype=tf.int32, name=None), mask=TensorSpec(shape=(2,), dtype=tf.bool, name=None))
    """

    __slots__ = ("__dict__",)
    _tf_fields: dict = {}
    _tf_spec_bases: tuple = ()  # set below: (ExtensionTypeSpec,)

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get("_tf_abstract", False):
            return
        annotations = {}
        for klass in reversed(cls.__mro__):
            annotations.update({k: v for k, v in klass.__dict__.get(
                "__annotations__", {}).items() if not k.startswith("_")})
        hints = type_hints(cls, sys._getframe(1)) if annotations else {}
        fields = {}
        for name in annotations:
            annotation = hints.get(name, annotations[name])
            check_annotation(annotation, name)
            default = getattr(cls, name, NO_DEFAULT)
            if default is not NO_DEFAULT and name in cls.__dict__:
                default = convert(default, annotation, name)
            fields[name] = (annotation, default)
        for name in fields:   # defaults live in the constructor, not on the class
            if name in cls.__dict__:
                delattr(cls, name)
        cls._tf_fields = fields
        params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)] + [
            inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=d)
            for name, (_, d) in fields.items()]
        cls._tf_signature = inspect.Signature(params)
        user_init = cls.__dict__.get("__init__")
        if user_init is None:
            def __init__(self, *args, **kwargs):
                bound = type(self)._tf_signature.bind(self, *args, **kwargs)
                bound.apply_defaults()
                for name, value in list(bound.arguments.items())[1:]:
                    object.__setattr__(self, name, value)
                self._tf_finish_init()
            __init__.__signature__ = cls._tf_signature
            __init__.__qualname__ = f"{cls.__qualname__}.__init__"
            cls.__init__ = __init__
        else:
            def __init__(self, *args, **kwargs):
                object.__setattr__(self, "_tf_in_init", True)
                try:
                    user_init(self, *args, **kwargs)
                finally:
                    object.__delattr__(self, "_tf_in_init")
                missing = [n for n in type(self)._tf_fields if n not in self.__dict__]
                for name in missing:
                    default = type(self)._tf_fields[name][1]
                    if default is NO_DEFAULT:
                        raise ValueError(f"Custom __init__ for {type(self).__qualname__} "
                                         f"failed to set field {name!r}.")
                    object.__setattr__(self, name, default)
                self._tf_finish_init()
            __init__.__wrapped__ = user_init
            cls.__init__ = __init__
        user_spec = cls.__dict__.get("Spec")
        bases = cls._tf_spec_bases
        namespace = {"__qualname__": f"{cls.__qualname__}.Spec",
                     "__module__": cls.__module__, "_value_class": cls}
        if user_spec is not None:
            namespace.update({k: v for k, v in user_spec.__dict__.items()
                              if not k.startswith("__")})
        if user_spec is not None and "__init__" in user_spec.__dict__:
            user_spec_init = user_spec.__dict__["__init__"]

            def spec_init(self, *args, **kwargs):
                object.__setattr__(self, "_fields", {_OPEN: True})
                user_spec_init(self, *args, **kwargs)
                given = object.__getattribute__(self, "_fields")
                given.pop(_OPEN)
                fields = self._value_class._tf_fields
                for name, (_, default) in fields.items():
                    if name not in given and default is NO_DEFAULT:
                        raise ValueError(f"Custom __init__ for {type(self).__qualname__} "
                                         f"failed to set field {name!r}.")
                self._set_fields([(n, given.get(n, fields[n][1])) for n in fields])
            namespace["__init__"] = spec_init
        cls.Spec = type(f"{cls.__name__}.Spec", bases, namespace)

    def _tf_finish_init(self) -> None:
        for name, (annotation, _) in type(self)._tf_fields.items():
            object.__setattr__(self, name, convert(self.__dict__[name], annotation, name))
        validate = getattr(self, "__validate__", None)
        if validate is not None:
            object.__setattr__(self, "_tf_in_init", True)
            try:
                validate()
            finally:
                object.__delattr__(self, "_tf_in_init")

    def __setattr__(self, name, value) -> None:
        if self.__dict__.get("_tf_in_init"):
            object.__setattr__(self, name, value)
            return
        raise AttributeError(f"Cannot mutate attribute `{name}` outside the custom "
                             "constructor of ExtensionType.")

    def __delattr__(self, name) -> None:
        if self.__dict__.get("_tf_in_init"):
            object.__delattr__(self, name)
            return
        raise AttributeError(f"Cannot mutate attribute `{name}` outside the custom "
                             "constructor of ExtensionType.")

    @property
    def _type_spec(self) -> "ExtensionTypeSpec":
        spec = type(self).Spec.__new__(type(self).Spec)
        object.__setattr__(spec, "_fields", {
            name: spec_of(self.__dict__[name]) for name in type(self)._tf_fields})
        return spec

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={self.__dict__[name]!r}" for name in type(self)._tf_fields)
        return f"{type(self).__qualname__}({fields})"

    def __eq__(self, other):
        """A boolean scalar tensor: whether every tensor of `other` equals this one's;
        Python False when `other` is of another type or spec."""
        if type(other) is not type(self) or self._type_spec != other._type_spec:
            return False
        from . import comparison_ops, reduction_ops
        result = convert_to_tensor(True)
        spec = self._type_spec
        for a, b in zip(spec._to_components(self), spec._to_components(other)):
            if isinstance(a, Tensor):
                result = comparison_ops.logical_and(result, reduction_ops.reduce_all(
                    comparison_ops.equal(a, b)))
        return result

    def __ne__(self, other):
        result = self.__eq__(other)
        if isinstance(result, bool):
            return not result
        from . import comparison_ops
        return comparison_ops.logical_not(result)

    __hash__ = None


class BatchableExtensionType(ExtensionType):
    """An ExtensionType whose values batch and unbatch field by field: tf.data's `batch`,
    `unbatch` and `from_tensor_slices` take them (every tensor field gains or loses a
    leading dimension).

    Example:
        >>> import tapeflow as tf
        >>> class Pair(tf.experimental.BatchableExtensionType):
        ...     a: tf.Tensor
        ...     b: tf.Tensor
        >>> ds = tf.data.Dataset.from_tensor_slices(Pair([1, 2], [3, 4]))
        >>> [int(p.b) for p in ds]
        [3, 4]
    """

    __slots__ = ()
    _tf_abstract = True


ExtensionType._tf_abstract = True


# ---------------------------------------------------------------- specs


class ExtensionTypeSpec(TypeSpec):
    """The TypeSpec of an ExtensionType: each field's spec (a TensorSpec for a tensor, a
    composite's TypeSpec, the value of a Python field). `MyType.Spec(field=spec, ...)`
    builds one.

    Example:
        >>> import tapeflow as tf
        >>> class MaskedTensor(tf.experimental.ExtensionType):
        ...     values: tf.Tensor
        ...     mask: tf.Tensor
        >>> spec = MaskedTensor.Spec(values=tf.TensorSpec([None], tf.float32),
        ...                          mask=tf.TensorSpec([None], tf.bool))
        >>> spec.values
        TensorSpec(shape=(None,), dtype=tf.float32, name=None)
    """

    __slots__ = ("_fields",)
    _value_class = None

    def __init__(self, *args, **kwargs) -> None:
        cls = self._value_class
        if cls is None:
            raise TypeError("ExtensionTypeSpec is abstract: use an ExtensionType's Spec.")
        bound = cls._tf_signature.bind(None, *args, **kwargs)
        bound.apply_defaults()
        self._set_fields(list(bound.arguments.items())[1:])

    def _set_fields(self, items) -> None:
        cls = self._value_class
        fields = {}
        for name, value in items:
            annotation, default = cls._tf_fields[name]
            if value is default and default is not NO_DEFAULT:
                fields[name] = spec_of(default)
            else:
                fields[name] = convert(value, annotation, name, for_spec=True)
        object.__setattr__(self, "_fields", fields)

    def __getattr__(self, name):
        try:
            return object.__getattribute__(self, "_fields")[name]
        except (KeyError, AttributeError):
            raise AttributeError(f"{type(self).__qualname__!r} object has no attribute "
                                 f"{name!r}") from None

    def __setattr__(self, name, value) -> None:
        fields = object.__getattribute__(self, "_fields")
        if _OPEN in fields:  # a user's Spec constructor sets the fields
            fields[name] = value
            return
        raise AttributeError(f"Cannot mutate attribute `{name}` outside the custom "
                             "constructor of ExtensionTypeSpec.")

    def __reduce__(self):
        return (_rebuild_spec, (self._value_class, self._fields))

    @property
    def value_type(self) -> type:
        return self._value_class

    def _serialize(self) -> tuple:
        return tuple((k, hashable(v)) for k, v in self._fields.items())

    def _with_fields(self, fields: dict) -> "ExtensionTypeSpec":
        return _rebuild_spec(self._value_class, fields)

    @property
    def _component_specs(self) -> list:
        out: list = []
        for spec in self._fields.values():
            component_specs(spec, out)
        return out

    def _to_components(self, value) -> list:
        out: list = []
        for name, spec in self._fields.items():
            components(value.__dict__[name], spec, out)
        return out

    def _from_components(self, parts):
        it = iter(parts)
        value = object.__new__(self._value_class)
        for name, spec in self._fields.items():
            object.__setattr__(value, name, from_components(spec, it))
        return value

    def _trace_signature(self) -> "ExtensionTypeSpec":
        """This spec with its tensor fields' shapes unknown: what a tf.function signature
        keeps of it beside its components' shapes."""
        def strip(spec):
            return TensorSpec(None, spec.dtype, spec.name) if type(spec) is TensorSpec \
                else spec
        return self._with_fields({k: map_field_spec(s, strip)
                                  for k, s in self._fields.items()})

    def _with_component_shapes(self, shapes: list) -> "ExtensionTypeSpec":
        """This spec with its tensor fields' shapes taken, in component order, from
        `shapes` (one per component; a composite field keeps its own spec)."""
        it = iter(shapes)

        def place(spec):
            if type(spec) is TensorSpec:
                return TensorSpec(next(it), spec.dtype, spec.name)
            for _ in spec._component_specs:
                next(it)
            return spec
        fields = {}
        for name, spec in self._fields.items():
            fields[name] = map_field_spec(spec, place)
        return self._with_fields(fields)

    def is_compatible_with(self, spec_or_value) -> bool:
        """Whether a value (or spec) of the same type has compatible field specs."""
        other = spec_or_value
        if isinstance(other, ExtensionType):
            other = other._type_spec
        if type(other) is not type(self):
            return False
        return _fields_compatible(self._fields, other._fields)

    def most_specific_common_supertype(self, others):
        """The spec every spec in `others` and this one fit (differing dimensions become
        unknown), or None."""
        fields = self._fields
        for other in others:
            if type(other) is not type(self):
                return None
            try:
                fields = _common_fields(fields, other._fields)
            except _NoCommonSpec:
                return None
        return self._with_fields(fields)

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={spec!r}" for name, spec in self._fields.items())
        return f"{type(self).__qualname__}({fields})"


def _rebuild_spec(value_class, fields: dict) -> ExtensionTypeSpec:
    spec = value_class.Spec.__new__(value_class.Spec)
    object.__setattr__(spec, "_fields", dict(fields))
    return spec


def _fields_compatible(a, b) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_fields_compatible(a[k], b[k]) for k in a)
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_fields_compatible(x, y) for x, y in zip(a, b))
    if isinstance(a, TypeSpec) and isinstance(b, TypeSpec):
        return a.is_compatible_with(b)
    return a == b


class _NoCommonSpec(Exception):
    pass


def _common_fields(a, b):
    """The field spec both `a` and `b` fit; raises _NoCommonSpec where there is none."""
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            raise _NoCommonSpec
        return {k: _common_fields(a[k], b[k]) for k in a}
    if isinstance(a, tuple) and isinstance(b, tuple):
        if len(a) != len(b):
            raise _NoCommonSpec
        return tuple(_common_fields(x, y) for x, y in zip(a, b))
    if isinstance(a, TypeSpec) and isinstance(b, TypeSpec) and type(a) is type(b):
        if isinstance(a, TensorSpec):
            if a.dtype != b.dtype:
                raise _NoCommonSpec
            return TensorSpec(a.shape.most_specific_compatible_shape(b.shape), a.dtype)
        common = a.most_specific_common_supertype([b])
        if common is None:
            raise _NoCommonSpec
        return common
    if type(a) is type(b) and a == b:
        return a
    raise _NoCommonSpec


class BatchableExtensionTypeSpec(ExtensionTypeSpec):
    """The spec of a BatchableExtensionType: batching gives every tensor field a leading
    dimension (and composite fields their batched spec); unbatching removes it.

    Example:
        >>> import tapeflow as tf
        >>> class Pair(tf.experimental.BatchableExtensionType):
        ...     a: tf.Tensor
        >>> Pair([1, 2])._type_spec._batch(3)
        Pair.Spec(a=TensorSpec(shape=(3, 2), dtype=tf.int32, name=None))
    """

    __slots__ = ()

    def _batch(self, batch_size) -> "BatchableExtensionTypeSpec":
        return self._with_fields({k: map_field_spec(s, lambda t: t._batch(batch_size))
                                  for k, s in self._fields.items()})

    def _unbatch(self) -> "BatchableExtensionTypeSpec":
        return self._with_fields({k: map_field_spec(s, lambda t: t._unbatch())
                                  for k, s in self._fields.items()})

    def _leading_shape(self) -> TensorShape:
        """The shape of the first tensor or composite field (unknown rank if none)."""
        found: list = []
        for spec in self._fields.values():
            map_field_spec(spec, found.append)
        shapes = [s.shape for s in found if isinstance(getattr(s, "shape", None), TensorShape)]
        return shapes[0] if shapes else TensorShape(None)

    def _field_values(self, value) -> list:
        """[(field spec, field value)] of the tensors and composites of `value`."""
        out: list = []

        def walk(spec, v):
            if isinstance(spec, TypeSpec):
                out.append((spec, v))
            elif isinstance(spec, tuple):
                for s, x in zip(spec, v):
                    walk(s, x)
            elif isinstance(spec, dict):
                for k in sorted(spec):
                    walk(spec[k], v[k])
        for name, spec in self._fields.items():
            walk(spec, value.__dict__[name])
        return out

    def _stack(self, values: list, stack_leaf):
        """A batch of `values` (values of this spec): `stack_leaf(column, spec)` stacks
        the values of each tensor or composite field."""
        columns = [self._field_values(v) for v in values]
        leaves = iter([stack_leaf([c[i][1] for c in columns], spec)
                       for i, (spec, _) in enumerate(columns[0])] if columns else [])
        batched = self._batch(len(values))
        return self._rebuild_with(batched, leaves)

    def _rows(self, value, rows_of) -> int:
        """The number of rows of `value`: that of its first tensor or composite field."""
        pairs = self._field_values(value)
        if not pairs:
            raise ValueError(f"Cannot unbatch {self!r}: it has no tensor fields.")
        return rows_of(pairs[0][1])

    def _row(self, value, i: int, row_of):
        """Row `i` of `value`: `row_of(field value, i)` of each tensor or composite field."""
        leaves = iter([row_of(v, i) for _, v in self._field_values(value)])
        return self._rebuild_with(self._unbatch(), leaves)

    def _rebuild_with(self, spec, leaves):
        def build(s):
            if isinstance(s, TypeSpec):
                return next(leaves)
            if isinstance(s, tuple):
                return tuple(build(x) for x in s)
            if isinstance(s, dict):
                built = {k: build(s[k]) for k in sorted(s)}
                return ImmutableDict((k, built[k]) for k in s)
            return s
        value = object.__new__(self._value_class)
        for name, s in spec._fields.items():
            object.__setattr__(value, name, build(s))
        return value


ExtensionType._tf_spec_bases = (ExtensionTypeSpec,)
BatchableExtensionType._tf_spec_bases = (BatchableExtensionTypeSpec,)


class ExtensionTypeBatchEncoder:
    """How a BatchableExtensionTypeSpec batches: field by field (each tensor field
    stacked along a new leading dimension); the encoder a spec uses.

    Example:
        >>> import tapeflow as tf
        >>> class Pair(tf.experimental.BatchableExtensionType):
        ...     a: tf.Tensor
        >>> enc = tf.experimental.ExtensionTypeBatchEncoder()
        >>> enc.batch(Pair([1])._type_spec, 2)
        Pair.Spec(a=TensorSpec(shape=(2, 1), dtype=tf.int32, name=None))
    """

    def batch(self, spec, batch_size):
        """The spec of a batch of `batch_size` values of `spec`."""
        return spec._batch(batch_size)

    def unbatch(self, spec):
        """The spec of one value of a batch of `spec`."""
        return spec._unbatch()

    def encode(self, spec, value, minimum_rank=0) -> list:
        """The component tensors of `value`."""
        return spec._to_components(value)

    def decode(self, spec, encoded_value):
        """The value of `spec` made from its component tensors."""
        return spec._from_components(encoded_value)

    def encoding_specs(self, spec) -> list:
        """The specs of the component tensors."""
        return spec._component_specs
