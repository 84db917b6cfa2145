"""tf.distribute.experimental: communication options and the multi-worker strategy."""
from .options import CommunicationImplementation, CommunicationOptions
from .strategies import MultiWorkerMirroredStrategy

CollectiveCommunication = CommunicationImplementation

__all__ = ["CollectiveCommunication", "CommunicationImplementation", "CommunicationOptions",
           "MultiWorkerMirroredStrategy"]
