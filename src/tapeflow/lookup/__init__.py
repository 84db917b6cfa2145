"""tf.lookup: hash tables from keys to values (see ops/lookup_ops.py)."""
from ..ops.lookup_ops import (KeyValueTensorInitializer, StaticHashTable, StaticVocabularyTable,
                              TextFileIndex, TextFileInitializer)
from . import experimental

__all__ = ["KeyValueTensorInitializer", "StaticHashTable", "StaticVocabularyTable",
           "TextFileIndex", "TextFileInitializer", "experimental"]
