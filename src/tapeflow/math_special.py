"""tf.math.special: Bessel functions, and the Dawson, exponential, Fresnel and Spence
integrals."""
from .ops.special_fn_ops import (bessel_i0, bessel_i0e, bessel_i1, bessel_i1e, bessel_j0,
                                 bessel_j1, bessel_k0, bessel_k0e, bessel_k1, bessel_k1e,
                                 bessel_y0, bessel_y1, dawsn, expint, fresnel_cos, fresnel_sin,
                                 spence)

__all__ = ["bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "bessel_j0", "bessel_j1",
           "bessel_k0", "bessel_k0e", "bessel_k1", "bessel_k1e", "bessel_y0", "bessel_y1",
           "dawsn", "expint", "fresnel_cos", "fresnel_sin", "spence"]
