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


S = tf.TensorShape


@pytest.mark.parametrize("call,expected", [
    (lambda: S([1, None]).with_rank(2), S([1, None])),
    (lambda: S(None).with_rank(3), S([None, None, None])),
    (lambda: S([1, None]).with_rank_at_least(1), S([1, None])),
    (lambda: S(None).with_rank_at_least(1), S(None)),
    (lambda: S([1, None]).with_rank_at_most(2), S([1, None])),
    (lambda: S(None).with_rank_at_most(2), S(None)),
    (lambda: S([1, None]).most_specific_compatible_shape(S([1, 2])), S([1, None])),
    (lambda: S([1, 3]).most_specific_compatible_shape(S([1, 2])), S([1, None])),
    (lambda: S([1, 3]).most_specific_compatible_shape(S([1, 2, 3])), S(None)),
    (lambda: S([1, 3]).most_specific_common_supertype([S([1, 2])]), S([1, None])),
    (lambda: S([1, None]).is_subtype_of(S([1, None])), True),
    (lambda: S([1, 2]).is_subtype_of(S([1, None])), True),
    (lambda: S([1, None]).is_subtype_of(S([1, 2])), False),
    (lambda: S([1, None]).is_subtype_of(S(None)), True),
    (lambda: S([1, None]).assert_has_rank(2), None),
    (lambda: S([1, None]).assert_same_rank(S([1, 2])), None),
])
def test_rank_and_compatibility_methods(call, expected):
    # Values recorded from TF 2.21.
    result = call()
    assert result == expected and type(result) is type(expected)


@pytest.mark.parametrize("call,message", [
    (lambda: S([1, None]).with_rank(3), r"Shape \(1, None\) must have rank 3"),
    (lambda: S([1, None]).with_rank_at_least(3), r"Shape \(1, None\) must have rank at least 3"),
    (lambda: S([1, None]).with_rank_at_most(1), r"Shape \(1, None\) must have rank at most 1"),
    (lambda: S([1, None]).assert_has_rank(3), r"Shape \(1, None\) must have rank 3"),
    (lambda: S([1, None]).assert_same_rank(S([1])),
     r"Shapes \(1, None\) and \(1,\) must have the same rank"),
    (lambda: S([1, None]).assert_is_fully_defined(), r"Shape \(1, None\) is not fully defined"),
])
def test_rank_checks_raise_value_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()
