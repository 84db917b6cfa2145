"""A picture of a tape: `GradientTape.to_dot`, the recorded ops leading to a target."""
from __future__ import annotations

from . import op_history
from .diagnostics import OpGraph, flat_tensors, location_of, record_of

__all__ = ["to_dot"]


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _tensor_label(dtype, shape) -> str:
    return f"{dtype.name} {list(shape)}"


def to_dot(self, target) -> str:
    """The recorded operations leading to `target`, as Graphviz DOT text.

    Boxes are operations (with the line of user code that ran them when diagnostics are
    on); ellipses are tensors with their dtype and shape. Watched tensors and variables are
    filled blue, unwatched inputs (constants) dashed, the target is a double octagon.
    Render it with `tapeflow.utils.plot_tape` or Graphviz's `dot -Tsvg`.

    Args:
        target: a Tensor or Variable, or a nested structure of them.

    Returns:
        The DOT source as a string.

    Raises:
        RuntimeError: the tape holds no record (a non-persistent tape after `gradient`).
        ValueError: `target` is not a Tensor or Variable.

    Example:
        >>> import tapeflow as tf
        >>> x = tf.constant([1.0, 2.0])
        >>> with tf.GradientTape(persistent=True) as tape:
        ...     tape.watch(x)
        ...     y = tf.reduce_sum(x * x)
        >>> dot = tape.to_dot(y)
        >>> dot.splitlines()[0], "Mul" in dot, "Sum" in dot, "watched" in dot
        ('digraph tape {', True, True, True)
    """
    tape = record_of(self, "to_dot")
    targets = flat_tensors(target, "targets")
    history = op_history.current()
    graph = OpGraph(list(tape.entries), None)
    _, events = graph.ancestry({t._id for t in targets})
    tensors: dict = {}
    lines = ["digraph tape {", '  node [fontname="Helvetica", fontsize=10];']
    for event in events:
        for i, dt, shape in zip(event.inputs, event.input_dtypes, event.input_shapes):
            tensors.setdefault(i, _tensor_label(dt, shape))
        for o, dt, shape in zip(event.outputs, event.output_dtypes, event.output_shapes):
            tensors[o] = _tensor_label(dt, shape)
    for t in targets:
        tensors.setdefault(t._id, _tensor_label(t.dtype, t.shape))
    produced = {o for event in events for o in event.outputs}
    target_ids = {t._id for t in targets}
    for tid, label in tensors.items():
        attrs = ["shape=ellipse"]
        if tid in tape.variables:
            label = f"{tape.variables[tid].name}\n{label}\nwatched"
            attrs.append('style=filled, fillcolor="#cfe3ff"')
        elif tid in tape.ids and tid not in produced:
            label = f"{label}\nwatched"
            attrs.append('style=filled, fillcolor="#cfe3ff"')
        elif tid not in produced:
            why = "not recorded on this tape" if tid in target_ids else "not watched"
            label = f"{label}\n{why}"
            attrs.append("style=dashed")
        if tid in target_ids:
            label = f"target\n{label}"
            attrs[0] = "shape=doubleoctagon"
        lines.append(f"  t{tid} [label={_quote(label)}, {', '.join(attrs)}];")
    for n, event in enumerate(events):
        label = event.op.name
        seen = history.producers.get(event.outputs[0]) if history is not None else None
        if seen is not None and seen.site is not None:
            label += "\n" + location_of(seen.site)
        lines.append(f"  op{n} [label={_quote(label)}, shape=box];")
        lines.extend(f"  t{i} -> op{n};" for i in dict.fromkeys(event.inputs))
        lines.extend(f"  op{n} -> t{o};" for o in event.outputs)
    lines.append("}")
    return "\n".join(lines) + "\n"
