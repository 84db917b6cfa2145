"""tf.test.TestCase: a unittest (absltest when absl-py is installed) TestCase with TF's
assertions on arrays, tensors and nested structures, `evaluate`, and sessions for graph mode.

Each test starts as TF's do: the default graph is new, Python's, NumPy's and tapeflow's
global random seeds are TF's default graph seed, and no cached session is left over.
"""
from __future__ import annotations

import collections.abc
import contextlib
import itertools
import math
import os
import random
import re
import tempfile
import threading
import unittest

import numpy as np

from ..client.session import IndexedSlicesValue, Session, SparseTensorValue
from ..framework import nest
from ..framework.context import executing_eagerly, get_default_session
from ..framework.device import DeviceSpec, device
from ..framework.errors import InvalidArgumentError, OpError
from ..framework.graph import reset_default_graph
from ..framework.graph_tensor import SymbolicTensor
from ..framework.graph_variables import GraphVariable
from ..framework.indexed_slices import IndexedSlices
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor import Tensor, is_tensor
from ..ops.random_ops import DEFAULT_GRAPH_SEED, set_seed

try:
    from absl.testing import absltest as _absltest
except ImportError:  # absl-py is optional: plain unittest then
    _absltest = None

__all__ = ["TestCase", "process_temp_dir"]

# Float types NumPy cannot mix with its own in `allclose`: compared as float32.
_CUSTOM_FLOATS = frozenset({"bfloat16", "float8_e5m2", "float8_e4m3fn", "float8_e4m3fnuz",
                            "float8_e4m3b11fnuz", "float8_e5m2fnuz"})
_INCOMPATIBLE_SHAPES = (r"Incompatible shapes|Dimensions must be equal|"
                        r"required broadcastable shapes")
_process_temp_dir: list = []


def process_temp_dir() -> str:
    """This process's temporary directory for tests (made on first use, under $TEST_TMPDIR
    when set, removed when the process exits).

    Returns:
        The directory's path.

    Example:
        >>> import os
        >>> from tapeflow.testing.testcase import process_temp_dir
        >>> os.path.isdir(process_temp_dir()) and process_temp_dir() == process_temp_dir()
        True
    """
    if not _process_temp_dir:
        import atexit
        import shutil
        import sys
        prefix = os.environ.get("TEST_TMPDIR") or os.path.join(
            tempfile.gettempdir(), os.path.splitext(os.path.basename(sys.argv[0] or "test"))[0])
        path = tempfile.mkdtemp(prefix=prefix)
        atexit.register(shutil.rmtree, path, ignore_errors=True)
        _process_temp_dir.append(path)
    return _process_temp_dir[0]


def _is_graph_value(x) -> bool:
    return isinstance(x, (SymbolicTensor, GraphVariable))


def _where(condition) -> tuple:
    """The indices where `condition` holds (a 0-d condition counts as one element)."""
    return np.atleast_1d(np.asarray(condition)).nonzero()


class EagerSessionWarner:
    """What `TestCase.session()` gives under eager execution: any use of it is an error."""

    def __getattr__(self, attr):
        raise AttributeError(
            "Trying to access properties or call methods on the result of self.session(), "
            "self.cached_session(), etc while eager execution is enabled. Adapt the test to "
            "eager execution, or call tf.compat.v1.disable_eager_execution() in its main().")


class FakeEagerSession:
    """What `TestCase.cached_session()` gives under eager execution: `run(fetches)` is
    `evaluate(fetches)`; feeds and options are a RuntimeError."""

    def __init__(self, test_case: "TestCase") -> None:
        self._test_case = test_case

    def run(self, fetches, *args, **kwargs):
        if kwargs.pop("feed_dict", None):
            raise RuntimeError("feed_dict is not supported when eager execution is enabled "
                               "(in this case, sess.run(t) is shorthand for t.numpy()")
        if args or kwargs:
            raise RuntimeError("Optional args are not supported when eager execution is "
                               "enabled (in this case, sess.run(t) is shorthand for t.numpy()")
        return self._test_case.evaluate(fetches)


class CapturedWrites:
    """The writes `TestCase.captureWritesToStream` captured, read with `contents()`."""

    def __init__(self, capture_location: str) -> None:
        self.capture_location = capture_location

    def contents(self) -> str:
        with open(self.capture_location) as f:
            return f.read()


class _CheckedThread:
    """A thread whose exception fails the test at `join()`; made by `checkedThread`."""

    def __init__(self, testcase, target, args=None, kwargs=None) -> None:
        self._testcase = testcase
        self._target = target
        self._args = () if args is None else args
        self._kwargs = {} if kwargs is None else kwargs
        self._thread = threading.Thread(target=self._protected_run)
        self._exception = None
        self._is_thread_joined = False

    def _protected_run(self) -> None:
        try:
            self._target(*self._args, **self._kwargs)
        except Exception as e:  # reported by join() on the test's thread
            self._exception = e

    def start(self) -> None:
        self._thread.start()

    def join(self) -> None:
        """Waits for the thread; fails the test if the target raised."""
        self._is_thread_joined = True
        self._thread.join()
        if self._exception is not None:
            self._testcase.fail(f"Error in checkedThread: {self._exception}")

    def is_alive(self) -> bool:
        return self._thread.is_alive()

    def check_termination(self) -> None:
        """Fails the test if the thread was never joined; RuntimeError if still running."""
        if not self._is_thread_joined:
            self._testcase.fail("A checked thread was not joined.")
        if self.is_alive():
            raise RuntimeError("Thread was not joined with main thread, and is still running "
                               "when the test finished.")


class _AbslAssertions:
    """The absltest assertions tf.test.TestCase users rely on, for when absl-py is absent."""

    def assertLen(self, container, expected_len, msg=None):
        if len(container) != expected_len:
            self.fail(self._formatMessage(msg, f"{container!r} has length of {len(container)}, "
                                               f"expected {expected_len}."))

    def assertEmpty(self, container, msg=None):
        if len(container):
            self.fail(self._formatMessage(msg, f"{container!r} has length of {len(container)}."))

    def assertNotEmpty(self, container, msg=None):
        if not len(container):
            self.fail(self._formatMessage(msg, f"{container!r} has length of 0."))

    def assertNoCommonElements(self, expected_seq, actual_seq, msg=None):
        common = set(expected_seq) & set(actual_seq)
        if common:
            self.fail(self._formatMessage(msg, f"Common elements {common}\nExpected: "
                                               f"{expected_seq!r}\nActual: {actual_seq!r}"))

    def assertSameElements(self, expected_seq, actual_seq, msg=None):
        missing, unexpected = set(expected_seq) - set(actual_seq), set(actual_seq) - set(
            expected_seq)
        if missing or unexpected:
            self.fail(self._formatMessage(msg, f"Expected, but missing:\n  {sorted(missing)!r}\n"
                                               f"Unexpected, but present:\n  "
                                               f"{sorted(unexpected)!r}"))

    def assertBetween(self, value, minv, maxv, msg=None):
        if not minv <= value <= maxv:
            self.fail(self._formatMessage(msg, f"{value!r} is not between {minv!r} and "
                                               f"{maxv!r}"))

    def assertEndsWith(self, actual, expected_end, msg=None):
        if not actual.endswith(expected_end):
            self.fail(self._formatMessage(msg, f"{actual!r} does not end with "
                                               f"{expected_end!r}"))


_Base = _absltest.TestCase if _absltest is not None else type(
    "TestCase", (_AbslAssertions, unittest.TestCase), {"__module__": __name__})


class TestCase(_Base):
    """Base class for tests of tapeflow code: TF's `tf.test.TestCase`.

    It is absl's `absltest.TestCase` (so `parameterized.TestCase` mixes in, and
    `create_tempdir`/`create_tempfile` exist) when absl-py is installed, else
    `unittest.TestCase`. `setUp` gives each test a new default graph and TF's default
    seeds; `evaluate` turns tensors into NumPy values eagerly or through the default
    session; the assertions compare arrays, tensors and nested structures of them.

    Example:
        >>> import tapeflow as tf
        >>> class AddTest(tf.test.TestCase):
        ...     def test_add(self):
        ...         self.assertAllClose(tf.constant([1.0, 2.0]) + 1.0, [2.0, 3.0])
        >>> import unittest
        >>> result = unittest.TextTestRunner(stream=open(os.devnull, "w")).run(
        ...     unittest.defaultTestLoader.loadTestsFromTestCase(AddTest))
        >>> result.wasSuccessful(), result.testsRun, len(result.skipped)  # test_session skips
        (True, 2, 1)
    """

    def __init__(self, methodName: str = "runTest") -> None:
        super().__init__(methodName)
        self._threads: list = []
        self._tempdir = None
        self._cached_session = None
        self._cached_key = None

    def setUp(self) -> None:
        super().setUp()
        self._clear_cached_session()
        random.seed(DEFAULT_GRAPH_SEED)
        np.random.seed(DEFAULT_GRAPH_SEED)
        reset_default_graph()
        set_seed(DEFAULT_GRAPH_SEED)
        if self.id().endswith(".test_session"):
            self.skipTest("Not a test.")

    def tearDown(self) -> None:
        for thread in self._threads:
            thread.check_termination()
        self._clear_cached_session()
        super().tearDown()

    def _clear_cached_session(self) -> None:
        if self._cached_session is not None:
            self._cached_session.close()
            self._cached_session = None

    # -- files, streams, threads ------------------------------------------------------------
    def get_temp_dir(self) -> str:
        """A directory of this test's own (the same one on every call in a test), inside
        the process's test directory.

        Returns:
            The directory's path.
        """
        if not self._tempdir:
            self._tempdir = tempfile.mkdtemp(dir=process_temp_dir())
        return self._tempdir

    @contextlib.contextmanager
    def captureWritesToStream(self, stream):
        """Captures what is written to `stream`'s file descriptor (sys.stderr, say) inside
        the block, C-level writes included.

        Args:
            stream: a stream with a `fileno()`.

        Yields:
            A CapturedWrites whose `contents()` is the text written.
        """
        stream.flush()
        fd = stream.fileno()
        capture, path = tempfile.mkstemp(dir=self.get_temp_dir())
        saved = os.dup(fd)
        os.dup2(capture, fd)
        try:
            yield CapturedWrites(path)
        finally:
            stream.flush()
            os.dup2(saved, fd)
            os.close(saved)
            os.close(capture)

    def checkedThread(self, target, args=None, kwargs=None) -> _CheckedThread:
        """A thread running `target(*args, **kwargs)` whose exception fails the test when it
        is joined; a thread not joined by the end of the test fails it too.

        Returns:
            An object with `start()`, `join()` and `is_alive()`.
        """
        thread = _CheckedThread(self, target, args, kwargs)
        self._threads.append(thread)
        return thread

    # -- values -----------------------------------------------------------------------------
    def _eval_tensor(self, tensor):
        if tensor is None:
            return None
        if callable(tensor) and not is_tensor(tensor):
            return self._eval_helper(tensor())
        if isinstance(tensor, SparseTensor):
            return SparseTensorValue(tensor.indices.numpy(), tensor.values.numpy(),
                                     tensor.dense_shape.numpy())
        if isinstance(tensor, IndexedSlices):
            return IndexedSlicesValue(*(
                None if part is None else part.numpy() if is_tensor(part) else np.asarray(part)
                for part in (tensor.values, tensor.indices, tensor.dense_shape)))
        if callable(getattr(tensor, "numpy", None)):
            return tensor.numpy()
        raise ValueError(f"Unsupported type {type(tensor).__name__!r}.")

    def _eval_helper(self, tensors):
        return None if tensors is None else nest.map_structure(self._eval_tensor, tensors)

    def evaluate(self, tensors):
        """NumPy values of tensors: eagerly their `numpy()`, in graph mode the default
        session's (or the cached session's) `run`.

        Args:
            tensors: a Tensor, Variable, SparseTensor, IndexedSlices, a callable returning
                them, or a nested structure (lists, tuples, dicts, namedtuples) of these.

        Returns:
            The same structure with NumPy arrays (SparseTensorValue, IndexedSlicesValue for
            those); None stays None.

        Raises:
            ValueError: eagerly, a leaf that is no tensor (a Python number, an array).
        """
        if executing_eagerly():
            return self._eval_helper(tensors)
        session = get_default_session()
        flat = nest.flatten(tensors)
        if session is None:
            with self.test_session() as session:
                results = session.run(flat)
        else:
            results = session.run(flat)
        return nest.pack_sequence_as(tensors, results)

    def evaluate_if_both_tensors(self, a, b):
        """`(a, b)` evaluated together when both are graph tensors, else as they are."""
        if _is_graph_value(a) and _is_graph_value(b):
            return self.evaluate((a, b))
        return a, b

    def _GetNdArray(self, a) -> np.ndarray:
        if is_tensor(a):
            a = self.evaluate(a) if _is_graph_value(a) else a.numpy()
        if isinstance(a, np.ndarray):
            return a
        try:
            return np.array(a)
        except ValueError as e:
            if "inhomogeneous" not in str(e):
                raise
            return np.array(a, dtype=object)

    # -- sessions ---------------------------------------------------------------------------
    @contextlib.contextmanager
    def _placed(self, session: Session, use_gpu: bool, force_gpu: bool):
        with session.graph.as_default(), session.as_default():
            if force_gpu:
                with device("/device:GPU:0"):
                    yield session
            elif use_gpu:
                yield session
            else:
                with device("/device:CPU:0"):
                    yield session

    @contextlib.contextmanager
    def session(self, graph=None, config=None, use_gpu: bool = True, force_gpu: bool = False):
        """A new Session on `graph` (the default graph), made the default session with its
        graph the default graph inside the block, closed after it. Eagerly it yields an
        object any use of which raises AttributeError.

        Args:
            graph: the graph to run; config: accepted for compatibility;
            use_gpu, force_gpu: place ops on the CPU (`use_gpu=False`) or the GPU.

        Yields:
            The Session.
        """
        if executing_eagerly():
            yield EagerSessionWarner()
            return
        with Session(graph=graph, config=config) as session:
            with self._placed(session, use_gpu, force_gpu):
                yield session

    def _get_cached_session(self, graph, config, force_gpu: bool, strict: bool) -> Session:
        key = (graph, config, force_gpu)
        if self._cached_session is None:
            self._cached_session = Session(graph=graph, config=config)
            self._cached_key = key
        elif strict:
            for name, given, cached in zip(("graph", "config", "force_gpu value"), key,
                                           self._cached_key):
                if given is not cached:
                    raise ValueError(f"The {name} used to get the cached session is different "
                                     "than the one that was used to create the session. "
                                     "Maybe create a new session with self.session()")
        return self._cached_session

    @contextlib.contextmanager
    def cached_session(self, graph=None, config=None, use_gpu: bool = True,
                       force_gpu: bool = False):
        """The test's one Session (made on first use, closed by tearDown), as the default
        session inside the block. Eagerly it yields a stand-in whose `run(t)` is
        `evaluate(t)`.

        Raises:
            ValueError: a graph, config or force_gpu other than the first call's.
        """
        if executing_eagerly():
            yield FakeEagerSession(self)
            return
        session = self._get_cached_session(graph, config, force_gpu, strict=True)
        with self._placed(session, use_gpu, force_gpu):
            yield session

    @contextlib.contextmanager
    def test_session(self, graph=None, config=None, use_gpu: bool = True,
                     force_gpu: bool = False):
        """Deprecated form of `cached_session` (a new session when `graph` is given); eagerly
        it yields None. A test method itself named `test_session` is skipped."""
        if self.id().endswith(".test_session"):
            self.skipTest("Tests that have the name \"test_session\" are automatically "
                          "skipped by TensorFlow test fixture, as the name is reserved for "
                          "creating sessions within tests. Please rename your test if you "
                          "have a test with this name.")
        if executing_eagerly():
            yield None
        elif graph is None:
            session = self._get_cached_session(graph, config, force_gpu, strict=False)
            with self._placed(session, use_gpu, force_gpu):
                yield session
        else:
            with self.session(graph, config, use_gpu, force_gpu) as session:
                yield session

    # -- closeness and equality -------------------------------------------------------------
    def _assertArrayLikeAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):
        a, b = self.evaluate_if_both_tensors(a, b)
        a, b = self._GetNdArray(a), self._GetNdArray(b)
        if a.shape != b.shape and (b.ndim <= 3 or b.size < 500):
            shape_msg = f"Shape mismatch: expected {a.shape}, got {b.shape} with contents {b}."
        else:
            shape_msg = f"Shape mismatch: expected {a.shape}, got {b.shape}."
        self.assertEqual(a.shape, b.shape, shape_msg)
        a_dtype = a.dtype
        a = a.astype(np.float32) if a.dtype.name in _CUSTOM_FLOATS else a
        b = b.astype(np.float32) if b.dtype.name in _CUSTOM_FLOATS else b
        if np.allclose(a, b, rtol=rtol, atol=atol):
            return
        not_close = np.logical_or(np.abs(a - b) > atol + rtol * np.abs(b),
                                  np.isnan(a) != np.isnan(b))
        lines = [msg]
        if a.ndim:
            x, y = a[_where(not_close)], b[_where(not_close)]
            lines.append(f"not close where = {_where(not_close)}")
        else:
            x, y = a, b
        lines += [f"not close lhs = {x}", f"not close rhs = {y}",
                  f"not close dif = {np.abs(x - y)}", f"not close tol = {atol + rtol * np.abs(y)}",
                  f"dtype = {a_dtype}, shape = {a.shape}"]
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg="\n".join(lines),
                                   equal_nan=True)

    def _assertAllCloseRecursive(self, a, b, rtol=1e-6, atol=1e-6, path=None, msg=None):
        path = path or []
        where = "".join(f"[{p}]" for p in path)
        msg = msg or ""
        if hasattr(a, "_asdict"):
            a = a._asdict()
        if hasattr(b, "_asdict"):
            b = b._asdict()
        a_is_dict = isinstance(a, collections.abc.Mapping)
        if a_is_dict != isinstance(b, collections.abc.Mapping):
            raise ValueError(f"Can't compare dict to non-dict, a{where} vs b{where}. {msg}")
        mismatch = f"Mismatched value: a{where} is different from b{where}. {msg}"
        if a_is_dict:
            self.assertItemsEqual(a.keys(), b.keys(),
                                  msg=f"mismatched keys: a{where} has keys {a.keys()}, but "
                                      f"b{where} has keys {b.keys()}. {msg}")
            for key in a:
                self._assertAllCloseRecursive(a[key], b[key], rtol, atol, path + [key], msg)
        elif isinstance(a, (list, tuple)):
            try:  # as one array when the sequences are regular, item by item otherwise
                a, b = self.evaluate_if_both_tensors(a, b)
                self._assertArrayLikeAllClose(self._GetNdArray(a), self._GetNdArray(b),
                                              rtol=rtol, atol=atol, msg=mismatch)
            except (ValueError, TypeError, NotImplementedError):
                if len(a) != len(b):
                    raise ValueError(f"Mismatched length: a{where} has {len(a)} items, but "
                                     f"b{where} has {len(b)} items. {msg}") from None
                for index, (a_item, b_item) in enumerate(zip(a, b)):
                    self._assertAllCloseRecursive(a_item, b_item, rtol, atol,
                                                  path + [str(index)], msg)
        else:
            try:
                self._assertArrayLikeAllClose(a, b, rtol=rtol, atol=atol, msg=mismatch)
            except TypeError as e:
                e.args = ((f"{e.args[0] if e.args else ''} : Error: a{where} has {type(a)}, "
                           f"but b{where} has {type(b)}. {msg}"),) + e.args[1:]
                raise

    def assertAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):
        """Asserts that `a` and `b` are close: |a - b| <= atol + rtol * |b| elementwise (NaN
        matches NaN), for arrays, tensors, numbers, or nested structures of them (dicts,
        namedtuples, lists, tuples) compared leaf by leaf.

        Args:
            a: the expected value; b: the actual value; rtol, atol: the tolerances;
            msg: added to the failure message.

        Raises:
            AssertionError: a leaf differs (the message names its path, as `a[key][1]`),
                shapes differ, or dict keys differ.
            ValueError: one of `a[p]`, `b[p]` is a dict and the other not, or sequences of
                different lengths that are no arrays.
        """
        self._assertAllCloseRecursive(a, b, rtol=rtol, atol=atol, msg=msg)

    def assertAllCloseAccordingToType(self, a, b, rtol=1e-6, atol=1e-6, float_rtol=1e-6,
                                      float_atol=1e-6, half_rtol=1e-3, half_atol=1e-3,
                                      bfloat16_rtol=1e-2, bfloat16_atol=1e-2, msg=None):
        """`assertAllClose` with tolerances widened for the less precise dtype of `a` or `b`:
        at least float_* for float32/complex64, half_* for float16, bfloat16_* for bfloat16.
        """
        a, b = self.evaluate_if_both_tensors(a, b)
        a, b = self._GetNdArray(a), self._GetNdArray(b)
        names = {a.dtype.name, b.dtype.name}
        if names & {"float32", "complex64"}:
            rtol, atol = max(rtol, float_rtol), max(atol, float_atol)
        if "float16" in names:
            rtol, atol = max(rtol, half_rtol), max(atol, half_atol)
        if "bfloat16" in names:
            rtol, atol = max(rtol, bfloat16_rtol), max(atol, bfloat16_atol)
        self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)

    def assertNotAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):
        """Asserts that some element of `a` is not close to `b`'s (see assertAllClose).

        Raises:
            AssertionError: all elements are close.
        """
        try:
            self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)
        except AssertionError:
            return
        raise AssertionError(f"The two values are close at all elements. {msg or ''}")

    def assertAllEqual(self, a, b, msg=None):
        """Asserts that two arrays or tensors have the same shape and elements (NaN equals
        NaN; str and bytes elements compare as UTF-8 bytes).

        Raises:
            AssertionError: shapes or elements differ.
        """
        msg = msg or ""
        a, b = self.evaluate_if_both_tensors(a, b)
        a, b = self._GetNdArray(a), self._GetNdArray(b)
        if b.ndim <= 3 or b.size < 500:
            shape_msg = (f"Shape mismatch: expected {a.shape}, got {b.shape}. Contents: {b!r}. "
                         f"\n{msg}.")
        else:
            shape_msg = f"Shape mismatch: expected {a.shape}, got {b.shape}. {msg}"
        self.assertEqual(a.shape, b.shape, shape_msg)
        if a.dtype.kind != b.dtype.kind and {a.dtype.kind, b.dtype.kind} <= {"U", "S", "O"}:
            a, b = (np.array([x.encode("utf-8") if isinstance(x, str) else x for x in v.flat],
                             dtype=object).reshape(v.shape) for v in (a, b))
        same = a == b
        if np.issubdtype(a.dtype, np.floating) or a.dtype.name in _CUSTOM_FLOATS:
            same = np.logical_or(same, np.logical_and(np.isnan(a), np.isnan(b)))
        if np.all(same):
            return
        lines = [msg]
        if a.ndim:
            different = _where(np.logical_not(same))
            x, y = a[different], b[different]
            lines.append(f"not equal where = {different}")
        else:
            x, y = a, b
        lines += [f"not equal lhs = {x!r}", f"not equal rhs = {y!r}"]
        np.testing.assert_array_equal(a, b, err_msg="\n".join(lines))

    def assertNotAllEqual(self, a, b, msg=None):
        """Asserts that two arrays or tensors differ somewhere (see assertAllEqual)."""
        try:
            self.assertAllEqual(a, b)
        except AssertionError:
            return
        raise AssertionError(f"The two values are equal at all elements. {msg or ''}")

    def assertNear(self, f1, f2, err, msg=None):
        """Asserts that |f1 - f2| <= err for two floats (equal infinities are near)."""
        f1, f2 = np.squeeze(f1), np.squeeze(f2)
        if f1 != f2:
            diff = math.fabs(f1 - f2)
            self.assertTrue(diff <= err, "%f != %f +/- %f (difference: %g)%s" % (
                f1, f2, err, diff, f" ({msg})" if msg is not None else ""))

    def assertArrayNear(self, farray1, farray2, err, msg=None):
        """Asserts that two float sequences have equal lengths and near elements."""
        self.assertEqual(len(farray1), len(farray2), msg=msg)
        for f1, f2 in zip(farray1, farray2):
            self.assertNear(float(f1), float(f2), err, msg=msg)

    def assertNDArrayNear(self, ndarray1, ndarray2, err, msg=None):
        """Asserts that the norm of `ndarray1 - ndarray2` is below `err`."""
        self.assertTrue(np.linalg.norm(ndarray1 - ndarray2) < err, msg=msg)

    # -- orders, ranges, sets, shapes, dtypes, devices --------------------------------------
    def _extreme(self, a, comparison_target, reduce):
        a, comparison_target = self.evaluate_if_both_tensors(a, comparison_target)
        return reduce(self._GetNdArray(a)), comparison_target

    def assertAllGreater(self, a, comparison_target):
        """Asserts that every element of `a` is greater than `comparison_target`."""
        self.assertGreater(*self._extreme(a, comparison_target, np.min))

    def assertAllGreaterEqual(self, a, comparison_target):
        """Asserts that every element of `a` is at least `comparison_target`."""
        self.assertGreaterEqual(*self._extreme(a, comparison_target, np.min))

    def assertAllLess(self, a, comparison_target):
        """Asserts that every element of `a` is less than `comparison_target`."""
        self.assertLess(*self._extreme(a, comparison_target, np.max))

    def assertAllLessEqual(self, a, comparison_target):
        """Asserts that every element of `a` is at most `comparison_target`."""
        self.assertLessEqual(*self._extreme(a, comparison_target, np.max))

    @staticmethod
    def _format_subscripts(subscripts, value, limit: int = 10, indent: int = 2) -> list:
        prefix = " " * indent
        if np.ndim(value) == 0:
            return [f"{prefix}[0] : {value}"]
        rows = np.transpose(subscripts)
        lines = [f"{prefix}{row} : {value[tuple(row)]}" for row in itertools.islice(rows, limit)]
        return lines + [prefix + "..."] if len(rows) > limit else lines

    def assertAllInRange(self, target, lower_bound, upper_bound, open_lower_bound=False,
                         open_upper_bound=False):
        """Asserts that every element of `target` lies in [lower_bound, upper_bound] (an
        open bound excludes its end).

        Raises:
            AssertionError: a non-numeric dtype, a NaN, or an element outside the range
                (the message lists their subscripts and values).
        """
        target = self._GetNdArray(target)
        if not (np.issubdtype(target.dtype, np.floating)
                or np.issubdtype(target.dtype, np.integer)):
            raise AssertionError(f"The value of {target} does not have an ordered numeric "
                                 f"type, instead it has type: {target.dtype}")
        nans = _where(np.isnan(target))
        if np.size(nans):
            raise AssertionError(
                f"{len(nans[0])} of the {np.size(target)} element(s) are NaN. Subscripts(s) "
                "and value(s) of the NaN element(s):\n"
                + "\n".join(self._format_subscripts(nans, target)))
        range_str = (("(" if open_lower_bound else "[") + f"{lower_bound}, {upper_bound}"
                     + (")" if open_upper_bound else "]"))
        below = (np.less_equal if open_lower_bound else np.less)(target, lower_bound)
        above = (np.greater_equal if open_upper_bound else np.greater)(target, upper_bound)
        outside = _where(np.logical_or(below, above))
        if np.size(outside):
            raise AssertionError(
                f"{len(outside[0])} of the {np.size(target)} element(s) are outside the range "
                f"{range_str}. Subscript(s) and value(s) of the offending elements:\n"
                + "\n".join(self._format_subscripts(outside, target)))

    def assertAllInSet(self, target, expected_set):
        """Asserts that every element of `target` is in `expected_set`.

        Raises:
            AssertionError: naming the count and the unique elements outside the set.
        """
        target = self._GetNdArray(target)
        outside = np.setdiff1d(target.flatten(), list(expected_set))
        if np.size(outside):
            raise AssertionError(f"{np.size(outside)} unique element(s) are not in the set "
                                 f"{expected_set}: {outside}")

    def assertDTypeEqual(self, target, expected_dtype):
        """Asserts that the array (or tensor) `target` has dtype `expected_dtype` (a NumPy
        dtype or type, or a tf.DType)."""
        self.assertEqual(self._GetNdArray(target).dtype, expected_dtype)

    def assertShapeEqual(self, input_a, input_b, msg=None):
        """Asserts that two arrays or tensors have equal (static) shapes.

        Raises:
            TypeError: an argument that is no NumPy array, NumPy scalar or Tensor.
        """
        for name, value in (("input_a", input_a), ("input_b", input_b)):
            if not isinstance(value, (np.ndarray, np.generic, Tensor)):
                raise TypeError(f"{name} must be a Numpy ndarray, Numpy scalar, or a Tensor."
                                f"Instead received {type(value)}")
        shape_a, shape_b = (v.get_shape().as_list() if isinstance(v, Tensor) else v.shape
                            for v in (input_a, input_b))
        self.assertAllEqual(shape_a, shape_b, msg=msg)

    def assertDeviceEqual(self, device1, device2, msg=None):
        """Asserts that two device names (strings or DeviceSpecs) name the same device once
        written canonically ("/cpu:0" is "/device:CPU:0")."""
        device1, device2 = (d.to_string() if isinstance(d, DeviceSpec)
                            else DeviceSpec.from_string(d or "").to_string()
                            for d in (device1, device2))
        self.assertEqual(device1, device2, f"Devices {device1} and {device2} are not equal. "
                                           f"{msg}")

    def assertStartsWith(self, actual, expected_start, msg=None):
        """Asserts that the string `actual` starts with `expected_start`."""
        if not actual.startswith(expected_start):
            self.fail(f"{actual!r} does not start with {expected_start!r}"
                      + (f" : {msg!r}" if msg else ""))

    def assertDictEqual(self, a, b, msg=None):
        """Asserts that two dicts are equal; values that are arrays or tensors are compared
        with assertAllClose (floating) or assertAllEqual (the key is the message)."""
        try:
            super().assertDictEqual(a, b, msg)
        except Exception:  # arrays have no single truth value: compare them as arrays
            self.assertCountEqual(a.keys(), b.keys())
            for key, value in a.items():
                a_k, b_k = self.evaluate_if_both_tensors(value, b[key])
                if np.issubdtype(self._GetNdArray(a_k).dtype, np.floating):
                    self.assertAllClose(value, b[key], msg=key)
                else:
                    self.assertAllEqual(value, b[key], msg=key)

    def assertProtoEquals(self, expected_message_maybe_ascii, validate_message, msg=None,
                          relative_tolerance=None):
        """Asserts that a protocol buffer message equals the expected one, given as a message
        or in text format (parsed as `validate_message`'s type). Needs `protobuf`.

        Args:
            relative_tolerance: compare float fields within this relative tolerance.

        Raises:
            AssertionError: the messages differ (the message shows both in text format).
            TypeError: the expected value is neither a message nor a string.
        """
        from google.protobuf import text_format
        expected = expected_message_maybe_ascii
        if isinstance(expected, (str, bytes)):
            parsed = type(validate_message)()
            text_format.Merge(expected, parsed, descriptor_pool=None)
            expected = parsed
        elif not hasattr(expected, "DESCRIPTOR"):
            raise TypeError(f"Can't compare protos of type {type(expected).__name__} and "
                            f"{type(validate_message).__name__}.")
        if relative_tolerance is not None:
            self._assertProtoClose(expected, validate_message, relative_tolerance, msg)
            return
        self.assertMultiLineEqual(text_format.MessageToString(expected),
                                  text_format.MessageToString(validate_message), msg)

    def _assertProtoClose(self, expected, actual, relative_tolerance, msg):
        from google.protobuf import text_format
        self.assertEqual(type(expected), type(actual), msg)
        fields_a = dict((f.name, v) for f, v in expected.ListFields())
        fields_b = dict((f.name, v) for f, v in actual.ListFields())
        self.assertCountEqual(fields_a, fields_b, msg or text_format.MessageToString(actual))
        for name, value in fields_a.items():
            other = fields_b[name]
            values = (list(zip(value, other)) if hasattr(value, "__len__")
                      and not isinstance(value, (str, bytes)) else [(value, other)])
            for x, y in values:
                if hasattr(x, "ListFields"):
                    self._assertProtoClose(x, y, relative_tolerance, msg)
                elif isinstance(x, float):
                    self.assertAllClose(x, y, rtol=relative_tolerance, atol=0, msg=msg)
                else:
                    self.assertEqual(x, y, msg)

    # -- exceptions -------------------------------------------------------------------------
    @contextlib.contextmanager
    def assertRaisesWithPredicateMatch(self, exception_type, expected_err_re_or_predicate):
        """A context in which the code must raise `exception_type` satisfying the predicate,
        or (a string) whose message (an OpError's with its op's name) matches the regex.

        Raises:
            AssertionError: nothing raised, another type, or the predicate fails.
        """
        if callable(expected_err_re_or_predicate):
            predicate = expected_err_re_or_predicate
        else:
            def predicate(e):
                text = e.message if isinstance(e, OpError) else str(e)
                op = getattr(e, "op", None) if isinstance(e, OpError) else None
                if op is not None and getattr(op, "name", None):
                    text += "\nCaused by: " + op.name
                return re.search(expected_err_re_or_predicate, text)
        try:
            yield
            self.fail(exception_type.__name__ + " not raised")
        except Exception as e:  # the test's own failure above lands here too, as in TF
            if not isinstance(e, exception_type) or not predicate(e):
                raise AssertionError(f"Exception of type {type(e)}: {e}") from e

    def assertRaisesOpError(self, expected_err_re_or_predicate):
        """assertRaisesWithPredicateMatch for `tf.errors.OpError`."""
        return self.assertRaisesWithPredicateMatch(OpError, expected_err_re_or_predicate)

    def assertRaisesIncompatibleShapesError(self, exception_type=InvalidArgumentError):
        """A context in which the code must raise `exception_type` for shapes that do not
        broadcast ("Incompatible shapes", "Dimensions must be equal")."""
        return self.assertRaisesWithPredicateMatch(exception_type, _INCOMPATIBLE_SHAPES)

    assertItemsEqual = unittest.TestCase.assertCountEqual
    assertRaisesRegexp = unittest.TestCase.assertRaisesRegex
