"""Dtype policies (keras.mixed_precision, keras.config): the dtype a layer computes in and
the dtype of its weights. 'float32' computes and stores in float32; 'mixed_float16'
computes in float16 with float32 weights, cast to the compute dtype while the layer runs
(their gradients arrive in float32). tapeflow has no bfloat16, so no 'mixed_bfloat16'."""
from __future__ import annotations

from ..framework import dtypes
from . import backend
from .optimizers.loss_scale import LossScaleOptimizer

__all__ = ["DTypePolicy", "Policy", "set_global_policy", "global_policy", "set_dtype_policy",
           "dtype_policy", "get", "LossScaleOptimizer"]

_MIXED = {"mixed_float16": "float16"}
_global = None


class DTypePolicy:
    """A layer's dtypes: `compute_dtype` (inputs and computations) and `variable_dtype`
    (weights).

    Args:
        name: 'mixed_float16' or a dtype name (such as 'float32', or 'int32' for an
            integer Input); default floatx().

    Raises:
        ValueError: any other name ('mixed_bfloat16' too: tapeflow has no bfloat16).

    Example:
        >>> import tapeflow as tf
        >>> policy = tf.keras.mixed_precision.Policy("mixed_float16")
        >>> policy.compute_dtype, policy.variable_dtype
        ('float16', 'float32')
        >>> layer = tf.keras.layers.Dense(2, dtype=policy)
        >>> layer(tf.ones([1, 3])).dtype, layer.kernel.dtype
        (tf.float16, tf.float32)
    """

    def __init__(self, name=None) -> None:
        name = backend.floatx() if name is None else name
        if not isinstance(name, str):
            raise TypeError(f"'name' must be a string, such as 'mixed_float16'. Received: "
                            f"name={name!r} (of type {type(name)})")
        if name == "mixed_bfloat16":
            raise ValueError("DTypePolicy 'mixed_bfloat16': tapeflow has no bfloat16 dtype; "
                             "use 'mixed_float16'.")
        if name in _MIXED:
            compute, variable = _MIXED[name], "float32"
        else:
            try:
                dtype = dtypes.as_dtype(name)
            except (TypeError, ValueError):
                dtype = None
            if dtype is None:
                raise ValueError(f"Cannot convert '{name}' to a mixed precision DTypePolicy. "
                                 "Valid policies include 'mixed_float16', 'mixed_bfloat16', "
                                 "and the name of any float dtype such as 'float32'.")
            compute = variable = dtype.name
        self._name, self._compute_dtype, self._variable_dtype = name, compute, variable

    @property
    def name(self) -> str:
        return self._name

    @property
    def compute_dtype(self) -> str:
        return self._compute_dtype

    @property
    def variable_dtype(self) -> str:
        return self._variable_dtype

    def get_config(self) -> dict:
        return {"name": self._name}

    @classmethod
    def from_config(cls, config: dict) -> "DTypePolicy":
        return cls(**config)

    def __eq__(self, other) -> bool:
        return isinstance(other, DTypePolicy) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self._name)

    def __repr__(self) -> str:
        return f'<DTypePolicy "{self._name}">'


Policy = DTypePolicy


def get(identifier) -> DTypePolicy:
    """A policy from a name, a DType, a DTypePolicy, or None (the global policy)."""
    if identifier is None:
        return dtype_policy()
    if isinstance(identifier, DTypePolicy):
        return identifier
    if isinstance(identifier, dtypes.DType):
        return DTypePolicy(identifier.name)
    if isinstance(identifier, dict) and "config" in identifier:     # a serialized policy
        return DTypePolicy(**identifier["config"])
    return DTypePolicy(getattr(identifier, "name", identifier))


def set_dtype_policy(policy) -> None:
    """Sets the policy of layers created without a `dtype` from now on (a name or a
    DTypePolicy; None goes back to `floatx()`).

    Raises:
        ValueError: an unknown policy name.

    Example:
        >>> import tapeflow as tf
        >>> tf.keras.mixed_precision.set_global_policy("mixed_float16")
        >>> tf.keras.layers.Dense(1).compute_dtype
        'float16'
        >>> tf.keras.mixed_precision.set_global_policy(None)
    """
    global _global
    _global = None if policy is None else get(policy)


def dtype_policy() -> DTypePolicy:
    """The policy of layers created without a `dtype`: the one set, else `floatx()`'s."""
    return _global if _global is not None else DTypePolicy(backend.floatx())


set_global_policy, global_policy = set_dtype_policy, dtype_policy
