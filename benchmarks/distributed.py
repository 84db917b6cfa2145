"""Multi-worker benchmarks, run on MPI ranks of this machine (`python benchmarks/run.py
distributed`, which starts them with mpiexec):

allreduce  the sum over 2 ranks of a 10 M-parameter float32 gradient (4 arrays, as a
           2-hidden-layer MLP has them): tapeflow's packed all-reduce of the arrays, and of
           the Tensors (what optimizers and DistributedGradientTape call), against mpi4py's
           raw `Allreduce` of one buffer of the same size; medians, with their throughput.
mlp        one data-parallel training step of the mlp_large case (batch 256, 784-1024-1024-10,
           SGD, tf.function): run by 1 rank on the whole batch, then by 2 ranks on half each,
           with gradients summed over the ranks (in the memory the ranks share, where the
           compiled step computes them, each rank updating its part of the weights there;
           and again with TAPEFLOW_SHARED_MEMORY=0: by MPI's Iallreduce, every rank
           updating all), in 5 such rounds back to back (the machine's load drifts); the
           speed-up is the median of the rounds' ratios of medians. The same step written
           by hand in NumPy shows what this machine allows:
           its gradients summed by one mpi4py `Allreduce`; or reduce-scattered so each rank
           updates half the weights and all-gathers them; or, weights and gradients in
           memory the ranks share, each rank summing and updating its half in place (the
           least work any scheme can do); or not communicated at all (compute alone; not a
           correct step).

Usage: python benchmarks/distributed.py [--quick] [allreduce] [mlp]
(as a worker: python benchmarks/distributed.py --worker KIND ROUNDS)
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import peers  # noqa: E402  (standard library only: must come before NumPy)

peers.single_thread_env()

import numpy as np  # noqa: E402

PARAMETERS = [(2500, 2000), (2000,), (2000, 2500), (2500,)]   # 10,004,500 float32


def _samples(contenders: dict, rounds: int, barrier) -> dict:
    """{name: [seconds per round]}: the contenders take turns within each round (after a
    barrier each), so load that drifts during the run touches them alike."""
    for fn in contenders.values():
        fn()
    samples: dict = {name: [] for name in contenders}
    for _ in range(rounds):
        for name, fn in contenders.items():
            barrier()
            start = time.perf_counter()
            fn()
            samples[name].append(time.perf_counter() - start)
    return samples


def _median_time(fn, rounds: int, barrier) -> float:
    return statistics.median(_samples({"fn": fn}, rounds, barrier)["fn"])


def worker_allreduce(rounds: int) -> dict:
    from mpi4py import MPI

    import tapeflow as tf
    from tapeflow.distribute import collectives, cross_replica
    communicator = collectives.world()
    comm = MPI.COMM_WORLD
    rng = np.random.default_rng(comm.Get_rank())
    arrays = [rng.standard_normal(shape).astype(np.float32) for shape in PARAMETERS]
    tensors = [tf.constant(a) for a in arrays]
    flat = np.concatenate([a.ravel() for a in arrays])
    out = np.empty_like(flat)
    expected = comm.allreduce(float(flat[:1000].sum()))
    assert np.isclose(communicator.all_reduce(arrays)[0].ravel()[:1000].sum(), expected,
                      rtol=1e-4)
    samples = _samples({
        "mpi4py Allreduce": lambda: comm.Allreduce(flat, out, op=MPI.SUM),
        "tapeflow arrays": lambda: communicator.all_reduce(arrays),
        "tapeflow tensors": lambda: cross_replica.all_reduce(communicator, "sum", tensors),
    }, rounds, comm.Barrier)
    raw = samples["mpi4py Allreduce"]
    return {"bytes": int(flat.nbytes),
            "times": {name: statistics.median(s) for name, s in samples.items()},
            "ratios": {name: statistics.median(t / r for t, r in zip(s, raw))
                       for name, s in samples.items()}}


def worker_mlp(rounds: int) -> dict:
    import tapeflow as tf
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    rng = np.random.default_rng(0)
    batch, sizes = 256, (784, 1024, 1024, 10)
    x = rng.standard_normal((batch, sizes[0])).astype(np.float32)
    y = rng.integers(0, 10, batch).astype(np.int32)
    part = next(iter(strategy.experimental_distribute_dataset([(x, y)])))
    with strategy.scope():
        weights = []
        for fan_in, units in zip(sizes, sizes[1:]):
            weights += [tf.Variable(rng.standard_normal((fan_in, units)).astype(np.float32)
                                    * np.float32(np.sqrt(2 / fan_in))),
                        tf.Variable(np.zeros(units, np.float32))]
        optimizer = tf.keras.optimizers.SGD(0.01)

    def replica_step(images, labels):
        with tf.GradientTape() as tape:
            h = images
            for i in range(0, len(weights) - 2, 2):
                h = tf.nn.relu(tf.matmul(h, weights[i]) + weights[i + 1])
            logits = tf.matmul(h, weights[-2]) + weights[-1]
            per_example = tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=batch)
        optimizer.apply_gradients(zip(tape.gradient(loss, weights), weights))

    step = tf.function(lambda images, labels: strategy.run(replica_step, (images, labels)))
    barrier = lambda: strategy.reduce("SUM", tf.constant(0.0), axis=None)  # noqa: E731
    return {"workers": strategy.num_replicas_in_sync,
            "step": _median_time(lambda: step(*part), rounds, barrier)}


# How a hand-written step combines the ranks' gradients (see the module docstring).
NAMES = {"tapeflow": "tapeflow (sums and update in shared memory)",
         "tapeflow-mpi": "tapeflow, TAPEFLOW_SHARED_MEMORY=0 (MPI Iallreduce)"}
NUMPY_SCHEMES = {"numpy-allreduce": "NumPy + mpi4py Allreduce",
                 "numpy-sharded": "NumPy + reduce-scatter, half update, all-gather",
                 "numpy-shared": "NumPy + shared memory, half sum and update",
                 "numpy-none": "NumPy, no communication"}


def worker_numpy(rounds: int, scheme: str) -> dict:
    """The mlp step by hand: forward, backward and SGD in NumPy on this rank's half of the
    batch; weights and gradients live in one flat buffer each (no packing copies)."""
    from mpi4py import MPI
    comm = MPI.COMM_WORLD
    workers, rank = comm.Get_size(), comm.Get_rank()
    rng = np.random.default_rng(0)
    batch, sizes = 256, (784, 1024, 1024, 10)
    x = rng.standard_normal((batch, sizes[0])).astype(np.float32)
    y = rng.integers(0, 10, batch)
    x, y = np.array_split(x, workers)[rank], np.array_split(y, workers)[rank]
    shapes = [s for fan_in, units in zip(sizes, sizes[1:]) for s in ((fan_in, units), (units,))]
    total = sum(int(np.prod(s)) for s in shapes)
    total += -total % workers
    weights_flat, grads_flat, summed_flat = (np.zeros(total, np.float32) for _ in range(3))
    if scheme == "numpy-shared":
        node = comm.Split_type(MPI.COMM_TYPE_SHARED)
        windows = [MPI.Win.Allocate_shared(count * 4 if rank == 0 else 0, 4, comm=node)
                   for count in (total, total * workers)]
        flats = [np.ndarray((count,), np.float32, w.Shared_query(0)[0])
                 for w, count in zip(windows, (total, total * workers))]
        weights_flat, grads_flat = flats[0], flats[1][rank * total:(rank + 1) * total]
        all_grads = flats[1].reshape(workers, total)

    def views(flat):
        out, offset = [], 0
        for shape in shapes:
            size = int(np.prod(shape))
            out.append(flat[offset:offset + size].reshape(shape))
            offset += size
        return out
    weights, grads, summed = views(weights_flat), views(grads_flat), views(summed_flat)
    for w in weights[::2]:
        w[...] = rng.standard_normal(w.shape) * np.sqrt(2 / w.shape[0])
    lr, shard = np.float32(0.01), total // workers

    def step():
        hidden = [x]
        for i in (0, 2):
            hidden.append(np.maximum(hidden[-1] @ weights[i] + weights[i + 1], 0))
        logits = hidden[-1] @ weights[4] + weights[5]
        p = np.exp(logits - logits.max(1, keepdims=True))
        p /= p.sum(1, keepdims=True)
        p[np.arange(len(y)), y] -= 1
        g = p / np.float32(batch)
        for i in (4, 2, 0):
            np.matmul(hidden[i // 2].T, g, out=grads[i])
            np.sum(g, axis=0, out=grads[i + 1])
            if i:
                g = (g @ weights[i].T) * (hidden[i // 2] > 0)
        if workers == 1 or scheme == "numpy-none":
            weights_flat[:] -= lr * grads_flat
        elif scheme == "numpy-allreduce":
            comm.Allreduce(grads_flat, summed_flat, op=MPI.SUM)
            weights_flat[:] -= lr * summed_flat
        elif scheme == "numpy-shared":
            node.Barrier()
            part = slice(rank * shard, (rank + 1) * shard)
            np.add.reduce(all_grads[:, part], axis=0, out=summed_flat[:shard])
            weights_flat[part] -= lr * summed_flat[:shard]
            node.Barrier()
        else:
            mine = summed_flat[:shard]
            comm.Reduce_scatter_block(grads_flat, mine, op=MPI.SUM)
            weights_flat[rank * shard:(rank + 1) * shard] -= lr * mine
            comm.Allgather(MPI.IN_PLACE, weights_flat)
    return {"workers": workers, "step": _median_time(step, rounds, comm.Barrier)}


def launch(kind: str, workers: int, rounds: int, **env) -> dict:
    from tapeflow.distribute import launch as launcher
    command = launcher.worker_command(workers, [os.path.abspath(__file__), "--worker", kind,
                                                str(rounds)])
    done = subprocess.run(command, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          timeout=600, env={**os.environ, **env})
    if done.returncode:
        raise RuntimeError(f"{' '.join(command)} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def report(names: list, quick: bool) -> None:
    rounds = 3 if quick else 20
    if "allreduce" in names:
        result = launch("allreduce", 2, rounds)
        print(f"\nallreduce: sum of a {result['bytes'] / 4 / 1e6:.1f} M-parameter float32 "
              f"gradient over 2 ranks (median of {rounds}; x mpi4py: median ratio per round)")
        print(f"  {'contender':<20}{'median':>12}{'GB/s':>8}{'x mpi4py':>10}")
        for name, seconds in result["times"].items():
            print(f"  {name:<20}{seconds * 1e3:>9.2f} ms{result['bytes'] / seconds / 1e9:>8.2f}"
                  f"{result['ratios'][name]:>10.2f}")
    if "mlp" in names:
        load = os.getloadavg()[0]
        runs: dict = {"tapeflow": [], "tapeflow-mpi": [],
                      **{scheme: [] for scheme in NUMPY_SCHEMES}}
        for _ in range(1 if quick else 5):
            one = launch("mlp", 1, rounds)["step"]
            runs["tapeflow"].append((one, launch("mlp", 2, rounds)["step"]))
            runs["tapeflow-mpi"].append((one, launch("mlp", 2, rounds,
                                                     TAPEFLOW_SHARED_MEMORY="0")["step"]))
            alone = launch("numpy-none", 1, rounds)["step"]
            for scheme in NUMPY_SCHEMES:
                runs[scheme].append((alone, launch(scheme, 2, rounds)["step"]))
        print(f"\nmlp: one data-parallel training step of mlp_large (batch 256), median of "
              f"{rounds}, {len(runs['tapeflow'])} rounds of runs (load {load:.2f} before, "
              f"{os.getloadavg()[0]:.2f} after); speed-up: 1 process on 256 / 2 on 128 each")
        print(f"  {'contender':<52}{'1 process':>11}{'2 processes':>13}{'speed-up':>10}")
        for name, pairs in runs.items():
            one = statistics.median(p[0] for p in pairs) * 1e3
            two = statistics.median(p[1] for p in pairs) * 1e3
            speed_up = statistics.median(o / t for o, t in pairs)
            print(f"  {NAMES.get(name) or NUMPY_SCHEMES[name]:<52}{one:>8.2f} ms{two:>10.2f} ms"
                  f"{speed_up:>9.2f}x")


def main(argv: list) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("names", nargs="*", choices=["allreduce", "mlp", []])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--worker", nargs=2, metavar=("KIND", "ROUNDS"))
    args = parser.parse_args(argv)
    if args.worker:
        kind, rounds = args.worker
        result = worker_numpy(int(rounds), kind) if kind in NUMPY_SCHEMES else \
            {"allreduce": worker_allreduce, "mlp": worker_mlp}[kind](int(rounds))
        from tapeflow.distribute import rank
        if rank() == 0:
            print(json.dumps(result))
        return 0
    report(args.names or ["allreduce", "mlp"], args.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
