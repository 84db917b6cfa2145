"""The source conversion: Python semantics kept where values are Python, scopes (nested
functions, globals, closures), and what is left as written."""
import functools
import importlib.util
import pathlib
import warnings

import pytest

import tapeflow as tf

_spec = importlib.util.spec_from_file_location(
    "autograph_python_semantics", pathlib.Path(__file__).with_name("python_semantics.py"))
python_semantics = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(python_semantics)

COUNTER = 0


@pytest.mark.parametrize("fn, value", python_semantics.FUNCTIONS,
                         ids=[f"{f.__name__}({v})" for f, v in python_semantics.FUNCTIONS])
def test_converted_python_code_returns_what_it_returns_unconverted(fn, value):
    assert tf.autograph.to_graph(fn)(value) == fn(value)


def test_reading_a_variable_no_branch_assigned_is_an_unbound_local_error():
    def f(flag):
        if flag:
            y = 1
        return y

    converted = tf.autograph.to_graph(f)
    assert converted(True) == 1
    with pytest.raises(UnboundLocalError, match="'y'"):
        converted(False)


def test_nested_functions_are_converted_in_their_own_scope():
    @tf.function
    def f(x):
        def magnitude(v):
            if v < 0:
                v = -v
            return v
        total = 0.0
        for value in x:
            total += magnitude(value)
        return total

    assert float(f(tf.constant([1.0, -2.0, 3.0]))) == 6.0


def test_global_assigned_under_a_python_condition():
    def bump(x, count):
        global COUNTER
        if count:
            COUNTER += 1
        return x

    tf.autograph.to_graph(bump)(1.0, True)
    assert COUNTER == 1


def test_closures_defaults_and_docstrings_are_kept():
    offset = tf.constant(10.0)

    def shifted(x, scale=2.0):
        """Doc."""
        if x > 0:
            x = x * scale
        return x + offset

    converted = tf.autograph.to_graph(shifted)
    assert converted.__doc__ == "Doc." and converted.__defaults__ == (2.0,)
    assert float(tf.function(shifted)(tf.constant(1.0))) == 12.0
    assert float(tf.function(shifted)(tf.constant(-1.0))) == 9.0


def test_lambdas_are_converted_and_generators_run_as_written():
    def squares(n):
        for i in range(n):
            yield i * i

    @tf.function
    def f(x):
        return x + sum(squares(3))

    assert float(f(tf.constant(1.0))) == 6.0
    sides = (lambda x: x if x > 0 else 0.0, lambda x: -x if x < 0 else 0.0)  # one line
    g = tf.function(lambda x: sides[0](x) + sides[1](x))
    assert [float(g(tf.constant(v))) for v in (-2.0, 5.0)] == [2.0, 5.0]
    assert "ag__.if_exp(x < 0" in tf.autograph.to_code(sides[1])


def test_while_else_and_break_in_python_loops_keep_python_semantics():
    def f(items):
        seen = []
        i = 0
        while i < len(items):
            if items[i] < 0:
                break
            seen.append(items[i])
            i += 1
        else:
            seen.append("done")
        return seen

    converted = tf.autograph.to_graph(f)
    assert converted([1, 2]) == [1, 2, "done"]
    assert converted([1, -1, 2]) == [1]


def test_return_under_a_tensor_if_and_statements_after_it():
    @tf.function
    def f(x):
        if x > 10:
            return x * 3.0
        x = x + 1.0
        return x

    assert [float(f(tf.constant(v))) for v in (20.0, 2.0)] == [60.0, 3.0]


def test_to_code_is_python_that_names_the_statements():
    def f(x):
        while x > 1:
            x = x / 2
        return x and not x

    code = tf.autograph.to_code(f)
    assert "ag__.while_stmt" in code and "ag__.and_" in code and "ag__.not_" in code
    assert code.startswith("def tf__f(x):")


class Base(tf.Module):
    def scale(self, x):
        return x * 2.0


class Child(Base):
    @tf.function
    def scale(self, x):
        if x < 0:
            x = -x
        return super().scale(x) + 1.0


def test_zero_argument_super_in_a_converted_method():
    assert float(Child().scale(tf.constant(-3.0))) == 7.0


def test_closures_stay_live_and_nonlocal_writes_reach_the_enclosing_function():
    calls = 0
    scale = 2.0

    def counted(x):
        nonlocal calls
        if x > 0:
            calls += 1
        return x * scale

    converted = tf.autograph.to_graph(counted)
    scale = 3.0
    assert converted(1.0) == 3.0 and converted(2.0) == 6.0 and calls == 2


def test_annotations_and_exception_names_inside_tensor_control_flow():
    @tf.function
    def f(x):
        total: float = 0.0
        count: int
        for value in x:
            try:
                step: float = value * 2.0
            except ValueError as error:
                raise RuntimeError("unreachable") from error
            total += step
        return total

    assert float(f(tf.constant([1.0, 2.0]))) == 6.0


def test_return_from_a_loop_skips_its_else_clause():
    def first_above(limit):
        for k in [1.0, 2.0, 3.0]:
            if k > limit:
                return k
        else:
            return -1.0
        return 0.0

    converted = tf.autograph.to_graph(first_above)
    assert [converted(v) for v in (1.5, 5.0)] == [first_above(v) for v in (1.5, 5.0)] == \
        [2.0, -1.0]


def test_installed_packages_are_converted_but_the_ones_tf_leaves_alone(tmp_path, monkeypatch):
    from tapeflow.autograph import api
    packages = tmp_path / "site-packages"
    packages.mkdir()
    source = "def first_or_zero(x):\n    if x > 0:\n        return x\n    return 0.0 * x\n"
    for module in ("somelib", "numpy_like"):
        (packages / f"{module}.py").write_text(source)
    own, stdlib, _ = api._library_paths()
    monkeypatch.setattr(api, "_library_paths", lambda: (own, stdlib, (str(packages) + "/",)))
    monkeypatch.setattr(api, "_NOT_CONVERTED", api._NOT_CONVERTED + ("numpy_like",))
    api._is_user_file.cache_clear()
    monkeypatch.syspath_prepend(str(packages))
    import numpy_like
    import somelib
    try:
        f = tf.function(lambda x: somelib.first_or_zero(x))
        assert float(f(tf.constant(-2.0))) == 0.0      # the package's `if` became a tf.cond
        g = tf.function(lambda x: numpy_like.first_or_zero(x))
        with pytest.raises(TypeError):                   # left as it is: `if tensor` fails
            g(tf.constant(-2.0))
    finally:
        api._is_user_file.cache_clear()


def test_a_wraps_wrapper_is_converted_from_its_own_source():
    def traced(fn):
        @functools.wraps(fn)
        def wrapper(*args):
            if args[0] > 0:             # converted: a tf.cond on the tensor
                return fn(*args)
            return -args[0]
        return wrapper

    @traced
    def identity(x):
        return x

    f = tf.function(lambda x: identity(x))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert float(f(tf.constant(-2.0))) == 2.0 and float(f(tf.constant(3.0))) == 3.0
