"""Type-based dispatch of public ops (`tf.experimental.dispatch_for_api` and the
elementwise forms): a RaggedTensor, or a user's extension type, handed to `tf.add` runs the
implementation registered for its type.

Dispatch is the op's fallback: an op runs as it always does, and only when it cannot take
its arguments (converting one raises TypeError or ValueError) does it ask `dispatch` for a
registered implementation whose signature the arguments match, re-raising if there is none.
Plain tensors therefore pay nothing: the op factories (`math_ops.unary_function`,
`binary_function`, `reduction`) hold the fallback in their own `try`, and other public ops
are wrapped by `add_dispatch_support`, which each factory and wrapper also uses to say which
APIs are unary or binary elementwise.
"""
from __future__ import annotations

import collections.abc
import functools
import inspect
import typing

__all__ = ["add_dispatch_support", "dispatch", "dispatch_or_raise", "dispatch_for_api",
           "dispatch_for_binary_elementwise_apis", "dispatch_for_binary_elementwise_assert_apis",
           "dispatch_for_unary_elementwise_apis",
           "register_binary_elementwise_api", "register_unary_elementwise_api",
           "unregister_dispatch_for", "NOT_SUPPORTED"]

NOT_SUPPORTED = object()

# api -> [(checks: {parameter: annotation}, target)], most recently registered first.
_API_TARGETS: dict = {}
# The APIs the elementwise registrations apply to, and those registrations.
_UNARY_APIS: set = set()
_BINARY_APIS: set = set()
_UNARY_TARGETS: list = []   # [(x_type, target)]
_BINARY_TARGETS: list = []  # [(x_type, y_type, target)]
_BINARY_ASSERT_APIS: set = set()    # tf.debugging.assert_equal, assert_less, ...
_BINARY_ASSERT_TARGETS: list = []   # [(x_type, y_type, target)]
_SIGNATURES: dict = {}


def _signature(fn) -> inspect.Signature:
    sig = _SIGNATURES.get(fn)
    if sig is None:
        sig = _SIGNATURES[fn] = inspect.signature(fn)
    return sig


def _matches(value, annotation) -> bool:
    """Whether `value` has type `annotation` (a class, Union/Optional, List/Sequence/Tuple
    of one, or Any)."""
    if annotation is typing.Any:
        return True
    origin = typing.get_origin(annotation)
    if origin is typing.Union:
        return any(_matches(value, a) for a in typing.get_args(annotation))
    if origin in (list, tuple, collections.abc.Sequence):
        if not isinstance(value, (list, tuple)):
            return False
        args = [a for a in typing.get_args(annotation) if a is not Ellipsis]
        return all(any(_matches(v, a) for a in args) for v in value) if args else True
    if annotation is None or annotation is type(None):
        return value is None
    return isinstance(value, annotation)


def dispatch(api, args: tuple, kwargs: dict):
    """The result of the implementation registered for `api` that these arguments match
    (a target may decline with NOT_SUPPORTED, and the next is tried), or NOT_SUPPORTED."""
    targets = _API_TARGETS.get(api)
    if targets:
        try:
            bound = _signature(api).bind(*args, **kwargs)
        except TypeError:
            return NOT_SUPPORTED
        for checks, target in targets:
            if all(_matches(bound.arguments.get(p), a) for p, a in checks.items()):
                result = target(*args, **kwargs)
                if result is not NOT_SUPPORTED:
                    return result
    if _UNARY_TARGETS and api in _UNARY_APIS:
        return _elementwise(api, args, kwargs, 1, _UNARY_TARGETS)
    if _BINARY_TARGETS and api in _BINARY_APIS:
        return _elementwise(api, args, kwargs, 2, _BINARY_TARGETS)
    if _BINARY_ASSERT_TARGETS and api in _BINARY_ASSERT_APIS:
        return _elementwise(api, args, kwargs, 2, _BINARY_ASSERT_TARGETS)
    return NOT_SUPPORTED


def _elementwise(api, args: tuple, kwargs: dict, arity: int, targets: list):
    """An elementwise registration's result: `target(api_func, *operands)` with `api_func`
    calling `api` on new operands and the call's other arguments."""
    sig = _signature(api)
    try:
        bound = sig.bind(*args, **kwargs)
    except TypeError:
        return NOT_SUPPORTED
    names = list(sig.parameters)[:arity]
    operands = [bound.arguments.get(n) for n in names]
    rest = {k: v for k, v in bound.arguments.items() if k not in names}
    api_func = functools.partial(_call_with, api, names, rest)
    for *types, target in targets:
        if all(_matches(v, t) for v, t in zip(operands, types)):
            result = target(api_func, *operands)
            if result is not NOT_SUPPORTED:
                return result
    return NOT_SUPPORTED


def dispatch_or_raise(api, args: tuple, kwargs: dict):
    """`dispatch`'s result; called while handling the op's own conversion error, which is
    re-raised when no registered implementation takes these arguments."""
    result = dispatch(api, args, kwargs)
    if result is NOT_SUPPORTED:
        raise  # noqa: PLE0704  (the conversion error being handled)
    return result


def _call_with(api, names: list, rest: dict, *operands):
    return api(**dict(zip(names, operands)), **rest)


def add_dispatch_support(fn=None, *, elementwise: int = 0, binary_assert: bool = False):
    """Wraps public op `fn` so that arguments it cannot take go to `dispatch`;
    `elementwise` 1 or 2 registers it as a unary or binary elementwise API, `binary_assert`
    as a binary elementwise assertion (`assert_equal(x, y)`)."""
    if fn is None:
        return functools.partial(add_dispatch_support, elementwise=elementwise,
                                 binary_assert=binary_assert)

    @functools.wraps(fn)
    def api(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except (TypeError, ValueError):
            return dispatch_or_raise(api, args, kwargs)
    api._tf_dispatch = True
    if elementwise == 1:
        register_unary_elementwise_api(api)
    elif elementwise == 2:
        register_binary_elementwise_api(api)
    if binary_assert:
        _BINARY_ASSERT_APIS.add(api)
    return api


def register_unary_elementwise_api(api):
    """Marks `api` (whose first parameter is the tensor) as unary elementwise."""
    api._tf_dispatch = True
    _UNARY_APIS.add(api)
    return api


def register_binary_elementwise_api(api):
    """Marks `api` (whose first two parameters are the tensors) as binary elementwise."""
    api._tf_dispatch = True
    _BINARY_APIS.add(api)
    return api


def dispatch_for_api(api, *signatures):
    """A decorator registering its function as the implementation of `api` for arguments
    of the given types.

    Args:
        api: a public tapeflow op function (`tf.math.add`, `tf.concat`, ...).
        *signatures: dicts `{parameter name: type}`; with none, the decorated function's
            annotations are the signature. A type may be a class, a `typing.Union` of them,
            or a `typing.List` of one (for list parameters).

    Returns:
        A decorator that registers and returns its function, whose parameters must be
        `api`'s.

    Raises:
        ValueError: `api` does not support dispatch, a signature names a parameter `api`
            lacks, or the function's parameters are not `api`'s.

    Example:
        >>> import tapeflow as tf
        >>> class Box:
        ...     def __init__(self, v): self.v = v
        >>> @tf.experimental.dispatch_for_api(tf.math.abs, {"x": Box})
        ... def box_abs(x, name=None):
        ...     return Box(tf.math.abs(x.v))
        >>> int(tf.math.abs(Box(tf.constant(-2))).v)
        2
        >>> tf.experimental.unregister_dispatch_for(box_abs)
    """
    if not getattr(api, "_tf_dispatch", False):
        raise ValueError(f"{getattr(api, '__name__', api)!r} does not support dispatch.")
    api_sig = _signature(api)

    def decorator(target):
        target_sig = inspect.signature(target)
        if list(target_sig.parameters) != list(api_sig.parameters):
            raise ValueError(f"Dispatch function's signature {target_sig} does not match "
                             f"API's signature {api_sig}.")
        checks_list = list(signatures) or [{
            name: p.annotation for name, p in target_sig.parameters.items()
            if p.annotation is not inspect.Parameter.empty}]
        for checks in checks_list:
            for name in checks:
                if name not in api_sig.parameters:
                    raise ValueError(f"signature includes annotation for unknown parameter "
                                     f"{name!r}.")
            _API_TARGETS.setdefault(api, []).insert(0, (dict(checks), target))
        target._tf_dispatch_target = ("api", api)
        return target
    return decorator


def dispatch_for_unary_elementwise_apis(x_type):
    """A decorator registering `handler(api_func, x)` for every unary elementwise API
    (now and later) given an `x` of type `x_type`; `api_func(x)` calls the API with its
    other arguments bound.

    Example:
        >>> import tapeflow as tf
        >>> class Box:
        ...     def __init__(self, v): self.v = v
        >>> @tf.experimental.dispatch_for_unary_elementwise_apis(Box)
        ... def box_unary(api_func, x):
        ...     return Box(api_func(x.v))
        >>> int(tf.math.negative(Box(tf.constant(3))).v)
        -3
        >>> tf.experimental.unregister_dispatch_for(box_unary)
    """
    def decorator(handler):
        _UNARY_TARGETS.insert(0, (x_type, handler))
        handler._tf_dispatch_target = ("unary", x_type)
        return handler
    return decorator


def dispatch_for_binary_elementwise_apis(x_type, y_type):
    """A decorator registering `handler(api_func, x, y)` for every binary elementwise API
    given `x` of type `x_type` and `y` of type `y_type`.

    Example:
        >>> import tapeflow as tf
        >>> class Box:
        ...     def __init__(self, v): self.v = v
        >>> @tf.experimental.dispatch_for_binary_elementwise_apis(Box, Box)
        ... def box_binary(api_func, x, y):
        ...     return Box(api_func(x.v, y.v))
        >>> int(tf.math.add(Box(tf.constant(1)), Box(tf.constant(2))).v)
        3
        >>> tf.experimental.unregister_dispatch_for(box_binary)
    """
    def decorator(handler):
        _BINARY_TARGETS.insert(0, (x_type, y_type, handler))
        handler._tf_dispatch_target = ("binary", (x_type, y_type))
        return handler
    return decorator


def dispatch_for_binary_elementwise_assert_apis(x_type, y_type):
    """A decorator registering `handler(assert_func, x, y)` for every binary elementwise
    assertion (`tf.debugging.assert_equal`, `assert_less`, ...) given `x` of type `x_type`
    and `y` of type `y_type`; `assert_func(x, y)` calls the assertion with its other
    arguments (message, summarize) bound.

    Example:
        >>> import tapeflow as tf
        >>> class Box:
        ...     def __init__(self, v): self.v = v
        >>> @tf.experimental.dispatch_for_binary_elementwise_assert_apis(Box, Box)
        ... def box_assert(assert_func, x, y):
        ...     return assert_func(x.v, y.v)
        >>> tf.debugging.assert_equal(Box(tf.constant(1)), Box(tf.constant(1))) is None
        True
        >>> tf.experimental.unregister_dispatch_for(box_assert)
    """
    def decorator(handler):
        _BINARY_ASSERT_TARGETS.insert(0, (x_type, y_type, handler))
        handler._tf_dispatch_target = ("binary_assert", (x_type, y_type))
        return handler
    return decorator


def unregister_dispatch_for(dispatch_target) -> None:
    """Removes every registration of `dispatch_target` (a function registered with a
    `dispatch_for_*` decorator).

    Raises:
        ValueError: `dispatch_target` was not registered.
    """
    found = False
    for api, targets in _API_TARGETS.items():
        kept = [t for t in targets if t[1] is not dispatch_target]
        found = found or len(kept) != len(targets)
        targets[:] = kept
    for table in (_UNARY_TARGETS, _BINARY_TARGETS, _BINARY_ASSERT_TARGETS):
        kept = [t for t in table if t[-1] is not dispatch_target]
        found = found or len(kept) != len(table)
        table[:] = kept
    if not found:
        raise ValueError(f"Function {dispatch_target!r} was not registered using a "
                         "`@dispatch_for_*` decorator.")
