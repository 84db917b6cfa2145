"""TF's names for tapeflow's classes, which the classes carry while tapeflow stands in for TF.

Libraries written for TF tell its types apart by where a class says it lives: Keras finds a
`tf.data` dataset as a class named `DatasetV2` whose module is under `tensorflow.python.`, a
tensor as a class `Tensor` there, and a SparseTensor or RaggedTensor by its class's name and
module. While the stand-in is installed (`tapeflow.standin.install`), each class in `CLASSES`
carries TF's `__module__`, `__name__` and `__qualname__`, and that module
(`tensorflow.python.X`, which the stand-in maps to `tapeflow.python.X`) holds the same class
under that name, so it is found where it says it lives (pickle, `inspect.getmodule`).
`standin.uninstall` gives the classes back tapeflow's names. The classes are tapeflow's own
throughout: only what they are called changes.

Example:
    >>> import tapeflow as tf
    >>> from tapeflow import standin
    >>> already = standin.installed()
    >>> standin.install()
    >>> tf.data.Dataset.__module__, tf.data.Dataset.__name__
    ('tensorflow.python.data.ops.dataset_ops', 'DatasetV2')
    >>> import tensorflow.python.data.ops.dataset_ops as dataset_ops
    >>> dataset_ops.DatasetV2 is tf.data.Dataset
    True
    >>> if not already:
    ...     standin.uninstall()
    ...     print(tf.data.Dataset.__module__, tf.data.Dataset.__name__)
    tapeflow.data.dataset_ops Dataset
"""
from __future__ import annotations

import importlib

__all__ = ["CLASSES", "apply"]

# (tapeflow's module, its class, TF's module, TF's name for the class)
CLASSES = (
    ("tapeflow.framework.tensor", "Tensor", "tensorflow.python.framework.tensor", "Tensor"),
    ("tapeflow.framework.sparse_tensor", "SparseTensor",
     "tensorflow.python.framework.sparse_tensor", "SparseTensor"),
    ("tapeflow.ops.ragged.ragged_tensor", "RaggedTensor",
     "tensorflow.python.ops.ragged.ragged_tensor", "RaggedTensor"),
    ("tapeflow.data.dataset_ops", "Dataset", "tensorflow.python.data.ops.dataset_ops",
     "DatasetV2"),
    ("tapeflow.distribute.input_lib", "DistributedDataset",
     "tensorflow.python.distribute.input_lib", "DistributedDataset"),
)


def apply(tf_names: bool) -> None:
    """Gives each class in `CLASSES` TF's names (`tf_names`) or tapeflow's own.

    Args:
        tf_names: True for TF's module and class names, False for tapeflow's.
    """
    for module, name, tf_module, tf_name in CLASSES:
        cls = getattr(importlib.import_module(module), name)
        cls.__module__, cls.__name__, cls.__qualname__ = \
            (tf_module, tf_name, tf_name) if tf_names else (module, name, name)
