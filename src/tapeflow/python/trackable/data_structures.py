"""`tensorflow.python.trackable.data_structures`: tapeflow's
`tapeflow.trackable.data_structures` (its names: the one Trackable mechanism every saved
object uses)."""
from ...trackable.data_structures import *  # noqa: F401,F403
from ...trackable.data_structures import __all__  # noqa: F401
