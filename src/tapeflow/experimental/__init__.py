"""tf.experimental: the numpy namespace (`tf.experimental.numpy`), imported on first use."""
import importlib

_LAZY_SUBMODULES = frozenset(["numpy"])


def __getattr__(name: str):
    if name in _LAZY_SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'tapeflow.experimental' has no attribute {name!r}")


def __dir__() -> list:
    return sorted(set(globals()) | _LAZY_SUBMODULES)
