"""`tensorflow.python.trackable.autotrackable`: tapeflow's `tapeflow.trackable.autotrackable` (its
names: the one Trackable mechanism every saved object uses)."""
from ...trackable.autotrackable import *  # noqa: F401,F403
from ...trackable.autotrackable import __all__  # noqa: F401
