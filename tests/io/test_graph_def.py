"""GraphDefs both ways without TF: tapeflow's graphs written as TF's nodes, read back and
run with equal outputs; GraphDefs TF wrote (tests/data/graph_def, recorded by
tools/record_graph_def_fixtures.py) read and run with TF's outputs."""
import pathlib

import numpy as np
import pytest

import tapeflow as tf

graph_pb2 = pytest.importorskip("tensorboard.compat.proto.graph_pb2")
tf1 = tf.compat.v1
DATA = pathlib.Path(__file__).resolve().parent.parent / "data" / "graph_def"
RNG = np.random.RandomState(0)


def mlp():
    x = tf1.placeholder(tf.float32, [None, 4], name="x")
    w = tf.Variable(RNG.randn(4, 3).astype(np.float32), name="w")
    b = tf.Variable(RNG.randn(3).astype(np.float32), name="b")
    h = tf.nn.relu(tf.matmul(x, w) + b)
    return {"x": RNG.rand(2, 4).astype(np.float32)}, tf.nn.softmax(tf.nn.bias_add(h, b),
                                                                    name="probs")


def conv():
    x = tf1.placeholder(tf.float32, [None, 6, 6, 1], name="image")
    k = tf.Variable(RNG.randn(3, 3, 1, 2).astype(np.float32), name="kernel")
    c = tf.nn.max_pool2d(tf.nn.conv2d(x, k, strides=1, padding="SAME"), 2, 2, "VALID")
    a = tf.nn.avg_pool2d(tf.nn.conv2d(x, k, strides=2, padding="VALID"), 2, 1, "SAME")
    flat = tf.concat([tf.reshape(c, [-1, 18]), tf.reshape(a, [-1, 8])], axis=1)
    return {"image": RNG.rand(2, 6, 6, 1).astype(np.float32)}, tf.reduce_mean(
        flat, axis=1, keepdims=True, name="score")


def array_ops():
    x = tf1.placeholder(tf.float32, [2, 4], name="x")
    parts = tf.split(x, 2, axis=1)
    y = tf.stack([tf.transpose(parts[0]), tf.tile(parts[1][:, ::-1], [1, 1])])
    z = tf.squeeze(tf.expand_dims(x, 0), 0)[1:, ...]
    gathered = tf.gather(x, tf.constant([1, 0, 1]), axis=0)
    cum = tf.cumsum(tf.pad(x, [[1, 0], [0, 1]], constant_values=2.0), axis=1)
    total = (tf.reduce_sum(y) + tf.reduce_max(z) + tf.reduce_prod(gathered[:, :2])
             + tf.cast(tf.argmax(tf.reshape(x, [-1]), 0), tf.float32)
             + tf.reduce_sum(tf.one_hot(tf.constant([0, 2]), 3) * 2.0)
             + tf.reduce_sum(cum) + tf.reduce_sum(tf.slice(x, [0, 1], [2, 2]))
             + tf.reduce_sum(tf.unstack(x, axis=1)[3]) + tf.reduce_sum(tf.fill([2], 0.5)))
    return {"x": RNG.rand(2, 4).astype(np.float32)}, tf.identity(total, name="total")


def control_flow():
    x = tf1.placeholder(tf.float32, [], name="x")
    y = tf.cond(x > 0, lambda: x * 2.0, lambda: x - 1.0)
    _, a = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * x + 1.0),
                         [tf.constant(0), x])
    return {"x": np.float32(1.5)}, tf.add(y, a, name="out")


MODELS = {"mlp": mlp, "conv": conv, "array_ops": array_ops, "control_flow": control_flow}


def training():
    """A TF 1 training graph: loss, its gradients and a GradientDescent update."""
    x = tf1.placeholder(tf.float32, [2, 4], name="x")
    labels = tf1.placeholder(tf.int32, [2], name="labels")
    w = tf.Variable(np.ones((4, 3), np.float32) / 4, name="w")
    b = tf.Variable(np.zeros(3, np.float32), name="b")
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=labels, logits=tf.matmul(x, w) + b), name="loss")
    train = tf1.train.GradientDescentOptimizer(0.1).minimize(loss, name="train")
    feeds = {"x": np.arange(8, dtype=np.float32).reshape(2, 4) / 8,
             "labels": np.array([0, 2], np.int32)}
    return feeds, loss, train


def build(model):
    g = tf.Graph()
    with g.as_default():
        feeds, out = model()
        init = tf1.global_variables_initializer()
    return g, feeds, out, init


@pytest.mark.parametrize("model", sorted(MODELS))
def test_round_trip_runs_equal(model):
    g, feeds, out, init = build(MODELS[model])
    with tf1.Session(graph=g) as sess:
        sess.run(init)
        want = sess.run(out, {k + ":0": v for k, v in feeds.items()})
    graph_def = graph_pb2.GraphDef.FromString(g.as_graph_def().SerializeToString())
    with tf.Graph().as_default() as h:
        got_out, init_op = tf.graph_util.import_graph_def(
            graph_def, return_elements=[out.name, init.name], name="copy")
    assert got_out.name == "copy/" + out.name
    with tf1.Session(graph=h) as sess:
        sess.run(init_op)
        got = sess.run(got_out, {f"copy/{k}:0": v for k, v in feeds.items()})
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_a_training_graph_round_trips():
    g = tf.Graph()
    with g.as_default():
        feeds, loss, train = training()
        init = tf1.global_variables_initializer()
    fed = {k + ":0": v for k, v in feeds.items()}
    with tf1.Session(graph=g) as sess:
        sess.run(init)
        want = [sess.run([train, loss], fed)[1] for _ in range(3)]
    with tf.Graph().as_default() as h:
        tf.graph_util.import_graph_def(g.as_graph_def(), name="")
    with tf1.Session(graph=h) as sess:
        sess.run(init.name)
        got = [sess.run([train.name, loss.name], fed)[1] for _ in range(3)]
    np.testing.assert_allclose(got, want, rtol=1e-6)
    assert got[2] < got[0]


def nodes(graph_def):
    return {n.name: n for n in graph_def.node}


def test_nodes_take_tfs_types_inputs_and_attributes():
    g, _, _, _ = build(mlp)
    n = nodes(g.as_graph_def())
    # What TF 2.21 writes for the same program (recorded with tf.compat.v1 graph mode).
    assert n["w"].op == "VarHandleOp" and n["w"].attr["shared_name"].s == b"w"
    assert [d.size for d in n["w"].attr["shape"].shape.dim] == [4, 3]
    assert n["w"].attr["_class"].list.s == [b"loc:@w"]
    matmul = next(v for v in n.values() if v.op == "MatMul")
    assert sorted(matmul.attr) == ["T", "grad_a", "grad_b", "transpose_a", "transpose_b"]
    assert matmul.attr["T"].type == 1 and list(matmul.input)[0] == "x"
    assert n["x"].attr["dtype"].type == 1
    assert [d.size for d in n["x"].attr["shape"].shape.dim] == [-1, 4]
    assert n["probs"].op == "Softmax" and sorted(n["probs"].attr) == ["T"]
    assert n["BiasAdd"].attr["data_format"].s == b"NHWC"
    read = next(v for v in n.values() if v.op == "ReadVariableOp")
    assert read.attr["dtype"].type == 1 and list(read.input) == ["w"]
    assign = n["w/Assign"]
    assert list(assign.input) == ["w", "w/Const"] and assign.attr["validate_shape"].b is False
    assert n["MatMul"].op == "MatMul"


def test_attributes_tapeflow_holds_become_tfs_inputs():
    g, _, _, _ = build(conv)
    n = nodes(g.as_graph_def())
    conv2d = n["Conv2D"]
    assert conv2d.attr["padding"].s == b"SAME" and list(conv2d.attr["strides"].list.i) == \
        [1, 1, 1, 1]
    assert list(conv2d.attr["dilations"].list.i) == [1, 1, 1, 1]
    assert conv2d.attr["use_cudnn_on_gpu"].b and conv2d.attr["data_format"].s == b"NHWC"
    assert n["Conv2D_1"].attr["padding"].s == b"VALID"
    assert list(n["MaxPool"].attr["ksize"].list.i) == [1, 2, 2, 1]
    assert n["AvgPool"].attr["padding"].s == b"SAME"
    score = n["score"]
    assert score.op == "Mean" and score.attr["keep_dims"].b and score.attr["Tidx"].type == 3
    axes = tf.make_ndarray(n[score.input[1]].attr["value"].tensor)
    assert score.input[1] == "score/reduction_indices" and axes.tolist() == [1]
    concat = n["concat"]
    assert concat.attr["N"].i == 2 and concat.input[2] == "concat/axis"


def test_tensor_names_and_control_inputs():
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [4], name="x")
        a, b = tf.split(x, 2)
        with tf.control_dependencies([a]):
            y = tf.identity(b, name="y")
    n = nodes(g.as_graph_def(add_shapes=True))
    assert list(n["y"].input) == ["split:1", "^split"]
    assert [d.size for d in n["y"].attr["_output_shapes"].list.shape[0].dim] == [2]
    assert n["split"].attr["num_split"].i == 2


def test_from_version_writes_later_nodes_only():
    g = tf.Graph()
    with g.as_default():
        tf.constant(1.0, name="a")
        start = g.version
        tf.constant(2.0, name="b")
    assert [n.name for n in g.as_graph_def(from_version=start).node] == ["b"]


def test_input_map_and_default_scope():
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [2], name="x")
        tf.multiply(x, 3.0, name="y")
    with tf.Graph().as_default() as h:
        y, = tf.graph_util.import_graph_def(g.as_graph_def(), input_map={"x": tf.constant(
            [1.0, 2.0])}, return_elements=["y:0"])
        y2, = tf.graph_util.import_graph_def(g.as_graph_def(), input_map={"x:0": y},
                                             return_elements=["y:0"])
    assert (y.name, y2.name) == ("import/y:0", "import_1/y:0")
    assert tf1.Session(graph=h).run(y2).tolist() == [9.0, 18.0]


def test_bad_input():
    gd = graph_pb2.GraphDef()
    node = gd.node.add()
    node.name, node.op = "weird", "NoSuchOpAnywhere"
    with tf.Graph().as_default():
        with pytest.raises(tf.errors.NotFoundError, match="NoSuchOpAnywhere.*weird"):
            tf.graph_util.import_graph_def(gd)
        with pytest.raises(ValueError, match="not found in graph_def"):
            tf.graph_util.import_graph_def(gd, input_map={"other:0": tf.constant(1.0)})
        with pytest.raises(tf.errors.DataLossError):
            tf.graph_util.import_graph_def(b"\xff\xff\xff")


def test_an_op_tf_has_no_node_for_is_refused():
    g = tf.Graph()
    with g.as_default():
        tf.nn.softmax(tf1.placeholder(tf.float32, [2, 3]), axis=0)
    with pytest.raises(tf.errors.UnimplementedError, match="last axis"):
        g.as_graph_def()


def test_control_flow_is_tfs_functional_ops():
    g, _, _, _ = build(control_flow)
    graph_def = g.as_graph_def()
    n = nodes(graph_def)
    cond = next(v for v in n.values() if v.op == "StatelessIf")
    loop = next(v for v in n.values() if v.op == "StatelessWhile")
    library = {f.signature.name: f for f in graph_def.library.function}
    then = library[cond.attr["then_branch"].func.name]
    assert [a.type for a in then.signature.input_arg] == [1]
    assert list(cond.attr["Tout"].list.type) == [1] and cond.attr["Tcond"].type == 10
    body = library[loop.attr["body"].func.name]
    # The body returns its captured input unchanged, as TF's While needs.
    assert len(body.signature.output_arg) == len(loop.input) == 3
    assert body.ret[body.signature.output_arg[2].name] == body.signature.input_arg[2].name
    assert list(loop.attr["T"].list.type) == [3, 1, 1]


@pytest.mark.parametrize("name,feed,output", [("mlp_frozen", "x", "probs"),
                                              ("conv_frozen", "image", "score"),
                                              ("control_frozen", "x", "out")])
def test_graph_defs_tf_wrote_run_equal(name, feed, output):
    values = np.load(DATA / "values.npz")
    name = name.replace("_frozen", "")
    graph_def = graph_pb2.GraphDef.FromString((DATA / f"{name}_frozen.pb").read_bytes())
    with tf.Graph().as_default() as g:
        y, = tf.graph_util.import_graph_def(graph_def, return_elements=[output + ":0"],
                                            name="")
    got = tf1.Session(graph=g).run(y, {feed + ":0": values[f"{name}/{feed}"]})
    np.testing.assert_allclose(got, values[f"{name}/{output}"], rtol=1e-5, atol=1e-6)


def test_a_tf1_graph_with_variables_tf_wrote_runs_equal():
    """VarHandleOp, AssignVariableOp, ReadVariableOp, VarIsInitializedOp and the init NoOp."""
    values = np.load(DATA / "values.npz")
    graph_def = graph_pb2.GraphDef.FromString((DATA / "mlp_variables.pb").read_bytes())
    with tf.Graph().as_default() as g:
        y, init, ready = tf.graph_util.import_graph_def(
            graph_def, return_elements=["probs:0", "init", "w1/IsInitialized/"
                                        "VarIsInitializedOp:0"])
    with tf1.Session(graph=g) as sess:
        assert not sess.run(ready)
        with pytest.raises(tf.errors.FailedPreconditionError):
            sess.run(y, {"import/x:0": values["mlp/x"]})
        sess.run(init)
        assert sess.run(ready)
        got = sess.run(y, {"import/x:0": values["mlp/x"]})
    np.testing.assert_allclose(got, values["mlp_variables/probs"], rtol=1e-6)


def test_is_variable_initialized_is_tfs_node():
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable(1.0, name="v")
        ready = tf1.is_variable_initialized(v)
    node = nodes(g.as_graph_def())[ready.op.name]
    assert node.op == "VarIsInitializedOp" and list(node.input) == ["v"]


def test_a_tf_function_graph_tf_wrote_runs_equal():
    """Identity outputs, a nested function (PartitionedCall) and a StatelessIf."""
    values = np.load(DATA / "values.npz")
    graph_def = graph_pb2.GraphDef.FromString((DATA / "function.pb").read_bytes())
    assert {"PartitionedCall", "StatelessIf"} <= {n.op for n in graph_def.node}
    with tf.Graph().as_default() as g:
        y, = tf.graph_util.import_graph_def(
            graph_def, return_elements=[str(values["function/output_name"])], name="")
    got = tf1.Session(graph=g).run(y, {"x:0": values["function/x"]})
    np.testing.assert_allclose(got, values["function/output"], rtol=1e-6)


def test_a_tf_function_graph_round_trips():
    v = tf.Variable([1.0, 2.0])

    @tf.function
    def f(a):
        return tf.reduce_sum(a * v) + 1.0
    graph = f.get_concrete_function(tf.TensorSpec([2], tf.float32)).graph
    graph_def = graph.as_graph_def()
    n = nodes(graph_def)
    # A captured variable is a resource placeholder, as TF writes it.
    assert n["ReadVariableOp/resource"].attr["dtype"].type == 20
    assert list(n["ReadVariableOp"].input) == ["ReadVariableOp/resource"]
    with tf.Graph().as_default() as g:
        w = tf.Variable([3.0, 4.0])
        y, = tf.graph_util.import_graph_def(
            graph_def, input_map={"ReadVariableOp/resource": w}, return_elements=["add:0"])
        init = w.initializer
    with tf1.Session(graph=g) as sess:
        sess.run(init)
        assert sess.run(y, {"import/a:0": [1.0, 1.0]}) == 8.0


def test_convert_variables_to_constants_freezes_values():
    g, feeds, out, init = build(mlp)
    with tf1.Session(graph=g) as sess:
        sess.run(init)
        want = sess.run(out, {"x:0": feeds["x"]})
        frozen = tf1.graph_util.convert_variables_to_constants(sess, g.as_graph_def(),
                                                               ["probs"])
    ops = {n.op for n in frozen.node}
    assert "VarHandleOp" not in ops and "ReadVariableOp" not in ops
    assert "AssignVariableOp" not in ops  # not needed by probs
    with tf.Graph().as_default() as h:
        y, = tf.graph_util.import_graph_def(frozen, return_elements=["probs:0"], name="")
    np.testing.assert_allclose(tf1.Session(graph=h).run(y, {"x:0": feeds["x"]}), want)


def test_write_graph_text_and_binary(tmp_path):
    g, _, _, _ = build(mlp)
    text = tf.io.write_graph(g, str(tmp_path / "logs"), "graph.pbtxt")
    binary = tf.io.write_graph(g.as_graph_def(), str(tmp_path / "logs"), "graph.pb",
                               as_text=False)
    from google.protobuf import text_format
    parsed = text_format.Parse(open(text).read(), graph_pb2.GraphDef())
    assert parsed == graph_pb2.GraphDef.FromString(open(binary, "rb").read()) == \
        g.as_graph_def()
    assert open(text).read().startswith('node {\n  name: "x"\n  op: "Placeholder"\n')


def test_meta_graph_round_trip(tmp_path):
    g, feeds, out, init = build(mlp)
    path = str(tmp_path / "model.meta")
    with g.as_default():
        meta = tf1.train.export_meta_graph(path)
    assert meta.meta_info_def.tensorflow_version == tf.__version__
    assert not meta.HasField("saver_def")
    with tf.Graph().as_default() as h:
        assert tf1.train.import_meta_graph(path) is None
    with tf1.Session(graph=h) as sess:
        sess.run(init.name)
        got = sess.run(out.name, {"x:0": feeds["x"]})
    with tf1.Session(graph=g) as sess:
        sess.run(init)
        np.testing.assert_allclose(got, sess.run(out, {"x:0": feeds["x"]}))
