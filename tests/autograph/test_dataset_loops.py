"""`for` loops over a tf.data.Dataset inside tf.function: a `tf.while_loop` that makes a
fresh iterator each call and pulls one element per iteration; `iter(dataset)` and `next()`."""
import numpy as np
import pytest

import tapeflow as tf

RNG = np.random.default_rng(0)
X = RNG.normal(size=(10, 3)).astype(np.float32)
Y = RNG.normal(size=(10, 1)).astype(np.float32)


def model_and_optimizer(make_optimizer):
    tf.keras.utils.set_random_seed(1)
    model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="tanh"),
                                 tf.keras.layers.Dense(1)])
    model.build((None, 3))
    return model, make_optimizer()


@pytest.mark.parametrize("make_optimizer", [lambda: tf.keras.optimizers.SGD(0.1),
                                            lambda: tf.keras.optimizers.Adam(0.01)],
                         ids=["sgd", "adam"])
@pytest.mark.parametrize("captured", [False, True], ids=["argument", "captured"])
def test_training_epoch_matches_the_eager_loop(make_optimizer, captured):
    dataset = tf.data.Dataset.from_tensor_slices((X, Y)).batch(4)   # 4, 4, then 2 rows
    results = []
    for compiled in (False, True):
        model, optimizer = model_and_optimizer(make_optimizer)

        def train_step(x, y):     # called from the loop: converted too
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(model(x) - y))
            variables = model.trainable_variables
            optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
            return loss

        def train_epoch(ds):
            total = tf.constant(0.0)
            for x, y in ds:
                total += train_step(x, y)
            return total

        if compiled and captured:
            step = tf.function(lambda: train_epoch(dataset))
        elif compiled:
            step = tf.function(lambda ds: train_epoch(ds))
        else:
            step = train_epoch
        losses = [float(step() if captured and compiled else step(dataset)) for _ in range(2)]
        results.append((losses, [w.numpy() for w in model.trainable_variables]))
    (eager_losses, eager_weights), (graph_losses, graph_weights) = results
    np.testing.assert_allclose(graph_losses, eager_losses, rtol=1e-6)
    assert eager_losses[1] < eager_losses[0]
    for a, b in zip(graph_weights, eager_weights):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)


def test_each_call_iterates_afresh_and_streams():
    pulled = []

    def numbers():
        for i in range(4):
            pulled.append(i)
            yield i

    ds = tf.data.Dataset.from_generator(numbers, output_signature=tf.TensorSpec((), tf.int32))

    @tf.function
    def total():
        s = tf.constant(0)
        for x in ds:
            s += x
        return s

    assert [int(total()), int(total())] == [6, 6]
    assert pulled == [0, 1, 2, 3, 0, 1, 2, 3]
    assert total.experimental_get_tracing_count() == 1


def test_break_on_a_tensor_condition_pulls_nothing_more():
    pulled = []
    ds = tf.data.Dataset.range(10).map(lambda x: x)

    def logged():
        for x in ds:
            pulled.append(int(x))
            yield x

    source = tf.data.Dataset.from_generator(logged, output_signature=tf.TensorSpec((), tf.int64))

    @tf.function
    def until(limit):
        s = tf.constant(0, tf.int64)
        for x in source:
            if s + x > limit:
                break
            s += x
        return s

    assert int(until(tf.constant(5, tf.int64))) == 3            # 0 + 1 + 2; 3 would pass 5
    assert pulled == [0, 1, 2, 3]
    assert int(until(tf.constant(100, tf.int64))) == 45


def test_infinite_dataset_with_a_break():
    @tf.function
    def first_over(ds, limit):
        count = tf.constant(0)
        for x in ds:
            count += 1
            if x * tf.cast(count, tf.int64) > limit:
                break
        return count

    ds = tf.data.Dataset.range(3).repeat()
    assert int(first_over(ds, tf.constant(20, tf.int64))) == 12    # x=2 at count 12: 24 > 20


def test_dict_elements_and_the_last_smaller_batch():
    ds = tf.data.Dataset.from_tensor_slices(
        {"a": np.arange(10.0, dtype=np.float32).reshape(5, 2), "b": np.arange(5)}).batch(2)
    shapes = []

    @tf.function
    def weighted(dataset):
        s = tf.constant(0.0)
        rows = tf.constant(0)
        for e in dataset:
            shapes.append(e["a"].shape.as_list())
            s += tf.reduce_sum(e["a"] * tf.expand_dims(tf.cast(e["b"], tf.float32), 1))
            rows += tf.shape(e["b"])[0]
        return s, rows

    s, rows = weighted(ds)
    expected = sum(float(np.sum(e["a"].numpy() * e["b"].numpy()[:, None])) for e in ds)
    assert (float(s), int(rows)) == (expected, 5)
    assert shapes[-1] == [None, 2]


def test_enumerate_and_nested_tuples():
    ds = tf.data.Dataset.zip((tf.data.Dataset.range(3), (tf.data.Dataset.range(3, 6),
                                                           tf.data.Dataset.range(6, 9))))

    @tf.function
    def f(dataset):
        s = tf.constant(0, tf.int64)
        for i, (a, (b, c)) in enumerate(dataset, start=1):
            s += i * (a + b * c)
        return s

    assert int(f(ds)) == sum(i * (a + b * c) for i, (a, (b, c)) in
                             enumerate([(0, (3, 6)), (1, (4, 7)), (2, (5, 8))], start=1))


def test_shuffled_dataset_reshuffles_each_call():
    ds = tf.data.Dataset.range(20).shuffle(20, seed=3)

    @tf.function
    def order():
        ta = tf.constant(0, tf.int64)
        for x in ds:
            ta = ta * 3 + x     # a number that depends on the order
        return ta

    orders = {int(order()) for _ in range(3)}
    assert len(orders) > 1


def test_loop_variables_made_in_the_body_and_an_empty_dataset():
    @tf.function
    def last(dataset):
        seen = tf.constant(-1, tf.int64)
        for x in dataset:
            seen = x
        return seen

    assert int(last(tf.data.Dataset.range(4))) == 3
    assert int(last(tf.data.Dataset.range(0))) == -1


def test_iter_and_next():
    @tf.function
    def f(dataset):
        it = iter(dataset)
        first = next(it)
        rest = tf.constant(0, tf.int64)
        for x in it:
            rest += x
        return first, rest

    ds = tf.data.Dataset.range(1, 5)
    assert [int(v) for v in f(ds)] == [1, 9]
    assert [int(v) for v in f(ds)] == [1, 9]

    @tf.function
    def past_the_end():
        it = iter(tf.data.Dataset.range(2))
        return [next(it) for _ in range(3)]

    with pytest.raises(tf.errors.OutOfRangeError, match="End of sequence"):
        past_the_end()


def test_no_gradient_flows_into_elements():
    w = tf.Variable(2.0)
    ds = tf.data.Dataset.from_tensor_slices(np.array([1.0, 2.0], np.float32))

    @tf.function
    def grads():
        g = tf.constant(0.0)
        for x in ds:
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = w * x * x
            gw, gx = tape.gradient(y, [w, x])
            g += gw + gx
        return g

    assert float(grads()) == pytest.approx((1 + 4) + (2 * 2 * 1 + 2 * 2 * 2))


def test_an_eager_iterator_continues_inside_the_function():
    it = iter(tf.data.Dataset.range(10))
    assert int(next(it)) == 0

    @tf.function
    def take_two(iterator):
        return next(iterator) + 10 * iterator.get_next()

    @tf.function
    def rest(iterator):
        s = tf.constant(0, tf.int64)
        for x in iterator:
            s += x
        return s

    assert [int(take_two(it)), int(take_two(it)), int(next(it))] == [21, 43, 5]
    assert int(rest(it)) == 6 + 7 + 8 + 9
    with pytest.raises(tf.errors.OutOfRangeError):
        take_two(it)


def test_a_variable_first_assigned_in_the_loop_keeps_the_elements_partial_shape():
    shapes = []

    @tf.function
    def last_batch(dataset):
        for x in dataset:
            last = x * 2
        shapes.append(last.shape.as_list())
        return last

    np.testing.assert_array_equal(last_batch(tf.data.Dataset.range(7).batch(3)), [12])
    assert shapes == [[None]]
