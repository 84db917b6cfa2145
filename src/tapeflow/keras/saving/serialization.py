"""Keras objects to and from the JSON configs of Keras 3's `.keras` files.

An object becomes `{"module", "class_name", "config", "registered_name"}` (layers also
carry "build_config", compiled models "compile_config"); loading looks the class up by its
Keras module and name (tapeflow's class of that name), then among the classes registered
with `register_keras_serializable` and the `custom_objects` given, and calls its
`from_config`. Nothing in a file is executed: a Lambda layer's Python code is refused
unless the caller passes `safe_mode=False`.

Keras 3 has options tapeflow does not implement (quantization, EMA of the weights...);
a config that sets one at the value meaning "off" loads, any other value is refused.
"""
from __future__ import annotations

import base64
import inspect
import marshal
import threading
import types

__all__ = ["register_keras_serializable", "get_registered_name", "get_registered_object",
           "get_custom_objects", "serialize_keras_object", "deserialize_keras_object",
           "custom_object_scope", "CustomObjectScope"]

_REGISTERED: dict = {}          # "package>Name" -> class or function
_REGISTERED_NAMES: dict = {}    # class or function -> "package>Name"
_scopes = threading.local()
_ANY = object()

# Keras 3 options tapeflow lacks, with the value at which tapeflow behaves the same
# (_ANY: the option only tunes something tapeflow does not do).
_KERAS_ONLY_OPTIONS = {
    "quantization_config": None, "lora_rank": None, "lora_alpha": None, "optional": False,
    "synchronized": False, "renorm": False, "renorm_clipping": None, "renorm_momentum": _ANY,
    "rms_scaling": False, "use_ema": False, "ema_momentum": _ANY,
    "ema_overwrite_frequency": None, "loss_scale_factor": None,
    "gradient_accumulation_steps": None, "input_axes": None, "output_axes": None,
    "sparse": False, "ragged": False, "mask_zero": False, "input_length": None,
}


def _namespaces() -> list:
    """(Keras module name, tapeflow namespace) pairs, most specific first."""
    from .. import (activations, initializers, layers, losses, metrics, models, optimizers,
                    regularizers)
    from ..functional import Functional
    return [("keras.src.models.functional", {"Functional": Functional}),
            ("keras.layers", layers), ("keras.initializers", initializers),
            ("keras.regularizers", regularizers), ("keras.optimizers.schedules",
                                                   optimizers.schedules),
            ("keras.optimizers", optimizers), ("keras.losses", losses),
            ("keras.metrics", metrics), ("keras.activations", activations),
            ("keras", {"Sequential": models.Sequential, "Model": models.Model,
                       "Functional": Functional}),
            ("keras.models", {"Sequential": models.Sequential, "Model": models.Model})]


def _lookup(namespace, name: str):
    if isinstance(namespace, dict):
        return namespace.get(name)
    return getattr(namespace, name, None)


def _keras_module(obj) -> str | None:
    """The Keras module a tapeflow class or function is public under (None: a user's)."""
    for module, namespace in _namespaces():
        if _lookup(namespace, obj.__name__) is obj:
            return module
    return None


# -- registration ------------------------------------------------------------------------
def register_keras_serializable(package: str = "Custom", name: str | None = None):
    """Class or function decorator: saved models refer to it as 'package>name', and
    loading finds it by that name without `custom_objects`. Registering the name again
    (re-running a script) replaces the earlier object.

    Raises:
        ValueError: a class without `get_config`.

    Example:
        >>> import tapeflow as tf
        >>> @tf.keras.saving.register_keras_serializable(package="doc")
        ... class Twice(tf.keras.layers.Layer):
        ...     def call(self, x):
        ...         return 2.0 * x
        >>> tf.keras.saving.get_registered_name(Twice)
        'doc>Twice'
    """
    def decorator(arg):
        registered = f"{package}>{name or arg.__name__}"
        if inspect.isclass(arg) and not hasattr(arg, "get_config"):
            raise ValueError("Cannot register a class that does not have a get_config() "
                             "method.")
        _REGISTERED[registered] = arg
        _REGISTERED_NAMES[arg] = registered
        return arg
    return decorator


def get_registered_name(obj) -> str:
    """The name `obj` is registered under ('package>Name'), else its `__name__`."""
    return _REGISTERED_NAMES.get(obj, obj.__name__)


def get_registered_object(name: str, custom_objects=None, module_objects=None):
    """The class or function for `name`: from `custom_objects`, the active custom object
    scopes, the registered objects, then `module_objects`; None when none has it."""
    for table in (custom_objects or {}, *reversed(getattr(_scopes, "stack", [])), _REGISTERED,
                  module_objects or {}):
        if name in table:
            return table[name]
    return None


def get_custom_objects() -> dict:
    """The registered objects, {'package>Name': class or function}; adding to it registers."""
    return _REGISTERED


class CustomObjectScope:
    """`with CustomObjectScope({"Name": cls}):` makes the objects findable by name while
    loading (`custom_object_scope` is the same)."""

    def __init__(self, *custom_objects: dict) -> None:
        self.custom_objects = {k: v for table in custom_objects for k, v in table.items()}

    def __enter__(self) -> "CustomObjectScope":
        _scopes.stack = [*getattr(_scopes, "stack", []), self.custom_objects]
        return self

    def __exit__(self, *exc) -> None:
        _scopes.stack = _scopes.stack[:-1]


custom_object_scope = CustomObjectScope


# -- saving ------------------------------------------------------------------------------
def _function_config(fn) -> dict:
    """A function as Keras refers to it: by name, or a lambda by its bytecode."""
    if fn.__name__ == "<lambda>":
        if fn.__closure__:
            raise ValueError("Cannot serialize a lambda that refers to variables of the "
                             "function around it; use a named function registered with "
                             "`keras.saving.register_keras_serializable`.")
        code = base64.b64encode(marshal.dumps(fn.__code__)).decode("ascii")
        return {"class_name": "__lambda__",
                "config": {"code": code, "defaults": fn.__defaults__, "closure": None}}
    module = _keras_module(fn)
    return {"module": module or fn.__module__, "class_name": "function",
            "config": fn.__name__, "registered_name": get_registered_name(fn)}


def _keras_value(key: str, value):
    """A config value in Keras 3's terms (tapeflow's 'auto' reduction is Keras 3's
    'sum_over_batch_size')."""
    if key == "reduction" and value == "auto":
        return "sum_over_batch_size"
    return value


def serialize_keras_object(obj):
    """The JSON-ready config of a Keras object (layer, model, optimizer, schedule, loss,
    metric, initializer, regularizer, function); plain values pass through.

    Raises:
        NotImplementedError: a subclassed model or layer whose constructor takes arguments
            but that does not define `get_config`.

    Example:
        >>> import tapeflow as tf
        >>> config = tf.keras.saving.serialize_keras_object(tf.keras.layers.Dense(2))
        >>> config["module"], config["class_name"], config["config"]["units"]
        ('keras.layers', 'Dense', 2)
    """
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    if isinstance(obj, (list, tuple)):
        return [serialize_keras_object(x) for x in obj]
    if isinstance(obj, dict):
        return {key: serialize_keras_object(_keras_value(key, value))
                for key, value in obj.items()}
    if hasattr(obj, "dtype") and hasattr(obj, "tolist") and not hasattr(obj, "get_config"):
        return obj.tolist()                   # NumPy scalars and arrays in configs
    if isinstance(obj, (types.FunctionType, types.BuiltinFunctionType)):
        return _function_config(obj)
    cls = type(obj)
    module = _keras_module(cls)
    config = {"module": module or cls.__module__, "class_name": cls.__name__,
              "config": serialize_keras_object(_config_of(obj)),
              "registered_name": None if module else get_registered_name(cls)}
    if module == "keras.src.models.functional":
        config["registered_name"] = "Functional"
    if hasattr(obj, "get_build_config"):
        build = obj.get_build_config()
        if build is not None:
            config["build_config"] = serialize_keras_object(build)
    if getattr(obj, "get_compile_config", None) and obj.get_compile_config():
        config["compile_config"] = serialize_keras_object(obj.get_compile_config())
    return config


def _config_of(obj) -> dict:
    """`obj.get_config()`, refusing a subclass that cannot be rebuilt from what it gives."""
    from ..layers.base import Layer
    cls = type(obj)
    if isinstance(obj, Layer) and _inherits_get_config(cls):
        required = [p.name for p in inspect.signature(cls.__init__).parameters.values()
                    if p.default is p.empty and p.kind in (p.POSITIONAL_OR_KEYWORD,
                                                           p.KEYWORD_ONLY)][1:]
        if required:
            raise NotImplementedError(
                f"{cls.__name__} takes constructor arguments {required} but does not "
                "override get_config(): define get_config() returning them (and register "
                "the class with keras.saving.register_keras_serializable) to save it.")
    return obj.get_config()


def _inherits_get_config(cls: type) -> bool:
    """Whether a user's class uses a tapeflow base class's get_config."""
    if _keras_module(cls) is not None:
        return False
    owner = next(c for c in cls.__mro__ if "get_config" in vars(c))
    return owner.__module__.startswith("tapeflow.")


# -- loading -----------------------------------------------------------------------------
def _find_class(config: dict):
    name = config["class_name"]
    registered = config.get("registered_name") or name
    found = get_registered_object(registered) or get_registered_object(name)
    if found is not None:
        return found
    module = config.get("module")
    for keras_module, namespace in _namespaces():
        if module is None or module == keras_module:
            found = _lookup(namespace, name)
            if found is not None:
                return found
    raise TypeError(f"Could not locate class '{name}' (module {module!r}, registered name "
                    f"{registered!r}). Make sure custom classes are decorated with "
                    "`@keras.saving.register_keras_serializable()` or passed in "
                    "`custom_objects`.")


def _load_function(config: dict):
    if config["class_name"] == "__lambda__":
        if in_safe_mode():
            raise ValueError(
                "Requested the deserialization of a Python lambda. This carries a potential "
                "risk of arbitrary code execution and thus it is disallowed by default. If "
                "you trust the source of the saved model, you can pass `safe_mode=False` to "
                "the loading function.")
        inner = config["config"]
        code = marshal.loads(base64.b64decode(inner["code"]))
        defaults = tuple(inner["defaults"]) if inner.get("defaults") else None
        return types.FunctionType(code, _function_globals(), None, defaults)
    name = config["config"]
    found = get_registered_object(config.get("registered_name") or name)
    for keras_module, namespace in _namespaces():
        if found is None and config.get("module") == keras_module:
            found = _lookup(namespace, name)
    if found is None:
        raise TypeError(f"Could not locate function '{name}'. Register it with "
                        "`@keras.saving.register_keras_serializable()` or pass it in "
                        "`custom_objects`.")
    return found


def _function_globals() -> dict:
    """What a loaded lambda's globals see: tapeflow as `tf`, NumPy as `np`."""
    import numpy
    import tapeflow
    return {"tf": tapeflow, "np": numpy, "__builtins__": __builtins__}


def _supported(cls: type, class_name: str, config: dict) -> dict:
    """`config` without the Keras-only options left at their 'off' value, and without the
    base keys (name, trainable, dtype) a user's constructor does not take.

    Raises:
        ValueError: a Keras-only option switched on.
    """
    parameters = inspect.signature(cls.__init__).parameters
    open_ended = any(p.kind is p.VAR_KEYWORD for p in parameters.values())
    accepted = set(parameters)
    for klass in cls.__mro__[:-1] if open_ended else ():
        if "__init__" in vars(klass):
            accepted.update(inspect.signature(klass.__init__).parameters)
    kept = {}
    for key, value in config.items():
        if key in accepted:
            kept[key] = value
        elif key in _KERAS_ONLY_OPTIONS:
            neutral = _KERAS_ONLY_OPTIONS[key]
            if neutral is not _ANY and value != neutral:
                raise ValueError(f"{class_name}: tapeflow does not implement {key}={value!r} "
                                 f"(only {neutral!r}).")
        elif open_ended or key not in ("name", "trainable", "dtype"):
            kept[key] = value
    return kept


def _is_serialized(value) -> bool:
    return isinstance(value, dict) and "class_name" in value and "config" in value


def _dtype_name(value):
    """A Keras 3 DTypePolicy config becomes its dtype name."""
    if _is_serialized(value) and value["class_name"] in ("DTypePolicy", "FloatDTypePolicy"):
        return value["config"]["name"]
    return value


def deserialize_keras_object(config, custom_objects=None, safe_mode=None, **kwargs):
    """The object a config from `serialize_keras_object` (or Keras 3) describes.

    Args:
        config: a serialized object, or a plain value (returned as it is).
        custom_objects: {name: class or function} for the user's own objects.
        safe_mode: refuse Python code stored in the config (a Lambda's lambda); None
            keeps the setting of the load in progress (True outside one).

    Raises:
        TypeError: a class or function that cannot be found.
        ValueError: code refused by safe_mode, or a Keras option tapeflow lacks.

    Example:
        >>> import tapeflow as tf
        >>> config = {"module": "keras.layers", "class_name": "Dense",
        ...           "config": {"units": 3, "activation": "relu"}, "registered_name": None}
        >>> tf.keras.saving.deserialize_keras_object(config).units
        3
    """
    outer = getattr(_scopes, "safe_mode", True)
    _scopes.safe_mode = outer if safe_mode is None else bool(safe_mode)
    try:
        with CustomObjectScope(custom_objects or {}):
            return _deserialize(config)
    finally:
        _scopes.safe_mode = outer


def in_safe_mode() -> bool:
    """Whether the load in progress refuses code stored in the file."""
    return getattr(_scopes, "safe_mode", True)


def _deserialize(config):
    if isinstance(config, list):
        return [_deserialize(x) for x in config]
    if isinstance(config, dict) and not _is_serialized(config):
        return {key: _deserialize(value) for key, value in config.items()}
    if not _is_serialized(config):
        return config
    class_name = config["class_name"]
    if class_name == "__tuple__":
        return tuple(_deserialize(config["config"]["value"]))
    if class_name in ("function", "__lambda__"):
        return _load_function(config)
    cls = _find_class(config)
    inner = {key: _dtype_name(value) for key, value in (config["config"] or {}).items()}
    inner = _supported(cls, class_name, inner)
    obj = cls.from_config({key: _deserialize(value) if _is_serialized(value) else value
                           for key, value in inner.items()})
    if config.get("build_config") and not getattr(obj, "built", True):
        obj.build_from_config(config["build_config"])
    return obj
