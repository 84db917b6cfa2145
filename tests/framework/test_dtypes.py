import numpy as np
import pytest

import tapeflow as tf


@pytest.mark.parametrize("name, np_type, floating, integer, complex_", [
    ("float16", np.float16, True, False, False), ("float32", np.float32, True, False, False),
    ("float64", np.float64, True, False, False), ("int8", np.int8, False, True, False),
    ("int16", np.int16, False, True, False), ("int32", np.int32, False, True, False),
    ("int64", np.int64, False, True, False), ("uint8", np.uint8, False, True, False),
    ("bool", np.bool_, False, False, False), ("complex64", np.complex64, False, False, True),
    ("complex128", np.complex128, False, False, True)])
def test_dtype_properties(name, np_type, floating, integer, complex_):
    d = getattr(tf, name)
    assert d.name == name and d.as_numpy_dtype is np_type
    assert (d.is_floating, d.is_integer, d.is_complex) == (floating, integer, complex_)
    assert d.is_trainable == (floating or complex_)
    assert tf.as_dtype(name) is d and tf.as_dtype(np_type) is d and tf.as_dtype(np.dtype(np_type)) is d
    assert repr(d) == f"tf.{name}" and str(d) == f"<dtype: '{name}'>"


def test_python_types_and_aliases():
    assert tf.as_dtype(float) is tf.float32
    assert tf.as_dtype(int) is tf.int32
    assert tf.as_dtype(bool) is tf.bool
    assert tf.half is tf.float16 and tf.double is tf.float64
    assert tf.as_dtype("double") is tf.float64


def test_equality_with_other_spellings():
    assert tf.float32 == "float32" and tf.float32 == np.float32 and tf.float32 != tf.float64
    assert tf.float32 != "not a dtype"
    assert hash(tf.float32) == hash(tf.as_dtype("float32"))


def test_unknown_dtype_is_type_error():
    with pytest.raises(TypeError):
        tf.as_dtype("float128x")
    with pytest.raises(TypeError):  # TF: str and bytes name no DType; object is string
        tf.as_dtype(str)
    with pytest.raises(TypeError):
        tf.as_dtype(bytes)


def test_real_dtype_min_max():
    assert tf.complex64.real_dtype is tf.float32 and tf.float32.real_dtype is tf.float32
    assert tf.int8.min == -128 and tf.uint8.max == 255
    assert tf.float16.max == np.finfo(np.float16).max
