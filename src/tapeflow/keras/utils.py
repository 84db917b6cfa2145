"""keras.utils: seeding."""
from .backend import set_random_seed

__all__ = ["set_random_seed"]
