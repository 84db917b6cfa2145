"""The benchmark suite runs in quick mode and its contenders agree with hand-written NumPy.

Peers (PyTorch, JAX, TensorFlow, autograd) take part where installed. No timing is asserted.
"""
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import cases  # noqa: E402
import harness  # noqa: E402
import peers  # noqa: E402


@pytest.fixture(scope="module")
def installed_peers():
    return peers.load()[0]


@pytest.mark.parametrize("name", list(cases.ALL))
def test_case_contenders_agree_with_numpy(name, installed_peers):
    case = cases.ALL[name](installed_peers)
    assert list(case.steps)[0] == "numpy"
    errors = case.verify()
    assert set(errors) == set(case.steps) - {"numpy"}
    assert all(error <= harness.TOLERANCE for error in errors.values())
    tapeflow_skipped = any(note.startswith("tapeflow eager: skipped") for note in case.notes)
    assert ("tapeflow eager" in case.steps) != tapeflow_skipped
    if name != "convnet":
        assert "tapeflow eager" in case.steps
    samples = harness.measure(case.steps, repeat=2, min_time=0.0)
    assert list(samples) == list(case.steps)
    assert all(len(s) == 2 for s in samples.values())
    assert harness.summarize(samples)["numpy"][1] == 1.0


def test_numpy_baseline_gradient_matches_central_differences():
    net = cases.Network(4, (3, 3, 1), (5,), conv_filters=2, classes=3, seed=1)
    step = cases.numpy_network(net)
    grads = step()
    rows = np.arange(net.batch)

    def loss(params):
        h = np.maximum(cases.image_patches(net.x.astype(np.float64)) @ params[0].reshape(-1, 2)
                       + params[1], 0).reshape(net.batch, -1)
        h = np.maximum(h @ params[2] + params[3], 0) @ params[4] + params[5]
        shifted = h - h.max(axis=1, keepdims=True)
        return np.mean(np.log(np.exp(shifted).sum(axis=1)) - shifted[rows, net.y])

    params = [p.astype(np.float64) for p in net.params]
    for i, g in enumerate(grads):
        flat = params[i].reshape(-1)
        for j in range(0, flat.size, max(1, flat.size // 7)):
            saved = flat[j]
            flat[j] = saved + 1e-6
            up = loss(params)
            flat[j] = saved - 1e-6
            down = loss(params)
            flat[j] = saved
            assert g.reshape(-1)[j] == pytest.approx((up - down) / 2e-6, abs=1e-4)


def test_verify_catches_a_wrong_gradient():
    case = cases.chain({})
    right = case.steps["tapeflow eager"]
    case.steps["tapeflow eager"] = lambda: [g * 1.01 for g in right()]
    with pytest.raises(AssertionError, match="differ from NumPy"):
        case.verify()


def test_an_optional_contender_that_fails_is_skipped_with_a_note():
    case = cases.chain({})
    case.add("broken peer", lambda: (lambda: 1 / 0))
    case.verify()
    assert "broken peer" not in case.steps
    assert any("broken peer: skipped" in note and "ZeroDivisionError" in note
               for note in case.notes)


def test_peak_memory_counts_numpy_buffers():
    buffer_bytes = 8 * 2**20
    assert harness.peak_memory(lambda: np.ones(buffer_bytes // 8)) >= buffer_bytes


def test_run_quick_prints_tables_memory_and_import_time():
    result = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "run.py"), "--quick", "--peers=",
         "chain", "mlp_small", "memory", "import"],
        capture_output=True, text=True, cwd=ROOT, timeout=600,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": ""})
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.splitlines()[1].startswith("machine: ")
    for expected in ("\nchain\n", "\nmlp_small\n", "contender", "x numpy", "tapeflow eager",
                     "tapeflow function", "memory: peak allocation", "import tapeflow"):
        assert expected in out


def test_tapeflow_bench_command_passes_options_to_the_runner():
    result = subprocess.run(
        [sys.executable, "-m", "tapeflow", "bench", "--quick", "chain", "--peers="],
        capture_output=True, text=True, cwd=ROOT, timeout=600,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": ""})
    assert result.returncode == 0, result.stderr
    assert "\nchain\n" in result.stdout and "mlp_small" not in result.stdout


def test_distributed_benchmark_runs_on_two_ranks():
    pytest.importorskip("mpi4py")
    result = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "distributed.py"), "--quick", "allreduce"],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert result.returncode == 0, result.stderr
    for expected in ("mpi4py Allreduce", "tapeflow arrays", "tapeflow tensors", "x mpi4py"):
        assert expected in result.stdout
