"""`tf.__internal__.tracking`: the trackable names TF exports for its own libraries (Keras
subclasses `Trackable` and `AutoTrackable`), each tapeflow's one mechanism.

Example:
    >>> import tapeflow as tf
    >>> from tapeflow.trackable import tracking
    >>> isinstance(tf.Variable(1.0), tracking.Trackable)
    True
    >>> issubclass(tf.Module, tracking.AutoTrackable)
    True
"""
from __future__ import annotations

from .autotrackable import AutoTrackable
from .base import (CheckpointInitialValue, CheckpointInitialValueCallable, Trackable,
                   TrackableReference, no_automatic_dependency_tracking)
from .data_structures import TrackableDataStructure, sticky_attribute_assignment
from .data_structures import wrap_or_unwrap as wrap

__all__ = ["AutoTrackable", "CheckpointInitialValue", "CheckpointInitialValueCallable",
           "Trackable", "TrackableReference", "TrackableDataStructure",
           "no_automatic_dependency_tracking", "sticky_attribute_assignment", "wrap"]
