"""tf.strings ops on RaggedTensors; the expected values were recorded from TensorFlow 2.21."""
import pytest

import tapeflow as tf


def _r():
    return tf.ragged.constant([["Ab c", " d"], [], ["éF"]])


CASES = [
    ("length", lambda: tf.strings.length(_r()), [[4, 2], [], [3]]),
    ("length_char", lambda: tf.strings.length(_r(), unit="UTF8_CHAR"), [[4, 2], [], [2]]),
    ("lower", lambda: tf.strings.lower(_r()), [[b"ab c", b" d"], [], ["éf".encode()]]),
    ("upper", lambda: tf.strings.upper(_r()), [[b"AB C", b" D"], [], ["éF".encode()]]),
    ("strip", lambda: tf.strings.strip(_r()), [[b"Ab c", b"d"], [], ["éF".encode()]]),
    ("substr", lambda: tf.strings.substr(_r(), 0, 2), [[b"Ab", b" d"], [], [b"\xc3\xa9"]]),
    ("regex_full_match", lambda: tf.strings.regex_full_match(_r(), ".*c"),
     [[True, False], [], [False]]),
    ("regex_replace", lambda: tf.strings.regex_replace(_r(), "[a-z]", "x"),
     [[b"Ax x", b" x"], [], ["éF".encode()]]),
    ("to_hash_bucket_fast", lambda: tf.strings.to_hash_bucket_fast(_r(), 7), [[0, 2], [], [5]]),
    ("to_hash_bucket", lambda: tf.strings.to_hash_bucket(_r(), 7), [[5, 1], [], [2]]),
    ("to_hash_bucket_strong", lambda: tf.strings.to_hash_bucket_strong(_r(), 7, [1, 2]),
     [[3, 4], [], [4]]),
    ("to_number", lambda: tf.strings.to_number(tf.ragged.constant([["1.5"], ["2", "3"]])),
     [[1.5], [2.0, 3.0]]),
    ("as_string", lambda: tf.strings.as_string(tf.ragged.constant([[1, 2], [3]])),
     [[b"1", b"2"], [b"3"]]),
    ("join", lambda: tf.strings.join([_r(), "!"]), [[b"Ab c!", b" d!"], [], ["éF!".encode()]]),
    ("join_ragged", lambda: tf.strings.join([_r(), _r()], separator="-"),
     [[b"Ab c-Ab c", b" d- d"], [], ["éF-éF".encode()]]),
    ("ngrams", lambda: tf.strings.ngrams(tf.ragged.constant([["a", "b", "c"], ["d"]]), 2),
     [[b"a b", b"b c"], []]),
    ("ngrams_pad", lambda: tf.strings.ngrams(tf.ragged.constant([["a", "b", "c"], ["d"]]), 2,
                                             pad_values=("<", ">")),
     [[b"< a", b"a b", b"b c", b"c >"], [b"< d", b"d >"]]),
    ("ngrams_3d", lambda: tf.strings.ngrams(
        tf.ragged.constant([[["a", "b", "c"], ["d", "e"]], [["f"]]]), 2),
     [[[b"a b", b"b c"], [b"d e"]], [[]]]),
    ("reduce_join", lambda: tf.strings.reduce_join(_r(), axis=1),
     [b"Ab c d", b"", "éF".encode()]),
    ("reduce_join_sep", lambda: tf.strings.reduce_join(_r(), axis=-1, separator="|"),
     [b"Ab c| d", b"", "éF".encode()]),
    ("reduce_join_axis0", lambda: tf.strings.reduce_join(tf.ragged.constant([["a", "b"], ["c"]]),
                                                         axis=0), [b"ac", b"b"]),
    ("split", lambda: tf.strings.split(tf.ragged.constant([["a b", "c"], ["d e f"]])),
     [[[b"a", b"b"], [b"c"]], [[b"d", b"e", b"f"]]]),
    ("split_sep", lambda: tf.strings.split(tf.ragged.constant([["a,b", "c"], []]), sep=","),
     [[[b"a", b"b"], [b"c"]], []]),
    ("bytes_split", lambda: tf.strings.bytes_split(tf.ragged.constant([["ab", "c"], []])),
     [[[b"a", b"b"], [b"c"]], []]),
    ("unicode_decode", lambda: tf.strings.unicode_decode(tf.ragged.constant([["aé", "b"], []]),
                                                         "UTF-8"), [[[97, 233], [98]], []]),
    ("unicode_split", lambda: tf.strings.unicode_split(tf.ragged.constant([["aé", "b"], []]),
                                                       "UTF-8"),
     [[[b"a", b"\xc3\xa9"], [b"b"]], []]),
    ("unicode_script", lambda: tf.strings.unicode_script(tf.ragged.constant([[65, 1041],
                                                                            [12354]])),
     [[25, 8], [20]]),
    ("unicode_transcode", lambda: tf.strings.unicode_transcode(_r(), "UTF-8", "UTF-16-BE"),
     [[b"\x00A\x00b\x00 \x00c", b"\x00 \x00d"], [], [b"\x00\xe9\x00F"]]),
    ("decode_base64", lambda: tf.io.decode_base64(tf.ragged.constant([["YWI"], []])),
     [[b"ab"], []]),
    ("encode_base64", lambda: tf.io.encode_base64(tf.ragged.constant([["ab"], []])),
     [[b"YWI"], []]),
]


@pytest.mark.parametrize("name,call,expected", CASES, ids=[c[0] for c in CASES])
def test_string_ops_on_ragged_inputs_give_tfs_results(name, call, expected):
    result = call()
    if name.startswith("reduce_join"):  # a ragged dimension joined away: a dense result
        assert isinstance(result, tf.Tensor)
        assert result.numpy().tolist() == expected
    else:
        assert isinstance(result, tf.RaggedTensor)
        assert result.to_list() == expected


def test_unicode_decode_with_offsets_of_ragged():
    chars, offsets = tf.strings.unicode_decode_with_offsets(
        tf.ragged.constant([["aé", "b"], []]), "UTF-8")
    assert chars.to_list() == [[[97, 233], [98]], []]
    assert offsets.to_list() == [[[0, 1], [0]], []]


def test_ragged_string_ops_inside_tf_function():
    @tf.function
    def f(x):
        return tf.strings.length(x), tf.strings.split(x), tf.strings.ngrams(x, 2)

    lengths, words, grams = f(tf.ragged.constant([["ab c", "d"], ["e"]]))
    assert lengths.to_list() == [[4, 1], [1]]
    assert words.to_list() == [[[b"ab", b"c"], [b"d"]], [[b"e"]]]
    assert grams.to_list() == [[b"ab c d"], []]


def test_join_of_ragged_operands_with_other_partitions_fails():
    with pytest.raises((ValueError, tf.errors.InvalidArgumentError)):
        tf.strings.join([tf.ragged.constant([["a"], ["b"]]), tf.ragged.constant([["a", "b"]])])
