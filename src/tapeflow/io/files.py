"""`tf.io.read_file`, `write_file` and `matching_files`: whole files as string scalars, ops
that run when the program runs (each call of a tf.function, never while tracing).

Example:
    >>> import os, tempfile
    >>> import tapeflow as tf
    >>> path = os.path.join(tempfile.mkdtemp(), "note.txt")
    >>> tf.io.write_file(path, "hello")
    >>> tf.io.read_file(path)
    <tf.Tensor: shape=(), dtype=string, numpy=b'hello'>
"""
from __future__ import annotations

import os

import numpy as np

from ..framework import dtypes, errors
from ..framework.execute import execute
from ..framework.registry import OUTPUT, define_op, no_gradient
from ..framework.tensor import convert_to_tensor
from . import gfile

__all__ = ["matching_files", "read_file", "write_file"]

_STRING = np.dtype(object)


def _scalar_path(array: np.ndarray, op: str) -> str:
    if array.shape != ():
        raise errors.InvalidArgumentError(None, op, f"{op}: the file name must be a scalar, "
                                                    f"got shape {list(array.shape)}")
    return os.fsdecode(array.item())


def _read_file(filename):
    path = gfile.local_path(_scalar_path(filename, "ReadFile"))
    with gfile.os_errors(path):
        with open(path, "rb") as file:
            return np.array(file.read(), dtype=object)


def _write_file(filename, contents):
    path = gfile.local_path(_scalar_path(filename, "WriteFile"))
    if contents.shape != ():
        raise errors.InvalidArgumentError(None, "WriteFile", "WriteFile: contents must be a "
                                                             f"scalar, got shape "
                                                             f"{list(contents.shape)}")
    directory = os.path.dirname(path)
    with gfile.os_errors(path):
        if directory:
            os.makedirs(directory, exist_ok=True)
        with open(path, "wb") as file:
            file.write(contents.item())
    return ()


def _matching_files(pattern):
    patterns = [os.fsdecode(p) for p in np.asarray(pattern, dtype=object).reshape(-1)]
    found = sorted({path.encode() for path in gfile.glob(patterns)})
    out = np.empty(len(found), dtype=object)
    out[:] = found
    return out


# Stateful (OUTPUT): files are read and written when the program runs, not while tracing.
ReadFile = define_op("ReadFile", _read_file, family=OUTPUT)
ReadFile.shape_fn = lambda inputs, attrs: [(_STRING, ())]
WriteFile = define_op("WriteFile", _write_file, num_outputs=0, family=OUTPUT)
WriteFile.shape_fn = lambda inputs, attrs: []
MatchingFiles = define_op("MatchingFiles", _matching_files, family=OUTPUT)
MatchingFiles.shape_fn = lambda inputs, attrs: [(_STRING, (None,))]
for _op in ("ReadFile", "WriteFile", "MatchingFiles"):
    no_gradient(_op)


def _string(value, what: str):
    return convert_to_tensor(value, dtypes.string, name=what)


def read_file(filename, name=None):
    """The contents of the file `filename`, a string scalar.

    Args:
        filename: a string scalar (a local path or `file://` URL).
        name: unused.

    Returns:
        A string scalar tensor.

    Raises:
        NotFoundError: the file does not exist (naming it).
        UnimplementedError: a path of another file system.

    Example:
        >>> import tapeflow as tf
        >>> tf.io.read_file("/nonexistent")
        Traceback (most recent call last):
        ...
        tapeflow.framework.errors.NotFoundError: /nonexistent; No such file or directory
    """
    return execute(ReadFile, (_string(filename, "filename"),), {})


def write_file(filename, contents, name=None):
    """Writes the string scalar `contents` to `filename`, making missing directories.

    Args:
        filename: a string scalar.
        contents: a string scalar.
        name: unused.

    Returns:
        None eagerly; the operation in a graph.

    Raises:
        InvalidArgumentError: `contents` is not a scalar.
    """
    execute(WriteFile, (_string(filename, "filename"), _string(contents, "contents")), {})


def matching_files(pattern, name=None):
    """The paths matching the glob `pattern` (a string or 1-D string tensor of patterns),
    sorted, as a 1-D string tensor.

    Example:
        >>> import tapeflow as tf
        >>> tf.io.matching_files("/nonexistent/*").shape
        TensorShape([0])
    """
    return execute(MatchingFiles, (_string(pattern, "pattern"),), {})
