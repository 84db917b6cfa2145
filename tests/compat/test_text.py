"""tf.compat's text and bytes conversions, as TF 2.21 gives them."""
import pathlib

import pytest

import tapeflow as tf


def test_conversions():
    assert tf.compat.as_text(b"caf\xc3\xa9") == "café" and tf.compat.as_str("x") == "x"
    assert tf.compat.as_bytes("café") == b"caf\xc3\xa9"
    assert tf.compat.as_bytes(bytearray(b"a")) == b"a" and tf.compat.as_str_any(3) == "3"
    assert tf.compat.path_to_str(pathlib.Path("a")) == "a" and tf.compat.path_to_str(3) == 3
    assert isinstance(1, tf.compat.integral_types) and isinstance(b"", tf.compat.bytes_or_text_types)
    for convert in (tf.compat.as_text, tf.compat.as_bytes):
        with pytest.raises(TypeError, match="Expected binary or unicode string, got 3"):
            convert(3)
