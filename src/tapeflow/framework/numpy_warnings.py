"""NumPy's floating-point warnings, silenced inside tapeflow's own modules."""
from __future__ import annotations

import functools
import warnings

import numpy as np

__all__ = ["quiet_numpy_warnings", "keep_numpy_quiet", "silenced"]

_quiet_filter = None


def quiet_numpy_warnings() -> None:
    """Silences NumPy's floating-point warnings raised inside tapeflow's own modules.

    TF computes inf and nan silently (sqrt'(0) = inf, the nan gradient of a norm at zero);
    NumPy warns instead. One module-scoped filter, first in `warnings.filters`; the user's
    own NumPy code still warns. `keep_numpy_quiet` puts it back where `catch_warnings` (as
    pytest enters around each test) or a filter added later took its place.
    """
    global _quiet_filter
    warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"tapeflow(\.|$)")
    _quiet_filter = warnings.filters[0]


def keep_numpy_quiet() -> None:
    """`quiet_numpy_warnings` unless its filter is still first: one identity check."""
    filters = warnings.filters
    if not filters or filters[0] is not _quiet_filter:
        quiet_numpy_warnings()


def silenced(kernel):
    """`kernel` run under `np.errstate(all="ignore")`.

    For kernels that call NumPy or SciPy functions written in Python (einsum, linalg,
    polygamma): their warnings name those libraries' modules, which the module filter does not
    cover. The errstate costs a few microseconds, small beside such kernels.
    """
    @functools.wraps(kernel)
    def quiet_kernel(*args, **kwargs):
        with np.errstate(all="ignore"):
            return kernel(*args, **kwargs)
    return quiet_kernel


quiet_numpy_warnings()
