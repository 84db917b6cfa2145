"""tf.autodiff: forward mode (ForwardAccumulator) and GradientTape, plus functional helpers
beyond TF (`jvp`, `vjp`, `linearize`, `hessian`, `hessian_vector_product`, in
eager/functional.py)."""
from .eager.backprop import GradientTape
from .eager.forwardprop import ForwardAccumulator
from .eager.functional import hessian, hessian_vector_product, jvp, linearize, vjp

__all__ = ["ForwardAccumulator", "GradientTape", "hessian", "hessian_vector_product", "jvp",
           "linearize", "vjp"]
