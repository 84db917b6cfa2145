"""`tf.data.Options`: the settings a dataset carries (`Dataset.with_options`, `options()`).

An option is unset (None) until assigned; assigning checks its type. A dataset's options
are its inputs' options merged with those given to `with_options` on the way, a later set
value winning. tapeflow's pipelines run each element through the chain in order, on one
thread, with nothing to rewrite, so every pipeline is deterministic and unsharded whatever
the options say; the options are kept, merged and reported as TF does, so code that sets
and reads them (Keras's data adapters, `tf.distribute`'s sharding policy) runs.
"""
from __future__ import annotations

import enum

__all__ = ["Options", "AutoShardPolicy", "ExternalStatePolicy", "AutotuneOptions",
           "DistributeOptions", "OptimizationOptions", "ThreadingOptions"]


class AutoShardPolicy(enum.IntEnum):
    """How a distributed dataset is split between workers."""
    OFF = -1
    AUTO = 0
    FILE = 1
    DATA = 2
    HINT = 3


class ExternalStatePolicy(enum.Enum):
    """What to do when a dataset's functions capture state (when it is serialized)."""
    WARN = 0
    IGNORE = 1
    FAIL = 2


class _OptionGroup:
    """A set of typed options: `_OPTIONS` maps each name to (its type, its default)."""

    _OPTIONS: dict = {}

    def __init__(self) -> None:
        for name, (kind, default) in self._OPTIONS.items():
            object.__setattr__(self, name, kind() if isinstance(kind, type) and
                               issubclass(kind, _OptionGroup) else default)

    def __setattr__(self, name: str, value) -> None:
        if name not in self._OPTIONS:
            raise AttributeError(f"Cannot set the property {name} on {type(self).__name__}.")
        kind = self._OPTIONS[name][0]
        if value is not None and not isinstance(value, kind) or \
                kind is int and isinstance(value, bool):
            raise TypeError(f"Property \"{name}\" must be of type {kind}, got: {value!r} "
                            f"(type: {type(value)})")
        object.__setattr__(self, name, value)

    def _merged(self, other: "_OptionGroup") -> "_OptionGroup":
        result = type(self)()
        for name, (kind, _) in self._OPTIONS.items():
            mine, theirs = getattr(self, name), getattr(other, name)
            if isinstance(mine, _OptionGroup):
                object.__setattr__(result, name, mine._merged(theirs))
            else:
                object.__setattr__(result, name, mine if theirs is None else theirs)
        return result

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and all(
            getattr(self, n) == getattr(other, n) for n in self._OPTIONS)

    __hash__ = None  # mutable

    def __repr__(self) -> str:
        return f"{type(self).__name__}(" + ", ".join(
            f"{n}={getattr(self, n)!r}" for n in self._OPTIONS
            if getattr(self, n) is not None) + ")"


_BOOL = (bool, None)


class OptimizationOptions(_OptionGroup):
    """Graph rewrites of the pipeline (tapeflow applies none)."""
    _OPTIONS = {name: _BOOL for name in (
        "apply_default_optimizations", "filter_fusion", "filter_parallelization",
        "inject_prefetch", "map_and_batch_fusion", "map_and_filter_fusion", "map_fusion",
        "map_parallelization", "noop_elimination", "parallel_batch",
        "seq_interleave_prefetch", "shuffle_and_repeat_fusion")}


class DistributeOptions(_OptionGroup):
    """How a distributed dataset is sharded."""
    _OPTIONS = {"auto_shard_policy": (AutoShardPolicy, AutoShardPolicy.AUTO),
                "num_devices": (int, None)}


class ThreadingOptions(_OptionGroup):
    """The threads a pipeline may use."""
    _OPTIONS = {"max_intra_op_parallelism": (int, None),
                "private_threadpool_size": (int, None)}


class AutotuneOptions(_OptionGroup):
    """Whether and with what budget the pipeline tunes itself."""
    _OPTIONS = {"enabled": _BOOL, "cpu_budget": (int, None), "ram_budget": (int, None)}


class Options(_OptionGroup):
    """The options of a dataset.

    Example:
        >>> import tapeflow as tf
        >>> options = tf.data.Options()
        >>> options.experimental_optimization.apply_default_optimizations = False
        >>> ds = tf.data.Dataset.range(3).with_options(options)
        >>> ds.options().experimental_optimization.apply_default_optimizations
        False
        >>> [int(x) for x in ds.map(lambda x: x + 1)]
        [1, 2, 3]
        >>> ds.options().deterministic is None
        True
    """
    _OPTIONS = {"autotune": (AutotuneOptions, None),
                "dataset_name": (str, None),
                "deterministic": _BOOL,
                "experimental_distribute": (DistributeOptions, None),
                "experimental_external_state_policy": (ExternalStatePolicy, None),
                "experimental_optimization": (OptimizationOptions, None),
                "experimental_slack": _BOOL,
                "experimental_symbolic_checkpoint": _BOOL,
                "experimental_warm_start": _BOOL,
                "threading": (ThreadingOptions, None)}

    @property
    def experimental_deterministic(self):
        """The same option as `deterministic`."""
        return self.deterministic

    @experimental_deterministic.setter
    def experimental_deterministic(self, value) -> None:
        self.deterministic = value

    @property
    def experimental_threading(self) -> ThreadingOptions:
        """The same options as `threading`."""
        return self.threading

    def __setattr__(self, name: str, value) -> None:
        if isinstance(getattr(type(self), name, None), property):
            object.__setattr__(self, name, value)
        else:
            super().__setattr__(name, value)

    def merge(self, options: "Options") -> "Options":
        """These options with `options`' set values put over them (a new Options).

        Raises:
            TypeError: `options` is not an Options.
        """
        if not isinstance(options, Options):
            raise TypeError(f"Options.merge: expected tf.data.Options, got "
                            f"{type(options).__name__}")
        return self._merged(options)
