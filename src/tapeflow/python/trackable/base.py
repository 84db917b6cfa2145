"""`tensorflow.python.trackable.base`: tapeflow's `tapeflow.trackable.base` (the same module's
names, the one Trackable mechanism every saved object uses)."""
from ...trackable.base import *  # noqa: F401,F403
from ...trackable.base import __all__  # noqa: F401
