"""tf.compat.v1.gfile: TF 1's names for tf.io.gfile (`Exists`, `GFile`, `ListDirectory`,
...), the same functions.

Example:
    >>> import tapeflow as tf
    >>> tf.compat.v1.gfile.Exists("/nonexistent")
    False
"""
from ...io.gfile import GFile, copy as Copy, exists as Exists, glob as Glob  # noqa: N812
from ...io.gfile import isdir as IsDirectory, listdir as ListDirectory  # noqa: N812
from ...io.gfile import makedirs as MakeDirs, mkdir as MkDir, remove as Remove  # noqa: N812
from ...io.gfile import rename as Rename, rmtree as DeleteRecursively  # noqa: N812
from ...io.gfile import stat as Stat, walk as _walk

Open = GFile
FastGFile = GFile

__all__ = ["Copy", "DeleteRecursively", "Exists", "FastGFile", "GFile", "Glob",
           "IsDirectory", "ListDirectory", "MakeDirs", "MkDir", "Open", "Remove", "Rename",
           "Stat", "Walk"]


def Walk(top, in_order: bool = True):  # noqa: N802  (TF 1's name)
    """`tf.io.gfile.walk(top, topdown=in_order)`."""
    return _walk(top, topdown=in_order)
