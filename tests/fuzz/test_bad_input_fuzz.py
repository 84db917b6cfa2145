"""Malformed arguments to every public op: the answer is a result or one of TF's exception
classes (ValueError, TypeError, tf.errors.OpError), never another Python error or one raised
raw from inside NumPy, and never a changed Variable.

Failures found are kept in REGRESSIONS as (function name, arguments).
"""
import inspect
import operator
import os
import traceback

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tapeflow as tf

FUZZ = settings.get_profile(os.environ.get("TAPEFLOW_FUZZ", "fuzz-ci"))
TF_ERRORS = (ValueError, TypeError, tf.errors.OpError)

# Not ops on tensors: they take callables, build graphs, or change global state.
NOT_OPS = {"cond", "while_loop", "function", "custom_gradient", "grad_pass_through",
           "recompute_grad", "py_function", "no_gradient", "control_dependencies", "init_scope",
           "executing_eagerly", "group", "no_op", "gradients", "hessians", "set_seed",
           "is_tensor", "as_dtype", "parallel_stack"}


def public_ops() -> dict:
    found = {}
    for prefix in ("", "math", "nn", "linalg", "random", "bitwise"):
        namespace = getattr(tf, prefix) if prefix else tf
        for name in dir(namespace):
            fn = getattr(namespace, name)
            if name.startswith("_") or name in NOT_OPS or not inspect.isfunction(fn):
                continue
            found.setdefault(fn, f"{prefix}.{name}".lstrip("."))
    return {name: fn for fn, name in found.items()}


OPS = public_ops()


def _variables():
    return {"float variable": tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
            "int variable": tf.Variable([1, 2, 3])}


GOOD = {
    "float32 [2,3]": lambda: tf.constant([[1.0, -2.0, 3.0], [0.5, 0.0, -1.0]]),
    "float64 [3]": lambda: tf.constant([0.1, 0.2, 0.3], tf.float64),
    "int32 [2,3]": lambda: tf.constant([[0, 1, 2], [2, 1, 0]]),
    "int64 [2]": lambda: tf.constant([1, 0], tf.int64),
    "bool [2]": lambda: tf.constant([True, False]),
    "complex64 [2]": lambda: tf.constant([1 + 2j, 3j], tf.complex64),
    "float32 [0,3]": lambda: tf.zeros([0, 3]),
    "float32 [1,1,1,1,2]": lambda: tf.ones([1, 1, 1, 1, 2]),
    "float32 [2,2,2,2]": lambda: tf.ones([2, 2, 2, 2]),
    "scalar 1.5": lambda: 1.5,
    "int 2": lambda: 2,
    "int 0": lambda: 0,
    "list [1, 2]": lambda: [1, 2],
    "dtype float32": lambda: tf.float32,
    "dtype int32": lambda: tf.int32,
}
BAD = {
    "None": lambda: None,
    "object": lambda: object(),
    "string": lambda: "abc",
    "ragged list": lambda: [[1.0], [2.0, 3.0]],
    "list with None": lambda: [1.0, None],
    "object array": lambda: np.array([1, None], dtype=object),
    "dict": lambda: {"a": 1},
    "int -1": lambda: -1,
    "int -7": lambda: -7,
    "int 10**12": lambda: 10 ** 12,
    "negative shape": lambda: [-1, 2],
    "float nan": lambda: float("nan"),
    "float 1e300": lambda: 1e300,
    "float 0.5 as a count": lambda: 0.5,
    "shape with a float": lambda: [2.5, 1],
    "nested shape": lambda: [[2], [3]],
}
VALUES = {**GOOD, **BAD}
TENSORS = [label for label in sorted(GOOD) if "[" in label and not label.startswith("list")]


def argument(draw, variables):
    name = draw(st.sampled_from(sorted(VALUES) + sorted(variables)))
    return name, variables[name] if name in variables else VALUES[name]()


def call_and_check(fn, name, args, kwargs, variables, assigns: bool = False):
    """Calls fn; a failure must be one of TF's classes, raised by tapeflow; Variables must
    keep their values (when `assigns`, only when the call fails)."""
    before = {key: v.numpy().copy() for key, v in variables.items()}
    try:
        fn(*args, **kwargs)
        if assigns:
            return
    except TF_ERRORS as e:
        frames = traceback.extract_tb(e.__traceback__)
        inner = frames[-1].filename if frames else ""
        assert f"{os.sep}numpy{os.sep}" not in inner, (
            f"{name}: a raw NumPy {type(e).__name__} ({e}) from {inner}")
    except Exception as e:  # noqa: BLE001
        raise AssertionError(f"{name}{tuple(args)} {kwargs}: {type(e).__name__}: {e}, not one "
                             "of TF's exception classes") from e
    for key, v in variables.items():
        np.testing.assert_array_equal(v.numpy(), before[key], err_msg=f"{name} changed {key}")


def draw_call(draw, fn):
    """Arguments for `fn`: every required parameter and some optional ones, each a good
    value, a malformed one or a Variable."""
    params = [p for p in inspect.signature(fn).parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
              and p.name != "name"]
    variables = _variables()
    args, kwargs, described = [], {}, []
    for p in params:
        required = p.default is p.empty
        if not required and not draw(st.booleans()):
            continue
        label, value = argument(draw, variables)
        described.append(f"{p.name}={label}")
        if p.kind is p.KEYWORD_ONLY or not required:
            kwargs[p.name] = value
        else:
            args.append(value)
    return args, kwargs, variables, ", ".join(described)


# Each op gets a tenth of the profile's examples (10 in CI), every op every run.
PER_OP = settings(FUZZ, max_examples=FUZZ.max_examples // 10)


@pytest.mark.parametrize("name", sorted(OPS))
@PER_OP
@given(st.data())
def test_malformed_arguments_get_tf_errors_and_change_nothing(name, data):
    args, kwargs, variables, described = draw_call(data.draw, OPS[name])
    call_and_check(OPS[name], f"{name}({described})", args, kwargs, variables)


VARIABLE_METHODS = ("assign", "assign_add", "assign_sub")


@FUZZ
@given(st.sampled_from(VARIABLE_METHODS), st.sampled_from(sorted(VALUES)),
       st.sampled_from(["float variable", "int variable"]))
def test_a_refused_assignment_leaves_the_variable(method, value, which):
    variables = _variables()
    call_and_check(getattr(variables[which], method), f"{which}.{method}({value})",
                   [VALUES[value]()], {}, variables, assigns=True)


# (function, positional arguments by name in VALUES, keyword arguments by name)
REGRESSIONS = {
    "einsum of no equation": ("einsum", ["None"], {}),
    "eye of a [0,3] tensor": ("eye", ["float32 [0,3]"], {}),
    "eye of -1 rows": ("eye", ["int -1"], {}),
    "stack of a [0,3] tensor": ("stack", ["float32 [0,3]"], {}),
    "concat of a [0,3] tensor": ("concat", ["float32 [0,3]", "None"], {}),
    "embedding_lookup in scalar shards": ("nn.embedding_lookup", ["list [1, 2]", "int -1"], {}),
    "embedding_lookup max_norm of an int table": (
        "nn.embedding_lookup", ["int32 [2,3]", "int64 [2]"], {"max_norm": "float32 [1,1,1,1,2]"}),
    "broadcast_to a 1e300 shape": ("broadcast_to", ["bool [2]", "float 1e300"], {}),
    "reshape to a nested shape": ("reshape", ["float32 [2,3]", "nested shape"], {}),
    "reshape to a float shape": ("reshape", ["float32 [2,3]", "shape with a float"], {}),
    "constant of shape -1": ("constant", ["float 0.5 as a count"], {"shape": "int -1"}),
    "eye of 10**12 rows": ("eye", ["int 10**12"], {}),
    "embedding_lookup of a tensor max_norm": (
        "nn.embedding_lookup", ["float32 [1,1,1,1,2]", "int 0"], {"max_norm": "float32 [0,3]"}),
    "split into 10**12 parts": ("split", ["float32 [0,3]", "int 10**12"], {}),
    "linspace between shapes that do not broadcast": (
        "linspace", ["float32 [0,3]", "float32 [1,1,1,1,2]", "int 0"], {}),
    "split by ragged sizes": ("split", ["bool [2]", "ragged list"], {}),
    "constant of shape 10**12": ("constant", ["float 0.5 as a count"], {"shape": "int 10**12"}),
    "tensordot on ragged axes": ("tensordot", ["complex64 [2]", "complex64 [2]", "ragged list"],
                                 {}),
    "tensordot of scalars on tensor axes": (
        "tensordot", ["float 0.5 as a count", "float 0.5 as a count", "int32 [2,3]"], {}),
}


@pytest.mark.parametrize("case", sorted(REGRESSIONS))
def test_regressions(case):
    name, args, kwargs = REGRESSIONS[case]
    variables = _variables()
    call_and_check(OPS[name], case, [VALUES[a]() for a in args],
                   {k: VALUES[v]() for k, v in kwargs.items()}, variables)


def test_every_public_op_is_fuzzed():
    assert len(OPS) > 180


LAYERS = {
    "Activation": lambda: tf.keras.layers.Activation("relu"),
    "Add": tf.keras.layers.Add, "Average": tf.keras.layers.Average,
    "AveragePooling2D": tf.keras.layers.AveragePooling2D,
    "BatchNormalization": tf.keras.layers.BatchNormalization,
    "Concatenate": tf.keras.layers.Concatenate,
    "Conv2D": lambda: tf.keras.layers.Conv2D(2, 1),
    "Dense": lambda: tf.keras.layers.Dense(2),
    "Dropout": lambda: tf.keras.layers.Dropout(0.5),
    "Embedding": lambda: tf.keras.layers.Embedding(4, 2),
    "Flatten": tf.keras.layers.Flatten,
    "GlobalAveragePooling1D": tf.keras.layers.GlobalAveragePooling1D,
    "GlobalAveragePooling2D": tf.keras.layers.GlobalAveragePooling2D,
    "GlobalMaxPooling1D": tf.keras.layers.GlobalMaxPooling1D,
    "GlobalMaxPooling2D": tf.keras.layers.GlobalMaxPooling2D,
    "LayerNormalization": tf.keras.layers.LayerNormalization,
    "MaxPooling2D": tf.keras.layers.MaxPooling2D,
    "Maximum": tf.keras.layers.Maximum, "Minimum": tf.keras.layers.Minimum,
    "Multiply": tf.keras.layers.Multiply,
    "Reshape": lambda: tf.keras.layers.Reshape((4,)),
    "Subtract": tf.keras.layers.Subtract,
}


@pytest.mark.parametrize("name", sorted(LAYERS))
@PER_OP
@given(st.data())
def test_layers_called_on_malformed_inputs_get_tf_errors(name, data):
    """A built layer called on anything keeps its weights unless the call succeeds (a
    training-mode BatchNormalization call updates its moving statistics)."""
    layer = LAYERS[name]()
    good = tf.ones([2, 2, 2, 2]) if name.endswith("2D") else tf.ones([2, 2, 2])
    layer([good, good] if name in ("Add", "Average", "Concatenate", "Maximum", "Minimum",
                                   "Multiply", "Subtract") else good)
    variables = {w.name: w for w in layer.weights}
    label, value = argument(data.draw, _variables())
    if data.draw(st.booleans()):
        value = [value, VALUES[data.draw(st.sampled_from(sorted(VALUES)))]()]
    call_and_check(layer, f"{name}({label})", [value], {}, variables, assigns=True)


@FUZZ
@given(st.sampled_from(sorted(VALUES)), st.sampled_from(["SGD", "Adam", "RMSprop"]))
def test_apply_gradients_of_malformed_gradients_changes_nothing(value, optimizer):
    variables = _variables()
    opt = getattr(tf.keras.optimizers, optimizer)()
    target = variables["float variable"]

    def apply(gradient):
        opt.apply_gradients([(gradient, target)])
    call_and_check(apply, f"{optimizer}.apply_gradients({value})", [VALUES[value]()], {},
                   variables, assigns=True)


@FUZZ
@given(st.sampled_from(sorted(VALUES)))
def test_session_feeds_and_input_signatures_get_tf_errors(value):
    with tf.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float32, [None, 3])
        y = tf.reduce_sum(x * 2.0)
        with tf.compat.v1.Session() as session:
            call_and_check(lambda v: session.run(y, {x: v}), f"Session.run(feed {value})",
                           [VALUES[value]()], {}, {})
    f = tf.function(lambda a: a * 2.0, input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    call_and_check(f, f"input_signature call({value})", [VALUES[value]()], {}, {})


OPERATORS = ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "lt", "ge",
             "and_", "or_", "xor", "getitem", "neg", "abs", "invert"]


@pytest.mark.parametrize("name", OPERATORS)
@PER_OP
@given(st.data())
def test_operators_on_malformed_operands_get_tf_errors(name, data):
    """Python's operators on a tensor or Variable with any other operand (a getitem key)."""
    variables = _variables()
    left = data.draw(st.sampled_from([*sorted(variables), *TENSORS]))
    left = variables[left] if left in variables else GOOD[left]()  # never two Python numbers
    fn = getattr(operator, name)
    if name in ("neg", "abs", "invert"):
        call_and_check(fn, f"{name}({left!r})", [left], {}, variables)
        return
    label, right = argument(data.draw, variables)
    if name != "getitem" and data.draw(st.booleans()):  # the reflected operator
        left, right = right, left
    call_and_check(fn, f"{name}(..., {label})", [left, right], {}, variables)
