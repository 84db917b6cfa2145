"""The stand-in switch: `import tensorflow` is tapeflow for the whole process, one module
object per name; the real TensorFlow already imported is refused; the command line runs
scripts and modules under it."""
import subprocess
import sys
import textwrap
import types

import pytest

import tapeflow
from tapeflow import cli, standin


@pytest.fixture
def switched():
    was = standin.installed()
    standin.install()
    yield
    if not was:
        standin.uninstall()


def test_every_tensorflow_name_is_the_tapeflow_module_itself(switched):
    import tensorflow as tf
    import tensorflow.compat.v1 as v1
    import tensorflow.linalg
    from tensorflow import nn
    from tensorflow.keras import layers
    assert tf is tapeflow and v1 is tapeflow.compat.v1 and nn is tapeflow.nn
    assert layers is tapeflow.keras.layers and tensorflow.linalg is tapeflow.linalg
    assert sys.modules["tensorflow.compat.v1"] is tapeflow.compat.v1
    # the modules keep their own names and specs: relative imports inside them still work
    assert tapeflow.nn.__spec__.name == "tapeflow.nn" and tapeflow.__name__ == "tapeflow"


def test_a_module_attribute_resolves_as_a_module(switched, monkeypatch):
    module = types.ModuleType("tapeflow.elsewhere_kept")
    monkeypatch.setattr(tapeflow, "kept_under_another_name", module, raising=False)
    import tensorflow.kept_under_another_name as found
    assert found is module
    del sys.modules["tensorflow.kept_under_another_name"]


def test_a_name_tapeflow_lacks_is_module_not_found_naming_it(switched):
    with pytest.raises(ModuleNotFoundError, match="tensorflow.no_such_module") as caught:
        import tensorflow.no_such_module  # noqa: F401
    assert caught.value.name == "tensorflow.no_such_module"


# TF 2.21's `__module__` and `__name__` for these classes (what libraries check)
TF_CLASS_NAMES = [
    ("Tensor", "tensorflow.python.framework.tensor", "Tensor"),
    ("SparseTensor", "tensorflow.python.framework.sparse_tensor", "SparseTensor"),
    ("RaggedTensor", "tensorflow.python.ops.ragged.ragged_tensor", "RaggedTensor"),
    ("data.Dataset", "tensorflow.python.data.ops.dataset_ops", "DatasetV2"),
]


@pytest.mark.parametrize("public, module, name", TF_CLASS_NAMES)
def test_classes_carry_tfs_names_under_the_stand_in_and_live_there(public, module, name):
    import importlib
    import pickle
    cls = tapeflow
    for part in public.split("."):
        cls = getattr(cls, part)
    own = (cls.__module__, cls.__name__)
    was = standin.installed()
    standin.install()
    try:
        assert (cls.__module__, cls.__name__, cls.__qualname__) == (module, name, name)
        assert getattr(importlib.import_module(module), name) is cls
        assert pickle.loads(pickle.dumps(cls)) is cls
    finally:
        if not was:
            standin.uninstall()
    if not was:
        assert (cls.__module__, cls.__name__) == own and own[0].startswith("tapeflow.")


def test_a_dataset_is_found_by_its_tf_class_name_and_a_graph_loop_still_runs_it(switched):
    import tensorflow as tf
    dataset = tf.data.Dataset.range(4)
    # how Keras tells a tf.data dataset: a class named DatasetV2 in a tensorflow.python module
    assert any(c.__name__ == "DatasetV2" and "tensorflow.python." in c.__module__
               for c in type(dataset).__mro__)

    @tf.function
    def total(ds):
        s = tf.constant(0, tf.int64)
        for x in ds:
            s += x
        return s

    assert int(total(dataset)) == 6


def test_install_refuses_when_the_real_tensorflow_is_imported(monkeypatch):
    if standin.installed():
        pytest.skip("the stand-in is already on in this process")
    real = types.ModuleType("tensorflow")
    real.__version__, real.__file__ = "2.21.0", "/site-packages/tensorflow/__init__.py"
    monkeypatch.setitem(sys.modules, "tensorflow", real)
    with pytest.raises(ImportError, match=r"real TensorFlow \(2.21.0, /site-packages/tensorflow"):
        standin.install()
    assert not standin.installed()


def test_uninstall_drops_the_aliases_and_keeps_tapeflow(switched):
    import tensorflow.nn  # noqa: F401
    if standin.installed():
        standin.uninstall()
    assert "tensorflow.nn" not in sys.modules and "tensorflow" not in sys.modules
    assert sys.modules["tapeflow.nn"] is tapeflow.nn
    standin.install()


def test_version_is_the_tf_api_level_and_tapeflows_own_is_kept():
    assert tapeflow.__version__ == tapeflow.version.VERSION == "2.21.0"
    assert tapeflow.__tapeflow_version__ == tapeflow.version.TAPEFLOW_VERSION
    assert isinstance(tapeflow.version.GRAPH_DEF_VERSION, int)


PROGRAM = """
    import sys
    import tensorflow as tf
    from tensorflow import nn
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = nn.relu(x) * x
    print(tf.__name__, sys.argv[1:], float(tape.gradient(y, x)))
"""


def test_the_command_runs_a_script_and_a_module_unmodified(tmp_path):
    (tmp_path / "prog.py").write_text(textwrap.dedent(PROGRAM))
    for argv in (["prog.py", "a", "b"], ["-m", "prog", "a", "b"]):
        done = subprocess.run([sys.executable, "-m", "tapeflow", "as-tensorflow", *argv],
                              cwd=tmp_path, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert done.stdout == "tapeflow ['a', 'b'] 6.0\n"


def test_the_command_passes_the_programs_exit_status_and_refuses_a_missing_file(tmp_path,
                                                                               capsys):
    (tmp_path / "fails.py").write_text("import tensorflow\nraise SystemExit(3)\n")
    done = subprocess.run([sys.executable, "-m", "tapeflow", "as-tensorflow", "fails.py"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 3
    assert cli.main(["as-tensorflow", str(tmp_path / "missing.py")]) == 2
    assert "missing.py: no such file" in capsys.readouterr().err
    assert cli.main(["as-tensorflow"]) == 2


def test_a_module_gets_its_own_options(tmp_path):
    (tmp_path / "opts.py").write_text("import sys, tensorflow\nprint(sys.argv[1:])\n")
    done = subprocess.run([sys.executable, "-m", "tapeflow", "as-tensorflow", "-m", "opts", "-q",
                           "--x=1", "t"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and done.stdout == "['-q', '--x=1', 't']\n", done.stderr
