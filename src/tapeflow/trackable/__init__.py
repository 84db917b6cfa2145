"""Trackables: the object graph that checkpoints (and SavedModels) walk.

`base.Trackable` is the one base every saved tapeflow object shares; `autotrackable`
tracks attribute assignments; `data_structures` wraps lists and dicts.
"""
