"""tf.experimental.extension_type: helpers for extension-type values."""
from __future__ import annotations

__all__ = ["as_dict"]


def as_dict(value) -> dict:
    """The fields of extension-type value `value`, as a dict from field name to value.

    Example:
        >>> import tapeflow as tf
        >>> class P(tf.experimental.ExtensionType):
        ...     a: int
        >>> tf.experimental.extension_type.as_dict(P(1))
        {'a': 1}

    Raises:
        AttributeError: `value` is not an extension type (TF's error).
    """
    fields = getattr(type(value), "_tf_fields", None)
    if fields is None or not fields and not hasattr(value, "_tf_finish_init"):
        raise AttributeError(f"{type(value).__name__!r} object has no attribute "
                             "'_tf_extension_type_fields'")
    return {name: value.__dict__[name] for name in fields}
