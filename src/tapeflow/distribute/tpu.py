"""TPUs, which a CPU machine has not: `TPUStrategy`, `TPUClusterResolver` and the TPU
system functions exist, and fail as TF fails where no TPU can be reached."""
from __future__ import annotations

from ..framework import errors
from .distribute_lib import Strategy

__all__ = ["TPUClusterResolver", "TPUStrategy", "TPUStrategyV1", "initialize_tpu_system",
           "shutdown_tpu_system"]

_NO_NAME = "Please provide a TPU Name to connect to."


class TPUClusterResolver:
    """Finds the TPU workers of a Cloud TPU named `tpu` ('local' for a TPU on this host).

    Args:
        tpu: the TPU's name, 'local', or a 'grpc://host:port' address.
        zone, project, job_name, coordinator_name, coordinator_address, credentials,
        service, discovery_url: Cloud TPU settings, kept.

    Raises:
        ValueError: no `tpu` given (TF looks it up in Cloud settings this machine lacks).

    Example:
        >>> import tapeflow as tf
        >>> resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="local")
        >>> resolver.master(), resolver.cluster_spec().as_dict()
        ('', {})
    """

    def __init__(self, tpu=None, zone=None, project=None, job_name="worker",
                 coordinator_name=None, coordinator_address=None, credentials="default",
                 service=None, discovery_url=None) -> None:
        if not tpu:
            raise ValueError(_NO_NAME)
        self._tpu = tpu
        self.task_type = job_name
        self.task_id = 0
        self.rpc_layer = "grpc"
        self._settings = dict(zone=zone, project=project, coordinator_name=coordinator_name,
                              coordinator_address=coordinator_address,
                              credentials=credentials, service=service,
                              discovery_url=discovery_url)

    def master(self, task_type=None, task_id=None, rpc_layer=None) -> str:
        """The address of the TPU's master: '' for a local TPU."""
        return "" if self._tpu == "local" else str(self._tpu)

    def get_master(self) -> str:
        return self.master()

    def cluster_spec(self):
        """The TPU cluster: empty for a local TPU."""
        from ..train.cluster import ClusterSpec
        return ClusterSpec({})

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None) -> dict:
        """The TPU cores per worker: none on this machine."""
        return {}


def _no_tpu(what: str):
    return errors.NotFoundError(None, None, f"TPUs not found in the cluster. Failed in "
                                f"{what}: this machine has only a CPU "
                                "(tf.config.list_logical_devices('TPU') is empty).")


def initialize_tpu_system(cluster_resolver=None):
    """Initializes the TPUs of `cluster_resolver`'s cluster.

    Raises:
        ValueError: no resolver (no TPU name to connect to).
        NotFoundError: the cluster has no TPU (this machine has none).

    Example:
        >>> import tapeflow as tf
        >>> try:
        ...     tf.tpu.experimental.initialize_tpu_system()
        ... except ValueError as e:
        ...     print(e)
        Please provide a TPU Name to connect to.
    """
    if cluster_resolver is None:
        raise ValueError(_NO_NAME)
    raise _no_tpu("initialization")


def shutdown_tpu_system(cluster_resolver=None):
    """Shuts the TPUs of `cluster_resolver`'s cluster down.

    Raises:
        ValueError: no resolver. NotFoundError: the cluster has no TPU.
    """
    if cluster_resolver is None:
        raise ValueError(_NO_NAME)
    raise _no_tpu("shutdown")


class TPUStrategy(Strategy):
    """Synchronous training on TPU cores. A CPU machine has none, so making one fails as
    TF fails without a reachable TPU.

    Args:
        tpu_cluster_resolver: a TPUClusterResolver (None: look one up, which needs a name).
        experimental_device_assignment, experimental_spmd_xla_partitioning: TPU layout.

    Raises:
        ValueError: no resolver (no TPU name to connect to).
        NotFoundError: the resolver's cluster has no TPU.

    Example:
        >>> import tapeflow as tf
        >>> try:
        ...     tf.distribute.TPUStrategy()
        ... except ValueError as e:
        ...     print(e)
        Please provide a TPU Name to connect to.
    """

    def __init__(self, tpu_cluster_resolver=None, experimental_device_assignment=None,
                 experimental_spmd_xla_partitioning=False) -> None:
        if tpu_cluster_resolver is None:
            raise ValueError(_NO_NAME)
        raise _no_tpu("making a TPUStrategy")


class TPUStrategyV1(TPUStrategy):
    """TF's earlier TPUStrategy (`tf.distribute.experimental.TPUStrategy`): as TPUStrategy.

    Raises:
        ValueError: no resolver. NotFoundError: the cluster has no TPU.
    """

    def __init__(self, tpu_cluster_resolver=None, device_assignment=None) -> None:
        super().__init__(tpu_cluster_resolver, device_assignment)
