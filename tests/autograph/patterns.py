"""TF-tutorial-style functions with Python control flow, each with its inputs and the value
it returns. tests/autograph runs them eagerly and under tapeflow.function; the parity test
runs this file with `import tensorflow as tf` and compares TF's values.

Inputs are (value, dtype) pairs made into constants; a plain Python value stays Python.
"""
import tapeflow as tf

PATTERNS: list = []
ERRORS: list = []
# Patterns whose first argument is floating: their gradients are compared to second order.
DIFFERENTIABLE = ("if_on_reduce_sum", "squash", "continue_in_while", "early_return", "and_or_not",
                  "conditional_expression", "power_by_loop", "rows_through_an_if",
                  "calls_a_converted_helper", "python_condition")


def constants(inputs) -> list:
    """The arguments: (value, dtype) pairs as constants, other values as they are."""
    return [tf.constant(v[0], dtype=v[1]) if isinstance(v, tuple) else v for v in inputs]


def derivatives(fn, inputs) -> list:
    """fn's value, its gradient with respect to the first (floating) input, and the gradient
    of the summed squared gradient, through tf.function (zeros where the gradient is
    constant: TF and tapeflow differ in whether such an If or While output is connected)."""
    args = constants(inputs)
    f = tf.function(fn)
    with tf.GradientTape() as outer:
        outer.watch(args[0])
        with tf.GradientTape() as inner:
            inner.watch(args[0])
            y = f(*args)
        g = inner.gradient(y, args[0])
        s = tf.reduce_sum(g * g)
    second = outer.gradient(s, args[0], unconnected_gradients="zero")
    return [t.numpy().tolist() for t in (y, g, second)]


def pattern(*inputs, expected):
    def register(fn):
        PATTERNS.append((fn, inputs, expected))
        return fn
    return register


def error(*inputs, raises):
    """A function TF's AutoGraph rejects, with the exception class it raises."""
    def register(fn):
        ERRORS.append((fn, inputs, raises))
        return fn
    return register


@pattern(([1.0, 2.0], "float32"), expected=[1.0, 4.0])
@pattern(([-1.0, -2.0], "float32"), expected=[1.0, 2.0])
def if_on_reduce_sum(x):
    if tf.reduce_sum(x) > 0:
        y = x * x
    else:
        y = -x
    return y


@pattern((-3.0, "float32"), expected=-1.0)
@pattern((0.0, "float32"), expected=0.0)
@pattern((2.0, "float32"), expected=1.0)
def elif_chain(x):
    if x > 0:
        sign = 1.0
    elif x < 0:
        sign = -1.0
    else:
        sign = 0.0
    return sign


@pattern((5, "int32"), expected=10.0)
def while_on_tensors(n):
    i = 0
    total = 0.0
    while i < n:
        total += tf.cast(i, tf.float32)
        i += 1
    return total


@pattern((4, "int32"), expected=14)
def for_over_range(n):
    total = tf.constant(0)
    for i in tf.range(n):
        total += i * i
    return total


@pattern(([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], "float32"), expected=[5.0, 7.0, 9.0])
def for_over_rows(x):
    total = tf.zeros([3])
    for row in x:
        total += row
    return total


@pattern((20, "int32"), expected=16)
def break_and_continue(n):
    total = tf.constant(0)
    for i in tf.range(n):
        if i % 2 == 0:
            continue
        if i > 7:
            break
        total += i
    return total


@pattern(([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], "float32"), expected=83.0)
def rows_through_an_if(x):
    total = tf.zeros([3])
    for row in x:
        if tf.reduce_sum(row) > 6.0:
            total += row * row
        else:
            total += row
    return tf.reduce_sum(total)


@pattern(([10, 12, 15, 20], "int32"), expected=42)
def sum_even(items):
    total = 0
    for c in items:
        if c % 2 > 0:
            continue
        total += c
    return total


@pattern(([0.5, 0.9, 0.3, 0.8, 0.7], "float64"),
         expected=[0.19795105, 0.20912744, 0.17527041, 0.20774867, 0.20574944])
def squash(x):
    while tf.reduce_sum(x) > 1:
        x = tf.tanh(x)
    return x


class Box:
    """A plain object whose attribute a loop updates."""


@pattern((4, "int32"), expected=6)
def attribute_in_a_loop(n):
    box = Box()
    box.total = tf.constant(0)
    for i in tf.range(n):
        box.total += i
    return box.total


@pattern((4.0, "float32"), expected=4.0)
@pattern((-4.0, "float32"), expected=0.0)
def item_in_an_if(x):
    values = {"v": tf.constant(0.0)}
    if x > 0:
        values["v"] = x
    return values["v"]


@pattern((50, "int32"), expected=8)
def while_with_break(n):
    i = tf.constant(0)
    while i < 100:
        if i * i > n:
            break
        i += 1
    return i


@pattern((1.0, "float32"), expected=12.0)
def continue_in_while(x):
    while x < 10.0:
        x = x * 2.0
        if x > 5.0:
            continue
        x = x + 1.0
    return x


@pattern((3.0, "float32"), expected=6.0)
@pattern((-3.0, "float32"), expected=3.0)
def early_return(x):
    if x > 0:
        return x * 2
    return -x


@pattern((2.0, "float32"), expected=6.0)
def return_in_python_loop(x):
    for k in range(5):
        if k == 3:
            return x * k
    return x


@pattern((3, "int32"), expected=18)
def nested_loops(n):
    total = tf.constant(0)
    for i in tf.range(n):
        for j in tf.range(n + 1):
            total += i * j
    return total


@pattern((3.0, "float32"), expected=3.0)
@pattern((7.0, "float32"), expected=-7.0)
@pattern((-1.0, "float32"), expected=1.0)
def and_or_not(x):
    if x > 0 and x < 5:
        y = x
    elif not (x > 0) or x > 100:
        y = -x
    else:
        y = -x
    return y


@pattern((2.0, "float32"), expected=2.0)
@pattern((-2.0, "float32"), expected=2.0)
def conditional_expression(x):
    return x if x > 0 else -x


@pattern((2.0, "float32"), (3, "int32"), expected=8.0)
def power_by_loop(x, n):
    y = tf.ones_like(x)
    i = 0
    while i < n:
        y = y * x
        i += 1
    return y


@pattern((3, "int32"), expected=4)
def defined_in_the_loop(n):
    i = 0
    while i < n:
        doubled = i * 2
        i += 1
    return doubled


@pattern((3, "int32"), expected=[3, 2])
def loop_target_after_the_loop(n):
    count = 0
    for i in tf.range(n):
        count += 1
    return count, i


@pattern((6, "int32"), expected=8)
def collatz_steps(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def clip(value, limit):
    if value > limit:
        value = limit
    return value


@pattern(([0.5, 3.0, 0.25], "float32"), expected=1.75)
def calls_a_converted_helper(x):
    total = 0.0
    for value in x:
        total += clip(value, 1.0)
    return total


@pattern((4, "int32"), expected=6)
def range_of_a_tensor(n):
    total = 0
    for i in range(n):
        total += i
    return total


@pattern(([1.0, 2.0, 3.0], "float32"), expected=8.0)
def len_and_index(x):
    total = 0.0
    for i in range(len(x)):
        total += x[i] * i
    return total


@pattern((2.0, "float32"), True, expected=4.0)
@pattern((2.0, "float32"), False, expected=2.0)
def python_condition(x, training):
    if training:
        x = x * 2.0
    return x


@pattern(([1.0, 2.0, 3.0], "float32"), expected=-1.0)
@pattern(([1.0, 5.0, 3.0], "float32"), expected=1.0)
def for_else(x):
    found = 0.0
    for value in x:
        if value > 4.0:
            found = 1.0
            break
    else:
        found = -1.0
    return found


@error((1.0, "float32"), raises=ValueError)
def defined_on_one_branch(x):
    if x > 0:
        y = 1.0
    return y


@error((1.0, "float32"), raises=TypeError)
def loop_changes_dtype(x):
    while x < 10.0:
        x = tf.cast(x, tf.int32)
    return x


@error((3, "int32"), raises=ValueError)
def loop_changes_shape(n):
    x = tf.constant([1.0])
    for _ in tf.range(n):
        x = tf.concat([x, x], 0)
    return x


@error((1.0, "float32"), raises=TypeError)
def branches_differ_in_dtype(x):
    if x > 0:
        y = 1
    else:
        y = 2.0
    return y


@error(([1.0], "float32"), raises=ValueError)
def float_condition(x):
    if tf.reduce_sum(x):
        x = -x
    return x


@error((3.0, "float32"), raises=NotImplementedError)
def return_in_tensor_loop(x):
    for i in tf.range(10):
        if tf.cast(i, tf.float32) > x:
            return i
    return -1


@error((3.0, "float32"), raises=ValueError)
def return_on_one_branch(x):
    if x > 0:
        return x * 2


@error((20.0, "float32"), raises=ValueError)
def return_in_a_nested_tensor_if(x):
    if x > 0:
        if x > 10:
            return x * 3.0
        x = x + 1.0
    return x
