"""`tensorflow.python.trackable`: TF's trackable modules, as tapeflow's own
(`tapeflow.trackable`): `base`, `autotrackable`, `data_structures`."""
