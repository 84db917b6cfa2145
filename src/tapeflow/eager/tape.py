"""The record a GradientTape keeps: which tensors it watches and the operations on them."""
from __future__ import annotations

from ..framework.indexed_slices import IndexedSlices
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.variables import Variable

__all__ = ["OpRecord", "Tape", "is_trainable", "snapshot", "log_warning",
           "set_warn_none_gradients", "warn_none_gradients"]

_warn_none = [False]


def set_warn_none_gradients(enabled: bool) -> None:
    """Makes `GradientTape.gradient` warn for each None it returns (tf.config's switch)."""
    _warn_none[0] = bool(enabled)


def warn_none_gradients() -> bool:
    return _warn_none[0]


def log_warning(message: str, *args) -> None:
    """Logs a warning on tapeflow's logger (logging loads on the first warning)."""
    import logging
    logging.getLogger("tapeflow").warning(message, *args)


class OpRecord:
    """One recorded operation, as gradient rules see it.

    `inputs` and `outputs` are Tensors when the backward pass is itself recorded, and the
    raw NumPy values when nothing records it; rules are written to work on either.
    `skip_input_indices` (as in TF) names the inputs whose gradient nobody needs, so a
    rule may return None for them without computing it.
    `memo` is a dict shared by every record of one backward pass over raw arrays (None
    otherwise), where a rule may keep what it derives from an array that many records
    share (the LSTM rule's transposed recurrent kernel, `nn_grad._transposed`).
    """

    __slots__ = ("op", "inputs", "outputs", "attrs", "_tensors", "_needed", "memo")

    def __init__(self, op, inputs, outputs, attrs: dict) -> None:
        self.op = op
        self.inputs = inputs
        self.outputs = outputs
        self.attrs = attrs
        self._tensors = inputs
        self._needed = None
        self.memo = None

    @property
    def type(self) -> str:
        return self.op.name

    def get_attr(self, name: str):
        return self.attrs[name]

    @property
    def skip_input_indices(self) -> tuple:
        needed = self._needed
        if needed is None:
            return ()
        return tuple(i for i, x in enumerate(self._tensors) if x._id not in needed)

    def needs_gradient(self, index: int) -> bool:
        """Whether the gradient of input `index` is used (the cheap form of the above)."""
        needed = self._needed
        return needed is None or self._tensors[index]._id in needed

    def __repr__(self) -> str:
        return f"<OpRecord {self.op.name}>"


_TRAINABLE_CHARS = frozenset("efdFDE")  # float16/32/64, complex64/128, bfloat16 (ml_dtypes)


def is_trainable(t) -> bool:
    """Whether gradients flow through tensor `t` (floating or complex dtype)."""
    return t._value.dtype.char in _TRAINABLE_CHARS


class Tape:
    """The recorder a GradientTape pushes while it records.

    `entries` are the recorded operations as (op, inputs, outputs, attrs) tuples, in the
    order they ran (the backward pass shows rules an OpRecord view of each). `ids` holds the
    watched tensors and the outputs of recorded operations, trainable dtypes only: an
    operation is recorded when one of its inputs is in `ids`, so integer paths are never
    recorded. `watched` holds what was watched directly (the leaves).
    """

    # __weakref__: diagnostics note when each tape records without keeping it alive.
    __slots__ = ("entries", "ids", "watched", "variables", "watch_accessed_variables",
                 "__weakref__")

    def __init__(self, watch_accessed_variables: bool = True) -> None:
        self.entries: list[tuple] = []
        self.ids: set[int] = set()
        self.watched: set[int] = set()
        self.variables: dict = {}
        self.watch_accessed_variables = watch_accessed_variables

    def watch(self, tensor) -> None:
        if hasattr(tensor, "_trainable"):
            self.variables[tensor._id] = tensor
        if is_trainable(tensor):
            self.ids.add(tensor._id)
            self.watched.add(tensor._id)

    def _variable_accessed(self, variable) -> None:
        if variable._id in self.variables:
            return
        if self.watch_accessed_variables and variable._trainable:
            self.variables[variable._id] = variable
            if is_trainable(variable):
                self.ids.add(variable._id)
                self.watched.add(variable._id)

    def _record_operation(self, op, inputs: tuple, outputs: tuple, attrs: dict) -> None:
        ids = self.ids
        for x in inputs:
            if x._id in ids:
                break
        else:
            return
        self.entries.append((op, inputs, outputs, attrs))
        for o in outputs:
            if o._value.dtype.char in _TRAINABLE_CHARS:
                ids.add(o._id)


def snapshot(x):
    """A target as a Tensor; a Variable keeps its identity so gradient(v, v) is ones."""
    if isinstance(x, Variable):
        return Tensor(x._value, x._id)
    if isinstance(x, (Tensor, IndexedSlices)):
        return x
    return convert_to_tensor(x)
