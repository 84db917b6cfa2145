"""Two MPI workers on this machine (mpiexec from the mpich wheel, loopback only), each run
bounded by a timeout: training gives every rank the weights and losses one process gets on
the concatenated batches; collectives; a failed or killed rank stops the job with an error;
a restarted job resumes from the chief's last checkpoint."""
import importlib.util
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import tapeflow as tf

pytest.importorskip("mpi4py")
from tapeflow.distribute import launch  # noqa: E402

WORKERS = Path(__file__).with_name("workers.py")
SRC = str(Path(tf.__file__).resolve().parents[1])
TIMEOUT = 60


def load_workers():
    spec = importlib.util.spec_from_file_location("distribute_workers", WORKERS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


workers = load_workers()


def mpirun(scenario: str, outdir, **env) -> subprocess.CompletedProcess:
    """`python workers.py scenario outdir` on two ranks, within TIMEOUT seconds."""
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [SRC, os.environ.get("PYTHONPATH", "")]), "TAPEFLOW_COLLECTIVE_TIMEOUT": "20", **env}
    try:
        launch.mpiexec()
    except FileNotFoundError:
        pytest.skip("no mpiexec beside this Python or on PATH")
    # In a session of its own, so that a run past TIMEOUT is stopped whole (mpiexec, its
    # process manager and the ranks), leaving nothing behind to disturb the next run.
    process = subprocess.Popen(launch.worker_command(2, [str(WORKERS), scenario, str(outdir)]),
                               env=environment, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL,
                               start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        stdout, stderr = process.communicate()
        pytest.fail(f"{scenario} ran past {TIMEOUT} s; its output:\n{stderr[-3000:]}")
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def results(outdir, scenario: str) -> list:
    return [dict(np.load(Path(outdir) / f"{scenario}-{rank}.npz")) for rank in (0, 1)]


def assert_same_as_one_process(result: dict, model, losses) -> None:
    np.testing.assert_allclose(result["losses"], losses, rtol=1e-5)
    for i, variable in enumerate(model.weights):
        np.testing.assert_allclose(result[f"w{i}"], variable.numpy(), rtol=1e-5, atol=1e-6)


def test_two_workers_train_like_one_process_on_the_whole_batch(tmp_path):
    done = mpirun("train", tmp_path)
    assert done.returncode == 0, done.stderr
    rank0, rank1 = results(tmp_path, "train")
    for key in rank0:
        np.testing.assert_array_equal(rank0[key], rank1[key])   # identical on every rank
    model, losses = workers.train(tf.distribute.MirroredStrategy(), workers.global_batches())
    assert_same_as_one_process(rank0, model, losses)


def test_optimizer_steps_split_between_workers_equal_whole_steps_on_one_process(tmp_path):
    # Workers on one machine each update their part of every variable and slot (Lamb,
    # whose update takes norms, updates them whole); both hold the same bits, those one
    # process gets on the whole batches, eagerly and in a tf.function.
    done = mpirun("parts", tmp_path)
    assert done.returncode == 0, done.stderr
    rank0, rank1 = results(tmp_path, "parts")
    for key in rank0:
        np.testing.assert_array_equal(rank0[key], rank1[key], err_msg=key)
    one = tf.distribute.MirroredStrategy()
    for name in workers.PART_OPTIMIZERS:
        for function in (False, True):
            expected = workers.train_in_parts(one, 0, name, function)
            for key, value in expected.items():
                if key.endswith("_shared"):
                    assert bool(rank0[key]) == (name != "lamb"), key
                    continue
                np.testing.assert_allclose(rank0[key], value, rtol=1e-5, atol=1e-6,
                                           err_msg=key)


def test_keras_fit_evaluate_predict_on_two_workers_match_one_process(tmp_path):
    done = mpirun("keras", tmp_path, CHECKPOINT_DIR=str(tmp_path))
    assert done.returncode == 0, done.stderr
    expected = workers.fit_keras(tf.distribute.MirroredStrategy())
    for result in results(tmp_path, "keras"):
        for key, value in expected.items():
            np.testing.assert_allclose(result[key], value, rtol=1e-5, atol=1e-6, err_msg=key)
    assert sorted(p.name for p in tmp_path.glob("weights-*")) == [      # the chief's only
        "weights-0.data-00000-of-00001", "weights-0.index"]


@pytest.fixture(scope="module")
def collectives(tmp_path_factory) -> list:
    """Both ranks' results of the collectives scenario (one mpiexec run for its tests)."""
    outdir = tmp_path_factory.mktemp("collectives")
    done = mpirun("collectives", outdir)
    assert done.returncode == 0, done.stderr
    return results(outdir, "collectives")


def test_collectives_across_two_workers(collectives):
    rank0, rank1 = collectives
    expected = {
        "reduce_mean_axis0": [1.0, 2.0, 3.0],          # rows [0 1 2] | [0 1 2], [3 4 5]
        "reduce_sum_none": [2.0, 1.0],
        "gather": [[0, 1, 2], [0, 1, 2], [3, 4, 5]],
        "context_sum0": [3.0, 6.0, 9.0, 12.0], "context_sum1": 3,
        "allgather": [0, 0, 1, 1], "broadcast": 1,
        "sparse_indices": [0, 3, 1, 3], "sparse_values": np.full((4, 2), 0.5),
        "broadcast_variables": [1.0, 11.0],
    }
    for rank, result in enumerate((rank0, rank1)):
        for key, value in expected.items():
            np.testing.assert_allclose(result[key], value, err_msg=key)
        assert result["sparse_type"] == "IndexedSlices"          # all-gathered, not dense
        np.testing.assert_allclose(result["hvd"], [rank, 2, 1.0, 2.0])
        # y = x0^2 + x1^2 summed over the workers: dy/dx_r = 2 x_r times both upstreams.
        assert float(result["grad_of_all_reduce"]) == 4.0 * rank


def test_gradients_reduced_during_the_backward_pass_equal_the_blocking_all_reduce(
        collectives):
    rank0, rank1 = collectives
    # Buckets of at most 64 bytes, the last layer's first: a bias alone (12 bytes), its
    # kernel (192), the first bias (64), the first kernel (320); Horovod's tape packs its
    # four gradients into one 4 MiB bucket.
    for mode, buckets in (("eager", [1, 1, 1, 1]), ("graph", [1, 1, 1, 1]), ("hvd", [4])):
        assert rank0[f"overlap_{mode}_buckets"].tolist() == buckets
        for i in range(4):
            np.testing.assert_array_equal(rank0[f"overlap_{mode}_{i}"],
                                          rank0[f"blocking_{mode}_{i}"])
            np.testing.assert_array_equal(rank0[f"overlap_{mode}_{i}"],
                                          rank1[f"overlap_{mode}_{i}"])


def test_large_packs_are_summed_in_shared_memory(collectives):
    for rank, result in enumerate(collectives):
        assert bool(result["shared_used"])
        for i in range(3):
            np.testing.assert_array_equal(result[f"shared_second_{i}"],
                                          result[f"shared_expected_{i}"])
        assert not result["shared_writeable"].any()          # views of the shared sums
        np.testing.assert_array_equal(result["shared_int_mean"], 2)    # (1 + 4) // 2
        # Rank 1 still held the first sum, so the second went to a new region.
        assert int(result["shared_outputs"]) == 2
    rank1 = collectives[1]
    for i in range(3):
        np.testing.assert_array_equal(rank1[f"shared_kept_{i}"], rank1[f"shared_kept_copy_{i}"])


def test_a_graph_computes_what_it_sums_in_shared_memory_in_place(collectives):
    for rank, result in enumerate(collectives):
        product = collectives[0]["placed_own"]            # rank 1's is twice rank 0's
        np.testing.assert_array_equal(result["placed_first"], product * 6)
        np.testing.assert_array_equal(result["placed_second"], product * 3)
        np.testing.assert_array_equal(result["placed_sum"],
                                      3 * (np.arange(60000.0).reshape(200, 300) % 7).sum(0))
        # This rank's whole product lies in its row: it was computed there.
        np.testing.assert_array_equal(result["placed_row"], result["placed_own"])


def test_synchronized_batch_norm_uses_every_workers_examples(collectives):
    one = tf.distribute.MirroredStrategy()
    whole = workers.batch_norm(one, np.concatenate([workers.batch_norm_input(r)
                                                     for r in (0, 1)]), False)
    for rank, result in enumerate(collectives):
        rows = slice(3 * rank, 3 * rank + 3)
        np.testing.assert_allclose(result["bn_sync_y"], whole["y"][rows], rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(result["bn_sync_grad"], whole["grad"][rows], rtol=1e-4,
                                   atol=1e-4)
        np.testing.assert_allclose(result["bn_sync_moving_mean"], whole["moving_mean"],
                                   rtol=1e-6)
        alone = workers.batch_norm(one, workers.batch_norm_input(rank), False)
        for key in ("y", "grad", "moving_mean"):     # without synchronized: local statistics
            np.testing.assert_allclose(result[f"bn_local_{key}"], alone[key], rtol=1e-5,
                                       atol=1e-5)


def mpi_shared_files() -> set:
    return set(Path("/dev/shm").glob("mpich_shm_*"))


def test_a_worker_that_raises_stops_the_others_with_its_rank(tmp_path):
    start = time.monotonic()
    before = mpi_shared_files()
    done = mpirun("fault", tmp_path)
    assert done.returncode != 0
    assert "rank 0 caught: " in done.stdout
    assert "worker rank 1 failed with RuntimeError: worker 1 broke on purpose" in done.stderr
    assert "UnavailableError" in done.stderr
    assert time.monotonic() - start < TIMEOUT
    # The ranks left without finalizing MPI, and removed the files finalizing removes.
    assert not mpi_shared_files() - before


def test_a_worker_that_ends_early_is_named_not_waited_for(tmp_path):
    done = mpirun("early_exit", tmp_path)
    assert done.returncode != 0
    assert "UnavailableError: all_reduce of 1 tensors: worker rank 1 exited after its " \
        "collective #" in done.stderr


def test_a_collective_that_waits_too_long_raises_deadline_exceeded(tmp_path):
    done = mpirun("timeout", tmp_path, TAPEFLOW_COLLECTIVE_TIMEOUT="0.5")
    assert done.returncode != 0
    assert "DeadlineExceededError: all_reduce of 1 tensors: not every worker joined within " \
        "0.5 s (rank 0 of 2 waited)" in done.stderr


def test_a_killed_worker_is_named(tmp_path):
    # Each rank runs under `tapeflow.distribute.launch`'s watch, which names the killed one;
    # the others find it gone (or mpiexec stops them).
    done = mpirun("kill", tmp_path)
    assert done.returncode != 0
    assert re.search(r"tapeflow run: worker rank 1 \(process \d+\) was killed by SIGKILL",
                     done.stderr), done.stderr


def test_a_restarted_job_resumes_from_the_last_checkpoint(tmp_path):
    crashed = mpirun("resume", tmp_path, CHECKPOINT_DIR=str(tmp_path), CRASH_AFTER_EPOCH="1")
    assert crashed.returncode != 0 and "crash after epoch 1" in crashed.stderr
    resumed = mpirun("resume", tmp_path, CHECKPOINT_DIR=str(tmp_path))
    assert resumed.returncode == 0, resumed.stderr
    rank0, rank1 = results(tmp_path, "resume")
    assert int(rank0["first_epoch"]) == int(rank1["first_epoch"]) == 2   # epochs 0, 1 kept
    model, losses = workers.train(tf.distribute.MirroredStrategy(), workers.global_batches(),
                                  epochs=3)
    assert_same_as_one_process(rank0, model, losses[-workers.STEPS:])
    for key in rank0:
        np.testing.assert_array_equal(rank0[key], rank1[key])


def test_keras_fit_with_backup_and_restore_resumes_after_a_crash(tmp_path):
    backup = tmp_path / "backup"
    crashed = mpirun("keras_resume", tmp_path, CHECKPOINT_DIR=str(backup),
                     CRASH_AFTER_EPOCH="1")
    assert crashed.returncode != 0 and "crash after epoch 1" in crashed.stderr
    resumed = mpirun("keras_resume", tmp_path, CHECKPOINT_DIR=str(backup))
    assert resumed.returncode == 0, resumed.stderr
    expected = workers.fit_with_backup(tf.distribute.MirroredStrategy(), 0,
                                       str(tmp_path / "one_process"))
    for result in results(tmp_path, "keras_resume"):
        assert result["epochs"].tolist() == [2]            # epochs 0 and 1 were not redone
        for key in expected:
            if key.startswith("w"):
                np.testing.assert_allclose(result[key], expected[key], rtol=1e-5, atol=1e-6)
    assert not backup.exists()                 # deleted by the chief once fit completed


def test_tapeflow_run_starts_the_workers(tmp_path):
    script = tmp_path / "hello.py"
    script.write_text("import os\nimport tapeflow as tf\n"
                      "s = tf.distribute.MultiWorkerMirroredStrategy()\n"
                      "total = float(s.reduce('SUM', tf.constant(1.0), axis=None))\n"
                      "os.write(1, f'sum {total}\\n'.encode())\n")   # one write per line
    env = {**os.environ, "PYTHONPATH": SRC}
    done = subprocess.run([sys.executable, "-m", "tapeflow", "run", "-n", "2", str(script)],
                          env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n").count("sum 2.0") == 2


def test_the_digits_demo_on_two_workers_learns_what_one_does(capsys):
    pytest.importorskip("sklearn")
    env = {**os.environ, "PYTHONPATH": SRC}
    done = subprocess.run([sys.executable, "-m", "tapeflow", "demo", "--workers", "2",
                           "--epochs", "1"], env=env, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr
    assert "1 epochs, seed 0, tf.function, 2 workers" in done.stdout
    sys.path.insert(0, str(Path(launch.__file__).resolve().parents[3] / "examples"))
    try:
        import digits_demo
    finally:
        sys.path.pop(0)
    one = digits_demo.main(["--epochs", "1"])["history"]
    capsys.readouterr()
    line = re.search(r"^Epoch 1/1: loss (\S+), accuracy (\S+)%, test loss (\S+), "
                     r"test accuracy (\S+)%$", done.stdout, re.M)
    assert abs(float(line.group(1)) - one["loss"][0]) < 1e-3
    assert abs(float(line.group(3)) - one["test_loss"][0]) < 1e-3
    assert float(line.group(4)) == round(100 * one["test_accuracy"][0], 1)
