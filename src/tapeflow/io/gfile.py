"""tf.io.gfile: TF's file API on local paths (plain or `file://`). Paths of other file
systems (`gs://`, `s3://`, `hdfs://`, ...) raise UnimplementedError naming the scheme, as
TF does for a scheme it has no file system for. OS failures are TF's errors: a missing file
is NotFoundError, a directory where a file is wanted FailedPreconditionError, an existing
destination AlreadyExistsError, each naming the path.

Example:
    >>> import os, tempfile
    >>> import tapeflow as tf
    >>> root = tempfile.mkdtemp()
    >>> with tf.io.gfile.GFile(tf.io.gfile.join(root, "a.txt"), "w") as f:
    ...     f.write("hello")
    >>> tf.io.gfile.listdir(root), tf.io.gfile.GFile(os.path.join(root, "a.txt")).read()
    (['a.txt'], 'hello')
"""
from __future__ import annotations

import contextlib
import glob as _glob
import os
import posixpath
import shutil

from ..framework import errors

__all__ = ["GFile", "copy", "exists", "get_registered_schemes", "glob", "isdir", "join",
           "listdir", "makedirs", "mkdir", "remove", "rename", "rmtree", "stat", "walk"]


def local_path(path) -> str:
    """The local path `path` names: itself, or a `file://` URL's path.

    Raises:
        UnimplementedError: `path` is a URL of another file system (naming the scheme).
    """
    path = os.fsdecode(os.fspath(path.numpy() if hasattr(path, "numpy") else path))
    scheme, separator, rest = path.partition("://")
    if not separator or "/" in scheme:
        return path
    if scheme == "file":
        return rest
    raise errors.UnimplementedError(
        None, None, f"File system scheme '{scheme}' not implemented (file: '{path}')")


@contextlib.contextmanager
def os_errors(path: str):
    """Turns the OSError raised inside into TF's error class naming `path`."""
    try:
        yield
    except FileNotFoundError:
        raise errors.NotFoundError(None, None, f"{path}; No such file or directory") from None
    except IsADirectoryError:
        raise errors.FailedPreconditionError(None, None, f"{path}; Is a directory") from None
    except NotADirectoryError:
        raise errors.FailedPreconditionError(None, None,
                                             f"{path}; Not a directory") from None
    except FileExistsError:
        raise errors.AlreadyExistsError(None, None, f"{path}; File exists") from None
    except PermissionError:
        raise errors.PermissionDeniedError(None, None,
                                           f"{path}; Permission denied") from None
    except OSError as error:
        raise errors.UnknownError(None, None, f"{path}; {error.strerror or error}") from None


_MODES = ("r", "w", "a", "r+", "w+", "a+")


class GFile:
    """A file, opened when first read or written, with TF's modes: "r", "w", "a", "r+",
    "w+", "a+", each with "b" for bytes (else reads give str). `write` takes str or bytes.

    Args:
        name: the file's path.
        mode: one of the modes above.

    Raises:
        InvalidArgumentError: another mode.
        NotFoundError: (when first read) the file does not exist.
        PermissionDeniedError: reading a file opened for writing, or the reverse.

    Example:
        >>> import os, tempfile
        >>> import tapeflow as tf
        >>> path = os.path.join(tempfile.mkdtemp(), "lines")
        >>> with tf.io.gfile.GFile(path, "wb") as f:
        ...     f.write(b"one\\ntwo\\n")
        >>> with tf.io.gfile.GFile(path) as f:
        ...     f.readlines()
        ['one\\n', 'two\\n']
    """

    def __init__(self, name, mode: str = "r") -> None:
        self.__name = local_path(name)
        self.__original = os.fsdecode(os.fspath(name)) if not hasattr(name, "numpy") \
            else self.__name
        if mode.replace("b", "") not in _MODES:
            raise errors.InvalidArgumentError(
                None, None, "mode is not 'r' or 'w' or 'a' or 'r+' or 'w+' or 'a+'")
        self.__mode = mode
        self.__binary = "b" in mode
        self.__file = None

    @property
    def name(self) -> str:
        """The path given."""
        return self.__original

    @property
    def mode(self) -> str:
        """The mode given."""
        return self.__mode

    def _open(self, reading: bool):
        plain = self.__mode.replace("b", "")
        if reading and plain in ("w", "a"):
            raise errors.PermissionDeniedError(None, None, "File isn't open for reading")
        if not reading and plain == "r":
            raise errors.PermissionDeniedError(None, None, "File isn't open for writing")
        if self.__file is None:
            with os_errors(self.__name):
                self.__file = open(self.__name, plain + "b")
        return self.__file

    def _text(self, data: bytes):
        return data if self.__binary else data.decode("utf-8")

    def size(self) -> int:
        """The file's length in bytes.

        Raises:
            NotFoundError: the file does not exist.
        """
        if self.__file is not None:
            self.__file.flush()
        with os_errors(self.__name):
            return os.stat(self.__name).st_size

    def write(self, file_content) -> None:
        """Writes str (as UTF-8) or bytes at the current position."""
        data = file_content.encode("utf-8") if isinstance(file_content, str) \
            else bytes(file_content)
        self._open(reading=False).write(data)

    def read(self, n: int = -1):
        """Up to `n` bytes (all the rest when -1), as str unless the mode has "b"."""
        return self._text(self._open(reading=True).read(n))

    def readline(self):
        """The next line, with its newline ("" at the end of the file)."""
        return self._text(self._open(reading=True).readline())

    def readlines(self) -> list:
        """The remaining lines."""
        return [self._text(line) for line in self._open(reading=True).readlines()]

    def __iter__(self):
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    next = __next__

    def seek(self, offset=None, whence: int = 0, position=None) -> None:
        """Moves to byte `offset` from the start (whence 0), the current position (1) or the
        end (2); `position` is the old name of `offset`."""
        if position is not None:
            if offset is not None:
                raise TypeError("seek(): give offset or position, not both")
            offset = position
        self._open(reading="r" in self.__mode or "+" in self.__mode).seek(offset, whence)

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        """The current position in bytes."""
        return 0 if self.__file is None else self.__file.tell()

    def flush(self) -> None:
        if self.__file is not None:
            self.__file.flush()

    def close(self) -> None:
        if self.__file is not None:
            self.__file.close()
            self.__file = None

    def __enter__(self) -> "GFile":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


class FileStatistics:
    """What `stat` reports: `length` in bytes, `mtime_nsec`, `is_directory`."""

    __slots__ = ("length", "mtime_nsec", "is_directory")

    def __init__(self, length: int, mtime_nsec: int, is_directory: bool) -> None:
        self.length, self.mtime_nsec, self.is_directory = length, mtime_nsec, is_directory

    def __repr__(self) -> str:
        return (f"FileStatistics(length={self.length}, mtime_nsec={self.mtime_nsec}, "
                f"is_directory={self.is_directory})")


def exists(path) -> bool:
    """Whether `path` exists (a file or a directory).

    Raises:
        UnimplementedError: a path of another file system.
    """
    return os.path.exists(local_path(path))


def isdir(path) -> bool:
    """Whether `path` is a directory."""
    return os.path.isdir(local_path(path))


def glob(pattern) -> list:
    """The paths matching `pattern` (`*`, `?`, `[...]` in any component; dot files too),
    in sorted order.

    Example:
        >>> import tapeflow as tf
        >>> tf.io.gfile.glob("/nonexistent/*.txt")
        []
    """
    patterns = [pattern] if isinstance(pattern, (str, bytes, os.PathLike)) else list(pattern)
    found = []
    for one in patterns:
        found.extend(_glob.glob(local_path(one), include_hidden=True))
    return sorted(found)


def listdir(path) -> list:
    """The names in directory `path` (not "." or "..").

    Raises:
        NotFoundError: `path` is not a directory.
    """
    local = local_path(path)
    if not os.path.isdir(local):
        raise errors.NotFoundError(None, None, f"Could not find directory {path}")
    with os_errors(local):
        return os.listdir(local)


def makedirs(path) -> None:
    """Makes directory `path` and any missing parents (nothing when it exists)."""
    local = local_path(path)
    with os_errors(local):
        os.makedirs(local, exist_ok=True)


def mkdir(path) -> None:
    """Makes directory `path` (nothing when it exists, as TF).

    Raises:
        NotFoundError: its parent does not exist.
    """
    local = local_path(path)
    if os.path.isdir(local):
        return
    with os_errors(local):
        os.mkdir(local)


def remove(path) -> None:
    """Deletes the file `path`.

    Raises:
        NotFoundError: it does not exist.
        FailedPreconditionError: it is a directory.
    """
    local = local_path(path)
    if os.path.isdir(local):
        raise errors.FailedPreconditionError(None, None, f"{local}; Is a directory")
    with os_errors(local):
        os.remove(local)


def rmtree(path) -> None:
    """Deletes directory `path` and everything in it.

    Raises:
        NotFoundError: it does not exist.
    """
    local = local_path(path)
    if not os.path.exists(local):
        raise errors.NotFoundError(None, None, f"{local} not found")
    with os_errors(local):
        shutil.rmtree(local)


def _check_destination(destination: str, overwrite: bool) -> None:
    if not overwrite and os.path.exists(destination):
        raise errors.AlreadyExistsError(None, None, "file already exists")


def rename(oldname, newname, overwrite: bool = False) -> None:
    """Renames `oldname` to `newname`.

    Raises:
        NotFoundError: `oldname` does not exist.
        AlreadyExistsError: `newname` exists and `overwrite` is False.
    """
    source, destination = local_path(oldname), local_path(newname)
    with os_errors(source):
        os.stat(source)
    _check_destination(destination, overwrite)
    with os_errors(source):
        os.replace(source, destination)


def copy(oldpath, newpath, overwrite: bool = False) -> None:
    """Copies the file `oldpath` to `newpath`.

    Raises:
        NotFoundError: `oldpath` does not exist.
        AlreadyExistsError: `newpath` exists and `overwrite` is False.
    """
    source, destination = local_path(oldpath), local_path(newpath)
    with os_errors(source):
        os.stat(source)
    _check_destination(destination, overwrite)
    with os_errors(source):
        shutil.copyfile(source, destination)


def stat(path) -> FileStatistics:
    """The length, modification time (ns) and kind of `path`.

    Raises:
        NotFoundError: it does not exist.
    """
    local = local_path(path)
    with os_errors(local):
        result = os.stat(local)
    return FileStatistics(result.st_size, result.st_mtime_ns // 10 ** 9 * 10 ** 9,
                          os.path.isdir(local))


def walk(top, topdown: bool = True, onerror=None):
    """Yields `(directory, subdirectory names, file names)` for `top` and the directories
    below it, parents first when `topdown` (nothing when `top` does not exist).

    Example:
        >>> import tapeflow as tf
        >>> list(tf.io.gfile.walk("/nonexistent"))
        []
    """
    local = local_path(top)
    try:
        names = sorted(os.listdir(local))
    except OSError as error:
        if onerror is not None:
            onerror(error)
        return
    directories = [n for n in names if os.path.isdir(os.path.join(local, n))]
    files = [n for n in names if n not in directories]
    here = (top, directories, files)
    if topdown:
        yield here
    for name in directories:
        yield from walk(join(top, name), topdown, onerror)
    if not topdown:
        yield here


def join(path, *paths) -> str:
    """`path` and `paths` joined with "/" (a component starting with "/" restarts it), URLs
    too: `join("gs://bucket", "x")` is "gs://bucket/x"."""
    return posixpath.join(os.fspath(path), *map(os.fspath, paths))


def get_registered_schemes() -> list:
    """The URL schemes tapeflow has file systems for: "" (plain paths) and "file"."""
    return ["", "file"]
