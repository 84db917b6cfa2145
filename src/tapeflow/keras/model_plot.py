"""Drawing a model's layers and their connections: `keras.utils.model_to_dot` and
`plot_model` (rendered with Graphviz's `dot`)."""
from __future__ import annotations

import html
import os
import types

from .. import utils as tf_utils
from ..framework.tensor_shape import TensorShape
from .functional import Functional
from .layers.input_layer import InputLayer
from .models import Sequential

__all__ = ["model_to_dot", "plot_model"]


def _shape_text(shapes: list) -> str:
    if not shapes:
        return "?"
    texts = [str(tuple(s)) for s in shapes]
    return texts[0] if len(texts) == 1 else "[" + ", ".join(texts) + "]"


def _activation_name(layer) -> str:
    activation = layer.activation
    if isinstance(activation, types.FunctionType):
        return activation.__name__
    return type(activation).__name__


def _label(layer, facts: dict, options: dict) -> str:
    """An HTML-like Graphviz label: a title row, then the facts asked for."""
    name, kind = html.escape(layer.name), type(layer).__name__
    title = f"<b>{name}</b> ({kind})" if options["show_layer_names"] else f"<b>{kind}</b>"
    rows = [f'<tr><td bgcolor="black"><font color="white">{title}</font></td></tr>']
    if options["show_layer_activations"] and getattr(layer, "activation", None) is not None:
        rows.append(f"<tr><td>Activation: <b>{_activation_name(layer)}</b></td></tr>")
    if options["show_shapes"]:
        if not isinstance(layer, InputLayer):
            rows.append(f"<tr><td>Input shape: <b>{facts['input_shape']}</b></td></tr>")
        rows.append(f"<tr><td>Output shape: <b>{facts['output_shape']}</b></td></tr>")
    if options["show_dtype"]:
        rows.append(f"<tr><td>Output dtype: <b>{facts['dtype']}</b></td></tr>")
    if options["show_trainable"] and layer.weights:
        state = "Trainable" if layer.trainable else "Non-trainable"
        rows.append(f"<tr><td><b>{state}</b></td></tr>")
    return '<<table border="0" cellborder="1" cellpadding="6">' + "".join(rows) + "</table>>"


def _layers_and_edges(model) -> tuple:
    """([(layer, facts)], [(from layer, to layer)]) of a Sequential or functional model."""
    if isinstance(model, Functional):
        entries, edges = [], []
        for layer in model.layers:
            nodes = [node for node in model._nodes if node.layer is layer]
            if isinstance(layer, InputLayer):
                outputs = [layer.output.shape.as_list()]
                inputs, dtype = [], layer.output.dtype.name
            elif len(nodes) == 1:
                inputs = [x.shape.as_list() for x in nodes[0].inputs]
                outputs = [x.shape.as_list() for x in nodes[0].outputs]
                dtype = nodes[0].outputs[0].dtype.name
            else:                                   # a shared layer: several calls
                inputs, outputs, dtype = [], [], "?"
            entries.append((layer, {"input_shape": _shape_text(inputs),
                                    "output_shape": _shape_text(outputs), "dtype": dtype}))
            edges += [(x.node.layer, layer) for node in nodes for x in node.inputs]
        return entries, list(dict.fromkeys(edges))
    output_shapes = model._output_shapes()
    built_with = model._build_input_shape
    previous = [None, *built_with.as_list()[1:]] if isinstance(built_with, TensorShape) \
        else None
    entries = []
    for layer in model.layers:
        shape = list(output_shapes.get(id(layer), ())) or None
        entries.append((layer, {"input_shape": _shape_text([previous] if previous else []),
                                "output_shape": _shape_text([shape] if shape else []),
                                "dtype": getattr(layer, "dtype", "?")}))
        previous = shape
    return entries, list(zip(model.layers, model.layers[1:]))


def model_to_dot(model, show_shapes: bool = False, show_dtype: bool = False,
                 show_layer_names: bool = True, rankdir: str = "TB",
                 expand_nested: bool = False, dpi: int = 200, subgraph: bool = False,
                 show_layer_activations: bool = False, show_trainable: bool = False,
                 splines: str = "ortho", **kwargs) -> str:
    """The model's layers (boxes) and the tensors between them (arrows) as Graphviz DOT
    text. A subclassed model is one box; a nested model is one box (`expand_nested` and
    `subgraph` are accepted and ignored).

    Args:
        show_shapes: each layer's input and output shapes.
        show_dtype: each layer's output dtype.
        show_layer_names: 'name (Class)' instead of the class alone.
        rankdir: 'TB' (top to bottom) or 'LR' (left to right).
        dpi: the resolution Graphviz renders at.
        show_layer_activations: the activation of layers that have one.
        show_trainable: whether layers with weights are trainable.
        splines: Graphviz's edge style.

    Returns:
        The DOT source (Keras returns a pydot graph of the same content).

    Raises:
        ValueError: the model is not built, or an unknown keyword argument.

    Example:
        >>> import tapeflow as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"),
        ...                              tf.keras.layers.Dense(1)])
        >>> model.build((None, 3))
        >>> dot = tf.keras.utils.model_to_dot(model, show_shapes=True)
        >>> dot.splitlines()[0], "Output shape: <b>(None, 4)</b>" in dot, dot.count("->")
        ('digraph model {', True, 1)
    """
    if kwargs:
        raise ValueError(f"Invalid kwargs: {kwargs}")
    if not model.built:
        raise ValueError("This model has not yet been built. Build the model first by calling "
                         "`build()` or by calling the model on a batch of data.")
    options = {"show_shapes": show_shapes, "show_dtype": show_dtype,
               "show_layer_names": show_layer_names,
               "show_layer_activations": show_layer_activations,
               "show_trainable": show_trainable}
    if isinstance(model, (Functional, Sequential)):
        entries, edges = _layers_and_edges(model)
    else:
        entries, edges = [(model, {"input_shape": "?", "output_shape": "?", "dtype": "?"})], []
    lines = ["digraph model {",
             f'  graph [rankdir="{rankdir}", concentrate=true, dpi={int(dpi)}, '
             f'splines="{splines}"];',
             '  node [shape=plaintext, fontname="Helvetica"];']
    lines += [f"  {id(layer)} [label={_label(layer, facts, options)}];"
              for layer, facts in entries]
    lines += [f"  {id(source)} -> {id(target)};" for source, target in edges]
    return "\n".join(lines + ["}"]) + "\n"


def plot_model(model, to_file="model.png", show_shapes: bool = False,
               show_dtype: bool = False, show_layer_names: bool = False, rankdir: str = "TB",
               expand_nested: bool = False, dpi: int = 200,
               show_layer_activations: bool = False, show_trainable: bool = False,
               splines: str = "ortho", **kwargs):
    """Draws `model_to_dot(model, ...)` into `to_file` with Graphviz's `dot`; the file's
    extension ('png' when it has none; 'svg', 'pdf', 'jpg'...) picks the format.

    Returns:
        An `IPython.display.Image` of the file when IPython is installed (not for PDF), as
        Keras does; else None.

    Raises:
        FileNotFoundError: Graphviz's `dot` is not installed (nothing is written); the
            message says how to install it.
        RuntimeError: `dot` failed.
        ValueError: `layer_range` (no longer supported), an unknown keyword argument, or a
            model that is not built.

    Example:
        >>> import tapeflow as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        >>> tf.keras.utils.plot_model(model, layer_range=["dense", "dense"])
        Traceback (most recent call last):
            ...
        ValueError: Argument `layer_range` is no longer supported.
    """
    if kwargs.pop("layer_range", None) is not None:
        raise ValueError("Argument `layer_range` is no longer supported.")
    if kwargs:
        raise ValueError(f"Unrecognized keyword arguments: {kwargs}")
    source = model_to_dot(model, show_shapes=show_shapes, show_dtype=show_dtype,
                          show_layer_names=show_layer_names, rankdir=rankdir,
                          expand_nested=expand_nested, dpi=dpi,
                          show_layer_activations=show_layer_activations,
                          show_trainable=show_trainable, splines=splines)
    to_file = os.fspath(to_file)
    extension = os.path.splitext(to_file)[1][1:] or "png"
    tf_utils.render_dot(source, to_file, extension, "plot_model",
                        "write tf.keras.utils.model_to_dot(model) to a .dot file and render "
                        "it elsewhere")
    if extension == "pdf":
        return None
    try:
        from IPython import display
    except ImportError:
        return None
    return display.Image(filename=to_file)
