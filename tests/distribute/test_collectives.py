"""Packing, liveness, the one-worker collectives, Horovod's calls and the launcher, in one
process."""
import subprocess
import sys

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.distribute import collectives, launch


@pytest.mark.parametrize("bytes_per_pack,expected", [
    (collectives._AUTO_PACK_BYTES, [[0, 2, 3], [1]]), (8, [[0], [2], [3], [1]]),
    (12, [[0, 2], [3], [1]])])
def test_packs_group_by_dtype_up_to_the_size(bytes_per_pack, expected):
    arrays = [np.zeros(2, "float32"), np.zeros(1, "int64"), np.zeros(1, "float32"),
              np.zeros(2, "float32")]
    assert collectives._packs(collectives._specs(arrays), bytes_per_pack) == expected


def test_unpacked_views_take_the_original_shapes():
    arrays = [np.zeros((2, 2)), np.zeros(()), np.zeros(3)]
    buffer = np.arange(8.0)
    out = collectives._unpacked(arrays, [([0, 1, 2], buffer)])
    assert [o.shape for o in out] == [(2, 2), (), (3,)]
    assert out[1] == 4.0 and out[2].tolist() == [5.0, 6.0, 7.0]


def test_a_finished_process_is_not_alive():
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    assert collectives._alive(child.pid) or child.poll() is not None
    child.wait()
    assert not collectives._alive(child.pid)


def test_the_local_communicator_returns_its_inputs():
    local = collectives.LocalCommunicator()
    assert local.all_reduce([np.ones(2)], "mean")[0].tolist() == [1.0, 1.0]
    assert local.all_gather(np.ones((1, 2)), 0).shape == (1, 2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="root rank 1"):
        local.broadcast([np.ones(1)], root=1)


def test_the_default_timeout_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("TAPEFLOW_COLLECTIVE_TIMEOUT", "0")
    assert collectives.default_timeout() is None
    monkeypatch.setenv("TAPEFLOW_COLLECTIVE_TIMEOUT", "2.5")
    assert collectives.default_timeout() == 2.5


def test_tf_config_must_match_the_ranks(monkeypatch):
    pytest.importorskip("mpi4py")
    monkeypatch.setenv("TF_CONFIG", '{"cluster": {"worker": ["a:1", "b:2"]}, '
                                    '"task": {"type": "worker", "index": 0}}')
    with pytest.raises(ValueError, match="2 workers but the job runs 1 MPI rank"):
        tf.distribute.MultiWorkerMirroredStrategy()
    monkeypatch.setenv("TF_CONFIG", '{"cluster": {"worker": ["a:1"]}, '
                                    '"task": {"type": "worker", "index": 0}}')
    assert tf.distribute.MultiWorkerMirroredStrategy().num_replicas_in_sync == 1


@pytest.mark.parametrize("config,rank,message", [
    ('{"cluster": {"chief": ["a:1"], "worker": ["b:2"]}, "task": {"type": "worker", '
     '"index": 0}}', 1, None),
    ('{"cluster": {"worker": ["a:1", "b:2"]}, "task": {"type": "worker", "index": 1}}', 0,
     "task worker:1 \\(worker 1\\) but its MPI rank is 0"),
    ('{"cluster": {"worker": ["a:1"]}}', 0, None)])
def test_tf_config_task_must_be_the_rank(monkeypatch, config, rank, message):
    from tapeflow.distribute import strategies
    monkeypatch.setenv("TF_CONFIG", config)
    size = max(2, rank + 1) if "b:2" in config else 1
    if message is None:
        strategies._check_tf_config(rank, size)
    else:
        with pytest.raises(ValueError, match=message):
            strategies._check_tf_config(rank, size)


def test_horovod_calls_on_one_worker():
    pytest.importorskip("mpi4py")
    hvd = tf.distribute
    hvd.init()
    assert (hvd.rank(), hvd.size(), hvd.local_rank(), hvd.local_size()) == (0, 1, 0, 1)
    assert hvd.allreduce(tf.constant([1.0, 3.0]), op=hvd.Sum).numpy().tolist() == [1.0, 3.0]
    assert hvd.allgather(tf.constant([[1, 2]])).shape == [1, 2]
    assert int(hvd.broadcast(tf.constant(4), root_rank=0)) == 4
    with pytest.raises(ValueError, match="not both"):
        hvd.allreduce(tf.constant(1.0), average=True, op=hvd.Sum)


def test_distributed_gradient_tape_keeps_none_and_indexed_slices():
    pytest.importorskip("mpi4py")
    table = tf.Variable(np.ones((3, 2), "float32"))
    unused = tf.Variable(1.0)
    with tf.GradientTape(persistent=True) as tape:
        loss = tf.reduce_sum(tf.gather(table, [2, 0]))
    sparse, none = tf.distribute.DistributedGradientTape(tape).gradient(loss, [table, unused])
    assert isinstance(sparse, tf.IndexedSlices) and none is None
    assert sparse.indices.numpy().tolist() == [2, 0]
    dense, _ = tf.distribute.DistributedGradientTape(tape, sparse_as_dense=True).gradient(
        loss, [table, unused])
    assert isinstance(dense, tf.Tensor) and dense.numpy().sum() == 4.0


def test_worker_command_and_a_missing_mpiexec(monkeypatch):
    monkeypatch.setattr(launch.os, "access", lambda path, mode: False)
    monkeypatch.setattr(launch.shutil, "which", lambda name: None)
    with pytest.raises(FileNotFoundError, match=r"tapeflow\[distributed\]"):
        launch.worker_command(2, ["train.py"])
    monkeypatch.setattr(launch.shutil, "which", lambda name: "/usr/bin/mpiexec")
    monkeypatch.setattr(launch, "local_options", lambda path: [])
    assert launch.worker_command(3, ["train.py", "--x"]) == [
        "/usr/bin/mpiexec", "-n", "3", sys.executable, "-m", "tapeflow.distribute.launch",
        "train.py", "--x"]
    with pytest.raises(ValueError, match="at least 1"):
        launch.worker_command(0, ["train.py"])


def test_each_worker_gets_its_share_of_the_cores_unless_its_threads_are_set(monkeypatch):
    monkeypatch.setattr(launch.os, "sched_getaffinity", lambda pid: {0, 1, 2, 3, 4},
                        raising=False)
    env = launch.worker_environment(2, {"PATH": "/bin", "MKL_NUM_THREADS": "3"})
    assert env == {"PATH": "/bin", "OMP_NUM_THREADS": "2", "OPENBLAS_NUM_THREADS": "2",
                   "MKL_NUM_THREADS": "3"}
    assert launch.worker_environment(8, {})["OPENBLAS_NUM_THREADS"] == "1"


def test_without_mpi4py_the_error_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "mpi4py", None)
    with pytest.raises(ImportError, match=r"pip install 'tapeflow\[distributed\]'"):
        collectives._mpi()


def test_a_pooled_buffer_is_reused_only_once_nothing_refers_to_it():
    pool = collectives._BufferPool()
    first = pool.get(np.float32, 6)
    address = first.ctypes.data
    view = first[2:4]
    del first
    second = pool.get(np.float32, 6)
    assert second.ctypes.data != address          # a view of the first is still alive
    del view
    assert pool.get(np.float32, 6).ctypes.data == address
    assert pool.get(np.float64, 6).dtype == np.float64


def test_hydra_keeps_to_the_loopback_interface(tmp_path):
    assert launch.local_options(str(tmp_path / "mpiexec")) == []
    (tmp_path / "mpiexec.hydra").write_text("")
    assert launch.local_options(str(tmp_path / "mpiexec")) == ["-iface", "lo"]


@pytest.mark.parametrize("code,status,says", [
    ("import sys; sys.exit(3)", 3, ""),
    ("import os, signal; os.kill(os.getpid(), signal.SIGKILL)", 128 + 9,
     "worker rank 5 (process "),
])
def test_watch_returns_the_status_and_names_a_killed_worker(tmp_path, monkeypatch, capfd, code,
                                                            status, says):
    script = tmp_path / "worker.py"
    script.write_text(code)
    monkeypatch.setenv("PMI_RANK", "5")
    assert launch.watch([str(script)]) == status
    err = capfd.readouterr().err
    assert says in err and ("killed by SIGKILL" in err) == bool(says)
