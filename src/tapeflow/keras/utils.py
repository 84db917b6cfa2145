"""keras.utils: seeding, and the registry of custom objects for saved models."""
from .backend import set_random_seed
from .saving.serialization import (custom_object_scope, deserialize_keras_object,
                                   get_custom_objects, get_registered_name,
                                   get_registered_object, register_keras_serializable,
                                   serialize_keras_object)

__all__ = ["custom_object_scope", "deserialize_keras_object", "get_custom_objects",
           "get_registered_name", "get_registered_object", "register_keras_serializable",
           "serialize_keras_object", "set_random_seed"]
