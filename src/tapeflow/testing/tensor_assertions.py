"""The assertions of `tf.test.TestCase` on arrays, tensors and nested structures of them,
protos and raised errors, as TF words and applies them: a mixin of `TestCase`
(testcase.py), which gives the `evaluate` and `_GetNdArray` they compare through.
"""
from __future__ import annotations

import collections.abc
import contextlib
import itertools
import math
import re

import numpy as np

from ..framework.device import DeviceSpec
from ..framework.errors import InvalidArgumentError, OpError
from ..framework.tensor import Tensor

__all__ = ["TensorAssertions"]

# Float types NumPy cannot mix with its own in `allclose`: compared as float32.
_CUSTOM_FLOATS = frozenset({"bfloat16", "float8_e5m2", "float8_e4m3fn", "float8_e4m3fnuz",
                            "float8_e4m3b11fnuz", "float8_e5m2fnuz"})
_INCOMPATIBLE_SHAPES = (r"Incompatible shapes|Dimensions must be equal|"
                        r"required broadcastable shapes")


def _where(condition) -> tuple:
    """The indices where `condition` holds (a 0-d condition counts as one element)."""
    return np.atleast_1d(np.asarray(condition)).nonzero()


class TensorAssertions:
    """TF's assertions. The class mixing them in lists this one first (TF's versions of
    `assertDictEqual`, `assertStartsWith`, ... replace absltest's) and gives
    `evaluate_if_both_tensors` and `_GetNdArray`."""

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
