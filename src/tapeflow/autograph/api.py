"""AutoGraph's entry points: `tf.function` (which converts by default), `to_graph`,
`to_code`, `do_not_convert`, and `converted_call`, through which converted code calls
other functions (user functions and installed packages' are converted in turn; tapeflow's,
the standard library's and those of the packages TF leaves alone, numpy's say, are called as
they are).

A function's source is parsed and converted once per code object (transformer.py); each
conversion of a function object makes a fresh function from the cached code that shares
the function's globals and closure cells (reads and `nonlocal` writes stay live), with one
more cell for the operators, `ag__`.
"""
from __future__ import annotations

import ast
import functools
import inspect
import linecache
import os
import types
import warnings

from ..eager.function import Function
from . import operators, transformer

__all__ = ["function", "to_graph", "to_code", "do_not_convert", "set_loop_options",
           "converted_call"]

_FACTORY = "autograph_factory"
_LAMBDA = "autograph_lambda"
_compiled: dict = {}  # code object -> (converted code object, converted source)


@functools.lru_cache(maxsize=None)
def _library_paths() -> tuple:
    """(tapeflow, the standard library, installed packages): where code lives (found on
    first use: `import tapeflow` does not load sysconfig)."""
    import sysconfig
    paths = sysconfig.get_paths()

    def folder(path):
        return os.path.normcase(os.path.realpath(path)) + os.sep
    return (folder(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
            folder(paths["stdlib"]), tuple({folder(paths["purelib"]), folder(paths["platlib"])}))


# Installed packages whose functions are called as they are, TF's conversion rules: every
# other package's functions (Sonnet's, say) are converted when a tf.function calls them.
_NOT_CONVERTED = ("numpy", "matplotlib", "pandas", "PIL", "absl.logging", "keras", "tf_keras",
                  "tensorflow", "tensorflow_probability", "tensorflow_datasets.core")


def _operators(recursive: bool) -> types.SimpleNamespace:
    """The `ag__` namespace converted code calls."""
    names = {name: getattr(operators, name) for name in operators.__all__}
    call = converted_call if recursive else _plain_call
    return types.SimpleNamespace(**names, converted_call=call)


def _plain_call(f, args, kwargs):
    return _builtin(f)(*args, **(kwargs or {}))


def _builtin(f):
    """The tensor-aware form of a builtin (range, len, enumerate, iter), else `f`."""
    try:
        return operators.BUILTINS.get(f, f)
    except TypeError:  # unhashable callables
        return f


@functools.lru_cache(maxsize=None)
@functools.lru_cache(maxsize=4096)
def _is_user_file(filename: str, module: str) -> bool:
    """Whether code compiled from `filename`, of module `module`, is converted: not
    tapeflow's or the standard library's, and no package of `_NOT_CONVERTED` (cached: every
    call a traced function makes asks)."""
    path = os.path.normcase(os.path.realpath(filename))
    own, stdlib, packages = _library_paths()
    if path.startswith(own):
        return False
    if path.startswith(packages):
        return not any(module == name or module.startswith(name + ".")
                       for name in _NOT_CONVERTED)
    return not path.startswith(stdlib)


def _definition(f) -> ast.FunctionDef:
    """`f`'s def statement, parsed from its source (line numbers as in its file)."""
    import textwrap  # on first use, like sysconfig
    if f.__code__.co_name == "<lambda>":
        return _lambda_definition(f)
    # the code object's own source: a functools.wraps wrapper would lead to the wrapped one
    lines, first_line = inspect.getsourcelines(f.__code__)
    node = ast.parse(textwrap.dedent("".join(lines))).body[0]
    if not isinstance(node, ast.FunctionDef) or node.name != f.__code__.co_name:
        raise ValueError(f"the source found for {f.__qualname__} is not its def statement")
    return ast.increment_lineno(node, first_line - 1)


def _lambda_definition(f) -> ast.FunctionDef:
    """A lambda as `def autograph_lambda(args): return body`, found in its file's source by
    its line, its arguments and (when several match) the column its code starts at."""
    code = f.__code__
    source = "".join(linecache.getlines(code.co_filename))
    try:
        tree = ast.parse(source)
    except SyntaxError:
        raise ValueError(f"the source of {code.co_filename} does not parse") from None
    names = list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount +
                                  bool(code.co_flags & inspect.CO_VARARGS) +
                                  bool(code.co_flags & inspect.CO_VARKEYWORDS)])
    found = [n for n in ast.walk(tree) if isinstance(n, ast.Lambda) and
             n.lineno == code.co_firstlineno and _argument_names(n.args) == names]
    if len(found) > 1:
        columns = {(line, column) for line, _, column, _ in code.co_positions()
                   if column is not None}
        found = [n for n in found if any((getattr(e, "lineno", None),
                                          getattr(e, "col_offset", None)) in columns
                                         for e in ast.walk(n.body))]
    if len(found) != 1:
        raise ValueError(f"cannot tell which lambda of line {code.co_firstlineno} of "
                         f"{code.co_filename} this is")
    node = ast.FunctionDef(name=_LAMBDA, args=found[0].args,
                           body=[ast.Return(value=found[0].body)], decorator_list=[],
                           returns=None)
    if "type_params" in ast.FunctionDef._fields:
        node.type_params = []
    return ast.copy_location(node, found[0])


def _argument_names(args: ast.arguments) -> list:
    return [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs] + \
        [a.arg for a in (args.vararg, args.kwarg) if a is not None]


def _compile(f):
    """(converted code, converted source) for `f`'s code object, converted once.

    The converted def is compiled inside a factory function whose parameters are `ag__`
    and `f`'s free variables, so that they are free variables of the converted code too.
    """
    if f.__code__ not in _compiled:
        converted = transformer.convert_function(_definition(f))
        factory = ast.FunctionDef(
            name=_FACTORY, args=ast.arguments(
                posonlyargs=[], args=[ast.arg(arg=a) for a in
                                      (transformer.OPERATORS,) + f.__code__.co_freevars],
                kwonlyargs=[], kw_defaults=[], defaults=[]),
            body=[converted], decorator_list=[], returns=None)
        if "type_params" in ast.FunctionDef._fields:
            factory.type_params = []
        module = ast.fix_missing_locations(ast.Module(body=[factory], type_ignores=[]))
        namespace: dict = {}
        exec(compile(module, f.__code__.co_filename, "exec"), namespace)
        code = next(c for c in namespace[_FACTORY].__code__.co_consts
                    if isinstance(c, types.CodeType) and c.co_name == converted.name)
        _compiled[f.__code__] = (code, ast.unparse(converted))
    return _compiled[f.__code__]


def _convert(f, recursive: bool = True):
    """The converted form of the plain function `f` (a new function object)."""
    code, _ = _compile(f)
    cells = dict(zip(f.__code__.co_freevars, f.__closure__ or ()))
    cells[transformer.OPERATORS] = types.CellType(_OPERATORS[recursive])
    converted = types.FunctionType(code, f.__globals__, f.__name__, f.__defaults__,
                                   tuple(cells.get(name, types.CellType())
                                         for name in code.co_freevars))
    converted.__kwdefaults__ = f.__kwdefaults__
    converted.__qualname__ = f.__qualname__
    converted.__module__ = f.__module__
    converted.__doc__ = f.__doc__
    return converted


def _is_converted(f) -> bool:
    """Whether `f` is converted code (it reads the operators from its closure)."""
    return transformer.OPERATORS in f.__code__.co_freevars


def _convertible(f) -> bool:
    """Whether `f` is code AutoGraph converts: a function or lambda (not a generator or a
    coroutine), not converted already, and not tapeflow's, the standard library's or a
    package TF leaves as it is (numpy, keras, ...; see `_NOT_CONVERTED`)."""
    return isinstance(f, types.FunctionType) and not _is_converted(f) and \
        _is_user_file(f.__code__.co_filename, f.__module__ or "") and \
        not f.__code__.co_flags & (inspect.CO_GENERATOR | inspect.CO_COROUTINE |
                                   inspect.CO_ASYNC_GENERATOR)


def _try_convert(f, recursive: bool = True):
    """`f` converted, or `f` itself (with a warning) when its source cannot be converted."""
    try:
        return _convert(f, recursive)
    except (OSError, TypeError, ValueError, SyntaxError) as error:
        warnings.warn(f"AutoGraph could not transform {f.__qualname__} and will run it as is: "
                      f"{error}. To silence this warning, decorate the function with "
                      "@tf.autograph.experimental.do_not_convert", stacklevel=3)
        return f


def _converted_form(f):
    """`f` converted when it is user code: a function, a method or functools.partial of one,
    or a callable object whose class defines `__call__`; None otherwise."""
    if isinstance(f, types.FunctionType):
        return _try_convert(f) if _convertible(f) else None
    if isinstance(f, types.MethodType):
        inner = _converted_form(f.__func__)
        return None if inner is None else types.MethodType(inner, f.__self__)
    if isinstance(f, functools.partial):
        inner = _converted_form(f.func)
        return None if inner is None else functools.partial(inner, *f.args, **f.keywords)
    call = getattr(type(f), "__call__", None)
    if not isinstance(f, type) and isinstance(call, types.FunctionType) and _convertible(call):
        return types.MethodType(_try_convert(call), f)
    return None


def converted_call(f, args: tuple, kwargs):
    """`f(*args, **kwargs)` from converted code: user functions, methods and callable
    objects are converted first; `range`, `len`, `enumerate` and `iter` take their tensor-aware forms."""
    f = _builtin(f)
    return (_converted_form(f) or f)(*args, **(kwargs or {}))


def _for_function(entity):
    """tf.function's converter: `entity` converted when it is user code."""
    return _converted_form(entity) or entity


_OPERATORS = {True: _operators(True), False: _operators(False)}


def to_graph(entity, recursive=True, experimental_optional_features=None):
    """The function `entity` with its Python control flow converted to AutoGraph's form.

    Called in a graph (inside `tf.function`), an `if`/`while`/`for` on a tensor becomes
    `tf.cond`/`tf.while_loop`; on Python values it runs as Python. Called eagerly it gives
    the same values as `entity`.

    Args:
        entity: a Python function or method.
        recursive: also convert the user functions it calls.
        experimental_optional_features: accepted for compatibility.

    Returns:
        The converted function.

    Raises:
        ValueError: `entity` is not a function defined with `def`, or has no source.

    Example:
        >>> import tapeflow as tf
        >>> def collatz(n):
        ...     steps = 0
        ...     while n != 1:
        ...         n = n // 2 if n % 2 == 0 else 3 * n + 1
        ...         steps += 1
        ...     return steps
        >>> int(tf.function(tf.autograph.to_graph(collatz))(tf.constant(6)))
        8
    """
    if isinstance(entity, types.MethodType):
        return types.MethodType(to_graph(entity.__func__, recursive), entity.__self__)
    return _converting("to_graph", entity, lambda: _convert(entity, bool(recursive)))


def to_code(entity, recursive=True, experimental_optional_features=None) -> str:
    """The source of `entity` as AutoGraph converts it, to read (`to_graph` runs it).

    Args:
        entity: a Python function or method.
        recursive, experimental_optional_features: accepted for compatibility (calls in
            the converted code always go through `ag__.converted_call`).

    Returns:
        Python source text.

    Raises:
        ValueError: where `to_graph` raises it.

    Example:
        >>> import tapeflow as tf
        >>> def f(x):
        ...     if x > 0:
        ...         x = x * x
        ...     return x
        >>> "ag__.if_stmt" in tf.autograph.to_code(f)
        True
    """
    entity = getattr(entity, "__func__", entity)
    return _converting("to_code", entity, lambda: _compile(entity)[1] + "\n")


def _converting(caller: str, entity, convert):
    """`convert()` for a plain function `entity`, with its failures as ValueErrors."""
    if not isinstance(entity, types.FunctionType):
        raise ValueError(f"{caller}: expected a Python function, got {entity!r}")
    try:
        return convert()
    except (OSError, TypeError) as error:
        raise ValueError(f"{caller}: cannot convert {entity.__qualname__}: {error}") from None


def do_not_convert(func=None):
    """Marks a function to run as it is written: AutoGraph neither converts it nor the
    functions it calls.

    Args:
        func: the function (or use `@do_not_convert` as a bare decorator).

    Returns:
        A wrapper of `func` that AutoGraph calls without converting.

    Example:
        >>> import tapeflow as tf
        >>> @tf.autograph.experimental.do_not_convert
        ... def positive(x):
        ...     return tf.cond(x > 0, lambda: x, lambda: -x)
        >>> float(tf.function(positive)(tf.constant(-2.0)))
        2.0
    """
    if func is None:
        return do_not_convert

    @functools.wraps(func)
    def wrapper(*args, **kwargs):  # tapeflow's code, which AutoGraph calls as it is
        return func(*args, **kwargs)
    return wrapper


def set_loop_options(parallel_iterations=None, swap_memory=None, maximum_iterations=None,
                     shape_invariants=None) -> None:
    """Options for the tensor loop whose body starts with this call (read when the function
    is converted; running it does nothing).

    Args:
        parallel_iterations, swap_memory: accepted for compatibility.
        maximum_iterations: stop the loop after this many iterations at most.
        shape_invariants: a list of `(variable, shape)` pairs; the loop variable may change
            its shape within `shape` (None dimensions vary).

    Example:
        >>> import tapeflow as tf
        >>> @tf.function
        ... def doubling(n):
        ...     x = tf.constant([1.0])
        ...     for _ in tf.range(n):
        ...         tf.autograph.experimental.set_loop_options(
        ...             shape_invariants=[(x, tf.TensorShape([None]))])
        ...         x = tf.concat([x, x], 0)
        ...     return x
        >>> doubling(tf.constant(3)).shape
        TensorShape([8])
    """


def function(func=None, input_signature=None, autograph=True, jit_compile=None,
             reduce_retracing=False, experimental_implements=None,
             experimental_autograph_options=None, experimental_attributes=None,
             experimental_relax_shapes=None, experimental_compile=None,
             experimental_follow_type_hints=None):
    """Compiles a Python function into graphs, traced once per input signature.

    With `autograph=True` (the default) the function's source is converted first, so
    Python `if`, `while` and `for` on tensors become `tf.cond` and `tf.while_loop` (see
    `tf.autograph.to_graph`), as do `break`, `continue` and `return` inside them and
    `and`/`or`/`not` on tensors.

    Args:
        func: the function (or use `@tf.function(...)` with keyword arguments).
        input_signature: TensorSpecs fixing the inputs: one trace, with unknown
            dimensions where the specs have None.
        autograph: convert Python control flow on tensors (False: trace the function as
            written; an `if` on a graph tensor then raises OperatorNotAllowedInGraphError).
        jit_compile: accepted for compatibility.
        reduce_retracing: a retrace for new shapes makes the differing dimensions unknown,
            so later calls of other sizes reuse it.

    Returns:
        A `Function`.

    Raises:
        TypeError: arguments that do not match `input_signature`.
        ValueError: a Variable created on a call other than the first trace.

    Example:
        >>> import tapeflow as tf
        >>> v = tf.Variable(1.0)
        >>> @tf.function
        ... def step(x):
        ...     v.assign_add(x)
        ...     return v * 2.0
        >>> float(step(tf.constant(2.0))), float(v)
        (6.0, 3.0)
        >>> step.experimental_get_tracing_count()
        1
        >>> @tf.function
        ... def clipped_sum(x):
        ...     total = 0.0
        ...     for value in x:
        ...         if value > 1.0:
        ...             value = 1.0
        ...         total += value
        ...     return total
        >>> float(clipped_sum(tf.constant([0.5, 3.0, 0.25])))
        1.75
    """
    reduce_retracing = bool(reduce_retracing or experimental_relax_shapes)
    converter = _for_function if autograph else None
    if func is None:
        return lambda f: Function(f, input_signature, reduce_retracing, converter=converter)
    return Function(func, input_signature, reduce_retracing, converter=converter)
