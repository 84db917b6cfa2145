"""keras.saving: Keras 3's `.keras` and `.weights.h5` files, and object configs."""
from .keras_file import load_model, save_model
from .serialization import (CustomObjectScope, custom_object_scope, deserialize_keras_object,
                            get_custom_objects, get_registered_name, get_registered_object,
                            register_keras_serializable, serialize_keras_object)

__all__ = ["CustomObjectScope", "custom_object_scope", "deserialize_keras_object",
           "get_custom_objects", "get_registered_name", "get_registered_object", "load_model",
           "register_keras_serializable", "save_model", "serialize_keras_object"]
