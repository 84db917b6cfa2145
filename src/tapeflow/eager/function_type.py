"""What a trace of a tf.function takes and gives, as TF describes it: the names of its input
placeholders, its `structured_input_signature`, and its `FunctionType` (an
`inspect.Signature` whose annotations are the types of the parameters and the result),
which `pretty_printed_signature` prints.

Types print as TF prints them: a tensor as its `TensorSpec` (name None), a composite as its
`TypeSpec`, a Python value `v` as `Literal[v]`, structures as `List[...]`, `Tuple[...]` and
`Dict[['key', type], ...]`.
"""
from __future__ import annotations

import inspect

from ..framework import nest
from ..framework.composite_tensor import CompositeTensor, TypeSpec
from ..framework.tensor import Tensor
from ..framework.tensor_spec import TensorSpec
from ..framework.variables import Variable

__all__ = ["FunctionType", "parameter_layout", "type_text", "spec_of"]

_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def parameter_layout(python_function, args: list, kwargs: dict) -> tuple:
    """([(name, kind, value)] of the call's arguments in order, with the function's defaults
    filled in, and whether the function takes `*args`).

    Positional arguments take their parameter's name; those past the named ones are
    `args_0`, `args_1`, ... (TF's names, the parameters then all POSITIONAL_ONLY); keyword
    arguments are KEYWORD_ONLY under their keys.
    """
    try:
        signature = inspect.signature(python_function)
    except (TypeError, ValueError):
        signature = None
    params = [] if signature is None else list(signature.parameters.values())
    positional = [p for p in params if p.kind in _POSITIONAL]
    vararg = next((p.name for p in params if p.kind is inspect.Parameter.VAR_POSITIONAL), None)
    kind = inspect.Parameter.POSITIONAL_ONLY if vararg else \
        inspect.Parameter.POSITIONAL_OR_KEYWORD
    layout = []
    for i, value in enumerate(args):
        name = positional[i].name if i < len(positional) else f"{vararg or 'args'}_" \
            f"{i - len(positional)}"
        layout.append((name, kind, value))
    given = {name for name, _, _ in layout} | set(kwargs)
    for p in positional[len(args):]:
        if p.name in kwargs:
            layout.append((p.name, kind, kwargs[p.name]))
        elif p.default is not inspect.Parameter.empty:
            layout.append((p.name, kind, p.default))
    for p in params:
        if p.kind is inspect.Parameter.KEYWORD_ONLY and p.name not in given and \
                p.default is not inspect.Parameter.empty:
            layout.append((p.name, inspect.Parameter.KEYWORD_ONLY, p.default))
    positional_names = {p.name for p in positional}
    for key in kwargs:
        if key not in positional_names:
            layout.append((key, inspect.Parameter.KEYWORD_ONLY, kwargs[key]))
    return layout, vararg is not None


def spec_of(value, name=None):
    """The spec a traced value (a graph tensor, a composite, a Variable) has, or None."""
    if isinstance(value, CompositeTensor):
        return value._type_spec
    if isinstance(value, (Tensor, Variable)):
        return TensorSpec(value.shape, value.dtype, name=name)
    return None


class _Text:
    """An annotation that prints as the text it holds (inspect prints annotations' reprs)."""

    __slots__ = ("text", "value")

    def __init__(self, text: str, value=None) -> None:
        self.text = text
        self.value = value

    def __repr__(self) -> str:
        return self.text


def type_text(value) -> str:
    """TF's text for the type of `value`: a spec, a structure of them, or a Python value."""
    if isinstance(value, (TensorSpec, TypeSpec)):
        return repr(value)
    spec = spec_of(value)
    if spec is not None:
        return type_text(spec)
    if isinstance(value, dict):
        return "Dict[" + ", ".join(f"[{k!r}, {type_text(value[k])}]"
                                   for k in sorted(value)) + "]"
    if isinstance(value, list):
        return "List[" + ", ".join(type_text(v) for v in value) + "]"
    if isinstance(value, tuple):
        return "Tuple[" + ", ".join(type_text(v) for v in value) + "]"
    return f"Literal[{value!r}]"


class FunctionType(inspect.Signature):
    """The type of a traced function: its parameters, annotated with their types, the type
    of its result (`output`) and its captures ({id: spec}).

    `str()` is the verbose form `pretty_printed_signature()` prints; `inspect`'s form
    `(x: TensorSpec(...)) -> TensorSpec(...)` is the short one.

    Example:
        >>> import tapeflow as tf
        >>> f = tf.function(lambda x: x + 1.0)
        >>> print(f.get_concrete_function(tf.TensorSpec([2], tf.float32)).function_type)
        Input Parameters:
          x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(2,), dtype=tf.float32, name=None)
        Output Type:
          TensorSpec(shape=(2,), dtype=tf.float32, name=None)
        Captures:
          None
    """

    __slots__ = ("_output", "_captures")

    def __init__(self, parameters, output, captures: dict) -> None:
        super().__init__(parameters, return_annotation=_Text(type_text(output), output))
        self._output = output
        self._captures = dict(captures)

    @classmethod
    def of_trace(cls, layout: list, output, captures: dict) -> "FunctionType":
        """The type of a trace whose arguments are `layout` (see parameter_layout, with
        specs for the traced values)."""
        parameters = [inspect.Parameter(name, kind, annotation=_Text(type_text(value), value))
                      for name, kind, value in layout]
        return cls(parameters, output, captures)

    @property
    def output(self):
        """The result's structure, with specs for its tensors."""
        return self._output

    @property
    def captures(self) -> dict:
        return dict(self._captures)

    def pretty_printed(self, verbose: bool = True) -> str:
        if not verbose:
            return inspect.Signature.__str__(self)
        lines = ["Input Parameters:"]
        lines += [f"  {p.name} ({p.kind.name}): {p.annotation!r}"
                  for p in self.parameters.values()]
        lines += ["Output Type:", f"  {self.return_annotation!r}", "Captures:"]
        lines += [f"  {key}: {type_text(spec)}" for key, spec in self._captures.items()] or \
            ["  None"]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.pretty_printed(True)

    __repr__ = __str__


def output_structure(structured_outputs):
    """`structured_outputs` with each tensor or composite replaced by its spec."""
    return nest.map_structure(lambda x: spec_of(x) if spec_of(x) is not None else x,
                              structured_outputs)
