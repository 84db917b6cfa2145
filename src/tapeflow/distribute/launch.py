"""`tapeflow run -n N script.py [args]`: N workers on this machine through MPI's `mpiexec`.

A thin front: it finds the `mpiexec` of the MPI that mpi4py uses (the `mpich` wheel puts
it beside the Python executable) and runs `mpiexec -n N python script.py args`, each rank's
script under `watch` (`python -m tapeflow.distribute.launch script.py args`), which names
the rank when a signal kills it: mpiexec stops the other ranks then, reporting only a
process id. Each worker's BLAS and OpenMP pools get its share of this machine's cores
(`worker_environment`), unless the environment already sizes them: N ranks each starting a
pool as large as the machine would oversubscribe it many times over.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys

__all__ = ["local_options", "mpiexec", "run", "watch", "worker_command", "worker_environment"]

_THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


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
    return [path, *local_options(path), "-n", str(workers), sys.executable, "-m",
            "tapeflow.distribute.launch", *argv]


def worker_environment(workers: int, env=None) -> dict:
    """`env` (default: this process's environment) with the BLAS and OpenMP threads of each
    of `workers` ranks set to the usable cores divided among them (at least one); a thread
    variable already set is kept."""
    env = dict(os.environ if env is None else env)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
        os.cpu_count() or 1
    for variable in _THREAD_VARIABLES:
        env.setdefault(variable, str(max(1, cores // workers)))
    return env


def run(workers: int, argv: list, env=None) -> int:
    """Runs `python *argv` as `workers` MPI ranks; returns mpiexec's exit status."""
    return subprocess.call(worker_command(workers, argv), env=worker_environment(workers, env))


def watch(argv: list) -> int:
    """Runs `python *argv` as this rank's worker and returns its exit status; a worker
    killed by a signal this process did not pass on is reported with its rank.

    The worker inherits the launcher's file descriptors (MPI's process manager talks to it
    through one); SIGINT and SIGTERM sent to this process are passed on to it.
    """
    worker = subprocess.Popen([sys.executable, *argv], close_fds=False)
    passed_on = []

    def pass_on(signum, frame):
        passed_on.append(signum)
        worker.send_signal(signum)

    previous = {signum: signal.signal(signum, pass_on)
                for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        status = worker.wait()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if status >= 0:
        return status
    if -status not in passed_on:
        rank = os.environ.get("PMI_RANK", os.environ.get("OMPI_COMM_WORLD_RANK", "?"))
        print(f"tapeflow run: worker rank {rank} (process {worker.pid}) was killed by "
              f"{signal.Signals(-status).name}", file=sys.stderr, flush=True)
    return 128 - status


if __name__ == "__main__":
    sys.exit(watch(sys.argv[1:]))
