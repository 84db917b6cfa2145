"""tf.image's names: each exported name resolves, and the namespace shows nothing else but
its modules (that the names are TF 2.21's: tests/parity/test_image_parity.py)."""
import types

import tapeflow as tf


def test_every_exported_name_resolves():
    assert len(tf.image.__all__) == 71
    assert all(callable(getattr(tf.image, name)) for name in tf.image.__all__)


def test_the_namespace_shows_only_its_names_and_modules():
    public = {n for n in dir(tf.image) if not n.startswith("_")} - set(tf.image.__all__)
    assert all(isinstance(getattr(tf.image, n), types.ModuleType) for n in public)
