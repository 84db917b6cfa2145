"""tf.config.threading: the sizes of the runtime's thread pools.

tapeflow runs ops on the calling thread through NumPy (whose BLAS picks its own threads), so
the numbers are kept and reported, with TF's rule that they are fixed once the runtime is
initialized (0, the default, means "let the system choose").
"""
from __future__ import annotations

from ..framework.devices import runtime

__all__ = ["get_inter_op_parallelism_threads", "get_intra_op_parallelism_threads",
           "set_inter_op_parallelism_threads", "set_intra_op_parallelism_threads"]

_threads = {"Inter": 0, "Intra": 0}


def _set(kind: str, num_threads) -> None:
    num_threads = int(num_threads)
    if num_threads == _threads[kind]:
        return
    if runtime.initialized:
        raise RuntimeError(f"{kind} op parallelism cannot be modified after initialization.")
    _threads[kind] = num_threads


def get_inter_op_parallelism_threads() -> int:
    """The number of threads that run independent ops side by side (0: system's choice).

    Example:
        >>> import tapeflow as tf
        >>> tf.config.threading.get_inter_op_parallelism_threads()
        0
    """
    return _threads["Inter"]


def set_inter_op_parallelism_threads(num_threads) -> None:
    """Sets `get_inter_op_parallelism_threads`.

    Raises:
        RuntimeError: the runtime is initialized and the number differs.
    """
    _set("Inter", num_threads)


def get_intra_op_parallelism_threads() -> int:
    """The number of threads one op may use (0: system's choice).

    Example:
        >>> import tapeflow as tf
        >>> tf.config.threading.get_intra_op_parallelism_threads()
        0
    """
    return _threads["Intra"]


def set_intra_op_parallelism_threads(num_threads) -> None:
    """Sets `get_intra_op_parallelism_threads`.

    Raises:
        RuntimeError: the runtime is initialized and the number differs.
    """
    _set("Intra", num_threads)
