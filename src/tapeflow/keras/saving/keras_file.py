"""Keras 3's file formats: `.keras` (a zip of config.json, metadata.json and
model.weights.h5) and `.weights.h5`.

The weights file mirrors Keras's object tree: a layer's own variables are the datasets
`vars/0`, `vars/1`... (trainable ones first) of its group; a Sequential or functional
model keeps its layers under `layers/<class name in snake case>` (`dense`, `dense_1`...);
other models and layers keep their sublayers under their attribute names (a list under
`<attribute>/<class name>`), and the optimizer's variables are `optimizer/vars/<i>` in
Keras's order. Files are written to a temporary file that then replaces the target, so a
crash mid-save leaves the previous file intact. h5py is an optional dependency (the
`keras-io` extra), imported on first use.
"""
from __future__ import annotations

import datetime
import io
import json
import os
import warnings
import zipfile

import numpy as np

from ...train.checkpoint import atomic_write
from ..layers.base import Layer
from ..naming import snake_case
from .serialization import deserialize_keras_object, serialize_keras_object

__all__ = ["save_model", "load_model", "save_weights_h5", "load_weights_h5"]

# The Keras release whose file layout this module writes (and is tested against).
KERAS_FORMAT_VERSION = "3.15.1"
_CONFIG, _METADATA, _WEIGHTS = "config.json", "metadata.json", "model.weights.h5"


def _h5py():
    try:
        import h5py
    except ImportError as error:
        raise ImportError("Saving and loading .keras and .weights.h5 files needs h5py: "
                          "pip install 'tapeflow[keras-io]'") from error
    return h5py


# -- the object tree ---------------------------------------------------------------------
def _keyed_by_class(layers: list) -> list:
    """(key, layer) with Keras's keys for a list: the class name in snake case, then
    '_1', '_2'... for the next ones of the same class."""
    seen: dict = {}
    keyed = []
    for layer in layers:
        base = snake_case(type(layer).__name__)
        count = seen.get(base, 0)
        seen[base] = count + 1
        keyed.append((base if count == 0 else f"{base}_{count}", layer))
    return keyed


def _children(obj) -> list:
    """(key, child or [(key, child)...]) under which the sub-objects of `obj` are stored."""
    from ..functional import Functional
    from ..models import Model, Sequential
    if isinstance(obj, (Sequential, Functional)):
        children = [("layers", _keyed_by_class(obj.layers))]
    elif isinstance(obj, Layer):
        children = []
        for name, value in sorted(obj._tracked_attributes(), key=lambda item: item[0]):
            if name.startswith("_"):
                continue
            if isinstance(value, Layer):
                children.append((name, value))
            elif isinstance(value, (list, tuple)) and value \
                    and all(isinstance(x, Layer) for x in value):
                children.append((name, _keyed_by_class(list(value))))
    else:
        children = []
    if isinstance(obj, Model) and obj.optimizer is not None:
        children.append(("optimizer", obj.optimizer))
    return children


def _own_variables(obj) -> list:
    """The variables Keras stores in an object's `vars` group, in its order."""
    if isinstance(obj, Layer):
        own = obj._own_variables()
        return [v for v in own if v.trainable] + [v for v in own if not v.trainable]
    return list(obj.variables)             # an optimizer: already in Keras's order


def _tree(obj, path: str = "", seen: set | None = None) -> list:
    """(group path, object) of `obj` and every object under it, each object once."""
    seen = set() if seen is None else seen
    seen.add(id(obj))
    found = [(path, obj)]
    for key, child in _children(obj):
        entries = child if isinstance(child, list) else [(None, child)]
        for sub_key, item in entries:
            if id(item) in seen:
                continue
            sub_path = "/".join(p for p in (path, key, sub_key) if p)
            found.extend(_tree(item, sub_path, seen))
    return found


def _write_weights(model, file) -> None:
    h5py = _h5py()
    with h5py.File(file, "w") as root:
        for path, obj in _tree(model):
            group = root.require_group(path) if path else root
            variables = group.create_group("vars")
            variables.attrs["name"] = obj.name
            for index, variable in enumerate(_own_variables(obj)):
                variables.create_dataset(str(index), data=variable.numpy())


def _read_weights(model, file) -> None:
    """Assigns every variable from the file, after checking all of them (nothing changes
    when one is missing or has another shape).

    Raises:
        ValueError: a layer missing from the file, or a count or shape mismatch.
    """
    h5py = _h5py()
    assignments = []
    with h5py.File(file, "r") as root:
        optimizer = getattr(model, "optimizer", None)
        stored = root.get("optimizer/vars")
        if optimizer is not None and stored is not None \
                and len(stored) > len(optimizer.variables):
            optimizer.build(model.trainable_variables)
        for path, obj in _tree(model):
            variables = _own_variables(obj)
            group = root.get(f"{path}/vars" if path else "vars")
            if group is None:
                if variables:
                    raise ValueError(f"Layer '{obj.name}' expected {len(variables)} variables "
                                     f"but the file has no group '{path}'.")
                continue
            if len(group) != len(variables):
                if obj is optimizer:
                    warnings.warn(f"Skipping variable loading for optimizer '{obj.name}', "
                                  f"because it has {len(variables)} variables whereas the "
                                  f"saved optimizer has {len(group)} variables.", stacklevel=3)
                    continue
                raise ValueError(f"Layer '{obj.name}' expected {len(variables)} variables, "
                                 f"but received {len(group)} variables during loading. "
                                 f"Expected: {[v.name for v in variables]}")
            for index, variable in enumerate(variables):
                value = np.asarray(group[str(index)])
                expected = tuple(variable.shape.as_list())
                if value.shape != expected:
                    raise ValueError(f"The shape of the target variable {variable.name} is "
                                     f"{expected} but the value in the file ('{path}/vars/"
                                     f"{index}') has shape {value.shape}.")
                assignments.append((variable, value))
    for variable, value in assignments:
        variable.assign(value.astype(variable.dtype.as_numpy_dtype))


# -- .keras files ------------------------------------------------------------------------
def save_model(model, filepath, overwrite: bool = True, zipped=None, **kwargs) -> None:
    """Writes `model` as a Keras 3 `.keras` file: its config (architecture and compile
    arguments), and its and its optimizer's variables.

    Raises:
        ValueError: a path not ending in '.keras'.
        FileExistsError: the file exists and `overwrite` is False.
        NotImplementedError: a subclassed model without get_config (see
            `serialize_keras_object`).
    """
    filepath = os.fspath(filepath)
    if not filepath.endswith(".keras"):
        raise ValueError("Invalid filepath extension for saving. Please add a `.keras` "
                         "extension for the native Keras format (tapeflow does not write the "
                         f"legacy .h5 or SavedModel formats). Received: filepath={filepath}")
    if not overwrite and os.path.exists(filepath):
        raise FileExistsError(f"{filepath} exists and overwrite=False.")
    config = json.dumps(serialize_keras_object(model))
    metadata = json.dumps({"keras_version": KERAS_FORMAT_VERSION,
                           "date_saved": datetime.datetime.now().strftime("%Y-%m-%d@%H:%M:%S")})
    weights = io.BytesIO()
    _write_weights(model, weights)

    def write(file) -> None:
        with zipfile.ZipFile(file, "w", compression=zipfile.ZIP_STORED) as archive:
            archive.writestr(_METADATA, metadata)
            archive.writestr(_CONFIG, config)
            archive.writestr(_WEIGHTS, weights.getvalue())
    atomic_write(filepath, write)


def _open_keras(filepath: str) -> zipfile.ZipFile:
    if not zipfile.is_zipfile(filepath):
        raise ValueError(f"File format not supported: filepath={filepath}. tapeflow reads "
                         "Keras 3 `.keras` files (zip archives) and `.weights.h5` files.")
    return zipfile.ZipFile(filepath)


def load_model(filepath, custom_objects=None, compile: bool = True, safe_mode: bool = True):
    """The model in a `.keras` file (written by tapeflow or by Keras 3), with its weights,
    and compiled as it was saved unless `compile=False` (with a warning, uncompiled, when
    the file names a loss, metric or optimizer tapeflow lacks).

    Args:
        custom_objects: {name: class or function} for the user's own classes (or register
            them with `keras.saving.register_keras_serializable`).
        safe_mode: refuse Python code stored in the file (a Lambda layer's lambda); pass
            False only for files you trust.

    Raises:
        ValueError: not a `.keras` zip, a lambda refused by `safe_mode`, or weights that
            do not fit the architecture.
        TypeError: a class that cannot be found.
    """
    filepath = os.fspath(filepath)
    with _open_keras(filepath) as archive:
        config = json.loads(archive.read(_CONFIG))
        weights = io.BytesIO(archive.read(_WEIGHTS))
    compile_config = config.pop("compile_config", None)
    model = deserialize_keras_object(config, custom_objects, safe_mode)
    if compile and compile_config:
        try:
            model.compile_from_config(deserialize_keras_object(compile_config, custom_objects,
                                                               safe_mode))
        except (TypeError, ValueError) as error:
            warnings.warn(f"The model was loaded uncompiled: its compile arguments could not "
                          f"be rebuilt ({error}). Call `model.compile()` to train it.",
                          stacklevel=2)
    _read_weights(model, weights)
    return model


def save_weights_h5(model, filepath: str) -> None:
    """Writes the model's (and its optimizer's) variables in Keras 3's `.weights.h5` layout."""
    weights = io.BytesIO()
    _write_weights(model, weights)
    atomic_write(filepath, lambda file: file.write(weights.getvalue()))


def load_weights_h5(model, filepath: str) -> None:
    """Reads variables from a `.weights.h5` file, or from the weights inside a `.keras`
    file."""
    if filepath.endswith(".keras"):
        with _open_keras(filepath) as archive:
            _read_weights(model, io.BytesIO(archive.read(_WEIGHTS)))
        return
    _read_weights(model, filepath)
