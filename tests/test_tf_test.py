"""tf.test: TestCase's assertions (passing and failing, with TF 2.21's messages), evaluate
and sessions in eager and graph mode, per-test state, Benchmark reports, main, and the build
queries. Expected strings and values were recorded from TF 2.21."""
import collections
import os
import subprocess
import sys
import textwrap
import unittest

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.testing.testcase import process_temp_dir

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
Pair = collections.namedtuple("Pair", "x y")


def run_case(cls, name):
    """Runs one test method of `cls`; returns the unittest result."""
    result = unittest.TestResult()
    cls(name).run(result)
    return result


class AllCloseTest(tf.test.TestCase):

    def test_passes_within_tolerance_and_on_nan(self):
        self.assertAllClose([1.0, 2.0], [1.0, 2.0 + 1e-7])
        self.assertAllClose([np.nan], [np.nan])
        self.assertAllClose(tf.constant([1.0]), np.array([1.0]))
        self.assertAllClose({"a": [1.0, (2.0, 3.0)]}, {"a": [1.0, (2.0, 3.0)]})
        self.assertAllClose(Pair(1.0, [2.0]), Pair(1.0, [2.0]))

    def test_failure_names_tolerances_and_mismatch(self):
        with self.assertRaises(AssertionError) as caught:
            self.assertAllClose([1.0, 2.0], [1.0, 2.1])
        message = str(caught.exception)
        self.assertIn("Not equal to tolerance rtol=1e-06, atol=1e-06", message)
        self.assertIn("Mismatched value: a is different from b. \n"
                      "not close where = (array([1]),)\nnot close lhs = [2.]\n"
                      "not close rhs = [2.1]\nnot close dif = [0.1]\n"
                      "not close tol = [3.1e-06]\ndtype = float64, shape = (2,)", message)

    def test_scalar_failure_and_message(self):
        with self.assertRaises(AssertionError) as caught:
            self.assertAllClose(1.0, 2.0, msg="hello")
        self.assertIn("Mismatched value: a is different from b. hello\nnot close lhs = 1.0\n"
                      "not close rhs = 2.0\nnot close dif = 1.0\nnot close tol = 3e-06\n"
                      "dtype = float64, shape = ()", str(caught.exception))

    def test_nested_failures_name_the_path(self):
        with self.assertRaisesRegex(AssertionError,
                                    r"Mismatched value: a\[a\]\[1\] is different from "
                                    r"b\[a\]\[1\]"):
            self.assertAllClose({"a": [1.0, (2.0, 3.0)]}, {"a": [1.0, (2.0, 3.5)]})
        with self.assertRaisesRegex(AssertionError, r"a\[1\] is different from b\[1\]"):
            self.assertAllClose([[1.0], [2.0, 3.0]], [[1.0], [2.0, 3.5]])
        with self.assertRaisesRegex(AssertionError, r"a\[y\] is different from b\[y\]"):
            self.assertAllClose(Pair(1.0, [2.0]), Pair(1.0, [2.5]))

    def test_dict_key_mismatch_and_dict_vs_non_dict(self):
        with self.assertRaises(AssertionError) as caught:
            self.assertAllClose({"a": 1, "b": 2}, {"a": 1, "c": 2})
        self.assertIn("mismatched keys: a has keys dict_keys(['a', 'b']), but b has keys "
                      "dict_keys(['a', 'c']).", str(caught.exception))
        with self.assertRaisesRegex(ValueError, r"^Can't compare dict to non-dict, a vs b. $"):
            self.assertAllClose({"a": 1}, [1])
        with self.assertRaisesRegex(ValueError, "Can't compare dict to non-dict"):
            self.assertAllClose(Pair(1.0, 2.0), (1.0, 2.0))

    def test_shape_mismatch(self):
        with self.assertRaises(AssertionError) as caught:
            self.assertAllClose([1.0, 2.0], [1.0, 2.0, 3.0])
        self.assertIn("Shape mismatch: expected (2,), got (3,) with contents [1. 2. 3.].",
                      str(caught.exception))

    def test_nan_against_number_fails(self):
        with self.assertRaisesRegex(AssertionError, "nan location mismatch"):
            self.assertAllClose([np.nan], [1.0])

    def test_none_is_a_type_error_naming_both(self):
        with self.assertRaises(TypeError) as caught:
            self.assertAllClose(None, None)
        self.assertIn(": Error: a has <class 'NoneType'>, but b has <class 'NoneType'>. ",
                      str(caught.exception))

    def test_float16_needs_according_to_type(self):
        with self.assertRaisesRegex(AssertionError, "rtol=1e-06, atol=1e-06"):
            self.assertAllClose(np.float16(1.0), np.float16(1.0005))
        self.assertAllCloseAccordingToType(np.float16(1.0), np.float16(1.0005))
        with self.assertRaisesRegex(AssertionError, "rtol=0.001, atol=0.001"):
            self.assertAllCloseAccordingToType(np.float16(1.0), np.float16(1.01))
        self.assertAllCloseAccordingToType(np.float64(1.0), np.float64(1.0 + 2e-6),
                                           rtol=1e-5, atol=1e-5)
        with self.assertRaises(AssertionError):
            self.assertAllCloseAccordingToType(np.float32(1.0), np.float32(1.0 + 2e-6))

    def test_not_all_close(self):
        self.assertNotAllClose([1.0], [2.0])
        with self.assertRaisesRegex(AssertionError,
                                    "^The two values are close at all elements. $"):
            self.assertNotAllClose([1.0], [1.0])


class EqualityTest(tf.test.TestCase):

    def test_all_equal(self):
        self.assertAllEqual([1, 2, 3], tf.constant([1, 2, 3]))
        self.assertAllEqual([np.nan], [np.nan])
        self.assertAllEqual([b"a"], ["a"])
        with self.assertRaises(AssertionError) as caught:
            self.assertAllEqual([1, 2, 3], [1, 5, 3])
        self.assertIn("Arrays are not equal\n\nnot equal where = (array([1]),)\n"
                      "not equal lhs = array([2])\nnot equal rhs = array([5])",
                      str(caught.exception))
        with self.assertRaisesRegex(AssertionError, r"Arrays are not equal\nhi\nnot equal lhs "
                                                    r"= array\(1\)\nnot equal rhs = array\(2\)"):
            self.assertAllEqual(1, 2, msg="hi")
        with self.assertRaisesRegex(AssertionError, r"Shape mismatch: expected \(2,\), got "
                                                    r"\(1, 2\). Contents: array\(\[\[1, 2\]\]\)"):
            self.assertAllEqual([1, 2], [[1, 2]])

    def test_not_all_equal(self):
        self.assertNotAllEqual([1], [2])
        with self.assertRaisesRegex(AssertionError, "The two values are equal at all elements"):
            self.assertNotAllEqual([1], [1])

    def test_near(self):
        self.assertNear(1.0, 1.05, 0.1)
        self.assertNear(np.inf, np.inf, 0.1)
        with self.assertRaisesRegex(AssertionError, r"1.000000 != 1.200000 \+/- 0.100000 "
                                                    r"\(difference: 0.2\) \(m\)"):
            self.assertNear(1.0, 1.2, 0.1, msg="m")
        self.assertArrayNear([1.0, 2.0], [1.0, 2.05], 0.1)
        with self.assertRaisesRegex(AssertionError, r"2.000000 != 2.500000"):
            self.assertArrayNear([1.0, 2.0], [1.0, 2.5], 0.1)
        with self.assertRaisesRegex(AssertionError, "2 != 1"):
            self.assertArrayNear([1.0, 2.0], [1.0], 0.1)
        self.assertNDArrayNear(np.array([1.0, 2.0]), np.array([1.0, 2.05]), 0.1)
        with self.assertRaises(AssertionError):
            self.assertNDArrayNear(np.array([1.0, 2.0]), np.array([1.0, 2.5]), 0.1)

    def test_dict_equal_compares_arrays(self):
        self.assertDictEqual({"a": np.array([1.0])}, {"a": np.array([1.0 + 1e-7])})
        self.assertDictEqual({"a": 1}, {"a": 1})
        with self.assertRaisesRegex(AssertionError, "a is different from b. a\n"):
            self.assertDictEqual({"a": np.array([1.0])}, {"a": np.array([2.0])})


class OrderAndSetTest(tf.test.TestCase):

    def test_greater_less(self):
        self.assertAllGreater([2, 3], 1)
        self.assertAllGreaterEqual(tf.constant([1, 2]), 1)
        self.assertAllLess([1, 2], 3)
        self.assertAllLessEqual([1, 2], 2)
        with self.assertRaisesRegex(AssertionError, r"np.int64\(1\) not greater than 1"):
            self.assertAllGreater([1, 2], 1)
        with self.assertRaisesRegex(AssertionError, "not greater than or equal to 2"):
            self.assertAllGreaterEqual([1, 2], 2)
        with self.assertRaisesRegex(AssertionError, r"np.int64\(2\) not less than 2"):
            self.assertAllLess([1, 2], 2)
        with self.assertRaisesRegex(AssertionError, r"np.int64\(3\) not less than or equal"):
            self.assertAllLessEqual([1, 3], 2)

    def test_in_range(self):
        self.assertAllInRange([0, 1, 3], 0, 3)
        with self.assertRaises(AssertionError) as caught:
            self.assertAllInRange([1, 2, 5], 0, 3)
        self.assertEqual(str(caught.exception),
                         "1 of the 3 element(s) are outside the range [0, 3]. Subscript(s) and "
                         "value(s) of the offending elements:\n  [2] : 5")
        with self.assertRaises(AssertionError) as caught:
            self.assertAllInRange([[0., 2.], [3., 1.]], 0, 3, open_lower_bound=True,
                                  open_upper_bound=True)
        self.assertEqual(str(caught.exception),
                         "2 of the 4 element(s) are outside the range (0, 3). Subscript(s) and "
                         "value(s) of the offending elements:\n  [0 0] : 0.0\n  [1 0] : 3.0")
        with self.assertRaises(AssertionError) as caught:
            self.assertAllInRange(5, 0, 3)
        self.assertIn("1 of the 1 element(s) are outside the range [0, 3].", str(caught.exception))
        with self.assertRaisesRegex(AssertionError, r"1 of the 2 element\(s\) are NaN.*\n  "
                                                    r"\[0\] : nan"):
            self.assertAllInRange([np.nan, 1.0], 0, 3)
        with self.assertRaisesRegex(AssertionError, r"The value of \[ True\] does not have an "
                                                    r"ordered numeric type, instead it has type: "
                                                    r"bool"):
            self.assertAllInRange([True], 0, 3)

    def test_in_set(self):
        self.assertAllInSet([[1, 2]], {1, 2, 3})
        with self.assertRaises(AssertionError) as caught:
            self.assertAllInSet([1, 2, 7, 9, 9], [1, 2])
        self.assertEqual(str(caught.exception), "2 unique element(s) are not in the set [1, 2]: "
                                                "[7 9]")

    def test_count_and_common_elements(self):
        self.assertItemsEqual([1, 2], [2, 1])
        self.assertCountEqual([1, 2], [2, 1])
        with self.assertRaisesRegex(AssertionError, "Element counts were not equal"):
            self.assertItemsEqual([1, 2], [2, 2])
        self.assertNoCommonElements([1, 2], [3])
        with self.assertRaisesRegex(AssertionError, r"Common elements \{2\}"):
            self.assertNoCommonElements([1, 2], [2, 3])


class ShapeDTypeDeviceTest(tf.test.TestCase):

    def test_shape_equal(self):
        self.assertShapeEqual(np.zeros([2, 3]), tf.zeros([2, 3]))
        with self.assertRaisesRegex(AssertionError, "Arrays are not equal"):
            self.assertShapeEqual(np.zeros([2]), tf.zeros([3]))
        with self.assertRaisesRegex(TypeError, "^input_a must be a Numpy ndarray, Numpy scalar, "
                                               "or a Tensor.Instead received <class 'list'>$"):
            self.assertShapeEqual([1], np.zeros([1]))
        with self.assertRaisesRegex(TypeError, "^input_b must be"):
            self.assertShapeEqual(np.zeros([1]), [1])

    def test_dtype_equal(self):
        self.assertDTypeEqual(tf.zeros([2]), tf.float32)
        self.assertDTypeEqual(np.zeros([2], np.int64), np.int64)
        with self.assertRaisesRegex(AssertionError,
                                    r"dtype\('float32'\) != <class 'numpy.float64'>"):
            self.assertDTypeEqual(np.zeros([2], np.float32), np.float64)

    def test_device_equal(self):
        self.assertDeviceEqual("/cpu:0", "/device:CPU:0")
        self.assertDeviceEqual(tf.DeviceSpec.from_string("/job:a/cpu:0"), "/job:a/device:CPU:0")
        with self.assertRaisesRegex(AssertionError, "Devices /device:CPU:0 and /device:GPU:0 "
                                                    "are not equal. None"):
            self.assertDeviceEqual("/cpu:0", "/device:GPU:0")

    def test_starts_with(self):
        self.assertStartsWith("abc", "ab")
        with self.assertRaisesRegex(AssertionError, "^'abc' does not start with 'b'$"):
            self.assertStartsWith("abc", "b")
        with self.assertRaisesRegex(AssertionError, "^'abc' does not start with 'b' : 'm'$"):
            self.assertStartsWith("abc", "b", msg="m")


class RaisesTest(tf.test.TestCase):

    def test_op_error(self):
        with self.assertRaisesOpError("Incompatible shapes"):
            tf.constant([1, 2]) + tf.constant([1, 2, 3])
        with self.assertRaisesRegex(AssertionError, "Exception of type <class 'tapeflow."
                                                    "framework.errors.InvalidArgumentError'>: "
                                                    "AddV2: Incompatible shapes"):
            with self.assertRaisesOpError("nomatch"):
                tf.constant([1, 2]) + tf.constant([1, 2, 3])
        with self.assertRaisesRegex(AssertionError, "^Exception of type <class 'AssertionError'>"
                                                    ": OpError not raised$"):
            with self.assertRaisesOpError("x"):
                pass
        with self.assertRaisesRegex(AssertionError, "^Exception of type <class 'ValueError'>: "
                                                    "x$"):
            with self.assertRaisesOpError("x"):
                raise ValueError("x")

    def test_predicate_and_incompatible_shapes(self):
        with self.assertRaisesWithPredicateMatch(ValueError, lambda e: "q" in str(e)):
            raise ValueError("q")
        with self.assertRaisesRegex(AssertionError, "ValueError'>: z"):
            with self.assertRaisesWithPredicateMatch(ValueError, lambda e: "q" in str(e)):
                raise ValueError("z")
        with self.assertRaisesIncompatibleShapesError():
            tf.constant([1, 2]) + tf.constant([1, 2, 3])
        with self.assertRaisesRegex(AssertionError, "Matrix size-incompatible"):
            with self.assertRaisesIncompatibleShapesError():
                tf.matmul(tf.ones([2, 3]), tf.ones([2, 3]))


class EvaluateTest(tf.test.TestCase):

    def test_eager_structures(self):
        v = tf.Variable([1, 2])
        values = self.evaluate([v, {"c": tf.constant(1.0)}, None, Pair(tf.constant(3), None)])
        np.testing.assert_array_equal(values[0], [1, 2])
        self.assertEqual(values[0].dtype, np.int32)
        self.assertEqual(values[1]["c"], np.float32(1.0))
        self.assertIsInstance(values[1]["c"], np.floating)
        self.assertIsNone(values[2])
        self.assertIsInstance(values[3], Pair)
        self.assertEqual(values[3].x, 3)
        self.assertEqual(self.evaluate(lambda: tf.constant(5)), 5)

    def test_eager_composites(self):
        sparse = self.evaluate(tf.SparseTensor([[0, 0]], [1.0], [2, 2]))
        self.assertEqual(type(sparse).__name__, "SparseTensorValue")
        np.testing.assert_array_equal(sparse.indices, [[0, 0]])
        np.testing.assert_array_equal(sparse.values, [1.0])
        np.testing.assert_array_equal(sparse.dense_shape, [2, 2])
        slices = self.evaluate(tf.IndexedSlices(tf.constant([1.0]), tf.constant([0])))
        self.assertEqual(type(slices).__name__, "IndexedSlicesValue")
        np.testing.assert_array_equal(slices.values, [1.0])
        self.assertIsNone(slices.dense_shape)

    def test_eager_non_tensors_are_value_errors(self):
        for value, name in ((3, "int"), (2.5, "float"), (np.array(3), "ndarray")):
            with self.assertRaisesRegex(ValueError, f"^Unsupported type '{name}'.$"):
                self.evaluate(value)

    def test_graph_mode_through_the_cached_session(self):
        with tf.Graph().as_default():
            self.assertFalse(tf.executing_eagerly())
            x = tf.constant([1.0, 2.0])
            values = self.evaluate({"a": x, "b": [x * 2.0]})
            np.testing.assert_array_equal(values["a"], [1.0, 2.0])
            np.testing.assert_array_equal(values["b"][0], [2.0, 4.0])
            sparse = self.evaluate(tf.SparseTensor([[0, 0]], [1.0], [2, 2]))
            np.testing.assert_array_equal(sparse.dense_shape, [2, 2])
            slices = self.evaluate(tf.IndexedSlices(x, tf.constant([0, 1])))
            np.testing.assert_array_equal(slices.indices, [0, 1])

    def test_graph_mode_variables_need_initializing(self):
        with tf.Graph().as_default():
            v = tf.compat.v1.Variable(3.0)
            with self.assertRaises(tf.errors.FailedPreconditionError):
                self.evaluate(v)
            with self.cached_session() as sess:
                sess.run(v.initializer)
                self.assertEqual(self.evaluate(v), 3.0)
                self.assertAllClose(v * 2.0, 6.0)


class SessionTest(tf.test.TestCase):

    def test_eager_stand_ins(self):
        with self.session() as sess:
            with self.assertRaisesRegex(AttributeError, "while eager execution is enabled"):
                sess.run
        with self.cached_session() as sess:
            self.assertEqual(sess.run(tf.constant(3.0)), 3.0)
            with self.assertRaisesRegex(RuntimeError, "feed_dict is not supported"):
                sess.run(tf.constant(1.0), feed_dict={1: 2})
        with self.test_session() as sess:
            self.assertIsNone(sess)

    def test_graph_sessions(self):
        with tf.Graph().as_default() as graph:
            with self.session() as sess:
                self.assertIsInstance(sess, tf.compat.v1.Session)
                self.assertIs(sess.graph, graph)
                self.assertIs(tf.compat.v1.get_default_session(), sess)
                with self.session() as inner:
                    self.assertIsNot(inner, sess)
            self.assertIsNone(tf.compat.v1.get_default_session())
            with self.assertRaisesRegex(RuntimeError, "closed Session"):
                sess.run(tf.constant(1.0))
            with self.cached_session() as first:
                with self.cached_session() as second:
                    self.assertIs(first, second)
                self.assertEqual(first.run(tf.constant(2.0) * 3.0), 6.0)
            with self.test_session() as third:
                self.assertIs(third, first)
            with self.assertRaisesRegex(ValueError, "The graph used to get the cached session "
                                                    "is different"):
                with self.cached_session(graph=tf.Graph()):
                    pass

    def test_cached_session_is_closed_by_teardown(self):
        class Inner(tf.test.TestCase):
            def test_keep(self):
                with tf.Graph().as_default():
                    with self.cached_session() as sess:
                        type(self).session_made = sess
                        sess.run(tf.constant(1.0))
        self.assertTrue(run_case(Inner, "test_keep").wasSuccessful())
        with self.assertRaisesRegex(RuntimeError, "closed Session"):
            Inner.session_made.run(tf.constant(1.0))


class StateTest(tf.test.TestCase):
    """Each test starts with TF's default seeds and a new default graph."""

    def test_seeds_give_tf_numbers(self):
        # TF 2.21 in a TestCase: tf.random.uniform([2]), np.random.rand(), random.random().
        np.testing.assert_allclose(tf.random.uniform([2]).numpy(), [0.5836375, 0.2972299],
                                   rtol=1e-6)
        self.assertAlmostEqual(np.random.rand(), 0.18463433217903202)
        import random
        self.assertAlmostEqual(random.random(), 0.3499765785632496)

    def test_each_test_starts_fresh(self):
        class Inner(tf.test.TestCase):
            seen = []

            def test_a(self):
                tf.random.uniform([])  # advance the sequence
                type(self).seen.append((tf.compat.v1.get_default_graph(),
                                        float(tf.random.uniform([]))))

            test_b = test_a
        self.assertTrue(run_case(Inner, "test_a").wasSuccessful())
        self.assertTrue(run_case(Inner, "test_b").wasSuccessful())
        (graph_a, value_a), (graph_b, value_b) = Inner.seen
        self.assertIsNot(graph_a, graph_b)
        self.assertEqual(value_a, value_b)

    def test_temp_dir(self):
        path = self.get_temp_dir()
        self.assertTrue(os.path.isdir(path))
        self.assertEqual(self.get_temp_dir(), path)
        self.assertEqual(os.path.dirname(path), process_temp_dir())

    def test_named_test_session_is_skipped(self):
        result = run_case(StateTest, "test_session")
        self.assertEqual([reason for _, reason in result.skipped], ["Not a test."])

    def test_checked_thread(self):
        def target(fail):
            if fail:
                raise ValueError("boom")
        ok = self.checkedThread(target, args=(False,))
        ok.start()
        ok.join()
        self.assertFalse(ok.is_alive())
        bad = self.checkedThread(target, kwargs={"fail": True})
        bad.start()
        with self.assertRaisesRegex(AssertionError, "^Error in checkedThread: boom$"):
            bad.join()

    def test_unjoined_thread_fails_the_test(self):
        class Inner(tf.test.TestCase):
            def test_forget(self):
                self.checkedThread(lambda: None)
        result = run_case(Inner, "test_forget")
        self.assertEqual(len(result.failures), 1)
        self.assertIn("A checked thread was not joined.", result.failures[0][1])

    def test_capture_writes_to_stream(self):
        stream = open(os.path.join(self.get_temp_dir(), "out.txt"), "w")
        with self.captureWritesToStream(stream) as captured:
            os.write(stream.fileno(), b"low-level\n")
            stream.write("buffered\n")
        self.assertEqual(captured.contents(), "low-level\nbuffered\n")
        stream.close()

    def test_proto_equals(self):
        config_pb2 = pytest.importorskip("tensorboard.compat.proto.config_pb2")
        config = config_pb2.ConfigProto(allow_soft_placement=True)
        self.assertProtoEquals("allow_soft_placement: true", config)
        with self.assertRaises(AssertionError):
            self.assertProtoEquals("allow_soft_placement: false", config)

    def test_is_unittest_and_absltest(self):
        self.assertTrue(issubclass(tf.test.TestCase, unittest.TestCase))
        self.assertIs(tf.test.TestCase.failureException, AssertionError)
        from absl.testing import absltest, parameterized
        self.assertTrue(issubclass(tf.test.TestCase, absltest.TestCase))

        class Mixed(tf.test.TestCase, parameterized.TestCase):
            @parameterized.parameters(1, 2)
            def test_positive(self, n):
                self.assertAllGreater([n], 0)
        suite = unittest.defaultTestLoader.loadTestsFromTestCase(Mixed)
        result = unittest.TestResult()
        suite.run(result)
        self.assertEqual((result.testsRun, len(result.skipped), result.wasSuccessful()),
                         (3, 1, True))


def run_python(code: str, *args, env=None):
    environment = dict(os.environ, PYTHONPATH=SRC, **(env or {}))
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args],
                          capture_output=True, text=True, env=environment, timeout=120)


MAIN_MODULE = """
    import sys
    {block}
    import tapeflow as tf

    class T(tf.test.TestCase):
        def test_ok(self):
            self.assertAllEqual([1], [1])

        def test_maybe_fails(self):
            self.assertAllClose(1.0, ACTUAL)

    if __name__ == "__main__":
        tf.test.main()
"""


@pytest.mark.parametrize("block", ["", "sys.modules['absl'] = None"], ids=["absl", "unittest"])
def test_main_runs_the_module_and_exits_with_its_status(block):
    passing = run_python(MAIN_MODULE.format(block=block).replace("ACTUAL", "1.0"))
    assert passing.returncode == 0, passing.stderr
    assert "Ran 3 tests" in passing.stderr  # test_session is collected and skipped, as in TF
    failing = run_python(MAIN_MODULE.format(block=block).replace("ACTUAL", "2.0"))
    assert failing.returncode == 1
    assert "Not equal to tolerance rtol=1e-06, atol=1e-06" in failing.stderr


def test_without_absl_the_base_is_unittest_with_the_common_absl_assertions():
    result = run_python("""
        import sys, unittest
        sys.modules['absl'] = None
        import tapeflow as tf
        print(tf.test.TestCase.__mro__[1].__module__ != 'absl.testing.absltest')
        class T(tf.test.TestCase):
            def runTest(self):
                self.assertLen([1, 2], 2)
                self.assertEmpty([])
                self.assertNotEmpty([1])
                self.assertNoCommonElements([1], [2])
                with self.assertRaises(AssertionError):
                    self.assertLen([1], 2)
        result = unittest.TestResult()
        T().run(result)
        print(result.wasSuccessful(), hasattr(T, 'create_tempdir'))
    """)
    assert result.stdout.split() == ["True", "True", "False"], result.stderr


BENCHMARK = """
    import tapeflow as tf

    class AddBenchmark(tf.test.Benchmark):
        def benchmark_add(self):
            self.report_benchmark(iters=3, wall_time=0.5, extras={"b": "x", "a": 1},
                                  metrics=[{"name": "m", "value": 2.0, "min_value": 1}])

    if __name__ == "__main__":
        tf.test.main()
"""


def test_benchmark_report_text_and_file(tmp_path):
    printed = run_python(BENCHMARK, "--benchmark_filter=Add")
    assert printed.returncode == 0, printed.stderr
    assert printed.stdout == textwrap.dedent("""\
        entry {
          name: "AddBenchmark.benchmark_add"
          iters: 3
          wall_time: 0.5
          extras {
            key: "b"
            value {
              string_value: "x"
            }
          }
          extras {
            key: "a"
            value {
              double_value: 1
            }
          }
          metrics {
            name: "m"
            value: 2
            min_value {
              value: 1
            }
          }
        }

    """)
    prefix = str(tmp_path / "report_")
    written = run_python(BENCHMARK, "--benchmark_filter=all",
                         env={"TEST_REPORT_FILE_PREFIX": prefix})
    assert written.returncode == 0, written.stderr
    # TF 2.21's BenchmarkEntries.SerializeToString() of the same entry, named "B.benchmarkX".
    tf_bytes = bytes.fromhex(
        "0a4c0a0c422e62656e63686d61726b58100321000000000000e03f32080a01621203120178320e0a0161"
        "120909000000000000f03f3a170a016d1100000000000000401a0909000000000000f03f")
    data = open(prefix + "AddBenchmark.benchmark_add", "rb").read()
    name = b"AddBenchmark.benchmark_add"
    assert data == tf_bytes.replace(b"\x0a\x4c\x0a\x0cB.benchmarkX",
                                    bytes([0x0a, 0x4c + len(name) - 12, 0x0a, len(name)]) + name)
    again = run_python(BENCHMARK, "--benchmark_filter=all",
                       env={"TEST_REPORT_FILE_PREFIX": prefix})
    assert "File already exists" in again.stderr
    unmatched = run_python(BENCHMARK, "--benchmark_filter=Nothing")
    assert "No benchmarks matched the pattern: 'Nothing'" in unmatched.stderr


def test_run_op_benchmark_reports_the_median(capsys):
    class OpBenchmark(tf.test.Benchmark):
        def benchmark_mul(self):
            with tf.Graph().as_default():
                y = tf.constant(2.0) * 3.0
                with tf.compat.v1.Session() as sess:
                    return self.run_op_benchmark(sess, y, min_iters=4, name="mul", mbs=1)
    values = OpBenchmark().benchmark_mul()
    assert values["iters"] == 4 and values["name"] == "mul"
    assert values["throughput"] == pytest.approx(1 / values["wall_time"])
    assert set(values["extras"]) == {"wall_time_mean", "wall_time_stdev"}
    assert 'name: "OpBenchmark.mul"' in capsys.readouterr().out
    assert tf.test.Benchmark.is_abstract() is True
    assert OpBenchmark.is_abstract() is False


def test_report_argument_errors():
    from tapeflow.testing.benchmark import report_benchmark_entry
    with pytest.raises(TypeError, match="extras must be a dict"):
        report_benchmark_entry("x", extras=[1])
    with pytest.raises(TypeError, match="metrics must be a list"):
        report_benchmark_entry("x", metrics={})
    with pytest.raises(TypeError, match="metric must has a 'value' field"):
        report_benchmark_entry("x", metrics=[{"name": "m"}])


def test_benchmark_config_turns_the_dependency_optimizer_off():
    pytest.importorskip("tensorboard")
    assert str(tf.test.benchmark_config()) == (
        "graph_options {\n  rewrite_options {\n    dependency_optimization: OFF\n  }\n}\n")


def test_build_queries():
    assert tf.test.is_gpu_available() is False
    assert tf.test.is_gpu_available(cuda_only=True, min_cuda_compute_capability=(3, 0)) is False
    assert tf.test.gpu_device_name() == ""
    assert (tf.test.is_built_with_cuda(), tf.test.is_built_with_rocm(),
            tf.test.is_built_with_gpu_support(), tf.test.is_built_with_xla()) == (
        False, False, False, False)
    import platform
    host_is_x86 = platform.machine().lower().startswith(("x86", "amd64", "i386", "i686"))
    assert tf.test.is_cpu_target_available("x86") is host_is_x86
    assert tf.test.is_cpu_target_available("x86_64") is host_is_x86
    with pytest.raises(AssertionError, match="Unknown CPU target: foo"):
        tf.test.is_cpu_target_available("foo")
    assert tf.test.experimental.sync_devices() is None


def test_decorators():
    calls = []

    class T(tf.test.TestCase):
        @tf.test.disable_with_predicate(lambda: calls.append("pred") or False, "skipped")
        def test_runs(self):
            calls.append("ran")

        @tf.test.disable_with_predicate(lambda: True, "not here")
        def test_skips(self):
            calls.append("never")
    assert run_case(T, "test_runs").wasSuccessful()
    assert [reason for _, reason in run_case(T, "test_skips").skipped] == ["not here"]
    assert calls == ["pred", "ran"]
    assert tf.test.with_eager_op_as_function(T) is T
    assert tf.test.with_eager_op_as_function(only_as_function=True)(T) is T


def test_compat_v1_has_sparse_tensor_value():
    value = tf.compat.v1.SparseTensorValue(np.array([[0]]), np.array([1.0]), np.array([2]))
    assert value._fields == ("indices", "values", "dense_shape")
