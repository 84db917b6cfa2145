"""Looking Keras objects up by name, with one error message for every kind."""
from __future__ import annotations

__all__ = ["by_name"]


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
