"""How collectives run: CommunicationOptions and CommunicationImplementation."""
from __future__ import annotations

import enum

from .collectives import default_timeout

__all__ = ["CommunicationImplementation", "CommunicationOptions"]


class CommunicationImplementation(enum.Enum):
    """The collective implementation TF would pick; every choice runs on MPI here."""

    AUTO = "AUTO"
    RING = "RING"
    NCCL = "NCCL"


class CommunicationOptions:
    """How collectives run.

    Args:
        bytes_per_pack: tensors of one dtype are packed into buffers of at most this many
            bytes, each all-reduced as one (gradients: buckets, each started as soon as the
            backward pass has filled it); 0 (the default): 4 MiB.
        timeout_seconds: a collective not completed by every worker within this time raises
            `tf.errors.DeadlineExceededError`. None: $TAPEFLOW_COLLECTIVE_TIMEOUT seconds,
            600 unless set (0 there: no limit).
        implementation: a `CommunicationImplementation` (accepted; MPI runs them all).

    Raises:
        ValueError: a negative `bytes_per_pack`.

    Example:
        >>> import tapeflow as tf
        >>> tf.distribute.experimental.CommunicationOptions(bytes_per_pack=50 * 1024 * 1024
        ...                                                 ).bytes_per_pack
        52428800
    """

    def __init__(self, bytes_per_pack=0, timeout_seconds=None,
                 implementation=CommunicationImplementation.AUTO) -> None:
        if bytes_per_pack < 0:
            raise ValueError(f"bytes_per_pack must be non-negative, got {bytes_per_pack}")
        self.bytes_per_pack = int(bytes_per_pack)
        self.timeout_seconds = default_timeout() if timeout_seconds is None else timeout_seconds
        self.implementation = implementation
