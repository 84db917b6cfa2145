"""TypeSpec, the composite value specs and type_spec_from_value."""
import numpy as np
import pytest

import tapeflow as tf


@pytest.mark.parametrize("spec,text", [
    (tf.TensorArraySpec([2], tf.float32), "TensorArraySpec(TensorShape([2]), tf.float32, "
     "False, True)"),
    (tf.TensorArraySpec(), "TensorArraySpec(TensorShape(None), tf.float32, False, True)"),
    (tf.IndexedSlicesSpec([4, 3]), "IndexedSlicesSpec(TensorShape([4, 3]), tf.float32, "
     "tf.int64, None, TensorShape([None]))"),
    (tf.NoneTensorSpec(), "NoneTensorSpec()"),
    (tf.OptionalSpec(tf.TensorSpec([2])), "OptionalSpec(TensorSpec(shape=(2,), "
     "dtype=tf.float32, name=None),)")])
def test_specs_print_as_tf_and_compare_by_fields(spec, text):
    assert repr(spec) == text and isinstance(spec, tf.TypeSpec)
    twin = type(spec)(*spec._serialize())
    assert twin == spec and hash(twin) == hash(spec)


def test_value_types():
    assert tf.TensorSpec([2]).value_type is tf.Tensor
    assert tf.TensorArraySpec().value_type is tf.TensorArray
    assert tf.IndexedSlicesSpec().value_type is tf.IndexedSlices
    assert tf.NoneTensorSpec().value_type is type(None)


def test_type_spec_is_abstract_and_equality_by_fields():
    with pytest.raises(TypeError):
        tf.TypeSpec()
    assert tf.TensorArraySpec([2]) == tf.TensorArraySpec([2]) != tf.TensorArraySpec([3])
    assert tf.TensorArraySpec([2]).is_compatible_with(tf.TensorArraySpec([None]))
    assert not tf.TensorArraySpec([2]).is_compatible_with(tf.TensorArraySpec([2], tf.int32))


@pytest.mark.parametrize("value,spec", [
    (tf.constant([1.0, 2.0]), tf.TensorSpec([2], tf.float32)),
    (np.array([1, 2]), tf.TensorSpec([2], tf.int64)), ([1.0, 2.0], tf.TensorSpec([2])),
    (3, tf.TensorSpec([], tf.int32)), ("a", tf.TensorSpec([], tf.string)),
    (tf.Variable([1.0]), tf.TensorSpec([1])), (None, tf.NoneTensorSpec()),
    (tf.TensorArray(tf.float32, size=2), tf.TensorArraySpec(None, tf.float32)),
    (tf.IndexedSlices(tf.constant([[1.0]]), tf.constant([0]), tf.constant([3, 1])),
     tf.IndexedSlicesSpec([3, 1], tf.float32, tf.int32, tf.int32, [1]))])
def test_type_spec_from_value(value, spec):
    assert tf.type_spec_from_value(value) == spec


def test_type_spec_from_an_unsupported_value():
    with pytest.raises(TypeError, match="Could not build a TypeSpec"):
        tf.type_spec_from_value(object())
