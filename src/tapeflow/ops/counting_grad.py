"""counting_ops outputs are integers or booleans: no gradient flows through them."""
from ..framework.registry import no_gradient
from . import counting_ops  # noqa: F401  (defines the ops declared here)

for _op in ("LowerBound", "UpperBound", "InTopKV2"):
    no_gradient(_op)
