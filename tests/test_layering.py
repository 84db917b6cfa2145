"""The package keeps its layers (DESIGN rule 9): framework < ops < eager < the rest.

A module imports its own layer or lower ones, at module level and inside functions alike;
the layers above the engine reach it through its public or documented API, not through
private attributes; no module assigns into another module to break an import cycle; and
`import tapeflow` leaves keras, compat, train, testing, config and diagnostics to first use.
"""
import ast
import functools
import os
import pathlib
import subprocess
import sys

import pytest

import tapeflow

PACKAGE = pathlib.Path(tapeflow.__file__).parent
LAYERS = ("framework", "ops", "eager", "the rest")

# Known violations, one entry per (importing module, imported module), each saying what
# removes it. Delete an entry once its fix is in; the test fails on entries no longer needed.
ALLOWED_IMPORTS: dict = {}

# Modules that assign into another module: (assigning module, assigned attribute).
ALLOWED_MODULE_ASSIGNMENTS: set = set()

# What the layers above the engine may not touch: the engine's private state.
PRIVATE_ENGINE_ATTRIBUTES = {"_value", "_mutable_value", "_as_tensor", "_id", "_np", "_ops",
                             "_variable_fetch", "recorders"}
UPPER_PACKAGES = ("keras", "compat", "train", "client", "distribute", "data")


def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(name: str) -> bool:
    return _module_exists(PACKAGE, name)


@functools.lru_cache(maxsize=None)
def _module_exists(package: pathlib.Path, name: str) -> bool:
    relative = pathlib.Path(*name.split(".")[1:]) if "." in name else pathlib.Path()
    return (package / relative).with_suffix(".py").is_file() or \
        (package / relative / "__init__.py").is_file()


def layer_of(module: str) -> int:
    """0 framework (with trackable), 1 ops, 2 eager (with custom_gradient.py), 3 the rest
    (keras, compat, train, client, testing, the namespaces, the package itself)."""
    parts = module.split(".")
    first = parts[1] if len(parts) > 1 else ""
    if first in ("framework", "trackable"):
        return 0
    if first == "ops":
        return 1
    if first in ("eager", "custom_gradient"):
        return 2
    return 3


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


@functools.lru_cache(maxsize=None)
def _tree(path: pathlib.Path) -> ast.Module:
    return ast.parse(path.read_text())


def _imports(module: str, path: pathlib.Path):
    """(line, imported tapeflow module) for every import in the file, at any depth."""
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "tapeflow":
                    yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            if source.split(".")[0] != "tapeflow":
                continue
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                yield node.lineno, sub if _is_module(sub) else source


def _import_violations() -> dict:
    found = {}
    for module, path in MODULES.items():
        for line, imported in _imports(module, path):
            if layer_of(imported) > layer_of(module):
                found.setdefault((module, imported), line)
    return found


def test_layer_assignment():
    assert [layer_of(m) for m in ("tapeflow.framework.graph", "tapeflow.ops.math_ops",
                                  "tapeflow.eager.function", "tapeflow.eager.graph_gradients",
                                  "tapeflow.custom_gradient", "tapeflow.keras.models",
                                  "tapeflow.autodiff", "tapeflow")] == [0, 1, 2, 2, 2, 3, 3, 3]


def test_no_module_imports_a_higher_layer():
    found = _import_violations()
    unexpected = [f"{MODULES[m].relative_to(PACKAGE)}:{line}: {m} ({LAYERS[layer_of(m)]}) "
                  f"imports {i} ({LAYERS[layer_of(i)]})"
                  for (m, i), line in sorted(found.items()) if (m, i) not in ALLOWED_IMPORTS]
    assert not unexpected, "\n".join(unexpected)
    stale = sorted(set(ALLOWED_IMPORTS) - set(found))
    assert not stale, f"allowed violations that are gone (delete the entries): {stale}"


def test_the_walk_sees_function_level_imports(tmp_path, monkeypatch):
    """A lower-layer module importing upward inside a function is caught too."""
    fake = tmp_path / "tapeflow" / "framework"
    fake.mkdir(parents=True)
    (fake / "bad.py").write_text("def f():\n    from ..ops import math_ops\n")
    monkeypatch.setitem(globals(), "PACKAGE", tmp_path / "tapeflow")
    (tmp_path / "tapeflow" / "ops").mkdir()
    (tmp_path / "tapeflow" / "ops" / "math_ops.py").write_text("")
    imports = list(_imports("tapeflow.framework.bad", fake / "bad.py"))
    assert imports == [(2, "tapeflow.ops.math_ops")]
    assert layer_of(imports[0][1]) > layer_of("tapeflow.framework.bad")


def _module_aliases(tree: ast.Module, module: str, path: pathlib.Path) -> dict:
    """{local name: tapeflow module} for the names the file binds to tapeflow modules."""
    aliases = {}
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package.split(".")[:len(package.split(".")) - node.level + 1]
            source = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                if _is_module(f"{source}.{alias.name}"):
                    aliases[alias.asname or alias.name] = f"{source}.{alias.name}"
    return aliases


def test_no_module_assigns_into_another_module():
    """No late binding across modules (`registry._execute = execute`): a module that needs
    another imports it, from its own layer or a lower one."""
    found = set()
    for module, path in MODULES.items():
        tree = _tree(path)
        aliases = _module_aliases(tree, module, path)
        for node in ast.walk(tree):
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
            for target in targets:
                if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                        and target.value.id in aliases:
                    found.add((module, f"{target.value.id}.{target.attr}"))
    assert found == ALLOWED_MODULE_ASSIGNMENTS


@pytest.mark.parametrize("package", UPPER_PACKAGES)
def test_upper_layers_use_the_public_engine_api(package):
    """keras, compat, train and client reach tensors and variables through their public
    methods (`numpy()`, `np.asarray`, `assign`, `mutable_array`, `dtype.as_numpy_dtype`)
    and the thread's state through `executing_eagerly`, `get_default_graph` and
    `context.switched`, never through the engine's private attributes."""
    found = []
    for module, path in MODULES.items():
        if module.split(".")[1:2] != [package]:
            continue
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.Attribute) and node.attr in PRIVATE_ENGINE_ATTRIBUTES:
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {ast.unparse(node)}")
            if isinstance(node, ast.ImportFrom) and node.module and \
                    node.module.endswith("context") and any(a.name == "state"
                                                             for a in node.names):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: imports state")
    assert not found, "\n".join(found)


# What `import tapeflow` leaves for first use (DESIGN: the core imports lazily).
LOADED_ON_FIRST_USE = ("tapeflow.keras", "tapeflow.compat", "tapeflow.train", "tapeflow.utils",
                       "tapeflow.testing", "tapeflow.config", "tapeflow.client",
                       "tapeflow.eager.diagnostics", "tapeflow.eager.op_history",
                       "tapeflow.eager.tape_dot", "tapeflow.distribute", "tapeflow.data",
                       "tapeflow.summary", "mpi4py", "h5py", "logging", "random")
STILL_LOADED_AT_IMPORT: set = set()


def test_import_leaves_the_rest_for_first_use():
    code = ("import sys; import tapeflow as tf; "
            f"print(sorted(m for m in {LOADED_ON_FIRST_USE!r} if m in sys.modules)); "
            "tf.keras, tf.compat.v1, tf.train, tf.config, tf.test.compute_gradient")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": str(PACKAGE.parent)}, check=True)
    assert set(ast.literal_eval(result.stdout)) == STILL_LOADED_AT_IMPORT
