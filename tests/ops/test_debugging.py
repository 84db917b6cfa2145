"""tf.debugging: the assert_* family, check_numerics and the modes watching every op.
Expected texts are TF 2.21's, recorded from it."""
import numpy as np
import pytest

import tapeflow as tf

X = [1.0, 2.0, 3.0]


@pytest.mark.parametrize("check,y,text", [
    (tf.debugging.assert_greater_equal, 2.0, "Condition x >= y did not hold.\nFirst 3 "
     "elements of x:\n[1. 2. 3.]\nFirst 1 elements of y:\n[2.]"),
    (tf.debugging.assert_less_equal, 2.0, "Condition x <= y did not hold.\nFirst 3 "
     "elements of x:\n[1. 2. 3.]\nFirst 1 elements of y:\n[2.]"),
    (tf.debugging.assert_none_equal, [0.0, 2.0, 0.0], "Condition x != y did not hold.\n"
     "Indices of first 1 different values:\n[[1]]\nCorresponding x values:\n[2.]\n"
     "Corresponding y values:\n[2.]\nFirst 3 elements of x:\n[1. 2. 3.]\nFirst 3 elements "
     "of y:\n[0. 2. 0.]")])
def test_pairwise_comparisons_fail_with_tfs_text(check, y, text):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        check(tf.constant(X), y)
    assert str(info.value) == text


def test_none_equal_takes_summarize_before_message():
    with pytest.raises(tf.errors.InvalidArgumentError, match="^m\nCondition x != y"):
        tf.debugging.assert_none_equal(tf.constant([1, 2]), 2, 3, "m")
    assert tf.debugging.assert_none_equal(tf.constant([1, 2]), 3) is None


@pytest.mark.parametrize("check,x,text", [
    (tf.debugging.assert_positive, [1.0, -1.0], "m.  \nCondition x > 0 did not hold "
     "element-wise:\nx (shape=(2,) dtype=float32) = \n['1.0', '-1.0']"),
    (tf.debugging.assert_negative, X, "m.  \nCondition x < 0 did not hold element-wise:\n"
     "x (shape=(3,) dtype=float32) = \n['1.0', '2.0', '3.0']"),
    (tf.debugging.assert_non_negative, [-1, 2], "m.  \nCondition x >= 0 did not hold "
     "element-wise:\nx (shape=(2,) dtype=int32) = \n['-1', '2']")])
def test_sign_checks_fail_with_tfs_text(check, x, text):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        check(tf.constant(x), message="m")
    assert str(info.value) == text


def test_sign_checks_summarize_and_pass():
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.debugging.assert_positive(-tf.range(1.0, 10.0), summarize=2)
    assert str(info.value).endswith("\n['-1.0', '-2.0', '...']")
    assert tf.debugging.assert_non_positive(tf.constant([0, -2])) is None
    assert tf.debugging.assert_positive(tf.constant([], tf.float32)) is None


def test_checks_in_a_function_fail_when_run():
    @tf.function
    def f(a):
        tf.debugging.assert_positive(a, message="m")
        tf.debugging.assert_near(a, a * 1.0)
        return a

    assert f(tf.constant([1.0])).numpy().tolist() == [1.0]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"assertion failed: \[m\.  \] \[Condition x > 0 did not hold "
                             r"element-wise:\] \[x \(\w+:0\) = \] \[1 -1\]"):
        f(tf.constant([1.0, -1.0]))


def test_assert_near():
    x = tf.constant(X)
    assert tf.debugging.assert_near(x, x + 1e-7) is None
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.debugging.assert_near(x, x + 1.0, message="m")
    assert str(info.value) == (
        "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: "
        "b'm.  '\nb'x and y not equal to tolerance rtol = tf.Tensor(1.1920929e-06, shape=(), "
        "dtype=float32), atol = tf.Tensor(1.1920929e-06, shape=(), dtype=float32)'\n"
        "b'x (shape=(3,) dtype=float32) = '\n1.0, 2.0, 3.0\n"
        "b'y (shape=(3,) dtype=float32) = '\n2.0, 3.0, 4.0")
    assert tf.debugging.assert_near(x, x + 0.5, atol=0.6) is None
    with pytest.raises(ValueError, match="not inexact"):
        tf.debugging.assert_near(tf.constant([1]), tf.constant([1]))


def test_static_checks_of_dtype_and_rank():
    x = tf.constant(X)
    with pytest.raises(TypeError, match='^m\\.  Expected "x" to be integer type\\.  Found: '
                                        "tensor of dtype <dtype: 'float32'>$"):
        tf.debugging.assert_integer(x, message="m")
    assert tf.debugging.assert_integer(tf.constant([1])) is None
    with pytest.raises(TypeError, match="^m\\.  tensor must be of type tf.int32; got "
                                        "tf.float32$"):
        tf.debugging.assert_type(x, tf.int32, message="m")
    assert tf.debugging.assert_type(3, tf.int32) is None
    with pytest.raises(ValueError, match="^m\\.  Expected scalar shape, saw shape: \\(3,\\)\\.$"):
        tf.debugging.assert_scalar(x, message="m")
    assert tf.debugging.assert_scalar(3) is None
    with pytest.raises(ValueError, match="^m\\.  Tensor  must have rank at least 2\\.  "
                                         "Received rank 1, shape \\(3,\\)$"):
        tf.debugging.assert_rank_at_least(x, 2, message="m")
    with pytest.raises(ValueError, match="^m\\.  Tensor  must have rank in \\(0, 2\\)\\.  "
                                         "Received rank 1, shape \\(3,\\)$"):
        tf.debugging.assert_rank_in(x, [0, 2], message="m")
    assert tf.debugging.assert_rank_in(x, [0, 1]) is None


def test_rank_checks_of_unknown_ranks_run_with_the_function():
    @tf.function(input_signature=[tf.TensorSpec(None)])
    def f(x):
        tf.debugging.assert_rank_at_least(x, 1)
        tf.debugging.assert_rank_in(x, [1, 2])
        return x

    assert f(tf.constant([1.0])).numpy().tolist() == [1.0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="must have rank at least"):
        f(tf.constant(1.0))
    with pytest.raises(tf.errors.InvalidArgumentError, match="must have rank in"):
        f(tf.zeros([1, 1, 1]))


def test_assert_proper_iterable_and_is_numeric_tensor():
    assert tf.debugging.assert_proper_iterable([1]) is None
    for value in ("ab", b"a", tf.constant(X), np.array([1])):
        with pytest.raises(TypeError, match='to be a "proper" iterable.  Found: '):
            tf.debugging.assert_proper_iterable(value)
    with pytest.raises(TypeError, match="to be iterable.  Found: <class 'int'>"):
        tf.debugging.assert_proper_iterable(1)
    values = [tf.constant(1.0), tf.constant(True), 1.0, np.array(1.0), tf.constant([1]),
              tf.Variable(1.0), tf.SparseTensor([[0]], [1.0], [2])]
    assert [tf.debugging.is_numeric_tensor(v) for v in values] == [True, False, False, False,
                                                                   True, False, False]


def test_assert_same_float_dtype():
    x = tf.constant(X)
    assert tf.debugging.assert_same_float_dtype([x, x]) == tf.float32
    assert tf.debugging.assert_same_float_dtype() == tf.float32
    assert tf.debugging.assert_same_float_dtype(None, tf.float64) == tf.float64
    with pytest.raises(ValueError, match="^Expected floating point type, got <dtype: 'int32'>"):
        tf.debugging.assert_same_float_dtype([tf.constant([1])])
    with pytest.raises(ValueError, match=r"type=<dtype: 'float64'>, must be of the same type "
                                         r"\(<dtype: 'float32'>\) as tf.Tensor"):
        tf.debugging.assert_same_float_dtype([x, tf.constant([1.0], tf.float64)])
    with pytest.raises(ValueError, match=r"must be of the same type \(<dtype: 'float64'>\)\.$"):
        tf.debugging.assert_same_float_dtype([x], tf.float64)


def test_assert_shapes_symbols_sizes_and_prefixes():
    x = tf.constant(X)
    check = tf.debugging.assert_shapes
    assert check([(x, ("N",)), (tf.zeros([3, 2]), ("N", "D"))]) is None
    with pytest.raises(ValueError) as info:
        check([(x, ("N",)), (tf.zeros([4, 2]), ("N", "D"))])
    assert str(info.value) == ("Specified by tensor shape=(3,) dtype=float32 dimension 0.  "
                               "Tensor shape=(4, 2) dtype=float32 dimension 0 must have size "
                               "3.  Received size 4, shape (4, 2)")
    with pytest.raises(ValueError, match="^m\\.  Specified explicitly\\.  Tensor shape=\\(3,\\) "
                                         "dtype=float32 dimension 0 must have size 2\\.  "
                                         "Received size 3, shape \\(3,\\)$"):
        check([(x, (2,))], message="m")
    with pytest.raises(ValueError, match="^Tensor  must have rank 2\\."):
        check([(x, ("N", "D"))])
    with pytest.raises(ValueError, match="dimension 1 must have size 3"):
        check([(tf.zeros([3, 1]), ("N", 1)), (tf.zeros([3, 1]), ("N", "N"))])
    assert check([(tf.zeros([2, 3, 4]), (..., 4)), (tf.zeros([5]), ("B",))]) is None
    assert check([(tf.zeros([2, 3, 4]), ("*", 3, "D"))]) is None
    with pytest.raises(ValueError, match="^Tensor  must have rank 2"):
        check([(tf.zeros([2, 3, 4]), ("...", 4))])       # the string "..." is a symbol
    with pytest.raises(ValueError, match="specified shape index 1.  Symbol `...` or `\\*`"):
        check([(tf.zeros([2, 3]), ("N", ..., "N"))])
    assert check([(x, (None,)), (x, "N"), (tf.zeros([]), []), (tf.zeros([1]), [])]) is None
    with pytest.raises(ValueError, match="must have size 1"):
        check([(x, [])])
    with pytest.raises(ValueError, match="must have rank in \\(0, 1\\)"):
        check([(tf.zeros([1, 1]), [])])


def test_assert_shapes_of_sizes_known_when_run():
    @tf.function(input_signature=[tf.TensorSpec([None]), tf.TensorSpec([None, 2])])
    def f(a, b):
        tf.debugging.assert_shapes([(a, ("N",)), (b, ("N", 2))])
        return a

    assert f(tf.zeros([3]), tf.zeros([3, 2])).numpy().tolist() == [0.0, 0.0, 0.0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="must have size"):
        f(tf.zeros([3]), tf.zeros([4, 2]))


def test_check_numerics():
    x = tf.constant(X)
    assert tf.debugging.check_numerics(x, "bad").numpy().tolist() == X
    assert tf.debugging.assert_all_finite(x, "bad").numpy().tolist() == X
    for values, kinds in (([1.0, np.inf], "Inf"), ([1.0, np.nan], "NaN"),
                          ([np.nan, -np.inf], "Inf and NaN")):
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            tf.debugging.check_numerics(tf.constant(values), "bad values")
        assert info.value.message == f"bad values : Tensor had {kinds} values"
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Value for attr 'T' of int32 is not in the list of allowed "
                             "values: bfloat16, half, float, double"):
        tf.debugging.check_numerics(tf.constant([1]), "bad")

    @tf.function
    def f(a):
        return tf.debugging.check_numerics(a, "msg")

    with pytest.raises(tf.errors.InvalidArgumentError, match="msg : Tensor had NaN values"):
        f(tf.constant([np.nan]))


def test_check_numerics_checks_the_gradient():
    v = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(v)
        y = tf.debugging.check_numerics(v * 2, "fwd")
        finite = y * tf.constant([3.0, 1.0])
        infinite = y * tf.constant([np.inf, 1.0])
    assert tape.gradient(finite, v).numpy().tolist() == [6.0, 2.0]
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tape.gradient(infinite, v)
    assert info.value.message == ("Not a number (NaN) or infinity (Inf) values detected in "
                                  "gradient. b'fwd' : Tensor had Inf values")


def test_enable_check_numerics_checks_every_op_until_disabled():
    tf.debugging.enable_check_numerics()
    try:
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            tf.constant([1.0, -1.0, 0.0]) / tf.constant([0.0, 0.0, 0.0])
        assert info.value.message == (
            '\n\n!!! Detected Infinity or NaN in output 0 of eagerly-executing op "RealDiv" '
            "(# of outputs: 1) !!!\n  dtype: <dtype: 'float32'>\n  shape: (3,)\n"
            "  # of -Inf elements: 1\n  # of +Inf elements: 1\n  # of +NaN elements: 1\n\n"
            "  Input tensors (2):\n         0: tf.Tensor([ 1. -1.  0.], shape=(3,), "
            "dtype=float32)\n         1: tf.Tensor([0. 0. 0.], shape=(3,), dtype=float32)\n\n"
            " : Tensor had -Inf, +Inf, and NaN values")
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            tf.math.log(tf.constant([-1.0, 1.0]))
        assert "  # of +NaN elements: 1\n\n  Input tensor: tf.Tensor([-1.  1.], shape=(2,), " \
               "dtype=float32)\n\n : Tensor had NaN values" in info.value.message
        with pytest.raises(tf.errors.InvalidArgumentError, match="output 1 of eagerly-"):
            tf.split(tf.constant([1.0, np.nan]), 2)
        assert (tf.constant([1]) + 1).numpy().tolist() == [2]    # integers are not checked
    finally:
        tf.debugging.disable_check_numerics()
    assert np.isnan(tf.math.log(tf.constant(-1.0)).numpy())


def test_log_device_placement_writes_each_op(capfd):
    assert tf.debugging.get_log_device_placement() is False
    tf.debugging.set_log_device_placement(True)
    try:
        assert tf.debugging.get_log_device_placement() is True
        tf.add(tf.ones([1]), tf.ones([1]))
    finally:
        tf.debugging.set_log_device_placement(False)
    tf.add(tf.ones([1]), tf.ones([1]))
    err = capfd.readouterr().err
    assert err.count("Executing op AddV2 in device /job:localhost/replica:0/task:0/"
                     "device:CPU:0\n") == 1


def test_the_assert_family_shares_tfs_names_and_signatures():
    import inspect
    sig = inspect.signature
    assert str(sig(tf.debugging.assert_equal)) == "(x, y, message=None, summarize=None, name=None)"
    assert str(sig(tf.debugging.assert_none_equal)) == \
        "(x, y, summarize=None, message=None, name=None)"
    assert str(sig(tf.debugging.assert_positive)) == "(x, message=None, summarize=None, name=None)"
    assert tf.debugging.assert_less_equal.__name__ == "assert_less_equal"
    assert tf.assert_equal is tf.debugging.assert_equal
