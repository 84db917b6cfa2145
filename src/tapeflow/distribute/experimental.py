"""tf.distribute.experimental: communication options, the multi-worker strategy and
ValueContext; TF's earlier TPUStrategy."""
from .input_lib import ValueContext
from .options import CommunicationImplementation, CommunicationOptions
from .strategies import MultiWorkerMirroredStrategy
from .tpu import TPUStrategyV1 as TPUStrategy

CollectiveCommunication = CommunicationImplementation

__all__ = ["CollectiveCommunication", "CommunicationImplementation", "CommunicationOptions",
           "MultiWorkerMirroredStrategy", "TPUStrategy", "ValueContext"]
