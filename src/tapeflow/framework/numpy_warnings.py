"""NumPy's floating-point warnings, silenced inside tapeflow's own modules."""
from __future__ import annotations

import functools
import warnings

import numpy as np

__all__ = ["QUIET_FILTER", "quiet_numpy_warnings", "keep_numpy_quiet", "silenced"]


def _install() -> tuple:
    warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"tapeflow(\.|$)")
    return warnings.filters[0]


# The filter, one object for the life of the process: `warnings.filters[0] is QUIET_FILTER`
# tells in one identity check that it is still first (the eager hot path checks that inline).
QUIET_FILTER = _install()


def quiet_numpy_warnings() -> None:
    """Silences NumPy's floating-point warnings raised inside tapeflow's own modules.

    TF computes inf and nan silently (sqrt'(0) = inf, the nan gradient of a norm at zero);
    NumPy warns instead. One module-scoped filter, first in `warnings.filters`; the user's
    own NumPy code still warns. `keep_numpy_quiet` puts it back where `catch_warnings` (as
    pytest enters around each test) or a filter added later took its place.
    """
    _install()
    warnings.filters[0] = QUIET_FILTER  # an equal tuple: the same filter, as the same object


def keep_numpy_quiet() -> None:
    """`quiet_numpy_warnings` unless its filter is still first: one identity check."""
    filters = warnings.filters
    if not filters or filters[0] is not QUIET_FILTER:
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
