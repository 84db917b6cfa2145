import pytest

import tapeflow as tf


def test_known_shape():
    s = tf.TensorShape([2, 3])
    assert s.rank == s.ndims == 2 and s.as_list() == [2, 3] and len(s) == 2
    assert s == [2, 3] and s == (2, 3) and s != [3, 2]
    assert s[0] == 2 and s[1:] == tf.TensorShape([3]) and list(s) == [2, 3]
    assert s.num_elements() == 6 and s.is_fully_defined()
    assert str(s) == "(2, 3)" and repr(s) == "TensorShape([2, 3])"
    assert str(tf.TensorShape([4])) == "(4,)"


def test_unknown_dims_and_rank():
    s = tf.TensorShape([None, 3])
    assert s.as_list() == [None, 3] and not s.is_fully_defined() and s.num_elements() is None
    assert s.is_compatible_with([5, 3]) and not s.is_compatible_with([5, 4])
    assert s.merge_with([5, None]) == [5, 3]
    unknown = tf.TensorShape(None)
    assert unknown.rank is None and unknown.is_compatible_with([1, 2, 3])
    with pytest.raises(ValueError):
        unknown.as_list()
    with pytest.raises(ValueError):
        s.merge_with([5, 4])


def test_concatenate():
    assert tf.TensorShape([1]).concatenate([2, 3]) == [1, 2, 3]
    assert tf.TensorShape([1]) + tf.TensorShape([2]) == [1, 2]
