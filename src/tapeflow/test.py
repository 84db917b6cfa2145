"""tf.test: gradient checking. The checker (tapeflow.testing) loads on first use."""

__all__ = ["compute_gradient"]


def __getattr__(name: str):
    if name == "compute_gradient":
        from .testing.gradient_checker import compute_gradient
        return compute_gradient
    raise AttributeError(f"module 'tapeflow.test' has no attribute {name!r}")


def __dir__() -> list:
    return sorted(set(globals()) | set(__all__))
