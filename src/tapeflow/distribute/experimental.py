"""tf.distribute.experimental: communication options, the multi-worker strategy and
ValueContext."""
from .input_lib import ValueContext
from .options import CommunicationImplementation, CommunicationOptions
from .strategies import MultiWorkerMirroredStrategy

CollectiveCommunication = CommunicationImplementation

__all__ = ["CollectiveCommunication", "CommunicationImplementation", "CommunicationOptions",
           "MultiWorkerMirroredStrategy", "ValueContext"]
