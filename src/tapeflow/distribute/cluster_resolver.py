"""tf.distribute.cluster_resolver: finding a cluster's tasks. On a CPU machine the TPU
resolver is the one TF programs ask for (to learn there is no TPU)."""
from .tpu import TPUClusterResolver

__all__ = ["TPUClusterResolver"]
