"""The examples in the numpy namespace's docstrings run and print what they say."""
import doctest
import importlib

import pytest

MODULES = ["tapeflow.experimental.numpy", "tapeflow.experimental.numpy.np_arrays",
           "tapeflow.experimental.numpy.np_array_ops", "tapeflow.experimental.numpy.np_math",
           "tapeflow.experimental.numpy.np_dtypes", "tapeflow.experimental.numpy.np_config",
           "tapeflow.experimental.numpy.random", "tapeflow.framework.promotion"]
FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS


def _examples():
    finder = doctest.DocTestFinder()
    seen = set()
    tnp = importlib.import_module("tapeflow.experimental.numpy")
    generated = [(f"tnp.{n}", getattr(tnp, n)) for n in tnp.__all__
                 if getattr(getattr(tnp, n), "__module__", "").startswith("tapeflow")]
    for name, obj in [(m, importlib.import_module(m)) for m in MODULES] + generated:
        for test in finder.find(obj, name):
            if test.examples and test.docstring not in seen:
                seen.add(test.docstring)
                yield pytest.param(test, id=test.name)


@pytest.mark.parametrize("test", list(_examples()))
def test_docstring_example(test, numpy_behavior):
    with numpy_behavior(dtype_conversion_mode="off"):  # examples may turn NumPy behaviour on
        runner = doctest.DocTestRunner(optionflags=FLAGS)
        runner.run(test)
        assert runner.failures == 0, f"{test.name}: see the output above"
