"""Looking Keras objects up by name, with one error message for every kind, and the
dict Keras writes to name an object and its config."""
from __future__ import annotations

import re

__all__ = ["by_name", "serialized", "snake_case"]


def snake_case(class_name: str) -> str:
    """A layer's default name from its class, as Keras makes it: 'Conv2D' -> 'conv2d',
    'GlobalAveragePooling2D' -> 'global_average_pooling2d' (digits stay attached)."""
    words = re.sub(r"(.)([A-Z][a-z0-9]+)", r"\1_\2", class_name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", words).lower()


def by_name(kind: str, name: str, *tables: dict):
    """The entry `name` of the first table holding it.

    Raises:
        ValueError: no table holds it; the message lists the known names.
    """
    for table in tables:
        if name in table:
            return table[name]
    known = sorted({key for table in tables for key in table})
    raise ValueError(f"Unknown {kind}: {name!r}. Known names: {', '.join(known)}.")


def serialized(obj, module: str) -> dict:
    """{'module', 'class_name', 'config', 'registered_name'}: how Keras writes `obj` (an
    object with `get_config`) of the public module `module` ('keras.optimizers')."""
    return {"module": module, "class_name": type(obj).__name__, "config": obj.get_config(),
            "registered_name": None}
