"""What each MPI rank runs in the multi-worker tests: `python workers.py SCENARIO OUTDIR`.

Every scenario writes `OUTDIR/<scenario>-<rank>.npz` for the test to compare; `train` is
also called by the test in one process, as the reference.
"""
import os
import signal
import sys
import time

import numpy as np

import tapeflow as tf

FEATURES, CLASSES, GLOBAL_BATCH, STEPS = 5, 3, 8, 4


def global_batches(seed: int = 0) -> list:
    """STEPS global batches (x, y); the last one short (7 rows: uneven over 2 workers)."""
    rng = np.random.default_rng(seed)
    sizes = [GLOBAL_BATCH] * (STEPS - 1) + [GLOBAL_BATCH - 1]
    return [(rng.normal(size=(n, FEATURES)).astype("float32"),
             rng.integers(0, CLASSES, size=n).astype("int64")) for n in sizes]


def build(strategy, rank: int = 0, optimizer=lambda: tf.keras.optimizers.Adam(0.05)):
    """A small MLP and an optimizer (Adam), made in the strategy's scope. Each rank seeds
    differently: the scope gives every one the chief's initial weights."""
    tf.keras.utils.set_random_seed(1 + rank)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="tanh"),
                                     tf.keras.layers.Dense(CLASSES)])
        model(np.zeros((1, FEATURES), "float32"))
        optimizer = optimizer()
    return model, optimizer


def train(strategy, batches, epochs: int = 1, on_epoch_end=None, first_epoch: int = 0,
          model_and_optimizer=None, rank: int = 0, function: bool = True) -> tuple:
    """The custom training loop of TF's multi-worker guide; returns (model, losses)."""
    model, optimizer = model_and_optimizer or build(strategy, rank)
    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True,
                                                                reduction="none")

    def step(x, y, global_batch_size):
        def replica_step(x, y):
            with tf.GradientTape() as tape:
                per_example = loss_object(y, model(x, training=True))
                loss = tf.nn.compute_average_loss(per_example,
                                                  global_batch_size=global_batch_size)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            return loss
        return strategy.reduce("SUM", strategy.run(replica_step, args=(x, y)), axis=None)

    if function:
        step = tf.function(step)
    losses = []
    for epoch in range(first_epoch, epochs):
        sizes = [len(x) for x, _ in batches]
        for (x, y), size in zip(strategy.experimental_distribute_dataset(batches), sizes):
            losses.append(float(step(x, y, tf.constant(size, tf.float32))))
        if on_epoch_end is not None:
            on_epoch_end(epoch, model, optimizer)
    return model, losses


def weights(model) -> dict:
    return {f"w{i}": v.numpy() for i, v in enumerate(model.weights)}


def scenario_train(strategy, rank: int) -> dict:
    model, losses = train(strategy, global_batches(), rank=rank)
    return {"losses": np.array(losses), **weights(model)}


# Optimizers whose steps workers sharing memory split among them (elementwise updates:
# weight decay, momentum and slots, clipping by norm first), and one they do not (Lamb).
PART_OPTIMIZERS = {
    "sgd": lambda: tf.keras.optimizers.SGD(0.1, momentum=0.9, weight_decay=0.01),
    "adam": lambda: tf.keras.optimizers.Adam(0.05, clipnorm=1.0),
    "lamb": lambda: tf.keras.optimizers.Lamb(0.01),
}


def train_in_parts(strategy, rank: int, name: str, function: bool) -> dict:
    """Two steps of `train` with optimizer `name`: the weights and optimizer variables,
    whether the first kernel is a read-only (shared) view, and the kernel after an
    assign_add, which must take a private copy."""
    model_and_optimizer = build(strategy, rank, PART_OPTIMIZERS[name])
    model, losses = train(strategy, global_batches()[:2], rank=rank, function=function,
                          model_and_optimizer=model_and_optimizer)
    kernel = model.weights[0]
    shared = not np.asarray(kernel).flags.writeable
    optimizer_variables = [v.numpy() for v in model_and_optimizer[1].variables]
    before = kernel.numpy()
    kernel.assign_add(np.ones(kernel.shape, "float32"))
    key = f"{name}_{'graph' if function else 'eager'}"
    return {f"{key}_losses": np.array(losses), f"{key}_shared": np.array(shared),
            f"{key}_added": kernel.numpy() - before,
            **{f"{key}_w{i}": w for i, w in enumerate(weights(model).values())},
            **{f"{key}_opt{i}": v for i, v in enumerate(optimizer_variables)}}


def scenario_parts(strategy, rank: int) -> dict:
    return {k: v for name in PART_OPTIMIZERS for function in (False, True)
            for k, v in train_in_parts(strategy, rank, name, function).items()}


def fit_keras(strategy, rank: int = 0) -> dict:
    """compile / fit / evaluate / predict of a model made in the strategy's scope."""
    model, _ = build(strategy, rank)
    with strategy.scope():
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1), metrics=["accuracy"],
                      loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    x = np.concatenate([x for x, _ in global_batches()])[:24]
    y = np.concatenate([y for _, y in global_batches()])[:24]
    history = model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0)
    loss, accuracy = model.evaluate(x, y, batch_size=8, verbose=0)
    return {"loss": np.array(history.history["loss"]),
            "accuracy": np.array(history.history["accuracy"]),
            "evaluate": np.array([loss, accuracy]),
            "predict": model.predict(x, batch_size=8, verbose=0), **weights(model)}


def fit_with_backup(strategy, rank: int, backup_dir: str, crash_after: int = -1) -> dict:
    """fit for 3 epochs with BackupAndRestore; rank 1 raises after epoch `crash_after`."""
    model, _ = build(strategy, rank)
    with strategy.scope():
        model.compile(optimizer=tf.keras.optimizers.Adam(0.05),
                      loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    x = np.concatenate([x for x, _ in global_batches()])[:24]
    y = np.concatenate([y for _, y in global_batches()])[:24]

    def crash(epoch, logs):
        if epoch == crash_after and rank == 1:
            raise RuntimeError(f"crash after epoch {epoch}")

    history = model.fit(x, y, batch_size=8, epochs=3, shuffle=False, verbose=0, callbacks=[
        tf.keras.callbacks.BackupAndRestore(backup_dir),
        tf.keras.callbacks.LambdaCallback(on_epoch_end=crash)])
    return {"epochs": np.array(history.epoch), **weights(model)}


def scenario_keras_resume(strategy, rank: int) -> dict:
    return fit_with_backup(strategy, rank, os.environ["CHECKPOINT_DIR"],
                           int(os.environ.get("CRASH_AFTER_EPOCH", "-1")))


def scenario_keras(strategy, rank: int) -> dict:
    result = fit_keras(strategy, rank)
    model, _ = build(strategy, rank)
    model.save_weights(os.path.join(os.environ["CHECKPOINT_DIR"], f"weights-{rank}"))
    return result


def batch_norm(strategy, x, synchronized: bool) -> dict:
    """A BatchNormalization in training on `x`: output, input gradient, moving mean."""
    with strategy.scope():
        layer = tf.keras.layers.BatchNormalization(synchronized=synchronized, epsilon=0.0,
                                                   momentum=0.5)
    x = tf.constant(x)
    weight = tf.constant(np.arange(1.0, 1.0 + x.shape[-1], dtype="float32"))

    def replica():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = layer(x, training=True)
            loss = tf.reduce_sum(y * y * weight)
        return y, tape.gradient(loss, x)

    y, grad = strategy.run(replica)
    return {"y": y.numpy(), "grad": grad.numpy(), "moving_mean": layer.moving_mean.numpy()}


def batch_norm_input(rank: int) -> np.ndarray:
    return (np.arange(6.0).reshape(3, 2) ** 2 + 5 * rank).astype("float32")


def overlapped_gradients(rank: int) -> dict:
    """The gradients of an MLP summed over the workers as optimizers take them (their
    all-reduce started during the backward pass, in buckets of at most 64 bytes: four
    here) and by the blocking all-reduce, eagerly and in a tf.function; the same for
    Horovod's DistributedGradientTape (averaged)."""
    import tapeflow.distribute as hvd
    from tapeflow.distribute import buckets
    from tapeflow.distribute.distribute_lib import sum_mirrored_gradients
    started = []
    start = buckets.GradientBuckets._start

    def counting_start(self, bucket):
        started.append(len(bucket))
        start(self, bucket)

    buckets.GradientBuckets._start = counting_start
    strategy = tf.distribute.MultiWorkerMirroredStrategy(
        communication_options=tf.distribute.experimental.CommunicationOptions(bytes_per_pack=64))
    model, _ = build(strategy, rank)
    x, y = global_batches(seed=rank)[0]

    def local_gradients():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(model(x) ** 2 * (rank + 1.0))
        return tape, loss

    def replica():
        tape, loss = local_gradients()
        grads = tape.gradient(loss, model.trainable_variables)
        blocking = tf.distribute.get_replica_context().all_reduce("sum", grads)
        overlapped = [g for g, _ in sum_mirrored_gradients(zip(grads,
                                                                model.trainable_variables))]
        return overlapped, blocking

    result = {}
    for mode, run in (("eager", lambda: strategy.run(replica)),
                      ("graph", tf.function(lambda: strategy.run(replica)))):
        started.clear()
        overlapped, blocking = run()
        result[f"overlap_{mode}_buckets"] = np.array(started)
        for i, (a, b) in enumerate(zip(overlapped, blocking)):
            result[f"overlap_{mode}_{i}"], result[f"blocking_{mode}_{i}"] = a.numpy(), b.numpy()
    started.clear()
    tape, loss = local_gradients()
    local = tape.gradient(loss, model.trainable_variables)
    tape, loss = local_gradients()
    averaged = hvd.DistributedGradientTape(tape).gradient(loss, model.trainable_variables)
    result["overlap_hvd_buckets"] = np.array(started)
    for i, (a, g) in enumerate(zip(averaged, local)):
        result[f"overlap_hvd_{i}"], result[f"blocking_hvd_{i}"] = a.numpy(), \
            hvd.allreduce(g).numpy()
    buckets.GradientBuckets._start = start
    return result


def shared_reductions(rank: int) -> dict:
    """Large packs summed in the memory both ranks share: three arrays in one pack whose
    shard boundary falls inside one of them; a result rank 1 keeps while the same shapes
    are reduced again (rank 0 dropped its copy: the second sum must go elsewhere); an int
    mean."""
    from tapeflow.distribute import collectives
    communicator = collectives.world()
    sizes = [(70000,), (3,), (500, 101)]
    arrays = [np.arange(np.prod(s), dtype="float32").reshape(s) * (rank + 1) for s in sizes]
    first = communicator.all_reduce(arrays, bytes_per_pack=1 << 30)
    kept = [a.copy() for a in first] if rank == 1 else None
    if rank == 0:
        first = None
    second = communicator.all_reduce([a * 2 for a in arrays], bytes_per_pack=1 << 30)
    ints = communicator.all_reduce([np.full(20000, 3 * rank + 1, np.int64)], op="mean")[0]
    result = {"shared_used": np.array(communicator.shares_memory),
              "shared_outputs": np.array(len(communicator.shared_memory()._outputs[
                  (np.dtype("float32"), sum(int(np.prod(s)) for s in sizes))])),
              "shared_writeable": np.array([a.flags.writeable for a in second]),
              "shared_int_mean": ints}
    for i, (a, b) in enumerate(zip(second, arrays)):
        result[f"shared_second_{i}"], result[f"shared_expected_{i}"] = a, b * 3 * 2 // (rank + 1)
    if rank == 1:
        for i, (a, b) in enumerate(zip(first, kept)):
            result[f"shared_kept_{i}"], result[f"shared_kept_copy_{i}"] = a, b
    return result


def placed_reduction(rank: int) -> dict:
    """A graph's all-reduce of a product (>= 64 KiB) and a small sum, run twice: the
    product is computed in this rank's row of the shared input region (the copy into it
    writes only the other ranks' parts), the sum is copied there."""
    from tapeflow.distribute import collectives
    from tapeflow.distribute.cross_replica import StartedReduction
    communicator = collectives.world()
    a = (np.arange(200 * 300, dtype="float32").reshape(200, 300) % 7) * (rank + 1)
    b = np.arange(300 * 100, dtype="float32").reshape(300, 100) % 5

    @tf.function
    def summed(a, b):
        return StartedReduction(communicator, "sum", [tf.matmul(a, b), tf.reduce_sum(a, 0)],
                                bytes_per_pack=1 << 30).result()

    first = [t.numpy() for t in summed(a * 2, b)]
    second = [t.numpy() for t in summed(a, b)]
    row = communicator.shared_memory()._inputs[(np.dtype("float32"), 200 * 100 + 300)][0][0]
    return {"placed_first": first[0], "placed_second": second[0], "placed_sum": second[1],
            "placed_row": row[rank, :200 * 100].reshape(200, 100).copy(),
            "placed_own": a @ b}


def scenario_collectives(strategy, rank: int) -> dict:
    """Reductions, gathers of uneven sizes, Horovod's calls, IndexedSlices and several
    packs (bytes_per_pack small)."""
    import tapeflow.distribute as hvd
    value = tf.constant(np.arange(3 * (rank + 1), dtype="float32").reshape(rank + 1, 3))
    packs = tf.distribute.experimental.CommunicationOptions(bytes_per_pack=16)
    context_sum = strategy.run(lambda: tf.distribute.get_replica_context().all_reduce(
        "sum", [tf.constant([1.0, 2.0, 3.0, 4.0]) * (rank + 1), tf.constant(rank + 1)],
        options=packs))
    embedding = tf.Variable(np.ones((4, 2), "float32"))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.gather(embedding, [rank, 3]))
    tape = hvd.DistributedGradientTape(tape)
    sparse = tape.gradient(loss, embedding)
    w = tf.Variable([float(rank), 10.0 + rank])
    hvd.broadcast_variables([w], root_rank=1)
    x = tf.Variable(float(rank))
    with tf.GradientTape() as tape2:
        y = strategy.run(lambda: tf.distribute.get_replica_context().all_reduce("sum", x * x))
    synchronized = batch_norm(strategy, batch_norm_input(rank), True)
    local = batch_norm(strategy, batch_norm_input(rank), False)
    return {
        **overlapped_gradients(rank),
        **shared_reductions(rank),
        **placed_reduction(rank),
        **{f"bn_sync_{k}": v for k, v in synchronized.items()},
        **{f"bn_local_{k}": v for k, v in local.items()},
        "reduce_mean_axis0": strategy.reduce("MEAN", value, axis=0).numpy(),
        "reduce_sum_none": strategy.reduce("SUM", tf.constant([1.0, rank]), axis=None).numpy(),
        "gather": strategy.gather(value, axis=0).numpy(),
        "context_sum0": context_sum[0].numpy(), "context_sum1": context_sum[1].numpy(),
        "hvd": np.array([hvd.rank(), hvd.size(), float(hvd.allreduce(tf.constant(rank * 2.0))),
                         float(hvd.allreduce(tf.constant(1.0), op=hvd.Sum))]),
        "allgather": hvd.allgather(tf.constant([rank, rank])).numpy(),
        "broadcast": hvd.broadcast(tf.constant(rank), root_rank=1).numpy(),
        "sparse_type": np.array(type(sparse).__name__),
        "sparse_indices": sparse.indices.numpy(), "sparse_values": sparse.values.numpy(),
        "broadcast_variables": w.numpy(), "grad_of_all_reduce": tape2.gradient(y, x).numpy(),
    }


def scenario_fault(strategy, rank: int) -> dict:
    """Rank 1 raises during the second step; rank 0 must stop with an error naming it."""
    v = tf.Variable(0.0)
    strategy.reduce("SUM", tf.constant(1.0), axis=None)
    if rank == 1:
        raise RuntimeError("worker 1 broke on purpose")
    try:
        strategy.reduce("SUM", tf.constant(1.0), axis=None)
    except tf.errors.UnavailableError as error:
        print(f"rank 0 caught: {error}", flush=True)
        raise
    return {"v": v.numpy()}


def scenario_early_exit(strategy, rank: int) -> dict:
    """Rank 1 ends normally after one collective; rank 0 waits in a second one."""
    strategy.reduce("SUM", tf.constant(1.0), axis=None)
    if rank == 1:
        sys.exit(0)
    strategy.reduce("SUM", tf.constant(1.0), axis=None)
    return {}


def scenario_timeout(strategy, rank: int) -> dict:
    """Rank 1 joins the collective late; rank 0's times out first."""
    if rank == 1:
        time.sleep(5)
    strategy.reduce("SUM", tf.constant(1.0), axis=None)
    return {}


def scenario_kill(strategy, rank: int) -> dict:
    strategy.reduce("SUM", tf.constant(1.0), axis=None)
    if rank == 1:
        os.kill(os.getpid(), signal.SIGKILL)
    strategy.reduce("SUM", tf.constant(1.0), axis=None)
    return {}


def scenario_resume(strategy, rank: int) -> dict:
    """Three epochs, a checkpoint by the chief after each; with CRASH_AFTER_EPOCH set, rank
    1 dies after that epoch. A rerun restores the latest checkpoint and goes on."""
    directory = os.environ["CHECKPOINT_DIR"]
    crash_after = int(os.environ.get("CRASH_AFTER_EPOCH", "-1"))
    model, optimizer = build(strategy, rank)
    epoch = tf.Variable(0, dtype=tf.int64)
    checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer, epoch=epoch)
    manager = tf.train.CheckpointManager(checkpoint, directory, max_to_keep=2)
    if manager.latest_checkpoint:
        checkpoint.restore(manager.latest_checkpoint)
    first = int(epoch.numpy())

    def on_epoch_end(done, model, optimizer):
        epoch.assign(done + 1)
        if strategy.extended.should_checkpoint:
            manager.save()
        strategy.run(lambda: tf.distribute.get_replica_context().all_reduce("sum", 1.0))
        if done == crash_after and rank == 1:
            raise RuntimeError(f"crash after epoch {done}")

    _, losses = train(strategy, global_batches(), epochs=3, on_epoch_end=on_epoch_end,
                      first_epoch=first, model_and_optimizer=(model, optimizer))
    return {"first_epoch": np.array(first), "losses": np.array(losses), **weights(model)}


def main(scenario: str, outdir: str) -> None:
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    rank = tf.distribute.rank()
    result = globals()[f"scenario_{scenario}"](strategy, rank)
    np.savez(os.path.join(outdir, f"{scenario}-{rank}.npz"), **result)


if __name__ == "__main__":
    main(*sys.argv[1:3])
