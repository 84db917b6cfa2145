"""tf.test: gradient checking."""
from .testing.gradient_checker import compute_gradient

__all__ = ["compute_gradient"]
