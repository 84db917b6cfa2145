"""tf.strings, the tf.io string codecs and string tensors, each case written once against a
module `tf` and run with tapeflow and with TensorFlow: the same values and dtypes."""
import numpy as np
import pytest

import tapeflow

pytestmark = pytest.mark.parity

_RNG = np.random.default_rng(7)
# 300 strings of every length class of the hashes (0 to 150 bytes), some non-ASCII.
RANDOM = [bytes(_RNG.integers(0, 256, n, dtype=np.uint8)) for n in _RNG.integers(0, 150, 300)]
CODE_POINTS = _RNG.integers(0, 0x10FFFF, 500).astype(np.int32)
TEXT = ["Hello World", "  ab c ", "", "ÀÉ ü", "a1 b22 c333", "tab\there", "x" * 70]

CASES = {
    "to_hash_bucket_fast": lambda tf: tf.strings.to_hash_bucket_fast(RANDOM, 2 ** 62),
    "to_hash_bucket": lambda tf: tf.strings.to_hash_bucket(RANDOM, 2 ** 62),
    "to_hash_bucket_strong": lambda tf: tf.strings.to_hash_bucket_strong(
        RANDOM, 2 ** 62, [12345, 678910]),
    "length": lambda tf: tf.strings.length(TEXT),
    "length utf8": lambda tf: tf.strings.length(TEXT, unit="UTF8_CHAR"),
    "lower": lambda tf: tf.strings.lower(TEXT),
    "upper utf8": lambda tf: tf.strings.upper(TEXT, encoding="utf-8"),
    "strip": lambda tf: tf.strings.strip(TEXT),
    "substr": lambda tf: tf.strings.substr(TEXT[:2], 1, 3),
    "join": lambda tf: tf.strings.join([TEXT, "|", TEXT]),
    "reduce_join": lambda tf: tf.strings.reduce_join([TEXT[:2], TEXT[2:4]], axis=0,
                                                     separator="+"),
    "regex_full_match": lambda tf: tf.strings.regex_full_match(TEXT, r"[a-z]\d+.*"),
    "regex_replace": lambda tf: tf.strings.regex_replace(TEXT, r"(\d)", r"<\1>"),
    "regex_replace first": lambda tf: tf.strings.regex_replace(TEXT, r"\s+", "_",
                                                               replace_global=False),
    "as_string": lambda tf: tf.strings.as_string(tf.constant([0.1, -2.5, 1e-7, 12345.678])),
    "as_string shortest": lambda tf: tf.strings.as_string(
        tf.constant([0.1, -2.5, 1e-7, 12345.678]), shortest=True),
    "to_number": lambda tf: tf.strings.to_number(["0.1", "-2.5e3", " 7", "inf"]),
    "format": lambda tf: tf.strings.format("{} / {}", (tf.constant([[1.5, 2.0]]),
                                                        tf.constant(["a", "b"]))),
    "unicode_transcode": lambda tf: tf.strings.unicode_transcode(TEXT, "UTF-8", "UTF-16-BE"),
    "unicode_encode": lambda tf: tf.strings.unicode_encode([[72, 233, 0x1F600]], "UTF-8"),
    "unicode_script": lambda tf: tf.strings.unicode_script(CODE_POINTS),
    "encode_base64": lambda tf: tf.io.encode_base64(RANDOM[:50]),
    "decode_base64": lambda tf: tf.io.decode_base64(tf.io.encode_base64(RANDOM[:50])),
    "decode_raw": lambda tf: tf.io.decode_raw([b"abcdefgh", b"12345678"], tf.int32),
    "decode_csv": lambda tf: tf.io.decode_csv(['1,"a,b",2.5', '2,,'], [[0], ["d"], [0.0]])[1],
    "unique": lambda tf: tf.unique(tf.constant(["b", "a", "b", "c"])).y,
    "plus": lambda tf: tf.constant(TEXT) + "!",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_same_as_tensorflow(name, tensorflow):
    ours, theirs = CASES[name](tapeflow), CASES[name](tensorflow)
    assert ours.dtype.name == theirs.dtype.name
    assert np.asarray(ours.numpy()).tolist() == np.asarray(theirs.numpy()).tolist()
