"""tapeflow standing in for TensorFlow: `import tensorflow` resolves to tapeflow.

`install()` puts one finder at the head of `sys.meta_path`. From then on, for the whole
process, `import tensorflow` gives the `tapeflow` module itself and `import tensorflow.X.Y`
(or `from tensorflow.X import Y`) gives the module `tapeflow.X.Y`: the same module object
under both names, never a second copy, so a library that imports `tensorflow` and a program
that imports `tapeflow` share one set of Variables, tapes and graphs. A name that is a module
attribute rather than a file (`tensorflow.nest` is the module `tf.nest` wherever tapeflow
keeps it) resolves to that attribute. The real TensorFlow, installed or not, is never loaded
while the stand-in is on.

The command line runs an unmodified program this way: `tapeflow as-tensorflow script.py
[args]`, `tapeflow as-tensorflow -m pytest tests/`, and on MPI workers `tapeflow run -n 2
--as-tensorflow script.py`.

Example:
    >>> import sys
    >>> from tapeflow import standin
    >>> already = standin.installed()
    >>> standin.install()
    >>> import tensorflow as tf
    >>> import tapeflow
    >>> tf is tapeflow, tf.__version__ == tapeflow.version.VERSION
    (True, True)
    >>> import tensorflow.nn
    >>> sys.modules["tensorflow.nn"] is tapeflow.nn
    True
    >>> if not already:
    ...     standin.uninstall()
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import runpy
import sys
import types

__all__ = ["install", "installed", "uninstall", "run_path", "run_module"]

_TF = "tensorflow"
_TAPEFLOW = "tapeflow"


def _target(name: str) -> str:
    """The tapeflow module name that TensorFlow's module `name` maps to."""
    return _TAPEFLOW + name[len(_TF):]


def _resolve(target: str) -> types.ModuleType:
    """The tapeflow module `target`: imported as a file, else an attribute of its parent that
    is a module (TF names some modules where tapeflow keeps them elsewhere)."""
    try:
        return importlib.import_module(target)
    except ModuleNotFoundError as error:
        if error.name != target:
            raise
        parent, _, attribute = target.rpartition(".")
        found = getattr(importlib.import_module(parent), attribute, None)
        if isinstance(found, types.ModuleType):
            return found
        raise ModuleNotFoundError(
            f"No module named {_TF + target[len(_TAPEFLOW):]!r}: tapeflow, standing in for "
            f"TensorFlow, has no {target!r}", name=_TF + target[len(_TAPEFLOW):]) from None


class _Loader(importlib.abc.Loader):
    """Hands the import system the tapeflow module itself; runs nothing."""

    def __init__(self, module: types.ModuleType):
        self._module = module
        self._spec = module.__spec__

    def create_module(self, spec):
        return self._module

    def exec_module(self, module):
        # The import system stamps the alias's spec on the module; the module keeps its own.
        module.__spec__ = self._spec


class _Finder(importlib.abc.MetaPathFinder):
    """Answers for `tensorflow` and every `tensorflow.*` with tapeflow's modules."""

    def find_spec(self, name, path=None, target=None):
        if name != _TF and not name.startswith(_TF + "."):
            return None
        module = _resolve(_target(name))
        is_package = hasattr(module, "__path__")
        return importlib.machinery.ModuleSpec(name, _Loader(module), is_package=is_package)


_FINDER = _Finder()


def installed() -> bool:
    """Whether `import tensorflow` gives tapeflow in this process."""
    return _FINDER in sys.meta_path


def install() -> None:
    """Makes `tensorflow` and every `tensorflow.*` resolve to tapeflow for this process.

    Calling it again changes nothing. Modules already imported under tapeflow's names are
    the ones `tensorflow.*` then gives. The classes libraries recognise TF's types by (a
    Tensor, a Dataset: `tapeflow.python.class_names`) carry TF's module and class names
    from then on.

    Raises:
        ImportError: the real TensorFlow is already imported in this process (two engines
            cannot share one set of tensors); the message names the module and its file.
    """
    if installed():
        return
    real = sys.modules.get(_TF)
    if real is not None and getattr(real, "__name__", None) != _TAPEFLOW:
        where = getattr(real, "__file__", None) or "an unknown location"
        raise ImportError(
            f"tapeflow cannot stand in for TensorFlow: the real TensorFlow "
            f"({getattr(real, '__version__', 'unknown version')}, {where}) is already imported "
            f"in this process. Install the stand-in (tapeflow.standin.install(), or run "
            f"`tapeflow as-tensorflow ...`) before anything imports tensorflow.")
    importlib.import_module(_TAPEFLOW)
    sys.meta_path.insert(0, _FINDER)
    # Libraries tell TF's types apart by their classes' modules and names: tapeflow's
    # classes carry TF's while the stand-in is on (tapeflow.python.class_names).
    importlib.import_module(_TAPEFLOW + ".python.class_names").apply(True)


def uninstall() -> None:
    """Undoes `install`: `tensorflow` no longer resolves to tapeflow, and the `tensorflow.*`
    aliases are dropped from `sys.modules` (the tapeflow modules themselves stay), and the
    classes get tapeflow's names back."""
    if _FINDER in sys.meta_path:
        sys.meta_path.remove(_FINDER)
        importlib.import_module(_TAPEFLOW + ".python.class_names").apply(False)
    for name in [n for n in sys.modules if n == _TF or n.startswith(_TF + ".")]:
        if getattr(sys.modules[name], "__name__", "").startswith(_TAPEFLOW):
            del sys.modules[name]


def _as_main(argv: list, run) -> None:
    saved = sys.argv
    sys.argv = list(argv)
    try:
        run()
    finally:
        sys.argv = saved


def run_path(path: str, argv: list) -> None:
    """Runs the script `path` as `__main__` with `sys.argv = [path, *argv]`, under the
    stand-in (installed first); the script's directory leads `sys.path`, as `python path`
    would have it."""
    import os
    install()
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    _as_main([path, *argv], lambda: runpy.run_path(path, run_name="__main__"))


def run_module(module: str, argv: list) -> None:
    """Runs `module` as `python -m module argv...` would, under the stand-in (installed
    first); the working directory leads `sys.path`, as `python -m` has it."""
    install()
    sys.path.insert(0, "")
    _as_main([module, *argv], lambda: runpy.run_module(module, run_name="__main__",
                                                       alter_sys=True))
