"""TF's public names for tf.math's special functions and utilities, tf.math.special and
tf.signal's n-D transforms and MDCT: each resolves to its function, and these namespaces
export only TF's names (tests/test_api_names.py adds this table to its own)."""
import importlib

import pytest

import tapeflow as tf
from tapeflow import math_special
from tapeflow.ops import (math_utility_ops, mdct_ops, reduction_ops, signal_ops,
                          special_fn_ops)

NAMES = [(getattr(module, name), f"{space}.{name}") for module, space, names in [
    (special_fn_ops, "math", "xlogy xlog1py xdivy multiply_no_nan reciprocal_no_nan erfinv "
                             "erfcinv ndtri igamma igammac betainc zeta nextafter rint lbeta "
                             "bessel_i0 bessel_i0e bessel_i1 bessel_i1e"),
    (special_fn_ops, "math.special", "bessel_i0 bessel_i0e bessel_i1 bessel_i1e bessel_j0 "
                                     "bessel_j1 bessel_y0 bessel_y1 bessel_k0 bessel_k0e "
                                     "bessel_k1 bessel_k1e dawsn expint fresnel_cos "
                                     "fresnel_sin spence"),
    (reduction_ops, "math", "cumulative_logsumexp"),
    (math_utility_ops, "math", "accumulate_n approx_max_k approx_min_k invert_permutation "
                               "is_non_decreasing is_strictly_increasing polyval "
                               "sobol_sample zero_fraction"),
    (signal_ops, "signal", "fftnd ifftnd rfftnd irfftnd"),
    (mdct_ops, "signal", "mdct inverse_mdct kaiser_window kaiser_bessel_derived_window "
                         "vorbis_window")] for name in names.split()]
NAMES += [(getattr(signal_ops, f"raw_{name}"), name)
          for name in ("fftnd", "ifftnd", "rfftnd", "irfftnd")]
NAMES.append((math_special, "math.special"))
# TF exports these two under tf.nn as well.
NAMES += [(math_utility_ops.approx_max_k, "nn.approx_max_k"),
          (math_utility_ops.approx_min_k, "nn.approx_min_k"),
          (math_utility_ops.zero_fraction, "nn.zero_fraction")]


def resolve(path: str):
    owner, _, name = ("tapeflow." + path).rpartition(".")
    if owner == "tapeflow.math.special":
        return getattr(tf.math.special, name)
    return getattr(importlib.import_module(owner), name)


@pytest.mark.parametrize("fn,path", NAMES, ids=[path for _, path in NAMES])
def test_tf_name_resolves_to_the_function(fn, path):
    assert resolve(path) is fn


def test_math_special_exports_only_tf_names():
    assert {f"math.special.{n}" for n in math_special.__all__} <= {p for _, p in NAMES}
    assert len(math_special.__all__) == 17
