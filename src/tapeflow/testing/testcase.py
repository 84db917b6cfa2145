"""tf.test.TestCase: a unittest (absltest when absl-py is installed) TestCase with TF's
assertions on arrays, tensors and nested structures, `evaluate`, and sessions for graph mode.

Each test starts as TF's do: the default graph is new, Python's, NumPy's and tapeflow's
global random seeds are TF's default graph seed, and no cached session is left over.
"""
from __future__ import annotations

import contextlib
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
from ..framework.device import device
from ..framework.graph import reset_default_graph
from ..framework.graph_tensor import SymbolicTensor
from ..framework.graph_variables import GraphVariable
from ..framework.indexed_slices import IndexedSlices
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor import is_tensor
from ..ops.random_ops import DEFAULT_GRAPH_SEED, set_seed
from .tensor_assertions import TensorAssertions

try:
    from absl.testing import absltest as _absltest
except ImportError:  # absl-py is optional: plain unittest then
    _absltest = None

__all__ = ["TestCase", "process_temp_dir"]

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


class TestCase(TensorAssertions, _Base):
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

    assertItemsEqual = unittest.TestCase.assertCountEqual
    assertRaisesRegexp = unittest.TestCase.assertRaisesRegex
