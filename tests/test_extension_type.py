"""tf.experimental.ExtensionType and BatchableExtensionType: fields, conversion, validation,
immutability, repr and ==, Spec classes, and extension types through dispatch,
tf.function, tf.data, nest, cond, while_loop and map_fn. Expected values, messages and
reprs are TensorFlow 2.21's (recorded with it; tests/parity/test_extension_type_parity.py
runs the same code under TF)."""
import contextlib
import typing
from typing import Mapping, Optional, Tuple, Union

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.ops.extension_type import BatchableExtensionTypeSpec


class MaskedTensor(tf.experimental.BatchableExtensionType):
    values: tf.Tensor
    mask: tf.Tensor

    def __validate__(self):
        self.values.shape.assert_is_compatible_with(self.mask.shape)
        assert self.mask.dtype.is_bool, "mask.dtype must be bool"

    def with_default(self, default):
        return tf.where(self.mask, self.values, default)

    def __add__(a, b):
        return tf.math.add(a, b)

    class Spec:
        def __init__(self, shape, dtype=tf.float32):
            self.values = tf.TensorSpec(shape, dtype)
            self.mask = tf.TensorSpec(shape, tf.bool)

        shape = property(lambda self: self.values.shape)


class Pair(tf.experimental.ExtensionType):
    a: int
    b: tf.Tensor = 3.0
    s: Tuple[int, ...] = (1,)
    m: Mapping[str, tf.Tensor] = {}
    sh: tf.TensorShape = [2]
    d: tf.DType = tf.int32
    o: Optional[tf.Tensor] = None


class Toy(tf.experimental.ExtensionType):
    name: str
    price: tf.Tensor
    features: Mapping[str, tf.Tensor]


class ToyStore(tf.experimental.ExtensionType):
    name: str
    toys: Tuple[Toy, ...]


@contextlib.contextmanager
def masked_dispatch():
    """The guide's dispatchers for MaskedTensor, removed afterwards."""
    @tf.experimental.dispatch_for_unary_elementwise_apis(MaskedTensor)
    def unary(api_func, x):
        return MaskedTensor(api_func(x.values), x.mask)

    @tf.experimental.dispatch_for_binary_elementwise_apis(
        Union[MaskedTensor, tf.Tensor], Union[MaskedTensor, tf.Tensor])
    def binary(api_func, x, y):
        xv, xm = (x.values, x.mask) if isinstance(x, MaskedTensor) else (x, True)
        yv, ym = (y.values, y.mask) if isinstance(y, MaskedTensor) else (y, True)
        return MaskedTensor(api_func(xv, yv), tf.logical_and(xm, ym))

    @tf.experimental.dispatch_for_api(tf.math.reduce_sum)
    def reduce_sum(input_tensor: MaskedTensor, axis=None, keepdims=False, name=None):
        return tf.math.reduce_sum(tf.where(input_tensor.mask, input_tensor.values, 0.0),
                                  axis, keepdims, name)
    try:
        yield
    finally:
        for f in (unary, binary, reduce_sum):
            tf.experimental.unregister_dispatch_for(f)


def _mt():
    return MaskedTensor([[1.0, 2, 3], [4, 5, 6]], [[True, False, True], [False, True, True]])


SPEC_23 = ("MaskedTensor.Spec(values=TensorSpec(shape=(2, 3), dtype=tf.float32, name=None), "
           "mask=TensorSpec(shape=(2, 3), dtype=tf.bool, name=None))")


def test_fields_repr_and_spec():
    mt = MaskedTensor(values=[[1, 2, 3], [4, 5, 6]],
                      mask=[[True, True, False], [True, False, True]])
    assert repr(mt) == (
        "MaskedTensor(values=<tf.Tensor: shape=(2, 3), dtype=int32, numpy=\n"
        "array([[1, 2, 3],\n       [4, 5, 6]], dtype=int32)>, mask=<tf.Tensor: shape=(2, 3), "
        "dtype=bool, numpy=\narray([[ True,  True, False],\n       [ True, False,  True]])>)")
    assert MaskedTensor.Spec.__name__ == MaskedTensor.Spec.__qualname__ == "MaskedTensor.Spec"
    assert repr(MaskedTensor.Spec(shape=[2, 3])) == SPEC_23
    assert repr(_mt()._type_spec) == SPEC_23 == repr(tf.type_spec_from_value(_mt()))
    assert MaskedTensor.Spec([2]).shape == tf.TensorShape([2])
    p = Pair(1)
    assert repr(p) == ("Pair(a=1, b=<tf.Tensor: shape=(), dtype=float32, numpy=3.0>, s=(1,), "
                       "m=ImmutableDict({}), sh=TensorShape([2]), d=tf.int32, o=None)")
    assert repr(p._type_spec) == (
        "Pair.Spec(a=1, b=TensorSpec(shape=(), dtype=tf.float32, name=None), s=(1,), m={}, "
        "sh=TensorShape([2]), d=tf.int32, o=None)")
    store = ToyStore("s", [Toy("ball", 5.0, {"color": "red"}), Toy("car", 3.0, {"c": "b"})])
    assert isinstance(store.toys, tuple) and len(tf.nest.flatten(
        store, expand_composites=True)) == 4
    assert repr(Toy("ball", 5.0, {"color": "red"})) == (
        "Toy(name='ball', price=<tf.Tensor: shape=(), dtype=float32, numpy=5.0>, "
        "features=ImmutableDict({'color': <tf.Tensor: shape=(), dtype=string, "
        "numpy=b'red'>}))")


@pytest.mark.parametrize("make, error, message", [
    (lambda: Pair("x"), TypeError, "a: expected 'int', got 'str'"),
    (lambda: Pair(), TypeError, "missing a required argument: 'a'"),
    (lambda: Pair(1, 2, c=3), TypeError, "got an unexpected keyword argument 'c'"),
    (lambda: Toy("x", 1.0, {1: 2}), TypeError, "features[<key>]: expected 'str', got 'int'"),
    (lambda: MaskedTensor([1, 2], [True]), ValueError, "Shapes (2,) and (1,) are incompatible"),
    (lambda: MaskedTensor([1, 2], [1, 2]), AssertionError, "mask.dtype must be bool"),
    (lambda: Toy.Spec(name="x", price=1, features={}), TypeError,
     "price: expected a TensorSpec, got 'int'"),
])
def test_bad_fields(make, error, message):
    with pytest.raises(error) as info:
        make()
    assert str(info.value).split("\n")[0] == message


def test_float_field_rejects_int_and_unsupported_annotation():
    class Pt(tf.experimental.ExtensionType):
        x: float
        y: float = 0.0
    assert repr(Pt(1.0)) == \
        "test_float_field_rejects_int_and_unsupported_annotation.<locals>.Pt(x=1.0, y=0.0)"
    with pytest.raises(TypeError, match="x: expected 'float', got 'int'"):
        Pt(1)
    assert (Pt(1.0) == Pt(2.0)) is False
    with pytest.raises(TypeError, match="In field 'x': Unsupported type annotation 'list'"):
        class Bad(tf.experimental.ExtensionType):
            x: list
    with pytest.raises(TypeError,
                       match="In field 'spec': Unsupported type annotation 'TensorSpec'"):
        class WithSpec(tf.experimental.ExtensionType):
            spec: tf.TensorSpec


def test_union_and_optional_fields():
    class U(tf.experimental.ExtensionType):
        v: Union[int, tf.Tensor]
        o: Optional[tf.RaggedTensor] = None
    assert repr(U(3)) == "test_union_and_optional_fields.<locals>.U(v=3, o=None)"
    assert repr(U(3)._type_spec) == \
        "test_union_and_optional_fields.<locals>.U.Spec(v=3, o=None)"
    assert U([1.0]).v.dtype == tf.float32
    assert U(2, tf.ragged.constant([[1], []])).o.shape.as_list() == [2, None]


@pytest.mark.parametrize("mutate", [lambda m: setattr(m, "mask", 3),
                                    lambda m: delattr(m, "mask")])
def test_immutable(mutate):
    with pytest.raises(AttributeError) as info:
        mutate(_mt())
    assert str(info.value) == ("Cannot mutate attribute `mask` outside the custom "
                               "constructor of ExtensionType.")


def test_equality():
    mt = _mt()
    eq = mt == mt
    assert isinstance(eq, tf.Tensor) and eq.dtype == tf.bool and bool(eq)
    assert (mt == 3) is False
    assert bool(Pair(1) == Pair(1)) and not bool(Pair(1) != Pair(1))
    assert not bool(Pair(1, b=[1.0, 2.0]) == Pair(1, b=[1.0, 3.0]))
    assert (Pair(1, b=[1.0, 2.0]) == Pair(1, b=[1.0, 2.0, 3.0])) is False
    assert (Pair(1) == Pair(2)) is False


def test_dispatch():
    mt = _mt()
    with masked_dispatch():
        assert tf.math.negative(mt).values.numpy().tolist() == [[-1, -2, -3], [-4, -5, -6]]
        total = mt + mt
        assert total.values.numpy().tolist() == [[2, 4, 6], [8, 10, 12]]
        assert total.mask.numpy().tolist() == [[True, False, True], [False, True, True]]
        assert tf.math.add(mt, tf.constant(1.0)).values.numpy().tolist() == \
            [[2, 3, 4], [5, 6, 7]]
        assert float(tf.math.reduce_sum(mt)) == 15.0
        assert tf.math.reduce_sum(mt, axis=1).numpy().tolist() == [4.0, 11.0]
        assert tf.abs(mt).values.numpy().tolist() == [[1, 2, 3], [4, 5, 6]]


def test_function_traces_by_spec():
    traces = []

    @tf.function
    def f(x):
        traces.append(1)
        return x.with_default(0.0)
    mt = _mt()
    assert f(mt).numpy().tolist() == [[1, 0, 3], [0, 5, 6]]
    f(mt)
    assert len(traces) == 1
    f(MaskedTensor([1.0, 2], [True, False]))
    assert len(traces) == 2
    g = tf.function(lambda x: x, input_signature=[MaskedTensor.Spec(shape=[None])])
    out = g(MaskedTensor([1.0, 2], [True, False]))
    assert type(out) is MaskedTensor and out.values.numpy().tolist() == [1.0, 2.0]
    h = tf.function(lambda x: MaskedTensor(x.values * 2, x.mask))
    assert repr(h(mt)._type_spec) == SPEC_23


def test_data():
    mt = _mt()
    assert repr(tf.data.Dataset.from_tensors(mt).element_spec) == SPEC_23
    ds = tf.data.Dataset.from_tensor_slices(mt)
    spec_3 = ("MaskedTensor.Spec(values=TensorSpec(shape=(3,), dtype=tf.float32, name=None), "
              "mask=TensorSpec(shape=(3,), dtype=tf.bool, name=None))")
    assert repr(ds.element_spec) == spec_3
    assert [e.mask.numpy().tolist() for e in ds] == [[True, False, True], [False, True, True]]
    batched = ds.batch(2)
    assert repr(batched.element_spec) == (
        "MaskedTensor.Spec(values=TensorSpec(shape=(None, 3), dtype=tf.float32, name=None), "
        "mask=TensorSpec(shape=(None, 3), dtype=tf.bool, name=None))")
    assert [e.values.numpy().tolist() for e in batched] == [[[1, 2, 3], [4, 5, 6]]]
    assert repr(batched.unbatch().element_spec) == spec_3
    assert [e.values.numpy().tolist() for e in batched.unbatch()] == [[1, 2, 3], [4, 5, 6]]
    assert [e.numpy().tolist() for e in ds.map(lambda x: x.with_default(-1.0))] == \
        [[1, -1, 3], [-1, 5, 6]]


def test_nest_and_control_flow():
    mt = _mt()
    flat = tf.nest.flatten(mt, expand_composites=True)
    assert [t.numpy().tolist() for t in flat] == [mt.values.numpy().tolist(),
                                                  mt.mask.numpy().tolist()]
    assert tf.nest.flatten(mt) == [mt]
    packed = tf.nest.pack_sequence_as(mt, [tf.zeros([2, 3]), tf.ones([2, 3], tf.bool)],
                                      expand_composites=True)
    assert type(packed) is MaskedTensor and packed.values.numpy().sum() == 0
    zero = lambda: MaskedTensor(mt.values * 0, mt.mask)  # noqa: E731
    assert tf.cond(tf.constant(True), lambda: mt, zero).values.numpy().tolist() == \
        [[1, 2, 3], [4, 5, 6]]
    cf = tf.function(lambda p: tf.cond(p, lambda: mt, zero))
    out = cf(tf.constant(False))
    assert type(out) is MaskedTensor and out.values.numpy().tolist() == [[0] * 3] * 2
    i, m = tf.while_loop(lambda i, m: i < 3,
                         lambda i, m: (i + 1, MaskedTensor(m.values + 1, m.mask)), [0, mt])
    assert int(i) == 3 and m.values.numpy().tolist() == [[4, 5, 6], [7, 8, 9]]
    mapped = tf.map_fn(lambda x: MaskedTensor(x.values * 10, x.mask), mt)
    assert type(mapped) is MaskedTensor
    assert mapped.values.numpy().tolist() == [[10, 20, 30], [40, 50, 60]]


def test_batch_encoder_and_spec_supertype():
    spec = MaskedTensor([1.0], [True])._type_spec
    enc = tf.experimental.ExtensionTypeBatchEncoder()
    assert enc.batch(spec, 4).values.shape.as_list() == [4, 1]
    assert enc.unbatch(enc.batch(spec, 4)) == spec
    parts = enc.encode(spec, MaskedTensor([1.0], [True]))
    assert type(enc.decode(spec, parts)) is MaskedTensor
    other = MaskedTensor([1.0, 2.0], [True, False])._type_spec
    assert spec.most_specific_common_supertype([other]).values.shape.as_list() == [None]
    assert spec.is_compatible_with(MaskedTensor([3.0], [False]))
    assert not spec.is_compatible_with(other)
    assert isinstance(spec, BatchableExtensionTypeSpec)  # (TF exports no such name)
    assert isinstance(spec, tf.experimental.ExtensionTypeSpec)
    assert typing.get_type_hints(MaskedTensor)["values"] is tf.Tensor


def test_binary_assert_dispatch():
    class M(tf.experimental.ExtensionType):
        v: tf.Tensor

    @tf.experimental.dispatch_for_binary_elementwise_assert_apis(M, M)
    def handler(assert_func, x, y):
        return assert_func(x.v, y.v)
    try:
        assert tf.debugging.assert_equal(M([1]), M([1])) is None
        assert tf.debugging.assert_none_equal(M([1]), M([2])) is None
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            tf.debugging.assert_less(M([1]), M([1]), message="msg")
        assert str(info.value).splitlines()[:2] == ["msg", "Condition x < y did not hold."]
        with pytest.raises(ValueError, match="Attempt to convert a value"):
            tf.debugging.assert_positive(M([1]))  # a unary assertion: not dispatched
    finally:
        tf.experimental.unregister_dispatch_for(handler)
    with pytest.raises(ValueError, match="Attempt to convert a value"):
        tf.debugging.assert_equal(M([1]), M([1]))


def test_reduce_retracing_relaxes_field_shapes():
    traces = []

    @tf.function(reduce_retracing=True)
    def f(x):
        traces.append(1)
        return MaskedTensor(x.values * 2, x.mask)
    for k in (1, 2, 3, 4):
        out = f(MaskedTensor(tf.range(k), tf.ones([k], tf.bool)))
    assert len(traces) == 2 == f.experimental_get_tracing_count()  # TF's count
    assert out.values.numpy().tolist() == [0, 2, 4, 6]
    assert out._type_spec.values.shape.as_list() == [4]
