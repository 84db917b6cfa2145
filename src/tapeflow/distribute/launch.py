"""`tapeflow run -n N script.py [args]`: N workers on this machine through MPI's `mpiexec`.

A thin front: it finds the `mpiexec` of the MPI that mpi4py uses (the `mpich` wheel puts
it beside the Python executable) and runs `mpiexec -n N python script.py args`, so the
command is the same as typing that, without knowing where the wheel put `mpiexec`.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

__all__ = ["local_options", "mpiexec", "run", "worker_command"]


def mpiexec() -> str:
    """The path of `mpiexec`: beside this Python (a venv's bin/), else on PATH.

    Raises:
        FileNotFoundError: none found, with the install hint.
    """
    here = os.path.join(os.path.dirname(sys.executable), "mpiexec")
    found = here if os.access(here, os.X_OK) else shutil.which("mpiexec")
    if found is None:
        raise FileNotFoundError("tapeflow run needs MPI's `mpiexec`: pip install "
                                "'tapeflow[distributed]' (mpi4py and the mpich wheel) into "
                                "this Python's environment")
    return found


def local_options(path: str) -> list:
    """Options keeping the launcher's own connections on the loopback interface: MPICH's
    Hydra (an `mpiexec.hydra` beside `path`) takes `-iface lo`; others get none."""
    hydra = os.path.join(os.path.dirname(path), "mpiexec.hydra")
    return ["-iface", "lo"] if os.path.exists(hydra) else []


def worker_command(workers: int, argv: list) -> list:
    """The mpiexec command line that starts `workers` copies of `python *argv` on this
    machine."""
    if workers < 1:
        raise ValueError(f"tapeflow run: -n must be at least 1, got {workers}")
    path = mpiexec()
    return [path, *local_options(path), "-n", str(workers), sys.executable, *argv]


def run(workers: int, argv: list, env=None) -> int:
    """Runs `python *argv` as `workers` MPI ranks; returns mpiexec's exit status."""
    return subprocess.call(worker_command(workers, argv), env=env)
