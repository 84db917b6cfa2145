"""tf.nn: activations, softmax and losses."""
from .ops.embedding_ops import embedding_lookup
from .ops.random_ops import dropout
from .ops.math_ops import sigmoid, tanh
from .ops.norm_ops import l2_normalize
from .ops.nn_ops import relu, softmax, sparse_softmax_cross_entropy_with_logits

__all__ = ["relu", "sigmoid", "softmax", "sparse_softmax_cross_entropy_with_logits", "tanh",
           "dropout", "embedding_lookup"]
__all__ += ["l2_normalize"]
