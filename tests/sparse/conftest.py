"""Helpers for the tf.sparse tests."""
import numpy as np
import pytest


def _dense(st) -> np.ndarray:
    out = np.zeros(st.dense_shape.numpy(), st.dtype.as_numpy_dtype)
    for index, value in zip(st.indices.numpy(), st.values.numpy()):
        out[tuple(index)] += value
    return out


@pytest.fixture
def dense():
    """`dense(st)`: the NumPy array a SparseTensor stands for (repeated indices add up)."""
    return _dense
