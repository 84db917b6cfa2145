"""tf.test: TestCase, main, Benchmark, gradient checking and what the build supports.

TestCase, Benchmark and the gradient checker (tapeflow.testing) load on first use. tapeflow
runs every op with NumPy on the host CPU: it has no GPU, CUDA, ROCm or XLA build.
"""
from __future__ import annotations

import functools
import sys

__all__ = ["Benchmark", "TestCase", "benchmark_config", "compute_gradient",
           "disable_with_predicate", "experimental", "gpu_device_name", "is_built_with_cuda",
           "is_built_with_gpu_support", "is_built_with_rocm", "is_built_with_xla",
           "is_cpu_target_available", "is_gpu_available", "main", "with_eager_op_as_function"]

_LAZY = {"TestCase": ("testcase", "TestCase"), "Benchmark": ("benchmark", "Benchmark"),
         "benchmark_config": ("benchmark", "benchmark_config"),
         "compute_gradient": ("gradient_checker", "compute_gradient"),
         "experimental": ("experimental", None)}


def main(argv=None):
    """Runs the tests of the `__main__` module (absltest's runner when absl-py is installed,
    else unittest's) and exits with their status; with `--benchmark_filter=REGEX` it runs
    the matching `tf.test.Benchmark` methods instead.

    Args:
        argv: the command line (sys.argv when None).

    Example:
        A test file ends with::

            if __name__ == "__main__":
                tf.test.main()
    """
    args = list(sys.argv if argv is None else argv)
    filters = [a for a in args if a.startswith(("--benchmark_filter=", "-benchmark_filter="))]
    if filters:
        from .testing.benchmark import run_benchmarks
        args.remove(filters[0])
        run_benchmarks(filters[0].split("=", 1)[1])
        return None
    try:
        from absl import app
        from absl.testing import absltest
    except ImportError:
        import unittest
        return unittest.main(module="__main__", argv=args)
    return app.run(main=lambda run_args: absltest.main(argv=run_args), argv=args)


def is_gpu_available(cuda_only: bool = False, min_cuda_compute_capability=None) -> bool:
    """Whether a GPU is available to tapeflow's ops: never (they run on NumPy).

    Example:
        >>> import tapeflow as tf
        >>> tf.test.is_gpu_available()
        False
    """
    return False


def gpu_device_name() -> str:
    """The name of a GPU device, or "" when there is none (always, in tapeflow).

    Example:
        >>> import tapeflow as tf
        >>> tf.test.gpu_device_name()
        ''
    """
    return ""


def is_built_with_cuda() -> bool:
    """Whether tapeflow was built with CUDA: no.

    Example:
        >>> import tapeflow as tf
        >>> tf.test.is_built_with_cuda()
        False
    """
    return False


def is_built_with_rocm() -> bool:
    """Whether tapeflow was built with ROCm: no.

    Example:
        >>> import tapeflow as tf
        >>> tf.test.is_built_with_rocm()
        False
    """
    return False


def is_built_with_gpu_support() -> bool:
    """Whether tapeflow was built with CUDA or ROCm GPU support: no.

    Example:
        >>> import tapeflow as tf
        >>> tf.test.is_built_with_gpu_support()
        False
    """
    return is_built_with_cuda() or is_built_with_rocm()


def is_built_with_xla() -> bool:
    """Whether tapeflow compiles with XLA: no (jit_compile runs the same plans).

    Example:
        >>> import tapeflow as tf
        >>> tf.test.is_built_with_xla()
        False
    """
    return False


_CPU_TARGETS = (("arm", ("arm",)), ("aarch64", ("aarch64", "arm64")),
                ("ppc", ("ppc", "powerpc")), ("powerpc", ("ppc", "powerpc")),
                ("x86", ("x86", "amd64", "i386", "i686")), ("s390x", ("s390x",)))


def is_cpu_target_available(target: str) -> bool:
    """Whether ops run on CPU target `target` ("x86", "aarch64", "arm", "ppc"/"powerpc",
    "s390x", or a name starting with one): tapeflow's run on the host, so this says whether
    the host is that kind of CPU.

    Raises:
        AssertionError: an unknown target.

    Example:
        >>> import platform, tapeflow as tf
        >>> tf.test.is_cpu_target_available("x86") == platform.machine().startswith(
        ...     ("x86", "AMD64", "i386", "i686"))
        True
    """
    import platform
    machine = platform.machine().lower()
    for prefix, machines in _CPU_TARGETS:
        if target.startswith(prefix):
            return machine.startswith(machines)
    raise AssertionError("Unknown CPU target: " + target)


def disable_with_predicate(pred, skip_message: str):
    """Decorates a test method to skip (with `skip_message`) when `pred()` is true at run
    time.

    Example:
        >>> import tapeflow as tf
        >>> class T(tf.test.TestCase):
        ...     @tf.test.disable_with_predicate(lambda: True, "not here")
        ...     def test_gpu(self):
        ...         raise RuntimeError("never runs")
        >>> import unittest
        >>> result = unittest.TestResult()
        >>> _ = T("test_gpu").run(result)
        >>> result.skipped[0][1]
        'not here'
    """
    def decorator(func):
        @functools.wraps(func)
        def wrapper(self, *args, **kwargs):
            if pred():
                self.skipTest(skip_message)
            return func(self, *args, **kwargs)
        return wrapper
    return decorator


def with_eager_op_as_function(cls=None, only_as_function: bool = False):
    """Returns the test class unchanged: every eager op already runs the way a function's
    does (usable as `@with_eager_op_as_function` or `@with_eager_op_as_function()`).

    Example:
        >>> import tapeflow as tf
        >>> class T(tf.test.TestCase):
        ...     pass
        >>> tf.test.with_eager_op_as_function(T) is T
        True
    """
    return cls if cls is not None else (lambda decorated: decorated)


def __getattr__(name: str):
    if name in _LAZY:
        import importlib
        module_name, attribute = _LAZY[name]
        module = importlib.import_module(f".testing.{module_name}", __package__)
        value = module if attribute is None else getattr(module, attribute)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'tapeflow.test' has no attribute {name!r}")


def __dir__() -> list:
    return sorted(set(globals()) | set(__all__))
