"""`tensorflow.python.trackable.base`: tapeflow's `tapeflow.trackable.base` (its
names: the one Trackable mechanism every saved object uses)."""
from ...trackable.base import *  # noqa: F401,F403
from ...trackable.base import __all__  # noqa: F401
