"""Helpers for the parity tests: the same code run under tapeflow and under TensorFlow.

Nothing here imports TensorFlow at collection time: the `tensorflow` fixture does, and skips
when it is not installed. `make parity` runs these tests (`-m parity`); the default suite
deselects them.
"""
from __future__ import annotations

import types
import zlib

import numpy as np
import pytest

import tapeflow
from tapeflow.eager.function import Function
from tapeflow.framework.registry import OpDef

_NAMESPACES = ("", "math", "nn", "linalg", "random", "signal")
# Gradient ops the table calls directly, and the names TF's raw ops give their inputs.
_RAW_OPS = {"ReluGrad": ("gradients", "features"), "Relu6Grad": ("gradients", "features"),
            "LeakyReluGrad": ("gradients", "features"), "EluGrad": ("gradients", "outputs"),
            "SeluGrad": ("gradients", "outputs"), "SqrtGrad": ("y", "dy"),
            "RsqrtGrad": ("y", "dy"), "ReciprocalGrad": ("y", "dy")}


class Untranslatable(Exception):
    """The row calls a tapeflow internal (an OpDef, a kernel module) that TF does not have."""


class _ModuleTwin:
    """A tapeflow module of ops in a translated function: its attributes, translated."""

    def __init__(self, module, translate) -> None:
        self._module, self._translate = module, translate

    def __getattr__(self, attr):
        return self._translate(getattr(self._module, attr))


class _Internal:
    """Stands for a tapeflow internal in a translated function: using it skips the row."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr):
        raise Untranslatable(f"{self._name}.{attr} is a tapeflow internal")

    def __call__(self, *args, **kwargs):
        raise Untranslatable(f"{self._name} is a tapeflow internal")


def _global_names(code: types.CodeType) -> set:
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _global_names(const)
    return names


class Translator:
    """`translate(obj)`: the TensorFlow twin of a gradient-table row function.

    Functions written in the table are rebuilt from their code with `tf` bound to
    TensorFlow (their closures, defaults and the helpers they call translated the same
    way); tapeflow's public functions map to TF's function of the same public name.
    """

    def __init__(self, tensorflow) -> None:
        self.tf = tensorflow
        self._public: dict = {}
        for namespace in _NAMESPACES:  # the shortest public name TF has wins
            module = getattr(tapeflow, namespace) if namespace else tapeflow
            for name, obj in vars(module).items():
                if callable(obj) and not name.startswith("_"):
                    self._public.setdefault(id(obj), []).append((namespace, name))
        self._memo: dict = {}

    def __call__(self, obj):
        if id(obj) not in self._memo:
            self._memo[id(obj)] = (obj, self._translate(obj))  # obj kept alive: ids stay unique
        return self._memo[id(obj)][1]

    def _translate(self, obj):
        if obj is tapeflow:
            return self.tf
        if isinstance(obj, types.ModuleType):
            return _ModuleTwin(obj, self) if obj.__name__.startswith("tapeflow.") else obj
        if isinstance(obj, tapeflow.DType):
            return self.tf.as_dtype(obj.name)
        if isinstance(obj, OpDef):
            if obj.name not in _RAW_OPS:
                return _Internal(f"OpDef {obj.name}")
            raw, names = getattr(self.tf.raw_ops, obj.name), _RAW_OPS[obj.name]
            return lambda *inputs, **attrs: raw(**dict(zip(names, inputs)), **attrs)
        if isinstance(obj, Function):
            return self.tf.function(self(obj.python_function))
        if id(obj) in self._public and getattr(obj, "__module__", "").startswith("tapeflow"):
            for namespace, name in self._public[id(obj)]:
                twin = getattr(getattr(self.tf, namespace) if namespace else self.tf, name, None)
                if twin is not None:
                    return twin
            return _Internal(f"tapeflow {self._public[id(obj)]}")
        if isinstance(obj, types.FunctionType):
            if obj.__module__.startswith("tapeflow.testing"):
                return self._rebuild(obj)
            if obj.__module__.startswith("tapeflow"):
                return _Internal(obj.__qualname__)
        return obj

    def _rebuild(self, fn: types.FunctionType) -> types.FunctionType:
        scope = dict(fn.__globals__)
        cells = None
        if fn.__closure__:
            cells = tuple(types.CellType() for _ in fn.__closure__)
        twin = types.FunctionType(fn.__code__, scope, fn.__name__, None, cells)
        # Registered before its parts are translated: a function may refer to itself.
        self._memo[id(fn)] = (fn, twin)
        for name in _global_names(fn.__code__) & scope.keys():
            scope[name] = self(scope[name])
        for cell, twin_cell in zip(fn.__closure__ or (), cells or ()):
            twin_cell.cell_contents = self(cell.cell_contents)
        if fn.__defaults__:
            twin.__defaults__ = tuple(self(d) for d in fn.__defaults__)
        if fn.__kwdefaults__:
            twin.__kwdefaults__ = {k: self(v) for k, v in fn.__kwdefaults__.items()}
        return twin


def flatten(x) -> list:
    if isinstance(x, (list, tuple)):
        return [leaf for item in x for leaf in flatten(item)]
    return [x]


def describe(module, x):
    """A comparable summary of a result of `module`: tensors become (kind, dtype, shape,
    values), shapes and dtypes their TF spelling, sequences lists of summaries."""
    if isinstance(x, module.IndexedSlices):
        # The slices in index order: in which order the engine concatenates the slices of
        # several gathers is its own business (TF's tape goes breadth-first, tapeflow's in
        # reverse recording order); the dense sum and the slices themselves must agree.
        indices, values = np.asarray(x.indices.numpy()), np.asarray(x.values.numpy())
        rows = values.reshape(len(indices), -1)
        order = sorted(range(len(indices)), key=lambda i: (indices[i], tuple(rows[i])))
        return ("IndexedSlices", x.indices.dtype.name, indices[order],
                describe(module, x.values)[:3], values[order],
                describe(module, x.dense_shape), describe(module, module.convert_to_tensor(x)))
    if isinstance(x, (module.Tensor, module.Variable)):
        kind = "Variable" if isinstance(x, module.Variable) else "Tensor"
        return (kind, x.dtype.name, tuple(x.shape.as_list()), np.asarray(x.numpy()))
    if isinstance(x, module.TensorShape):
        return ("TensorShape", x.as_list() if x.rank is not None else None)
    if isinstance(x, module.DType):
        return ("DType", x.name)
    if isinstance(x, (list, tuple)):
        return [describe(module, item) for item in x]
    if isinstance(x, np.ndarray):
        return ("ndarray", x.dtype.name, x.shape, x)
    return x


def assert_same(ours, theirs, *, rtol: float, atol: float, values: bool = True,
                where: str = "") -> None:
    """Asserts two `describe`d results agree: kinds, dtypes, shapes, then values."""
    if isinstance(theirs, dict):
        assert isinstance(ours, dict) and ours.keys() == theirs.keys(), (
            f"{where}: {_stages(ours)} vs TF {_stages(theirs)}")
        for key in theirs:
            assert_same(ours[key], theirs[key], rtol=rtol, atol=atol, values=values,
                        where=f"{where} {key}")
        return
    if isinstance(theirs, (list, tuple)):
        assert isinstance(ours, (list, tuple)) and len(ours) == len(theirs), (
            f"{where}: structure {ours!r} vs TF {theirs!r}")
        for i, (a, b) in enumerate(zip(ours, theirs)):
            assert_same(a, b, rtol=rtol, atol=atol, values=values, where=f"{where}[{i}]")
        return
    if isinstance(theirs, np.ndarray) or isinstance(ours, np.ndarray):
        assert isinstance(ours, np.ndarray) and isinstance(theirs, np.ndarray), (
            f"{where}: {ours!r} vs TF {theirs!r}")
        assert ours.shape == theirs.shape, f"{where}: shape {ours.shape} vs TF {theirs.shape}"
        if not values:
            return
        if ours.dtype.kind in "fc" or theirs.dtype.kind in "fc":
            np.testing.assert_allclose(ours, theirs, rtol=rtol, atol=atol, equal_nan=True,
                                       err_msg=where)
        else:
            np.testing.assert_array_equal(ours, theirs, err_msg=where)
        return
    if isinstance(theirs, float) and isinstance(ours, float):
        if values:
            np.testing.assert_allclose(ours, theirs, rtol=rtol, atol=atol, err_msg=where)
        return
    assert type(ours) is type(theirs) and ours == theirs, f"{where}: {ours!r} vs TF {theirs!r}"


def _stages(result) -> object:
    if not isinstance(result, dict):
        return result
    return {k: v if k == "raised" else "..." for k, v in result.items()}


def seeded_rng(key: str) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(key.encode()))


def evaluate(module, fn, args, *, order: int, key: str) -> dict:
    """Runs row `fn` under `module` (tapeflow or TensorFlow) on `args` (NumPy arrays).

    Returns the described forward outputs, the gradient of the float outputs (weighted by
    seeded random output gradients) with respect to every float argument (None for each
    through a non-differentiable row), and, for `order` 2, the gradient of a seeded random
    projection of that gradient. A stage that raises records the exception's class name
    instead, and ends the run.
    """
    rng = seeded_rng(key)
    inputs = [module.constant(a) for a in args]
    floats = [x for x in inputs if x.dtype.is_floating]
    result: dict = {}
    try:
        with module.GradientTape(persistent=True) as outer:
            outer.watch(floats)
            with module.GradientTape() as inner:
                inner.watch(floats)
                outputs = flatten(fn(*inputs))
            result["forward"] = describe(module, outputs)
            targets, weights = [], []
            for y in outputs:
                if module.is_tensor(y) and (y.dtype.is_floating or y.dtype.is_complex):
                    targets.append(y)
                    weights.append(module.cast(rng.standard_normal(y.shape.as_list()),
                                               y.dtype))
            grads = inner.gradient(targets, floats, output_gradients=weights)
            result["gradient"] = describe(module, grads)
            if order == 1:
                return result
            projection = []
            for g in grads:
                if g is not None:
                    g = module.convert_to_tensor(g)
                    weight = module.cast(rng.standard_normal(g.shape.as_list()), g.dtype)
                    projection.append(module.reduce_sum(g * weight))
        if projection:
            result["second"] = describe(module, outer.gradient(module.add_n(projection), floats))
    except Untranslatable:
        raise
    except Exception as e:  # noqa: BLE001  (the class is what is compared)
        result["raised"] = type(e).__name__
    return result


@pytest.fixture(scope="session")
def tensorflow():
    """TensorFlow, imported once; the test is skipped where it is not installed."""
    return pytest.importorskip("tensorflow")


@pytest.fixture(scope="session")
def tf_subprocess():
    """Runs a script under a Python with TensorFlow, for tests whose tapeflow side needs
    packages that Python lacks (TensorFlow's own environment need not have tensorboard or
    crc32c): `$TF_PYTHON`, else this Python if it imports TensorFlow; skipped without one.
    `run(script, **arguments)` passes the arguments as the JSON `ARGS`, returns what the
    script printed last as JSON (its `RESULT`)."""
    import json
    import os
    import subprocess
    import sys
    import textwrap
    candidates = [os.environ.get("TF_PYTHON"), sys.executable]
    python = next((c for c in candidates if c and subprocess.run(
        [c, "-c", "import tensorflow"], capture_output=True,
        env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")).returncode == 0), None)
    if python is None:
        pytest.skip("no Python with TensorFlow (set TF_PYTHON)")

    def run(script: str, **arguments):
        code = ("import json, sys\nimport numpy as np\nimport tensorflow as tf\n"
                f"ARGS = json.loads({json.dumps(json.dumps(arguments))})\n"
                + textwrap.dedent(script) + "\nprint(json.dumps(RESULT))\n")
        done = subprocess.run([python, "-"], input=code, capture_output=True, text=True,
                              env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3",
                                       PYTHONPATH=""))
        if done.returncode:
            raise AssertionError(f"TensorFlow's side failed:\n{done.stderr[-3000:]}")
        return json.loads(done.stdout.strip().splitlines()[-1])
    return run


def outcome(fn, module):
    """`fn(module)`, or ("raised", the exception's class name) when it raises."""
    try:
        return fn(module)
    except Exception as e:  # noqa: BLE001  (the class is what is compared)
        return ("raised", type(e).__name__)


class Parity:
    """What a parity test needs, handed out by the `parity` fixture."""

    Untranslatable = Untranslatable
    describe = staticmethod(describe)
    evaluate = staticmethod(evaluate)
    assert_same = staticmethod(assert_same)

    def __init__(self, tensorflow) -> None:
        self.tf = tensorflow
        self.translate = Translator(tensorflow)

    def check_case(self, fn, *, rtol: float, atol: float, where: str) -> None:
        """Asserts `fn(tf)` agrees under TensorFlow and tapeflow (an exception by class)."""
        theirs = describe(self.tf, outcome(fn, self.tf))
        ours = describe(tapeflow, outcome(fn, tapeflow))
        assert_same(ours, theirs, rtol=rtol, atol=atol, where=where)


@pytest.fixture(scope="session")
def parity(tensorflow):
    return Parity(tensorflow)
