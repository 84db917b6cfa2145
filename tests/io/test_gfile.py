"""tf.io.gfile on local paths, with TF 2.21's error classes and messages."""
import os

import pytest

import tapeflow as tf

gfile = tf.io.gfile


@pytest.fixture
def tree(tmp_path):
    (tmp_path / "w" / "x" / "y").mkdir(parents=True)
    (tmp_path / "w" / "f").write_text("1")
    (tmp_path / "w" / "x" / "g").write_text("22")
    (tmp_path / "w" / ".hidden").write_text("")
    return tmp_path


def test_queries(tree):
    w = str(tree / "w")
    assert gfile.exists(w) and gfile.exists(f"file://{w}/f") and not gfile.exists(w + "/no")
    assert (gfile.isdir(w), gfile.isdir(w + "/f"), gfile.isdir(w + "/no")) == (True, False,
                                                                               False)
    assert sorted(gfile.listdir(w)) == [".hidden", "f", "x"]
    assert gfile.glob(w + "/*") == [w + "/.hidden", w + "/f", w + "/x"]
    assert gfile.glob(w + "/*/g") == [w + "/x/g"] and gfile.glob(w + "/zz*") == []
    stat = gfile.stat(w + "/x/g")
    assert (stat.length, stat.is_directory, stat.mtime_nsec % 10 ** 9) == (2, False, 0)
    assert gfile.stat(w).is_directory
    assert gfile.join("a", "b", "/c", "d") == "/c/d" and gfile.join("gs://b", "x") == "gs://b/x"


def test_walk(tree):
    w = str(tree / "w")
    # as TF 2.21 gives them (its listing order sorted)
    assert list(gfile.walk(w)) == [(w, ["x"], [".hidden", "f"]), (w + "/x", ["y"], ["g"]),
                                   (w + "/x/y", [], [])]
    assert [d for d, _, _ in gfile.walk(w, topdown=False)] == [w + "/x/y", w + "/x", w]
    assert list(gfile.walk(w + "/no")) == []


def test_changes(tree):
    w = str(tree / "w")
    gfile.mkdir(w)  # exists: nothing, as TF
    gfile.makedirs(w + "/n/m")
    gfile.mkdir(w + "/n/m/k")
    assert gfile.isdir(w + "/n/m/k")
    gfile.copy(w + "/f", w + "/f2")
    gfile.rename(w + "/f2", w + "/f3")
    assert open(w + "/f3").read() == "1" and not gfile.exists(w + "/f2")
    gfile.copy(w + "/x/g", w + "/f3", overwrite=True)
    assert open(w + "/f3").read() == "22"
    gfile.rename(w + "/f", w + "/f3", overwrite=True)
    assert open(w + "/f3").read() == "1"
    gfile.remove(w + "/f3")
    gfile.rmtree(w + "/x")
    assert sorted(os.listdir(w)) == [".hidden", "n"]


@pytest.mark.parametrize("call,error,message", [
    (lambda w: gfile.listdir(w + "/no"), "NotFoundError", "Could not find directory .*/no"),
    (lambda w: gfile.listdir(w + "/f"), "NotFoundError", "Could not find directory .*/f"),
    (lambda w: gfile.mkdir(w + "/a/b"), "NotFoundError", "a/b; No such file or directory"),
    (lambda w: gfile.remove(w + "/no"), "NotFoundError", "no; No such file or directory"),
    (lambda w: gfile.remove(w), "FailedPreconditionError", "w; Is a directory"),
    (lambda w: gfile.rmtree(w + "/no"), "NotFoundError", "no not found"),
    (lambda w: gfile.stat(w + "/no"), "NotFoundError", "no; No such file or directory"),
    (lambda w: gfile.copy(w + "/f", w + "/x/g"), "AlreadyExistsError", "file already exists"),
    (lambda w: gfile.copy(w + "/no", w + "/c"), "NotFoundError", "No such file"),
    (lambda w: gfile.rename(w + "/f", w + "/x/g"), "AlreadyExistsError", "already exists"),
    (lambda w: gfile.rename(w + "/no", w + "/c"), "NotFoundError", "No such file"),
    (lambda w: gfile.GFile(w + "/no").read(), "NotFoundError", "no; No such file"),
    (lambda w: gfile.GFile(w + "/f", "x"), "InvalidArgumentError", "mode is not 'r' or 'w'"),
    (lambda w: gfile.GFile(w + "/f").write("a"), "PermissionDeniedError",
     "File isn't open for writing"),
    (lambda w: gfile.GFile(w + "/new", "w").read(), "PermissionDeniedError",
     "File isn't open for reading"),
])
def test_errors(tree, call, error, message):
    with pytest.raises(getattr(tf.errors, error), match=message):
        call(str(tree / "w"))


@pytest.mark.parametrize("scheme", ["gs", "s3", "hdfs", "foo"])
@pytest.mark.parametrize("call", [gfile.exists, gfile.listdir, gfile.GFile, gfile.glob,
                                  gfile.makedirs, gfile.stat])
def test_other_file_systems_are_unimplemented(scheme, call):
    with pytest.raises(tf.errors.UnimplementedError,
                       match=f"File system scheme '{scheme}' not implemented "
                             f"\\(file: '{scheme}://b/x'\\)"):
        call(f"{scheme}://b/x")


def test_gfile_reads_and_writes(tmp_path):
    path = str(tmp_path / "t.txt")
    with gfile.GFile(path, "w") as f:
        f.write("h\u00e9llo\n")
        f.write(b"second\nthird")
    with gfile.GFile(path) as f:
        assert f.readline() == "h\u00e9llo\n" and f.tell() == 7
        assert f.size() == 19 and f.name == path and f.mode == "r"
        assert list(f) == ["second\n", "third"]
        f.seek(0)
        assert f.read(1) == "h"
    with gfile.GFile(path, "rb") as f:
        assert f.read() == "h\u00e9llo\nsecond\nthird".encode()
    with gfile.GFile(path, "a") as f:
        f.write("!")
    with gfile.GFile(path, "r+b") as f:
        f.seek(offset=1)
        f.write(b"E")
        f.seek(0)
        assert f.read(3) == b"hE\xa9"
    assert open(path, "rb").read().endswith(b"third!")
