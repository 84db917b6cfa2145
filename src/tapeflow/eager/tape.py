"""The record a GradientTape keeps: which tensors it watches and the operations on them."""
from __future__ import annotations

__all__ = ["OpRecord", "Tape"]


class OpRecord:
    """One recorded operation, as gradient rules see it.

    `inputs` and `outputs` are Tensors when the backward pass is itself recorded, and the
    raw NumPy values when nothing records it; rules are written to work on either.
    """

    __slots__ = ("op", "inputs", "outputs", "attrs")

    def __init__(self, op, inputs: tuple, outputs: tuple, attrs: dict) -> None:
        self.op = op
        self.inputs = inputs
        self.outputs = outputs
        self.attrs = attrs

    @property
    def type(self) -> str:
        return self.op.name

    def get_attr(self, name: str):
        return self.attrs[name]

    def __repr__(self) -> str:
        return f"<OpRecord {self.op.name}>"


class Tape:
    """The recorder a GradientTape pushes while it records.

    An operation is recorded when one of its inputs is watched (or was produced by a
    recorded operation) and has a trainable dtype, so integer paths are never recorded.
    """

    # __weakref__: diagnostics note when each tape records without keeping it alive.
    __slots__ = ("entries", "ids", "variables", "watch_accessed_variables", "__weakref__")

    def __init__(self, watch_accessed_variables: bool = True) -> None:
        self.entries: list[OpRecord] = []
        self.ids: set[int] = set()
        self.variables: dict = {}
        self.watch_accessed_variables = watch_accessed_variables

    def watch(self, tensor) -> None:
        self.ids.add(tensor._id)
        if hasattr(tensor, "_trainable"):
            self.variables[tensor._id] = tensor

    def _variable_accessed(self, variable) -> None:
        if self.watch_accessed_variables and variable._trainable:
            self.ids.add(variable._id)
            self.variables[variable._id] = variable

    def _record_operation(self, op, inputs: tuple, outputs: tuple, attrs: dict) -> None:
        ids = self.ids
        for x in inputs:
            if x._id in ids and x.dtype.is_trainable:
                break
        else:
            return
        self.entries.append(OpRecord(op, inputs, outputs, attrs))
        for o in outputs:
            ids.add(o._id)
