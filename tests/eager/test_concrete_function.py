"""A trace's description, as TF gives it: structured inputs and outputs, output shapes and
dtypes, its FunctionType and pretty-printed signatures."""
import tapeflow as tf

_SPEC = "TensorSpec(shape=(None, 3), dtype=tf.float32, name={})"


def _traced():
    v = tf.Variable(2.0)

    @tf.function
    def f(x, y=1.0):
        return {"a": x * v, "b": (x + y,)}

    return f, v, f.get_concrete_function(tf.TensorSpec([None, 3], tf.float32, name="inp"))


def test_structure_of_inputs_and_outputs():
    f, v, cf = _traced()
    assert cf.structured_input_signature == (
        (tf.TensorSpec([None, 3], tf.float32, name="inp"), 1.0), {})
    assert cf.output_shapes == {"a": tf.TensorShape([None, 3]), "b": (tf.TensorShape([None, 3]),)}
    assert cf.output_dtypes == {"a": tf.float32, "b": (tf.float32,)}
    assert [t.name for t in cf.inputs] == ["inp:0"]
    assert cf.variables == (v,) and cf.trainable_variables == (v,)
    assert cf.graph.get_operations()[0].name == "inp"


def test_pretty_printed_signature():
    f, v, cf = _traced()
    output = f"Dict[['a', {_SPEC.format(None)}], ['b', Tuple[{_SPEC.format(None)}]]]"
    assert cf.pretty_printed_signature().splitlines() == [
        "Input Parameters:",
        f"  x (POSITIONAL_OR_KEYWORD): {_SPEC.format(repr('inp'))}",
        "  y (POSITIONAL_OR_KEYWORD): Literal[1.0]",
        "Output Type:", f"  {output}",
        "Captures:", f"  {id(v)}: TensorSpec(shape=(), dtype=tf.resource, name=None)"]
    assert cf.pretty_printed_signature(verbose=False) == \
        f"(x: {_SPEC.format(repr('inp'))}, y: Literal[1.0]) -> {output}"
    assert str(cf.function_type) == cf.pretty_printed_signature()
    assert list(cf.function_type.parameters) == ["x", "y"]


def test_varargs_and_keywords_and_nested_outputs():
    @tf.function
    def f(x, *args, k=2, **kw):
        return [x, None, (x, {"z": x})], 3

    cf = f.get_concrete_function(tf.constant([1.0, 2.0]), tf.constant(1), k=3,
                                 q=tf.constant(2.0))
    assert cf.structured_input_signature == (
        (tf.TensorSpec([2], tf.float32, name="x"), tf.TensorSpec([], tf.int32, name="args_0")),
        {"k": 3, "q": tf.TensorSpec([], tf.float32, name="q")})
    two = "TensorSpec(shape=(2,), dtype=tf.float32, name=None)"
    scalar = "TensorSpec(shape=(), dtype={}, name=None)"
    assert cf.pretty_printed_signature(verbose=False) == (
        f"(x: {two}, args_0: {scalar.format('tf.int32')}, /, *, k: Literal[3], "
        f"q: {scalar.format('tf.float32')}) -> Tuple[List[{two}, Literal[None], "
        f"Tuple[{two}, Dict[['z', {two}]]]], {scalar.format('tf.int32')}]")
    assert "Captures:\n  None" in cf.pretty_printed_signature()


def test_function_lists_its_traces():
    f = tf.function(lambda x: x)
    f(tf.constant(1.0))
    f(tf.constant([1.0, 2.0]))
    spec = "TensorSpec(shape={}, dtype=tf.float32, name=None)"
    assert f.pretty_printed_concrete_signatures(verbose=False).splitlines() == [
        f"(x: {spec.format('()')}) -> {spec.format('()')}",
        f"(x: {spec.format('(2,)')}) -> {spec.format('(2,)')}"]
    assert f.pretty_printed_concrete_signatures().count("Input Parameters:") == 2
    assert f.name == "<lambda>" and f.experimental_get_tracing_count() == 2


def test_add_to_graph_and_gradient_functions():
    cf = tf.function(lambda x: x * x).get_concrete_function(tf.constant(2.0))
    g = tf.Graph()
    assert not g._is_function(cf.name)
    cf.add_to_graph(g)
    assert g._is_function(cf.name) and g._get_function(cf.name) is cf
    cf.add_gradient_functions_to_graph(g)
    backward = g._get_function(cf.name + "_backward")
    assert [t.numpy() for t in backward(tf.constant(3.0), tf.constant(1.0))] == [6.0]

    @tf.function
    def outer(x):
        cf.add_to_graph()  # the default graph: the function being traced
        assert tf.compat.v1.get_default_graph()._is_function(cf.name)
        return x + 1
    assert outer(tf.constant(1.0)).numpy() == 2.0
