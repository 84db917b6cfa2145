"""`tensorflow.python`: the private modules of TF that libraries import, as thin names over
tapeflow's own mechanisms (the stand-in maps `tensorflow.python.X` here).

Only what a library is known to import is here, each name onto the real mechanism it
names in TF; a name nobody needs is missing (ModuleNotFoundError, AttributeError), never a
placeholder. Today: `eager.context`, `trackable` (base, autotrackable, data_structures).
"""
