"""tf.distribute: data-parallel training on MPI ranks, with Horovod's entry points.

Each worker is an MPI rank (mpi4py, installed by `pip install 'tapeflow[distributed]'`,
imported on first use); start N of them with `tapeflow run -n N script.py` or
`mpiexec -n N python script.py`.
"""
from . import cluster_resolver, experimental
from .cross_device_ops import (CrossDeviceOps, HierarchicalCopyAllReduce, NcclAllReduce,
                               ReductionToOneDevice)
from .distribute_lib import (ReduceOp, ReplicaContext, RunOptions, Strategy,
                             experimental_set_strategy, get_replica_context, get_strategy,
                             has_strategy, in_cross_replica_context)
from .horovod import (Average, DistributedGradientTape, Sum, allgather, allreduce, broadcast,
                      broadcast_variables, init, local_rank, local_size, rank, size)
from .input_lib import DistributedDataset, DistributedIterator, InputContext, InputOptions
from .strategies import MirroredStrategy, MultiWorkerMirroredStrategy, OneDeviceStrategy
from .tpu import TPUStrategy
from .values import DistributedValues

__all__ = ["CrossDeviceOps", "DistributedValues", "HierarchicalCopyAllReduce",
           "NcclAllReduce", "ReductionToOneDevice", "TPUStrategy", "cluster_resolver",
           "DistributedDataset", "DistributedIterator", "InputContext", "InputOptions",
           "MirroredStrategy", "MultiWorkerMirroredStrategy", "OneDeviceStrategy", "ReduceOp",
           "ReplicaContext", "RunOptions", "Strategy", "experimental",
           "experimental_set_strategy", "get_replica_context", "get_strategy", "has_strategy",
           "in_cross_replica_context"]
# Horovod's names, beyond TF's.
__all__ += ["Average", "DistributedGradientTape", "Sum", "allgather", "allreduce", "broadcast",
            "broadcast_variables", "init", "local_rank", "local_size", "rank", "size"]
