"""tf.sets: set operations over the last dimension of dense tensors and SparseTensors."""
from ..ops.sets_ops import set_difference as difference
from ..ops.sets_ops import set_intersection as intersection
from ..ops.sets_ops import set_size as size
from ..ops.sets_ops import set_union as union

__all__ = ["difference", "intersection", "size", "union"]
