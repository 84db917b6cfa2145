"""tf.function: trace a Python function into a graph once per input signature, then run it
as a compiled plan (framework/plan.py): one call of generated Python over arrays, with no
per-op dispatch.

A signature is the dtypes and shapes of the tensor arguments plus the values of the other
arguments (Python numbers by value: 2 and 2.0 are one signature); each new one traces
again (with a warning when that happens on every call). A composite tensor (SparseTensor)
passes as its component tensors: its signature is its TypeSpec (dtype and static shape)
and its components' specs, and the trace rebuilds it from placeholders; one returned is
rebuilt from the function's outputs.
Variables are captured by reference: reads see the current value and assignments persist.

Differentiation: a GradientTape inside the function, or `tf.gradients`, differentiates
symbolically in the function's graph. A tape outside records one `PartitionedCall`
operation per call; its gradient is a traced backward graph, built once per concrete
function in the same graph, that takes the forward's saved intermediate values as inputs.
"""
from __future__ import annotations

import collections
import contextlib
import functools
import inspect
import threading
import weakref

import numpy as np

from ..framework import dtypes, nest
from ..framework.composite_tensor import CompositeTensor, TypeSpec, is_composite_spec
from ..framework.context import state
from ..framework.execute import execute, record_operation
from ..framework.graph import FuncGraph, Operation, get_default_graph
from ..framework.graph_def import graph_def_form
from ..framework.indexed_slices import IndexedSlices, to_dense
from ..framework.plan import Plan
from ..framework.registry import RegisterGradient, define_op
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_spec import TensorSpec
from ..framework.variables import Variable
from ..ops.extension_type import ExtensionTypeSpec
from .backward import backward
from .domains import GraphDomain
from .function_type import FunctionType, output_structure, parameter_layout, spec_of

__all__ = ["Function", "ConcreteFunction", "function_executor_type"]

# How calls of functions traced into a graph are to run: the `executor_type` attribute of
# their call nodes (GraphDefs carry it to TF's runtime; tapeflow's plans ignore it).
_CALL_OPTIONS = {"executor_type": ""}


@contextlib.contextmanager
def function_executor_type(executor_type):
    """Within it, calls of tf.functions made while a graph is built name `executor_type`
    (their `executor_type` attribute, which GraphDefs carry); None or "" for the default.

    Example:
        >>> import tapeflow as tf
        >>> inner = tf.function(lambda x: x + 1.0)
        >>> @tf.function
        ... def outer(x):
        ...     with tf.experimental.function_executor_type("SINGLE_THREADED_EXECUTOR"):
        ...         return inner(x)
        >>> float(outer(tf.constant(1.0)))
        2.0
    """
    previous = _CALL_OPTIONS["executor_type"]
    _CALL_OPTIONS["executor_type"] = executor_type or ""
    try:
        yield
    finally:
        _CALL_OPTIONS["executor_type"] = previous

_TENSOR = "tensor"
_COMPOSITE = "composite"
RETRACING_WARNING_THRESHOLD = 5
_SINGLETON_VARIABLES = (
    "tf.function only supports singleton tf.Variables created on the first call: {name!r} "
    "creates a variable again when traced after its first call, which created variables "
    "(the first call traces twice). Create each variable once: outside the function, or "
    "guarded (`if self.w is None: self.w = tf.Variable(...)`).")
_VARIABLES_LATER = (
    "Creating variables on a non-first call to a function decorated with tf.function: "
    "{name!r} creates a variable in a later trace, but its first call created none.")


def _call_kernel(*values, f, saved=None, executor_type=""):
    return f._plan(*values[:len(f.inputs)])


PartitionedCall = define_op("PartitionedCall", _call_kernel, num_outputs=None)
PartitionedCall.shape_fn = lambda inputs, attrs: attrs["f"]._output_specs
# TF calls a function holding stateful ops (variable reads) with StatefulPartitionedCall.
graph_def_form("PartitionedCall", tf_type=lambda op: "StatefulPartitionedCall" if
               op.attrs["f"]._stateful else "PartitionedCall", drop=("saved",))


def _is_tensor_leaf(x) -> bool:
    return isinstance(x, (Tensor, np.ndarray, TensorSpec, CompositeTensor)) or \
        is_composite_spec(x)


def _composite_key(spec: TypeSpec) -> tuple:
    """A composite's signature: its spec without its shape, its static dims, and the keys of
    its components' specs (the number of values of a SparseTensor is not part of it); an
    extension type's is its whole spec, and a spec without a shape of its own (an
    OptionalSpec) is its own key."""
    if isinstance(spec, ExtensionTypeSpec):  # its tensors' shapes are its components'
        return (_COMPOSITE, spec._trace_signature(), None,
                tuple([_walk(c, []) for c in spec._component_specs]))
    shape = getattr(spec, "shape", None)
    if shape is None:
        return (_COMPOSITE, spec, None, tuple([_walk(c, []) for c in spec._component_specs]))
    return (_COMPOSITE, spec._with_shape(None), None if shape.rank is None else
            tuple(shape.as_list()), tuple([_walk(c, []) for c in spec._component_specs]))


def _keyed_spec(key: tuple) -> TypeSpec:
    """The spec a composite's signature key stands for (`_composite_key`), with its static
    dims."""
    spec = key[1]
    if isinstance(spec, ExtensionTypeSpec):
        return spec._with_component_shapes([TensorShape(part[2]) for part in key[3]])
    return spec if getattr(spec, "shape", None) is None else spec._with_shape(key[2])


def _typed(key) -> bool:
    """Whether a signature key stands for a tensor or a composite argument."""
    return type(key) is tuple and len(key) in (3, 4) and key[0] in (_TENSOR, _COMPOSITE)


def _flat_components(flat: list) -> list:
    """`flat` with each composite tensor replaced by its component tensors."""
    out = []
    for leaf in flat:
        if isinstance(leaf, CompositeTensor):
            out.extend(leaf._type_spec._to_components(leaf))
        else:
            out.append(leaf)
    return out


def _walk(x, leaves: list):
    """A hashable signature of `x`; its tensor leaves are appended to `leaves`."""
    kind = type(x)
    if kind is Tensor:
        value = x._value
        leaves.append(x)
        return (_TENSOR, value.dtype.char, value.shape)
    if kind is tuple or kind is list:
        return (kind, tuple([_walk(item, leaves) for item in x]))
    if kind is dict:
        return (dict, tuple([(k, _walk(x[k], leaves)) for k in sorted(x)]))
    if isinstance(x, Tensor):
        value = x._value
        leaves.append(x)
        return (_TENSOR, value.dtype.char, x._dims if hasattr(x, "_dims") else value.shape)
    if isinstance(x, Variable):
        return ("variable", x._id)
    if isinstance(x, np.ndarray):
        leaves.append(x)
        return (_TENSOR, x.dtype.char, x.shape)
    if isinstance(x, TensorSpec):
        leaves.append(x)
        return (_TENSOR, x.dtype._np.char, None if x.shape.rank is None else tuple(x.shape.dims))
    if isinstance(x, (tuple, list)):
        return (kind, tuple([_walk(item, leaves) for item in x]))
    if isinstance(x, dict):
        return (kind, tuple([(k, _walk(x[k], leaves)) for k in sorted(x)]))
    if isinstance(x, CompositeTensor):
        spec = x._type_spec
        leaves.extend(spec._to_components(x))
        return _composite_key(spec)
    if is_composite_spec(x):
        leaves.extend(x._component_specs)
        return _composite_key(x)
    if isinstance(x, (int, float, complex)):
        return ("number", x)  # equal numbers share a trace, as in TF: 2 and 2.0, 1 and True
    try:
        hash(x)
        return (kind, x)
    except TypeError:
        return ("id", id(x))


def _leaf_keys(key, found: list) -> list:
    """The keys of the tensor and composite leaves of a signature, in order."""
    if isinstance(key, tuple):
        if _typed(key):
            found.append(key)
        else:
            for item in key:
                _leaf_keys(item, found)
    return found


def _compatible(template, key) -> bool:
    """Whether a call with signature `key` can run a function traced for `template`."""
    if _typed(template):
        if not _typed(key) or template[:2] != key[:2]:
            return False
        general, specific = template[2], key[2]
        fits = general is None or specific is not None and len(general) == len(specific) and \
            all(g is None or g == s for g, s in zip(general, specific))
        return fits and (template[0] == _TENSOR or _compatible(template[3], key[3]))
    if isinstance(template, tuple) and isinstance(key, tuple) and len(template) == len(key):
        return all(_compatible(a, b) for a, b in zip(template, key))
    return template == key


_MISMATCH = object()


def _relaxed(template, key):
    """`key` with the dimensions that differ from `template` unknown, or _MISMATCH if the
    two differ in anything but dimensions (reduce_retracing)."""
    if _typed(template):
        if not _typed(key) or template[:2] != key[:2]:
            return _MISMATCH
        a, b = template[2], key[2]
        if isinstance(key[1], ExtensionTypeSpec):  # its shapes are its components'
            parts = _relaxed(template[3], key[3])
            return _MISMATCH if parts is _MISMATCH else (_COMPOSITE, key[1], None, parts)
        if a is None or b is None or len(a) != len(b):
            return _MISMATCH  # ranks stay known: ops need them to build the graph
        dims = tuple(d if d == e else None for d, e in zip(a, b))
        if template[0] == _TENSOR:
            return (_TENSOR, key[1], dims)
        parts = _relaxed(template[3], key[3])
        return _MISMATCH if parts is _MISMATCH else (_COMPOSITE, key[1], dims, parts)
    if isinstance(template, tuple) and isinstance(key, tuple) and len(template) == len(key):
        parts = tuple([_relaxed(a, b) for a, b in zip(template, key)])
        return _MISMATCH if any(p is _MISMATCH for p in parts) else parts
    return key if template == key else _MISMATCH


class _EagerFunctions:
    """`tf.config.run_functions_eagerly`: while `enabled`, every Function calls its Python
    function as it is, op by op, instead of a trace (for debugging)."""

    enabled = False


eager_functions = _EagerFunctions()


class ConcreteFunction:
    """One trace of a tf.function: its graph, input placeholders, outputs and compiled plan.

    Call it with the tensor arguments of the trace, in order (Python arguments are fixed).

    Example:
        >>> import tapeflow as tf
        >>> f = tf.function(lambda x: x * x)
        >>> cf = f.get_concrete_function(tf.TensorSpec([None], tf.float32))
        >>> cf(tf.constant([1.0, 3.0])).numpy()
        array([1., 9.], dtype=float32)
    """

    def __init__(self, graph: FuncGraph, inputs: list, structured_outputs,
                 captured_inputs: list = (), always: list = (), name: str = "function") -> None:
        self.graph = graph
        self.name = name
        self.structured_outputs = structured_outputs
        self._flat = nest.flatten(structured_outputs)
        positions, outputs, composites = [], [], {}
        with graph.as_default():
            for i, leaf in enumerate(self._flat):
                if isinstance(leaf, CompositeTensor):
                    spec = leaf._type_spec
                    parts = spec._to_components(leaf)
                    composites[i] = (spec, len(parts))
                    positions.append(i)
                    outputs.extend([graph._graph_input(p) for p in parts])
                elif isinstance(leaf, (Tensor, Variable)) or hasattr(leaf, "_as_tensor"):
                    leaf = leaf if isinstance(leaf, (Tensor, Variable)) else leaf._as_tensor()
                    positions.append(i)
                    outputs.append(graph._graph_input(leaf))
        self._positions = positions
        self._composites = composites
        self._single = len(self._flat) == 1 and positions == [0] and not composites and \
            not isinstance(structured_outputs, (list, tuple, dict))
        # A plain list or tuple of tensors is rebuilt directly (the common `return a, b`).
        self._sequence = type(structured_outputs) if type(structured_outputs) in (list, tuple) \
            and positions == list(range(len(structured_outputs))) and not composites and not any(
                isinstance(x, (list, tuple, dict)) for x in structured_outputs) else None
        self.outputs = outputs
        self.inputs = list(inputs)
        self.captured_inputs = list(captured_inputs)
        self._captured_values = None if any(hasattr(c, "_op") for c in captured_inputs) else \
            [c._value for c in captured_inputs]
        self._always = list(always)
        self._plan = Plan(graph._ops, self.inputs, outputs, self._always, name=name)
        variables: dict = {}
        for op in self._plan.ops:
            if op._inputs and isinstance(op._inputs[0], Variable):
                variables.setdefault(op._inputs[0]._id, op._inputs[0])
        self.variables = tuple(variables.values())
        self._stateful = any(op._stateful for op in self._plan.ops)
        self._output_specs = [(o._value.dtype, o._dims) for o in outputs]
        self._gradient = None
        self.structured_input_signature = None
        self.function_type = None

    def _describe_inputs(self, layout: list, annotated: list) -> None:
        """Sets `structured_input_signature` and `function_type` from the trace's arguments
        (see function_type.parameter_layout): `layout` with specs named as the placeholders
        for the traced values, `annotated` with the specs' own names (None for tensors)."""
        positional = tuple(v for _, kind, v in layout if kind.name != "KEYWORD_ONLY")
        keywords = {name: v for name, kind, v in layout if kind.name == "KEYWORD_ONLY"}
        self.structured_input_signature = (positional, keywords)
        captures = {id(outer): spec_of(outer) for outer in self.captured_inputs}
        captures.update({id(v): TensorSpec([], "resource") for v in self.variables})
        self.function_type = FunctionType.of_trace(
            annotated, output_structure(self.structured_outputs), captures)

    @property
    def trainable_variables(self) -> tuple:
        return tuple(v for v in self.variables if v.trainable)

    @property
    def output_shapes(self):
        """The static shapes of the outputs, in the structure of `structured_outputs`."""
        return nest.map_structure(lambda x: x.shape if spec_of(x) is not None else x,
                                  self.structured_outputs)

    @property
    def output_dtypes(self):
        """The dtypes of the outputs, in the structure of `structured_outputs`."""
        return nest.map_structure(lambda x: x.dtype if spec_of(x) is not None else x,
                                  self.structured_outputs)

    def pretty_printed_signature(self, verbose: bool = True) -> str:
        """The trace's parameters, result type and captures, as text.

        Args:
            verbose: False gives the one-line form `(x: TensorSpec(...)) -> TensorSpec(...)`.

        Returns:
            The text.

        Example:
            >>> import tapeflow as tf
            >>> f = tf.function(lambda x, n=2: x * n)
            >>> cf = f.get_concrete_function(tf.TensorSpec([None], tf.float32))
            >>> cf.pretty_printed_signature(verbose=False)
            '(x: TensorSpec(shape=(None,), dtype=tf.float32, name=None), n: Literal[2]) -> TensorSpec(shape=(None,), dtype=tf.float32, name=None)'
        """
        return self.function_type.pretty_printed(verbose)

    def __call__(self, *args):
        expected = len(self.inputs) - len(self.captured_inputs)
        if len(args) != expected:
            raise TypeError(f"{self.name} takes {expected} tensor arguments, got {len(args)}")
        return self._call_flat(list(args))

    def _call_flat(self, args: list):
        st = state
        if st.graph is not None:
            inputs = tuple([convert_to_tensor(a) for a in args]) + \
                tuple(self.captured_inputs) + tuple(self.variables)
            attrs = {"f": self}
            if _CALL_OPTIONS["executor_type"]:
                attrs["executor_type"] = _CALL_OPTIONS["executor_type"]
            return self._pack(list(execute(PartitionedCall, inputs, attrs)))
        captured = self._captured_values
        if captured is None:
            raise ValueError(f"{self.name} uses tensors of another graph; it can only be called "
                             "while that graph is built.")
        args = [a if isinstance(a, Tensor) else convert_to_tensor(a) for a in args]
        values = [a._value for a in args] + captured
        if st.recorders:
            results = self._gradient_info().save_plan(*values)
            count = len(self.outputs)
            outputs = tuple([Tensor(r) for r in results[:count]])
            record_operation(PartitionedCall, tuple(args) + tuple(self.captured_inputs) +
                             tuple(self.variables), outputs, {"f": self, "saved": results[count:]})
            return self._pack(outputs)
        results = self._plan(*values)
        if self._single:
            return Tensor(results[0])
        return self._pack([Tensor(r) for r in results])

    def _pack(self, tensors):
        if self._single:
            return tensors[0]
        if self._sequence is not None:
            return self._sequence(tensors)
        flat = list(self._flat)
        tensors = iter(tensors)
        for position in self._positions:
            composite = self._composites.get(position)
            flat[position] = next(tensors) if composite is None else \
                composite[0]._from_components([next(tensors) for _ in range(composite[1])])
        return nest.pack_sequence_as(self.structured_outputs, flat)

    def add_to_graph(self, g=None, overwrite: bool = False) -> None:
        """Adds this function to graph `g`'s functions (by default the current default
        graph), where `g._get_function(name)` finds it.

        Args:
            g: the graph; None for the default one.
            overwrite: replace a function of the same name (tapeflow always does).

        Example:
            >>> import tapeflow as tf
            >>> cf = tf.function(lambda x: x + 1).get_concrete_function(tf.constant(1))
            >>> g = tf.Graph()
            >>> cf.add_to_graph(g)
            >>> g._is_function(cf.name)
            True
        """
        (g if g is not None else get_default_graph())._add_function(self)

    def add_gradient_functions_to_graph(self, g=None) -> None:
        """Adds this function and its backward function (its inputs and the gradients of
        its outputs to the gradients of its inputs and variables) to graph `g`'s functions.

        Raises:
            LookupError: an op of the function has no gradient rule.

        Example:
            >>> import tapeflow as tf
            >>> cf = tf.function(lambda x: x * x).get_concrete_function(tf.constant(2.0))
            >>> g = tf.Graph()
            >>> cf.add_gradient_functions_to_graph(g)
            >>> g._get_function(cf.name + "_backward")(tf.constant(3.0), tf.constant(1.0))
            [<tf.Tensor: shape=(), dtype=float32, numpy=6.0>]
        """
        g = g if g is not None else get_default_graph()
        g._add_function(self)
        g._add_function(self._gradient_info().function)

    def _gradient_info(self) -> "_Gradient":
        if self._gradient is None:
            self._gradient = _Gradient(self)
        return self._gradient

    def __repr__(self) -> str:
        if self.function_type is None:
            return f"<ConcreteFunction {self.name}>"
        return f"<ConcreteFunction {self.pretty_printed_signature(False)} at 0x{id(self):X}>"

    def __str__(self) -> str:
        if self.function_type is None:
            return repr(self)
        return f"ConcreteFunction {self.pretty_printed_signature()}"


def _output_leaf(function):
    """The check of one leaf of what `function` returned: tensors, composites, Variables,
    TensorArrays, operations and None stay; Python numbers and strings and NumPy values
    become constants; anything else is a TypeError (a tf.function returns tensors)."""
    def check(x):
        if x is None or isinstance(x, (Tensor, Variable, CompositeTensor, Operation)) or \
                hasattr(x, "_as_tensor") or hasattr(x, "_type_spec"):
            return x
        if isinstance(x, (bool, int, float, complex, str, bytes, np.ndarray, np.generic)):
            return convert_to_tensor(x)
        raise TypeError(
            f"{function!r} returned a value of type {type(x).__name__}, which a tf.function "
            "cannot return: its results are Tensors, ExtensionTypes (composite tensors) and "
            "None, in any nesting of lists, tuples and dicts.")
    return check


class _Gradient:
    """The backward graph of a concrete function, built in its graph on first use.

    Sources are the function's inputs then the variables it reads. `save_plan` runs the
    forward and also returns the intermediate values the backward ops use; `backward_plan`
    takes them as inputs, so nothing is recomputed. `function` is the same backward as a
    ConcreteFunction of the inputs and upstream gradients alone (it recomputes what it
    needs), used when the backward pass is itself differentiated or built into a graph.
    """

    def __init__(self, f: ConcreteFunction) -> None:
        graph = f.graph
        start = len(graph._ops)
        records = [(op._op_def, op._inputs, op._outputs, op._attrs) for op in graph._ops]
        with graph.as_default(), graph.name_scope("gradients"):
            self.grad_inputs = [graph.placeholder(o._value.dtype, o.shape, name="grad")
                                for o in f.outputs]
            self.sources = list(f.inputs) + list(f.variables)
            # An input may be a value the graph computes (fed, so not computed): the
            # gradient stops there as the plans do.
            grads = backward(records, f.outputs, self.grad_inputs, self.sources, GraphDomain(),
                             stop_ids=frozenset(t._id for t in f.inputs))
            # The plans fetch tensors: sparse gradients (a gather's) are summed into dense.
            self.grads = [to_dense(g) if isinstance(g, IndexedSlices) else g for g in grads]
        fed = {t._id for t in f.inputs}
        saved: dict = {}
        for op in graph._ops[start:]:
            for x in op._inputs:
                if hasattr(x, "_op") and x._op._index < start and x._id not in fed \
                        and x._op.type != "Const":
                    saved.setdefault(x._id, x)
        self.saved = list(saved.values())
        self._f = f
        self.save_plan = Plan(graph._ops, f.inputs, f.outputs + self.saved, f._always,
                              name=f"{f.name}_forward")
        self.backward_plan = Plan(graph._ops, f.inputs + self.saved + self.grad_inputs,
                                  [g for g in self.grads if g is not None],
                                  name=f"{f.name}_backward")
        self._function = None

    @property
    def function(self) -> ConcreteFunction:
        if self._function is None:
            f = self._f
            self._function = ConcreteFunction(f.graph, f.inputs + self.grad_inputs,
                                              list(self.grads), name=f"{f.name}_backward")
        return self._function


@RegisterGradient("PartitionedCall")
def _partitioned_call_grad(op, *grads):
    f = op.attrs["f"]
    info = f._gradient_info()
    count = len(f.inputs)
    saved = op.attrs.get("saved")
    if saved is not None and not hasattr(grads[0], "_id"):
        computed = iter(info.backward_plan(*op.inputs[:count], *saved, *grads))
        return [None if g is None else next(computed) for g in info.grads]
    return list(info.function._call_flat(list(op.inputs[:count]) + list(grads)))


class Function:
    """A Python function compiled into graphs: what `tf.function` returns.

    Each call looks up the trace for its input signature (tracing on a miss) and runs its
    compiled plan.

    Example:
        >>> import tapeflow as tf
        >>> square = tf.function(lambda x: x * x)
        >>> float(square(tf.constant(3.0))), square.experimental_get_tracing_count()
        (9.0, 1)
    """

    def __init__(self, python_function, input_signature=None, reduce_retracing=False,
                 name=None, converter=None) -> None:
        functools.update_wrapper(self, python_function)
        self._python_function = python_function
        # `converter(python_function)` gives the function to trace (AutoGraph's conversion,
        # which lives a layer above); it runs once, at the first trace.
        self._converter = converter
        self._traced_function = None
        self._name = name or getattr(python_function, "__name__", "function")
        _check_input_signature(input_signature)
        self._input_signature = None if input_signature is None else tuple(input_signature)
        self._signature_key = None if input_signature is None else \
            _walk(list(self._input_signature), [])
        self._reduce_retracing = reduce_retracing
        self._cache: dict = {}
        self._concretes: list = []
        self._tracing_count = 0
        # Whether the first trace created variables (None before it succeeded).
        self._created_variables = None
        self._recent = collections.deque(maxlen=RETRACING_WARNING_THRESHOLD)
        self._bound = weakref.WeakKeyDictionary()
        # Threads making a first call together trace once: the others wait for that trace.
        self._tracing = threading.RLock()

    @property
    def python_function(self):
        return self._python_function

    @property
    def input_signature(self):
        return self._input_signature

    @property
    def name(self) -> str:
        return self._name

    def pretty_printed_concrete_signatures(self, verbose: bool = True) -> str:
        """The signatures of the traces made so far (see
        `ConcreteFunction.pretty_printed_signature`), one after another.

        Args:
            verbose: False gives each as one line.

        Returns:
            The text: blocks separated by a blank line (verbose), or lines.

        Example:
            >>> import tapeflow as tf
            >>> f = tf.function(lambda x: x)
            >>> _ = f(tf.constant(1.0)), f(tf.constant([1, 2]))
            >>> print(f.pretty_printed_concrete_signatures(verbose=False))
            (x: TensorSpec(shape=(), dtype=tf.float32, name=None)) -> TensorSpec(shape=(), dtype=tf.float32, name=None)
            (x: TensorSpec(shape=(2,), dtype=tf.int32, name=None)) -> TensorSpec(shape=(2,), dtype=tf.int32, name=None)
        """
        return ("\n\n" if verbose else "\n").join(
            concrete.pretty_printed_signature(verbose) for _, concrete in self._concretes)

    def experimental_get_tracing_count(self) -> int:
        """How many times the Python function has been traced."""
        return self._tracing_count

    def _decorate(self, decorator) -> None:
        """Replaces the Python function by `decorator(python_function)`, in place, as TF's
        Function allows before its first trace (libraries wrap decorated methods in their
        own scopes this way).

        Raises:
            ValueError: the function was traced already (or bound to an instance).
        """
        if self._concretes or len(self._bound):
            raise ValueError("Functions cannot be decorated after they have been traced.")
        self._python_function = decorator(self._python_function)
        self._traced_function = None

    def __get__(self, instance, owner):
        """A method: each instance gets its own Function (own traces, own variables)."""
        if instance is None:
            return self
        try:
            bound = self._bound.get(instance)
        except TypeError:  # not weakly referable or not hashable: a fresh one each access
            return self._bind(instance)
        if bound is None:
            with self._tracing:  # threads binding at once share one Function
                bound = self._bound.get(instance) or self._bind(instance)
                self._bound[instance] = bound
        return bound

    def _bind(self, instance) -> "Function":
        return Function(functools.partial(self._python_function, instance),
                        self._input_signature, self._reduce_retracing, self._name,
                        self._converter)

    def __call__(self, *args, **kwargs):
        if eager_functions.enabled:
            return self._python_function(*args, **kwargs)
        leaves: list = []
        if self._input_signature is not None:
            args, leaves = self._bind_signature(args, kwargs)
            key = (self._signature_key, None, state.graph)
            kwargs = {}
        else:
            key = (_walk(args, leaves), _walk(kwargs, leaves) if kwargs else None, state.graph)
        concrete = self._cache.get(key)
        if concrete is None:
            concrete = self._concrete_for(key, args, kwargs, leaves)
        else:
            self._recent.append(False)
        return concrete._call_flat(leaves)

    def get_concrete_function(self, *args, **kwargs) -> ConcreteFunction:
        """The trace for these arguments (tensors or TensorSpecs), tracing if needed."""
        leaves: list = []
        if self._input_signature is not None and not args and not kwargs:
            args = self._input_signature
        key = (_walk(args, leaves), _walk(kwargs, leaves) if kwargs else None, state.graph)
        return self._cache.get(key) or self._concrete_for(key, args, kwargs, leaves)

    def _concrete_for(self, key, args, kwargs, leaves) -> ConcreteFunction:
        with self._tracing:
            concrete = self._cache.get(key)
            if concrete is None:
                concrete = self._matching_or_new(key, args, kwargs, leaves)
            return concrete

    def _matching_or_new(self, key, args, kwargs, leaves) -> ConcreteFunction:
        for template, concrete in self._concretes:
            if _compatible(template, key):
                self._cache[key] = concrete
                self._recent.append(False)
                return concrete
        trace_key = key
        if self._reduce_retracing:
            for template, _ in self._concretes:
                relaxed = _relaxed(template, key)
                if relaxed is not _MISMATCH:
                    trace_key = relaxed
                    break
        concrete = self._trace(trace_key, args, kwargs, leaves)
        self._concretes.append((trace_key, concrete))
        self._cache[key] = concrete
        return concrete

    def _trace(self, key, args, kwargs, leaves) -> ConcreteFunction:
        """Traces for `key`. Only the first trace may create variables (made outside the
        function, their initial values lifted: FuncGraph.creating_variables); when it
        does, the function is traced again at once, creating none, and that trace is
        the one that runs (so a variable created on every trace is a ValueError)."""
        if self._created_variables is None:
            concrete = self._trace_once(key, args, kwargs, leaves, None)
            self._created_variables = bool(concrete.graph.created_variables)
            if not self._created_variables:
                return concrete
        refusal = (_SINGLETON_VARIABLES if self._created_variables else _VARIABLES_LATER
                   ).format(name=self._name)
        return self._trace_once(key, args, kwargs, leaves, refusal)

    def _trace_once(self, key, args, kwargs, leaves, refusal) -> ConcreteFunction:
        graph = FuncGraph(self._name, outer_graph=state.graph)
        layout, _ = parameter_layout(self._python_function, list(args), kwargs)
        names = iter(self._placeholder_names(args, kwargs, leaves))
        with graph.as_default(), graph.creating_variables(refusal):
            placeholders, stand_ins = [], []
            for leaf in _leaf_keys(key, []):
                parts = [leaf] if leaf[0] == _TENSOR else leaf[3]
                made = [graph.placeholder(dtypes.numpy_dtype(char), TensorShape(dims),
                                          name=next(names))
                        for _, char, dims in parts]
                placeholders.extend(made)
                stand_ins.append(made[0] if leaf[0] == _TENSOR else
                                 _keyed_spec(leaf)._from_components(made))
            if refusal is None:  # initial values may be computed from this call's arguments
                graph.lift_sources = {p._id: leaf for p, leaf in zip(placeholders, leaves)
                                      if isinstance(leaf, Tensor)}
            replaced = iter(stand_ins)
            call_args, call_kwargs = nest.map_structure(
                lambda x: next(replaced) if _is_tensor_leaf(x) else x, (list(args), kwargs))
            outputs = self._function_to_trace()(*call_args, **call_kwargs)
            outputs = nest.map_structure(_output_leaf(self._python_function), outputs)
            # An eager tensor returned as is is a capture.
            for leaf in _flat_components(nest.flatten(outputs)):
                if isinstance(leaf, Tensor) and not hasattr(leaf, "_op"):
                    graph._graph_input(leaf)
            concrete = ConcreteFunction(
                graph, placeholders + [inner for _, inner in graph.captures.values()], outputs,
                [outer for outer, _ in graph.captures.values()],
                [op for op in graph._ops if op._stateful], name=self._name)
        concrete._describe_inputs(*_spec_layouts(layout, iter(stand_ins)))
        self._tracing_count += 1
        self._recent.append(True)
        if self._tracing_count >= RETRACING_WARNING_THRESHOLD and all(self._recent) and \
                len(self._recent) == RETRACING_WARNING_THRESHOLD:
            import logging  # only here: `import tapeflow` does not load logging
            logging.getLogger("tapeflow").warning(
                "%d out of the last %d calls to %s triggered tf.function retracing. Tracing is "
                "expensive; frequent retracing usually comes from (1) creating the tf.function "
                "in a loop, (2) passing tensors of different shapes (try reduce_retracing=True "
                "or an input_signature), or (3) passing Python numbers instead of tensors.",
                len(self._recent), len(self._recent), self._python_function)
        return concrete

    def _placeholder_names(self, args, kwargs, leaves) -> list:
        """The names of the placeholders of a trace, one per tensor leaf in order: a
        TensorSpec's own name, else the argument's (`x`, `args_0` for the first of `*args`,
        the key of a keyword argument); the graph numbers repeats (`x_1`)."""
        layout, _ = parameter_layout(self._python_function, list(args), {})
        names = []
        for (name, _, value) in layout[:len(args)]:
            found: list = []
            _walk(value, found)
            names.extend([name] * len(found))
        for key in (sorted(kwargs) if kwargs else ()):
            found = []
            _walk(kwargs[key], found)
            names.extend([key] * len(found))
        specs: list = []
        if self._input_signature is not None and args is not self._input_signature and \
                len(args) == len(self._input_signature):
            _walk(list(self._input_signature), specs)
        else:
            specs = leaves
        return [spec.name if isinstance(spec, TensorSpec) and spec.name else name
                for name, spec in zip(names, list(specs) + [None] * (len(names) - len(specs)))]

    def _function_to_trace(self):
        if self._traced_function is None:
            self._traced_function = self._python_function if self._converter is None else \
                self._converter(self._python_function)
        return self._traced_function

    def _bind_signature(self, args, kwargs) -> tuple:
        try:
            bound = inspect.signature(self._python_function).bind(*args, **kwargs)
            positional = list(bound.args)
        except (TypeError, ValueError):
            positional = list(args)
        signature = self._input_signature
        flat_specs = nest.flatten(list(signature))
        flat_args = _flatten_up_to(list(signature), positional)
        problem = None
        leaves = []
        if flat_args is None:
            problem = f"{len(positional)} arguments for {len(signature)} specs"
        else:
            for arg, spec in zip(flat_args, flat_specs):
                if is_composite_spec(spec):
                    if not spec.is_compatible_with(arg):
                        problem = f"{arg!r} does not fit {spec}"
                        break
                    leaves.extend(spec._to_components(arg))
                    continue
                try:
                    tensor = convert_to_tensor(arg, dtype=spec.dtype)
                except (TypeError, ValueError) as e:
                    problem = str(e)
                    break
                if not spec.is_compatible_with(tensor):
                    problem = f"{tensor.shape} {tensor.dtype.name} does not fit {spec}"
                    break
                leaves.append(tensor)
        if problem is not None:
            raise TypeError(f"Binding inputs to tf.function {self._name!r} failed: the "
                            f"arguments do not match its input_signature {list(signature)} "
                            f"({problem}).")
        return list(signature), leaves

    def __repr__(self) -> str:
        return f"<tapeflow.function {self._name}>"


def _spec_layouts(layout: list, stand_ins) -> tuple:
    """`layout` (see function_type.parameter_layout) with each tensor or composite argument
    replaced by the spec of its stand-in in the trace: named as its placeholder, and named as
    the argument's own spec (None for a tensor)."""
    named, annotated = [], []
    for name, kind, value in layout:
        flat = nest.flatten(value)
        pairs = []
        for leaf in flat:
            if not _is_tensor_leaf(leaf):
                pairs.append((leaf, leaf))
                continue
            stand_in = next(stand_ins)
            spec = spec_of(stand_in, None if isinstance(stand_in, CompositeTensor) else
                           stand_in.op.name)
            own = getattr(leaf, "name", None) if isinstance(leaf, TensorSpec) else None
            pairs.append((spec, spec if isinstance(stand_in, CompositeTensor) else
                          TensorSpec(spec.shape, spec.dtype, name=own)))
        named.append((name, kind, nest.pack_sequence_as(value, [p[0] for p in pairs])))
        annotated.append((name, kind, nest.pack_sequence_as(value, [p[1] for p in pairs])))
    return named, annotated


def _check_input_signature(signature) -> None:
    """TypeError unless `signature` is None or a (nested) list or tuple of TypeSpecs."""
    if signature is None:
        return
    if not isinstance(signature, (list, tuple)):
        raise TypeError(f"input_signature must be a tuple or a list of TensorSpecs (or other "
                        f"TypeSpecs, nested), got {type(signature)}.")
    invalid = [x for x in nest.flatten(list(signature))
               if not isinstance(x, (TypeSpec, TensorSpec))]
    if invalid:
        raise TypeError(f"input_signature must be a possibly nested sequence of TensorSpec "
                        f"objects, got invalid args {invalid} with types "
                        f"{[type(x) for x in invalid]}.")


def _flatten_up_to(structure, value):
    """The parts of `value` matching the leaves of `structure`, or None if it does not fit."""
    if isinstance(structure, (list, tuple)):
        if not isinstance(value, (list, tuple)) or len(value) != len(structure):
            return None
        parts = [_flatten_up_to(s, v) for s, v in zip(structure, value)]
        return None if any(p is None for p in parts) else [x for p in parts for x in p]
    if isinstance(structure, dict):
        if not isinstance(value, dict) or sorted(value) != sorted(structure):
            return None
        return _flatten_up_to([structure[k] for k in sorted(structure)],
                              [value[k] for k in sorted(structure)])
    return [value]
