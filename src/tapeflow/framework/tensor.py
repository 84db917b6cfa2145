"""Tensor: an immutable value with a dtype and a shape. Its operators call ops.

Operator overloads are installed by the op modules (`ops/math_ops.py`, `ops/comparison_ops.py`,
`ops/indexing_ops.py`), as TF does, so this module stands on nothing but NumPy.
"""
from __future__ import annotations

import itertools
import numbers

import numpy as np

from .composite_tensor import CompositeTensor
from . import dtypes, errors, promotion
from .context import state
from .devices import eager_device
from .numpy_warnings import keep_numpy_quiet
from .string_values import as_value, holds_text, string_array
from .tensor_shape import TensorShape

_next_id = itertools.count(1).__next__


class Tensor:
    """An eager tensor: a NumPy value plus the identity tapes record it by.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.constant([[1.0, 2.0]])
        >>> x.shape, x.dtype
        (TensorShape([1, 2]), tf.float32)
        >>> (x * 2).numpy()
        array([[2., 4.]], dtype=float32)
    """

    # (`__dict__`: a library may set its own attributes on a tensor, as TF's allow)
    __slots__ = ("_value", "_id", "__weakref__", "__dict__")
    # NumPy defers its binary operators to ours (ndarray + Tensor gives a Tensor).
    __array_priority__ = 100

    def __init__(self, value, _id: int | None = None) -> None:
        self._value = value
        self._id = _next_id() if _id is None else _id

    @property
    def dtype(self) -> dtypes.DType:
        try:
            return dtypes._BY_CHAR[self._value.dtype.char]
        except KeyError:
            return dtypes.from_numpy(self._value.dtype)

    @property
    def shape(self) -> TensorShape:
        return TensorShape(self._value.shape)

    @property
    def ndim(self) -> int:
        return self._value.ndim

    @property
    def name(self) -> str:
        raise AttributeError("Tensor.name is meaningless when eager execution is enabled.")

    @property
    def device(self) -> str:
        """The device holding the value: '/job:localhost/replica:0/task:0/device:CPU:0'."""
        return eager_device()

    backing_device = device

    def get_shape(self) -> TensorShape:
        return self.shape

    def set_shape(self, shape) -> None:
        """Checks `shape` against the tensor's, which it already knows whole.

        Raises:
            ValueError: `shape` is not compatible with the tensor's shape.
        """
        if not self.shape.is_compatible_with(TensorShape(shape)):
            raise ValueError(f"Tensor's shape {tuple(self._value.shape)} is not compatible "
                             f"with supplied shape {tuple(TensorShape(shape).as_list())}.")

    def numpy(self):
        """The value as a NumPy array (a NumPy scalar for rank 0); a copy, safe to change."""
        v = self._value
        if isinstance(v, np.ndarray):
            return v.copy() if v.ndim else v[()]
        return v

    def __array__(self, dtype=None, copy=None):
        v = np.asarray(self._value)
        return v if dtype is None else v.astype(dtype)

    def ref(self) -> "Reference":
        """A hashable reference to this tensor (tensors themselves are unhashable)."""
        return Reference(self)

    def experimental_ref(self) -> "Reference":
        return Reference(self)

    def __hash__(self):
        raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")

    def __repr__(self) -> str:
        shape = "(" + ", ".join(map(str, self._value.shape)) + ("," if self.ndim == 1 else "") + ")"
        return f"<tf.Tensor: shape={shape}, dtype={self.dtype.name}, numpy={_numpy_repr(self._value)}>"

    def __str__(self) -> str:
        return (f"tf.Tensor({_on_own_lines(str(np.asarray(self._value)))}, shape={self.shape}, "
                f"dtype={self.dtype.name})")

    def __len__(self) -> int:
        if not self._value.ndim:
            raise TypeError("Scalar tensor has no `len()`")
        return len(self._value)

    def __iter__(self):
        if not self._value.ndim:
            raise TypeError("Cannot iterate over a scalar tensor.")
        return (self[i] for i in range(len(self._value)))

    # The Python protocols act on the NumPy value, as TF's eager tensors do: `f"{t}"` and
    # `f"{t:.2f}"` format it (a scalar takes any spec its NumPy scalar takes; an array only
    # the empty one), `__index__` is NumPy's (AttributeError for a float scalar, TypeError
    # for an array), an empty tensor is False, int() of a complex one takes its real part.
    def __bool__(self) -> bool:
        v = self._value
        if v.ndim:
            return bool(v.size > 0 and v)
        return bool(v)

    def __float__(self) -> float:
        return float(self.numpy())

    def __int__(self) -> int:
        return int(self.numpy())

    def __index__(self) -> int:
        return self.numpy().__index__()

    def __complex__(self) -> complex:
        return complex(self._value)

    def __format__(self, spec: str) -> str:
        return format(self.numpy(), spec)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return Tensor(self._value.copy())

    def __reduce__(self):
        return Tensor, (np.asarray(self._value).copy(),)

    def _as_tensor(self) -> "Tensor":
        return self


class WeakTensor(Tensor):
    """A tensor whose dtype is weak: made from a Python number under the "all" or "safe"
    dtype-conversion mode, it takes the other operand's dtype where the lattice allows
    (`tf.experimental.numpy.experimental_enable_numpy_behavior`).

    Example:
        >>> import numpy as np
        >>> from tapeflow.framework.tensor import WeakTensor
        >>> WeakTensor(np.float32(5.0))
        <tf.Tensor: shape=(), dtype=float32, numpy=5.0, weak=True>
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return Tensor.__repr__(self)[:-1] + ", weak=True>"


def _numpy_repr(v) -> str:
    """NumPy's repr of the value, a scalar shown bare (`4.0`) as TF does."""
    v = np.asarray(v)
    return _on_own_lines(repr(v)) if v.ndim else repr(v.item())


def _on_own_lines(text: str) -> str:
    """TF starts a value that spans several lines on a line of its own."""
    return "\n" + text if "\n" in text else text


class Reference:
    """A hashable stand-in for a tensor or variable, compared by identity; references are
    ordered by the identity of what they wrap (so a list of them can be sorted).

    Example:
        >>> import tapeflow as tf
        >>> a, b = tf.constant(1.0), tf.constant(2.0)
        >>> sorted([a.ref(), b.ref()]) == sorted([b.ref(), a.ref()])
        True
    """

    __slots__ = ("_wrapped",)

    def __init__(self, wrapped) -> None:
        self._wrapped = wrapped

    def deref(self):
        return self._wrapped

    @property
    def unwrapped(self):
        return self._wrapped

    def _other(self, other):
        if not isinstance(other, Reference):
            raise TypeError("Cannot compare wrapped object with unwrapped object")
        return id(other._wrapped)

    def __lt__(self, other) -> bool:
        return id(self._wrapped) < self._other(other)

    def __gt__(self, other) -> bool:
        return id(self._wrapped) > self._other(other)

    def __hash__(self) -> int:
        return id(self._wrapped)

    def __eq__(self, other) -> bool:
        return isinstance(other, Reference) and other._wrapped is self._wrapped

    def __repr__(self) -> str:
        return f"<Reference wrapping {self._wrapped!r}>"


_PY_DEFAULTS = {"f": np.float32, "i": np.int32, "c": np.complex128, "b": np.bool_}


def _cast_numpy(value, dtype: dtypes.DType) -> np.ndarray:
    """NumPy data in `dtype`, as TF converts it: a plain cast (float to int truncates, complex
    to real drops the imaginary part, text is parsed)."""
    if value.dtype.kind == "c" and dtype._np.kind != "c":
        value = np.real(value)
    if value.dtype.kind in "US":  # TF: NumPy parses the text, ValueError where it cannot
        try:
            return np.array(value, dtype=dtype._np)
        except ValueError as e:
            raise ValueError(f"Cannot convert a NumPy array of {value.dtype} text to "
                             f"{dtype.name}: {e}") from None
    try:
        return np.array(value, dtype=dtype._np)
    except (TypeError, ValueError):
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}") from None


class _UnsupportedValueMessage:
    """The message of TF's error for a value of an unsupported type, written (with the
    value's repr, which for a large RaggedTensor is long) only when it is read, since ops
    that dispatch on such values raise and catch the error first."""

    def __init__(self, value) -> None:
        self.value = value

    def __str__(self) -> str:
        return (f"Attempt to convert a value ({self.value!r}) with an unsupported type "
                f"({type(self.value)}) to a Tensor.")


def _unsupported(value) -> ValueError:
    """TF's ValueError (the class itself, as TF raises) for `value` of an unsupported type."""
    return ValueError(_UnsupportedValueMessage(value))


def _python_array(value) -> np.ndarray:
    """`np.array(value)` (a copy) for data TF converts: numbers, bools, strings and
    rectangular sequences of them.

    Raises:
        ValueError: None, an object or a mapping (TF's unsupported type); a ragged sequence;
            a sequence mixing numbers with other values; a NumPy array of objects.
    """
    if value is None or isinstance(value, (dict, set, frozenset, CompositeTensor)):
        raise _unsupported(value)
    try:
        arr = np.array(value)
    except ValueError:
        raise ValueError("Can't convert non-rectangular Python sequence to Tensor.") from None
    if arr.dtype.kind == "O":
        if isinstance(value, np.ndarray):
            raise ValueError("Failed to convert a NumPy array to a Tensor (unsupported object "
                             "dtype).")
        if arr.ndim == 0:
            raise _unsupported(value)
        raise ValueError("Can't convert Python sequence with mixed types to Tensor.")
    return arr


def array_from_python(value, dtype: dtypes.DType | None):
    """The NumPy array `constant(value, dtype)` holds: Python or NumPy data in `dtype`, or
    with TF's default dtypes (float32, int32) when `dtype` is None.

    Raises:
        TypeError: the data cannot be represented in `dtype` (e.g. 1.5 as int32), or is
            a string given a numeric `dtype`.
        ValueError: None, an object or a mapping; a ragged sequence; a sequence mixing
            numbers with other values; a NumPy array of text that does not parse as `dtype`.
    """
    if dtype is dtypes.string or dtype is None and holds_text(value):
        return string_array(value, numbers_fail=dtype is not None)
    if dtype is not None:
        target = dtype._np
        if isinstance(value, (np.ndarray, np.generic)) and value.dtype.kind != "O":
            return _cast_numpy(value, dtype)
        arr = _python_array(value)
        if arr.dtype.kind in "US":
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}")
        if target.kind == "b" and arr.dtype.kind != "b":  # TF: numbers are not bools
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}")
        if arr.dtype.kind in "fc" and target.kind in "iub" and np.any(arr != np.round(np.real(arr))):
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}")
        if arr.dtype.kind == "c" and target.kind != "c":
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}")
        return np.array(arr, dtype=target)
    if (isinstance(value, np.ndarray) or isinstance(value, np.generic)) \
            and value.dtype.kind != "O":
        dtypes.from_numpy(value.dtype)  # TypeError for strings and other unsupported data
        return np.array(value)
    arr = _python_array(value)
    kind = arr.dtype.kind
    if kind == "i" and arr.size and (arr.max() > np.iinfo(np.int32).max or arr.min() < np.iinfo(np.int32).min):
        return arr.astype(np.int64)
    if kind in _PY_DEFAULTS:
        return arr.astype(_PY_DEFAULTS[kind], copy=False)
    if kind == "U" or kind == "S":
        return string_array(value)
    return arr


def constant(value, dtype=None, shape=None, name: str | None = None) -> Tensor:
    """Creates a constant tensor from a Python or NumPy value.

    Python floats become float32 and ints int32 (int64 where they do not fit), as in TF;
    NumPy arrays keep their dtype, or are cast to `dtype` (as TF, without a range check).
    With `shape`, a scalar is broadcast and anything else reshaped.

    Args:
        value: a scalar, nested list or NumPy array (a Tensor is copied).
        dtype: the DType (or anything `as_dtype` takes) to convert to.
        shape: the shape to reshape or broadcast to.
        name: accepted for TF compatibility.

    Returns:
        A Tensor.

    Raises:
        TypeError: the value cannot be represented in `dtype` (e.g. 1.5 as int32).
        TypeError: the shape cannot hold the value.
        ValueError: None or another object, or a ragged or mixed sequence.
        ResourceExhaustedError: a `shape` too large for memory.

    Example:
        >>> import tapeflow as tf
        >>> tf.constant(3.0)
        <tf.Tensor: shape=(), dtype=float32, numpy=3.0>
        >>> tf.constant(0, shape=[2]).numpy()
        array([0, 0], dtype=int32)
    """
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    if isinstance(value, Tensor) or hasattr(value, "_as_tensor"):
        value = np.asarray(value._as_tensor()._value)
    keep_numpy_quiet()  # a cast overflows to inf silently, as in TF
    arr = array_from_python(value, dtype)
    if shape is not None:
        shape = tuple(TensorShape(shape).as_list())
        for d in shape:
            if d is None or d < 0:
                raise ValueError(f"Dimension {d} must be >= 0")
        if arr.size == 1:
            try:
                arr = np.broadcast_to(arr.reshape(()), shape).copy()
            except MemoryError as e:
                raise errors.out_of_memory("Const", e) from None
        elif int(np.prod(shape)) == arr.size:
            arr = arr.reshape(shape)
        else:
            raise TypeError(f"Eager execution of tf.constant with unsupported shape. Tried to "
                            f"convert a value of shape {arr.shape} to shape {list(shape)}.")
    if state.graph is not None:  # building a graph: a Const node
        return state.graph.constant(arr, name=name)
    if promotion.mode in promotion.LATTICE_MODES and dtype is None and \
            promotion.python_type(value) is not None:
        return WeakTensor(arr)  # Python numbers' dtype is weak under these modes
    return Tensor(arr)


# (base_type, conversion_func) pairs by priority: see tf.register_tensor_conversion_function.
CONVERSION_FUNCTIONS: list = []
# type -> the registered (base_type, function) pairs that take its instances before the
# engine's own reading (`_as_tensor`); emptied when a function is registered.
_OVERRIDES: dict = {}


def registered_override(value) -> list:
    """The registered conversion functions, in order, that convert `value` (a tensor or a
    variable, or an instance of a subclass of one) instead of its own `_as_tensor`: those
    registered for a subclass of the class that defines `_as_tensor`. A subclass of
    tf.Variable backed by something else (Sonnet's TensorVariable) is converted by the
    function registered for it, as TF converts every variable through the registry; one
    registered for tf.Variable itself does not replace the engine's reading.

    Example:
        >>> from tapeflow.framework.tensor import registered_override, constant
        >>> registered_override(constant(1.0))
        []
    """
    kind = type(value)
    found = _OVERRIDES.get(kind)
    if found is None:
        owner = next((c for c in kind.__mro__ if "_as_tensor" in c.__dict__), None)
        found = [] if owner is None else [
            (base, func) for base, func in CONVERSION_FUNCTIONS
            if any(b is not owner and issubclass(kind, b) and issubclass(b, owner)
                   for b in (base if isinstance(base, tuple) else (base,)))]
        _OVERRIDES[kind] = found
    return found


def convert_to_tensor(value, dtype=None, dtype_hint=None, name: str | None = None) -> Tensor:
    """Returns `value` as a Tensor: tensors pass through, variables are read.

    Raises:
        ValueError: a tensor or variable of another dtype than `dtype`; None or another
            object, or a ragged or mixed sequence.
        TypeError: data that cannot be represented in `dtype`.

    Example:
        >>> import tapeflow as tf
        >>> tf.convert_to_tensor([1, 2]).dtype
        tf.int32
    """
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    as_tensor = getattr(value, "_as_tensor", None)
    if as_tensor is not None and not (CONVERSION_FUNCTIONS and registered_override(value)):
        tensor = as_tensor()
        if dtype is not None and tensor.dtype is not dtype:
            raise ValueError(f"Tensor conversion requested dtype {dtype.name} for Tensor with "
                             f"dtype {tensor.dtype.name}: {tensor!r}")
        return tensor
    tf_tensor = getattr(value, "__tf_tensor__", None)  # a type's own conversion, as in TF
    if tf_tensor is not None and not isinstance(value, type):
        return convert_to_tensor(tf_tensor(dtype, name), dtype)
    for base_type, conversion_func in CONVERSION_FUNCTIONS:
        if isinstance(value, base_type):
            tensor = conversion_func(value, dtype=dtype, name=name, as_ref=False)
            if tensor is NotImplemented:
                continue
            if not is_tensor(tensor):
                raise RuntimeError(f"Conversion function {conversion_func!r} for type "
                                   f"{base_type} returned non-Tensor: {tensor!r}")
            return convert_to_tensor(tensor, dtype)
    if type(value) in (list, tuple) and _holds_tensor(value):
        if dtype is None and dtype_hint is not None:
            try:
                return _autopacked(value, dtypes.as_dtype(dtype_hint))
            except TypeError:
                pass
        return _autopacked(value, dtype)
    if dtype is None and dtype_hint is not None and not isinstance(value, (np.ndarray, np.generic)):
        try:
            return constant(value, dtypes.as_dtype(dtype_hint))
        except TypeError:
            pass
    result = constant(value, dtype)
    # A Python number is weak only as tf.constant's value (the "all" and "safe" modes).
    return Tensor(result._value) if type(result) is WeakTensor else result


_PLAIN = frozenset((int, float, bool, complex, str, bytes))


def _holds_tensor(value) -> bool:
    """Whether a (nested) list or tuple holds a tensor (then TF packs it)."""
    for v in value:
        kind = type(v)
        if kind in _PLAIN:
            continue
        if kind is list or kind is tuple:
            if _holds_tensor(v):
                return True
        elif is_tensor(v):
            return True
    return False


def _first_tensor(value):
    for v in value:
        found = v if is_tensor(v) else _first_tensor(v) if type(v) in (list, tuple) else None
        if found is not None:
            return found
    return None


def _autopacked(value, dtype) -> Tensor:
    """A list or tuple holding tensors as TF converts it: its elements stacked (a Pack op,
    so gradients and graphs see them), tensors of another dtype than `dtype` cast to it;
    `dtype` defaults to the first tensor's.

    Raises:
        TypeError: a Python element that `dtype` cannot represent.
    """
    from .execute import execute  # (execute imports this module)
    from .registry import get_op

    if dtype is None:
        dtype = convert_to_tensor(_first_tensor(value)).dtype
    parts = []
    for v in value:
        if type(v) in (list, tuple) and _holds_tensor(v):
            parts.append(_autopacked(v, dtype))
        elif is_tensor(v):
            v = convert_to_tensor(v)
            parts.append(v if v.dtype is dtype else
                         execute(get_op("Cast"), (v,), {"dtype": dtype._np}))
        else:
            parts.append(constant(v, dtype))
    return execute(get_op("Pack"), tuple(parts), {"axis": 0})


def is_tensor(x) -> bool:
    """True for tapeflow tensors and variables."""
    return isinstance(x, Tensor) or hasattr(x, "_as_tensor")


def is_tf_type(x) -> bool:
    """`tf.is_tensor`: whether `x` is a value TF's ops take as it is: a tensor, a Variable,
    a composite tensor (SparseTensor, RaggedTensor), or an instance of a class declaring
    itself a tensor (a subclass of `tf.__internal__.types.Tensor`).

    Example:
        >>> import tapeflow as tf
        >>> tf.is_tensor(tf.constant(1.0)), tf.is_tensor(tf.sparse.eye(2)), tf.is_tensor(1.0)
        (True, True, False)
    """
    from .composite_tensor import CompositeTensor
    from .core_types import TensorType
    return is_tensor(x) or isinstance(x, (CompositeTensor, TensorType))


def is_number(x) -> bool:
    return isinstance(x, numbers.Number)
