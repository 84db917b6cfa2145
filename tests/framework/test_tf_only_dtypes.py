"""The unsigned dtypes compute; the quantized types, resource and variant are DTypes with TF's
properties that no op computes with (bfloat16 computes: test_bfloat16.py; string:
test_strings.py); string has TF's DType properties too."""
import pickle

import numpy as np
import pytest

import tapeflow as tf

# name: (is_floating, is_quantized, size)
OPAQUE = {"qint8": (False, True, 1), "qint16": (False, True, 2),
          "qint32": (False, True, 4), "quint8": (False, True, 1), "quint16": (False, True, 2),
          "string": (False, False, 0), "resource": (False, False, 0),
          "variant": (False, False, 0)}


@pytest.mark.parametrize("name", sorted(OPAQUE))
def test_opaque_dtype_properties(name):
    dtype = getattr(tf, name)
    assert (dtype.is_floating, dtype.is_quantized, dtype.size) == OPAQUE[name]
    assert not (dtype.is_integer or dtype.is_bool or dtype.is_complex or dtype.is_unsigned)
    assert tf.as_dtype(name) is dtype and dtype == name and getattr(tf.dtypes, name) is dtype
    assert repr(dtype) == f"tf.{name}" and str(dtype) == f"<dtype: '{name}'>"
    assert dtype.base_dtype is dtype and dtype.real_dtype is dtype
    assert pickle.loads(pickle.dumps(dtype)) is dtype
    with pytest.raises(ValueError, match="limits"):
        dtype.limits


@pytest.mark.parametrize("name", ["qint8", "resource"])
def test_ops_refuse_opaque_dtypes(name):
    with pytest.raises(TypeError, match=f"cannot compute with {name}"):
        tf.zeros([2], getattr(tf, name))
    with pytest.raises(TypeError, match=name):
        tf.cast(tf.constant([1.0]), getattr(tf, name))


def test_numpy_types_of_opaque_dtypes():
    assert tf.qint8.as_numpy_dtype == np.dtype([("qint8", "i1")])
    assert tf.quint16.as_numpy_dtype == np.dtype([("quint16", "<u2")])
    assert tf.string.as_numpy_dtype is object
    with pytest.raises(TypeError):
        tf.resource.as_numpy_dtype
    with pytest.raises(TypeError, match="minimum"):
        tf.qint8.min
    assert tf.string.is_numpy_compatible and not tf.variant.is_numpy_compatible


@pytest.mark.parametrize("name,bits", [("uint16", 16), ("uint32", 32), ("uint64", 64)])
def test_unsigned_dtypes_compute(name, bits):
    dtype = getattr(tf, name)
    assert dtype.is_integer and dtype.is_unsigned and dtype.size == bits // 8
    assert dtype.limits == (0, 2 ** bits - 1) and dtype.max == 2 ** bits - 1
    x = tf.constant([1, 2], dtype)
    assert (x + x).numpy().tolist() == [2, 4] and (x * 3).dtype == dtype
    assert tf.constant(np.array([5], dtype.as_numpy_dtype)).dtype == dtype
