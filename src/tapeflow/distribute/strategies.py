"""The strategies: MirroredStrategy and OneDeviceStrategy (one process), and
MultiWorkerMirroredStrategy (one worker per MPI rank)."""
from __future__ import annotations

import json
import os

from ..framework.device import DeviceSpec
from ..framework.devices import runtime
from .collectives import world
from .cross_device_ops import ReductionToOneDevice
from .distribute_lib import Strategy
from .replica_threads import ReplicaThreads

__all__ = ["MirroredStrategy", "MultiWorkerMirroredStrategy", "OneDeviceStrategy"]


def _full_name(device) -> str:
    local = DeviceSpec(job="localhost", replica=0, task=0, device_type="CPU", device_index=0)
    spec = device if isinstance(device, DeviceSpec) else DeviceSpec.from_string(device)
    return local.make_merged_spec(spec).to_string()


class MirroredStrategy(Strategy):
    """Synchronous training on the devices of one machine: one replica per device, each
    on its own thread, all in this process. By default the devices are the logical CPUs
    (one, unless `tf.config.set_logical_device_configuration` split the CPU).

    Variables made in `scope()` are MirroredVariables (one component per replica);
    `run` gives PerReplica values; `reduce` combines them with `cross_device_ops`.

    Args:
        devices: the device names to replicate over (default: every logical CPU).
        cross_device_ops: a `tf.distribute.CrossDeviceOps` (default:
            `ReductionToOneDevice`).

    Example:
        >>> import tapeflow as tf
        >>> strategy = tf.distribute.MirroredStrategy()
        >>> strategy.num_replicas_in_sync, strategy.extended.worker_devices
        (1, ('/job:localhost/replica:0/task:0/device:CPU:0',))
    """

    _distributes_variables = True

    def __init__(self, devices=None, cross_device_ops=None) -> None:
        names = runtime.local_device_names()
        if devices:
            names = [_full_name(d) for d in devices]
        super().__init__(ReplicaThreads(len(names)) if len(names) > 1 else None)
        self._devices = tuple(names)
        self._cross_device_ops = cross_device_ops or ReductionToOneDevice()


class OneDeviceStrategy(Strategy):
    """Everything on one device (here the CPU).

    Args:
        device: the device string, e.g. "/cpu:0".

    Example:
        >>> import tapeflow as tf
        >>> tf.distribute.OneDeviceStrategy("/cpu:0").num_replicas_in_sync
        1
    """

    def __init__(self, device) -> None:
        runtime.initialize()
        super().__init__()
        self._devices = (_full_name(device),)


def _check_tf_config(rank: int, size: int) -> None:
    """Checks $TF_CONFIG, when set, against the MPI ranks: as many workers (chief
    included) as ranks, and this task's index its rank."""
    raw = os.environ.get("TF_CONFIG")
    if not raw:
        return
    config = json.loads(raw)
    cluster = config.get("cluster", {})
    workers = list(cluster.get("chief", [])) + list(cluster.get("worker", []))
    task = config.get("task", {})
    index = task.get("index", 0) + (len(cluster.get("chief", []))
                                    if task.get("type") == "worker" else 0)
    if workers and len(workers) != size:
        raise ValueError(f"TF_CONFIG names {len(workers)} workers but the job runs {size} MPI "
                         "ranks: start as many ranks as workers (mpiexec -n "
                         f"{len(workers)}) or fix TF_CONFIG.")
    if workers and index != rank:
        raise ValueError(f"TF_CONFIG says this is task {task.get('type')}:{task.get('index')}"
                         f" (worker {index}) but its MPI rank is {rank}.")


class MultiWorkerMirroredStrategy(Strategy):
    """Synchronous data-parallel training on several processes or machines: each MPI rank
    is a worker with one replica; rank 0 is the chief.

    Start it with `tapeflow run -n N script.py` or `mpiexec -n N python script.py`; run
    alone, it is one worker. Variables made in `scope()` start from the chief's values;
    optimizers sum gradients over the workers (scale the loss by the global batch size,
    `tf.nn.compute_average_loss`).

    Args:
        cluster_resolver: accepted for compatibility; the ranks are MPI's.
        communication_options: a `tf.distribute.experimental.CommunicationOptions`.

    Raises:
        ImportError: mpi4py is not installed (`pip install 'tapeflow[distributed]'`).
        ValueError: $TF_CONFIG disagrees with the MPI ranks.

    Example:
        >>> import tapeflow as tf
        >>> strategy = tf.distribute.MultiWorkerMirroredStrategy()
        >>> strategy.num_replicas_in_sync    # run without mpiexec: one worker
        1
    """

    _distributes_variables = True

    def __init__(self, cluster_resolver=None, communication_options=None) -> None:
        communicator = world()
        _check_tf_config(communicator.rank, communicator.size)
        super().__init__(communicator, communication_options)
        self._cluster_resolver = cluster_resolver

    @property
    def cluster_resolver(self):
        return self._cluster_resolver
