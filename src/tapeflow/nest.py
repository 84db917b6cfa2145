"""tf.nest: flattening, re-packing, mapping and comparing nested structures."""
from .framework.nest import (assert_same_structure, flatten, is_nested, map_structure,
                             pack_sequence_as)

__all__ = ["assert_same_structure", "flatten", "is_nested", "map_structure",
           "pack_sequence_as"]
