"""The peer frameworks: single-threaded set-up, detection, import and versions.

`single_thread_env()` must run before NumPy or any peer is imported (BLAS pools size
themselves at load); `load()` then imports every installed peer and pins its own thread
pools to one thread. A peer that is not installed is skipped with a note, never faked.
"""
from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import os

PEERS = ("torch", "jax", "tensorflow", "autograd")

_THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS", "BLIS_NUM_THREADS",
                "TF_NUM_INTRAOP_THREADS", "TF_NUM_INTEROP_THREADS")
_XLA_ONE_THREAD = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"

_limits = []  # keeps threadpoolctl's limit object alive for the whole run


def single_thread_env() -> None:
    """Sets the environment variables that make BLAS, OpenMP, TF and XLA use one thread."""
    for var in _THREAD_VARS:
        os.environ.setdefault(var, "1")
    flags = os.environ.get("XLA_FLAGS", "")
    if "intra_op_parallelism_threads" not in flags:
        os.environ["XLA_FLAGS"] = f"{flags} {_XLA_ONE_THREAD}".strip()
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    os.environ.setdefault("JAX_PLATFORMS", "cpu")


def load(wanted=PEERS) -> tuple:
    """Imports each installed peer in `wanted`: returns ({name: module}, [notes])."""
    modules, notes = {}, []
    for name in wanted:
        if importlib.util.find_spec(name) is None:
            notes.append(f"{name}: not installed, skipped")
            continue
        try:
            modules[name] = importlib.import_module(name)
        except Exception as e:  # a broken install is reported, not fatal
            notes.append(f"{name}: import failed ({type(e).__name__}: {e}), skipped")
            continue
        _one_thread(name, modules[name])
    if not limit_blas():
        notes.append("threadpoolctl: not installed, BLAS threads are capped by environment "
                     "variables only (too late if NumPy was imported first)")
    return modules, notes


def _one_thread(name: str, module) -> None:
    if name == "torch":
        module.set_num_threads(1)
        try:
            module.set_num_interop_threads(1)
        except RuntimeError:  # only settable before torch's first parallel work
            pass
    elif name == "tensorflow":
        try:
            module.config.threading.set_intra_op_parallelism_threads(1)
            module.config.threading.set_inter_op_parallelism_threads(1)
        except RuntimeError:  # the runtime already started; the env vars above hold
            pass


def limit_blas() -> bool:
    """Caps every BLAS/OpenMP pool loaded so far at one thread; False without threadpoolctl."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return False
    _limits.append(threadpool_limits(limits=1))
    return True


def versions(modules: dict) -> str:
    """'torch 2.13.0, jax 0.10.2' for the peers loaded."""
    return ", ".join(f"{name} {_version(name, m)}" for name, m in modules.items())


def _version(name: str, module) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return getattr(module, "__version__", "?")
