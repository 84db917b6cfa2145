"""Strategy, ReplicaContext, ReduceOp and the current-strategy functions.

A Strategy holds a communicator (one process, or the MPI ranks). Each worker runs one
replica: `num_replicas_in_sync` is the number of workers. Variables made inside
`strategy.scope()` are mirrored: on creation every worker takes the chief's (rank 0's)
value, and optimizers sum their gradients over the workers before applying them.
"""
from __future__ import annotations

import contextlib
import enum
import threading
import weakref

from ..eager.backprop import final_gradient_hooks
from ..framework import nest
from ..framework.tensor import convert_to_tensor
from ..framework.variables import (VariableSynchronization, active_creators, creator_scope,
                                   variable_creator_scope)
from ..ops import array_ops, math_ops
from . import cross_replica
from .buckets import GradientBuckets
from .collectives import LocalCommunicator
from .options import CommunicationOptions
from .replica_threads import ReplicaThreads
from .values import DistributedValues, MirroredVariable, PerReplica, SyncOnReadVariable

__all__ = ["ReduceOp", "ReplicaContext", "RunOptions", "Strategy", "experimental_set_strategy",
           "get_replica_context", "get_strategy", "has_strategy", "in_cross_replica_context"]


class ReduceOp(enum.Enum):
    """How values from the replicas are combined: `SUM` or `MEAN`.

    Example:
        >>> import tapeflow as tf
        >>> tf.distribute.ReduceOp("MEAN") is tf.distribute.ReduceOp.MEAN
        True
    """

    SUM = "SUM"
    MEAN = "MEAN"

    @staticmethod
    def of(reduce_op) -> "ReduceOp":
        """A ReduceOp from a ReduceOp or a string ("sum", "MEAN"...).

        Raises:
            ValueError: anything else.
        """
        if isinstance(reduce_op, ReduceOp):
            return reduce_op
        if isinstance(reduce_op, str) and reduce_op.upper() in ("SUM", "MEAN"):
            return ReduceOp(reduce_op.upper())
        raise ValueError(f"reduce_op must be tf.distribute.ReduceOp.SUM or MEAN (or 'sum', "
                         f"'mean'), got {reduce_op!r}")


class RunOptions:
    """Options of `Strategy.run`; accepted for compatibility, none changes a CPU run."""

    def __init__(self, experimental_enable_dynamic_batch_size=True,
                 experimental_bucketizing_dynamic_shape=False,
                 experimental_xla_options=None) -> None:
        self.experimental_enable_dynamic_batch_size = experimental_enable_dynamic_batch_size
        self.experimental_bucketizing_dynamic_shape = experimental_bucketizing_dynamic_shape
        self.experimental_xla_options = experimental_xla_options


# The strategies whose variable creator runs on this thread (see Strategy._create_variable).
_making = threading.local()


class _Context(threading.local):
    def __init__(self) -> None:
        # (strategy, replica context or None), innermost last.
        self.stack: list = []


_context = _Context()


class ReplicaContext:
    """The view of one replica inside `strategy.run`: its id and the collectives.

    Args:
        strategy: the Strategy this replica belongs to.
        replica_id_in_sync_group: this replica's index (its worker's rank).
    """

    def __init__(self, strategy: "Strategy", replica_id_in_sync_group=0) -> None:
        self._strategy = strategy
        self._replica_id = int(replica_id_in_sync_group)
        # The GradientBuckets of this replica's gradient calls.
        self._buckets: list = []

    def _start_reductions(self, sources: list):
        """The hook of a gradient call: reduces the gradients of mirrored variables."""
        strategy = self._strategy
        wanted = {i for i, s in enumerate(sources) if strategy.mirrors(s)}
        if not wanted:
            return None
        pack, timeout = strategy._communication(None)
        self._buckets.append(GradientBuckets(strategy._communicator, sources, wanted, "sum",
                                             pack, timeout))
        return self._buckets[-1]

    def _reduced(self, gradient):
        """The sum over the replicas of `gradient` if a gradient call started it, else
        None."""
        for buckets in self._buckets:
            reduced = buckets.reduced(gradient)
            if reduced is not None:
                return reduced
        return None

    @property
    def strategy(self) -> "Strategy":
        return self._strategy

    @property
    def num_replicas_in_sync(self) -> int:
        return self._strategy.num_replicas_in_sync

    @property
    def replica_id_in_sync_group(self):
        """This replica's index among the `num_replicas_in_sync`, as an int32 Tensor."""
        return convert_to_tensor(self._replica_id, dtype="int32")

    @property
    def devices(self) -> tuple:
        """The device of this replica."""
        devices = self._strategy._devices
        return devices[self._replica_id:self._replica_id + 1] if len(devices) > 1 else devices

    def all_reduce(self, reduce_op, value, options=None):
        """Sums or averages `value` (a nested structure of tensors) over the replicas.

        Dense tensors are packed and all-reduced; IndexedSlices are all-gathered. The
        result is differentiable: a tape sees a sum of the replicas' values.

        Args:
            reduce_op: `tf.distribute.ReduceOp` (or "sum" / "mean").
            value: a tensor or a nested structure of tensors.
            options: a `tf.distribute.experimental.CommunicationOptions`.

        Returns:
            The reduced structure, identical on every replica.

        Example:
            >>> import tapeflow as tf
            >>> strategy = tf.distribute.MirroredStrategy()
            >>> def step():
            ...     context = tf.distribute.get_replica_context()
            ...     return context.all_reduce("sum", tf.constant([1.0, 2.0]))
            >>> strategy.run(step).numpy()
            array([1., 2.], dtype=float32)
        """
        op = ReduceOp.of(reduce_op)
        pack, timeout = self._strategy._communication(options)
        return cross_replica.all_reduce(self._strategy._communicator, op.value.lower(), value,
                                        pack, timeout)

    def all_gather(self, value, axis, options=None):
        """Concatenates each replica's `value` (a nested structure) along `axis`.

        Example:
            >>> import tapeflow as tf
            >>> strategy = tf.distribute.MirroredStrategy()
            >>> strategy.run(lambda: tf.distribute.get_replica_context().all_gather(
            ...     tf.constant([1, 2]), axis=0)).numpy()
            array([1, 2], dtype=int32)
        """
        _, timeout = self._strategy._communication(options)
        return nest.map_structure(
            lambda v: cross_replica.all_gather(self._strategy._communicator, v, axis, timeout),
            value)

    def merge_call(self, merge_fn, args=(), kwargs=None):
        """Calls `merge_fn(strategy, *args, **kwargs)` in the cross-replica context."""
        with self._strategy._entered(None):
            return merge_fn(self._strategy, *args, **(kwargs or {}))


class Strategy:
    """Base of the distribution strategies: `scope`, `run`, `reduce`, `gather` and the
    distributed datasets. Use one of its subclasses."""

    _devices = ("/job:localhost/replica:0/task:0/device:CPU:0",)

    def __init__(self, communicator=None, communication_options=None) -> None:
        self._communicator = communicator or LocalCommunicator()
        self._options = communication_options or CommunicationOptions()
        self._mirrored: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
        _strategies.add(self)
        if getattr(self._communicator, "shares_memory", False):
            _sharing_memory.add(self)

    # -- facts ----------------------------------------------------------------------------
    @property
    def num_replicas_in_sync(self) -> int:
        """The number of replicas that run each step: one per worker."""
        return self._communicator.size

    @property
    def extended(self) -> "Strategy":
        return self

    @property
    def should_checkpoint(self) -> bool:
        """Whether this worker writes checkpoints and logs: only the chief (rank 0)."""
        return self._communicator.rank == 0

    should_save_summary = should_checkpoint

    @property
    def worker_devices(self) -> tuple:
        return self._devices

    @property
    def cluster_resolver(self):
        return None

    def _communication(self, options) -> tuple:
        """(bytes per pack, timeout) from per-call options, else the strategy's."""
        options = options if options is not None else self._options
        return options.bytes_per_pack, options.timeout_seconds

    # -- scope and variables --------------------------------------------------------------
    @contextlib.contextmanager
    def _entered(self, replica_context):
        for strategy, _ in _context.stack:
            if strategy is not self and strategy is not _default_strategy:
                raise ValueError("Mixing different tf.distribute.Strategy objects: "
                                 f"{type(self).__name__} inside the scope of "
                                 f"{type(strategy).__name__}.")
        _context.stack.append((self, replica_context))
        try:
            yield
        finally:
            _context.stack.pop()

    @contextlib.contextmanager
    def scope(self):
        """Makes this the current strategy; Variables made inside are mirrored.

        Example:
            >>> import tapeflow as tf
            >>> strategy = tf.distribute.MirroredStrategy()
            >>> with strategy.scope():
            ...     v = tf.Variable(1.0)
            ...     tf.distribute.get_strategy() is strategy
            True
        """
        with self._entered(None), variable_creator_scope(self._create_variable):
            yield self

    # Whether variables made in the scope are distributed variables (MirroredVariable,
    # SyncOnReadVariable), one component per local replica, even with a single device.
    _distributes_variables = False

    def _create_variable(self, next_creator, **kwargs):
        # The scope can be entered twice on a chain (the user's, then run's): the inner
        # entry of the same strategy passes the variable on, made once.
        making = _making.__dict__.setdefault("strategies", set())
        if id(self) in making:
            return next_creator(**kwargs)
        making.add(id(self))
        try:
            return self._make_variable(next_creator, kwargs)
        finally:
            making.discard(id(self))

    def _make_variable(self, next_creator, kwargs):
        replicas = self._communicator
        sync = kwargs.get("synchronization") or VariableSynchronization.AUTO
        if self._distributes_variables:
            if sync is VariableSynchronization.NONE:
                raise ValueError("`NONE` variable synchronization mode is not supported with "
                                 "tf.distribute strategy. Please change the `synchronization`"
                                 f" for variable: {kwargs.get('name')}")
            if sync is VariableSynchronization.AUTO:
                kwargs["synchronization"] = sync = VariableSynchronization.ON_WRITE
        if isinstance(replicas, ReplicaThreads):
            if not replicas.in_replica():
                return self._distributed_variable(next_creator, replicas, kwargs, sync)
            # Made in a replica: the first replica makes one distributed variable (from its
            # initial value) and every replica gets that same variable.
            made = self._distributed_variable(next_creator, replicas, kwargs, sync) \
                if replicas.rank == 0 else None
            return replicas.broadcast_object(made)
        variable = next_creator(**kwargs)
        if self._communicator.size > 1 and not isinstance(replicas, ReplicaThreads):
            chief, = cross_replica.broadcast(self._communicator, [variable.read_value()], 0,
                                             timeout=self._options.timeout_seconds)
            variable.assign(chief)
        if self._distributes_variables and not isinstance(replicas, ReplicaThreads):
            kind = SyncOnReadVariable if sync is VariableSynchronization.ON_READ \
                else MirroredVariable
            variable = kind.of([variable], self._local_replica)
        self._mirrored[id(variable)] = variable
        return variable

    def _local_replica(self):
        """The index among this process's replicas (one) of the calling code: 0 inside
        this strategy's `run`, None outside it."""
        if _context.stack:
            strategy, replica_context = _context.stack[-1]
            if strategy is self and replica_context is not None:
                return 0
        return None

    def _distributed_variable(self, next_creator, replicas, kwargs, sync):
        """A MirroredVariable (a SyncOnReadVariable when ON_READ): the first component made
        as asked, the others (named '<name>/replica_<i>') start from its value."""
        primary = next_creator(**kwargs)
        components = [primary]
        for i in range(1, replicas.size):
            components.append(next_creator(**{
                **kwargs, "initial_value": primary.read_value(),
                "name": f"{primary._name}/replica_{i}"}))
        kind = SyncOnReadVariable if sync is VariableSynchronization.ON_READ \
            else MirroredVariable
        variable = kind.of(components, replicas.replica_of_thread)
        self._mirrored[id(variable)] = variable
        return variable

    def mirrors(self, variable) -> bool:
        """Whether `variable` was made in this strategy's scope."""
        return self._mirrored.get(id(variable)) is variable

    # -- what TF's StrategyExtended adds (a strategy here is its own `extended`) ------------
    def colocate_vars_with(self, colocate_with_variable):
        """A scope whose new variables are placed on the device of `colocate_with_variable`
        (slot variables beside their variable).

        Example:
            >>> import tapeflow as tf
            >>> v = tf.Variable(1.0)
            >>> with tf.distribute.get_strategy().extended.colocate_vars_with(v):
            ...     slot = tf.Variable(0.0)
            >>> slot.device == v.device
            True
        """
        from ..framework.device import device
        return device(colocate_with_variable.device)

    def update(self, var, fn, args=(), kwargs=None, group=True):
        """`fn(var, *args, **kwargs)`: updates `var` in the cross-replica context (a
        mirrored variable's write reaches every replica's copy) and returns what `fn`
        returns.

        Example:
            >>> import tapeflow as tf
            >>> v = tf.Variable(1.0)
            >>> _ = tf.distribute.get_strategy().extended.update(
            ...     v, lambda var, x: var.assign_add(x), args=(2.0,))
            >>> float(v)
            3.0
        """
        with self._entered(None):
            return fn(var, *args, **(kwargs or {}))

    def call_for_each_replica(self, fn, args=(), kwargs=None):
        """`run(fn, args, kwargs)`: `fn` as each replica."""
        return self.run(fn, args, kwargs)

    # -- running replicas -----------------------------------------------------------------
    def run(self, fn, args=(), kwargs=None, options=None):
        """Runs `fn(*args, **kwargs)` as this worker's replica and returns its result.

        Inside, `tf.distribute.get_replica_context()` gives the replica's collectives and
        optimizers sum the gradients of mirrored variables over the replicas.

        Example:
            >>> import tapeflow as tf
            >>> strategy = tf.distribute.MirroredStrategy()
            >>> float(strategy.run(lambda x: x * 2.0, args=(tf.constant(3.0),)))
            6.0
        """
        # In the strategy's scope (a subclass's `scope()` included, with the variable
        # creators it adds), as the replica.
        if isinstance(self._communicator, ReplicaThreads):
            with self.scope():
                return self._run_replicas(fn, args, kwargs or {})
        context = ReplicaContext(self, self._communicator.rank)
        with self.scope(), self._entered(context):
            if self._communicator.size == 1:
                return fn(*args, **(kwargs or {}))
            # Gradients of mirrored variables start their all-reduce during the backward
            # pass; applying them takes the sums (`sum_mirrored_gradients`).
            with final_gradient_hooks(context._start_reductions):
                result = fn(*args, **(kwargs or {}))
            for buckets in context._buckets:
                buckets.settle()
            return result

    def _run_replicas(self, fn, args: tuple, kwargs: dict):
        """`fn` on each replica thread, a PerReplica argument giving each its value; the
        results regrouped: a PerReplica per leaf where the replicas' values differ. Each
        replica thread runs under the caller's variable creators (the scope's among them)."""
        creators = active_creators()

        def replica(i: int):
            picked_args, picked_kwargs = nest.map_structure(
                lambda v: v._replica_value(i) if isinstance(v, DistributedValues) else v,
                (args, kwargs))
            with contextlib.ExitStack() as stack:
                for priority, creator in creators:
                    stack.enter_context(creator_scope(creator, priority))
                stack.enter_context(self._entered(ReplicaContext(self, i)))
                return fn(*picked_args, **picked_kwargs)

        results = self._communicator.run_replicas(replica)
        leaves = zip(*[nest.flatten(result) for result in results])
        return nest.pack_sequence_as(results[0], [
            values[0] if all(v is values[0] for v in values) else PerReplica(values)
            for values in leaves])

    def experimental_local_results(self, value) -> tuple:
        """This process's values of a per-replica result, one per local replica (a
        structure of PerReplica values gives one structure per replica).

        Example:
            >>> import tapeflow as tf
            >>> strategy = tf.distribute.MirroredStrategy()
            >>> strategy.experimental_local_results(tf.constant(1.0))
            (<tf.Tensor: shape=(), dtype=float32, numpy=1.0>,)
        """
        if isinstance(value, (DistributedValues, MirroredVariable, SyncOnReadVariable)):
            return tuple(value.values)
        count = self._communicator.size if isinstance(self._communicator, ReplicaThreads) \
            else 1
        return tuple(nest.map_structure(
            lambda v: v._replica_value(i) if isinstance(v, DistributedValues) else v, value)
            for i in range(count))

    def unwrap(self, value) -> tuple:
        """TF 1's name of `experimental_local_results`, which TF's strategies still answer to.

        Example:
            >>> import tapeflow as tf
            >>> tf.distribute.MirroredStrategy().unwrap(tf.constant(2.0))
            (<tf.Tensor: shape=(), dtype=float32, numpy=2.0>,)
        """
        return self.experimental_local_results(value)

    def reduce(self, reduce_op, value, axis):
        """Reduces per-replica `value` over the replicas (and along `axis` when not None).

        Args:
            reduce_op: `tf.distribute.ReduceOp.SUM` or `MEAN` (or "sum" / "mean").
            value: a tensor (or nested structure) each replica returned from `run`.
            axis: None to reduce across replicas only; an int to also reduce along that
                axis, MEAN then dividing by the global count along it.

        Returns:
            The reduced tensor(s), identical on every worker.

        Example:
            >>> import tapeflow as tf
            >>> strategy = tf.distribute.MirroredStrategy()
            >>> float(strategy.reduce("MEAN", tf.constant([1.0, 2.0, 6.0]), axis=0))
            3.0
        """
        op = ReduceOp.of(reduce_op)
        if isinstance(self._communicator, ReplicaThreads):
            return nest.map_structure(lambda v: self._reduce_local(op, v, axis), value)

        def reduce_one(v):
            tensor = convert_to_tensor(v)
            if axis is None:
                return self._replicas_reduced(op.value.lower(), tensor)
            total = self._replicas_reduced("sum", math_ops.reduce_sum(tensor, axis))
            if op is ReduceOp.SUM:
                return total
            count = math_ops.cast(array_ops.shape(tensor)[axis], total.dtype)
            return math_ops.divide(total, self._replicas_reduced("sum", count))

        with self._entered(None):
            return nest.map_structure(reduce_one, value)

    def _reduce_local(self, op: "ReduceOp", value, axis):
        """`reduce` over the replicas of this process, by the strategy's CrossDeviceOps."""
        parts = [convert_to_tensor(v) for v in self.experimental_local_results(value)]
        if axis is None:
            return self._cross_device_ops.reduce(op, PerReplica(parts), None)
        total = self._cross_device_ops.reduce(
            "sum", PerReplica([math_ops.reduce_sum(p, axis) for p in parts]), None)
        if op is ReduceOp.SUM:
            return total
        count = math_ops.add_n([array_ops.shape(p)[axis] for p in parts])
        return math_ops.divide(total, math_ops.cast(count, total.dtype))

    def _replicas_reduced(self, op: str, value):
        pack, timeout = self._communication(None)
        return cross_replica.all_reduce(self._communicator, op, convert_to_tensor(value),
                                        pack, timeout)

    def gather(self, value, axis):
        """Concatenates every replica's `value` along `axis`, on every worker.

        Example:
            >>> import tapeflow as tf
            >>> strategy = tf.distribute.MirroredStrategy()
            >>> strategy.gather(tf.constant([[1.0, 2.0]]), axis=0).shape
            TensorShape([1, 2])
        """
        _, timeout = self._communication(None)
        return nest.map_structure(
            lambda v: cross_replica.all_gather(self._communicator, v, axis, timeout), value)

    # -- input ----------------------------------------------------------------------------
    def experimental_distribute_dataset(self, dataset, options=None):
        """Each worker's share of `dataset`, an iterable of global batches.

        Every batch (an array, tensor, or tuple/dict of them, batched along axis 0) is cut
        into `num_replicas_in_sync` contiguous parts; this worker iterates over its part, so
        the workers' parts of step k make up the k-th global batch.

        Example:
            >>> import numpy as np
            >>> import tapeflow as tf
            >>> strategy = tf.distribute.MirroredStrategy()
            >>> batches = [np.arange(4.0), np.arange(4.0, 8.0)]
            >>> [b.shape for b in strategy.experimental_distribute_dataset(batches)]
            [TensorShape([4]), TensorShape([4])]
        """
        from .input_lib import DistributedDataset
        if isinstance(self._communicator, ReplicaThreads):
            return DistributedDataset(dataset, 0, self.num_replicas_in_sync,
                                      self.num_replicas_in_sync)
        return DistributedDataset(dataset, self._communicator.rank, self.num_replicas_in_sync)

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        """This worker's dataset `dataset_fn(input_context)`, used as it is: the function
        shards and batches by `input_context` (one input pipeline per worker).

        Example:
            >>> import numpy as np
            >>> import tapeflow as tf
            >>> strategy = tf.distribute.MirroredStrategy()
            >>> def dataset_fn(context):
            ...     size = context.get_per_replica_batch_size(4)
            ...     data = np.arange(8.0)[context.input_pipeline_id::context.num_input_pipelines]
            ...     return [data[i:i + size] for i in range(0, len(data), size)]
            >>> len(list(strategy.distribute_datasets_from_function(dataset_fn)))
            2
        """
        from .input_lib import DistributedDataset, InputContext
        context = InputContext(self._communicator.size, self._communicator.rank,
                               self.num_replicas_in_sync)
        return DistributedDataset(dataset_fn(context), 0, 1)

    experimental_distribute_datasets_from_function = distribute_datasets_from_function

    def experimental_distribute_values_from_function(self, value_fn):
        """This worker's replica's value, `value_fn(ValueContext)`.

        Example:
            >>> import tapeflow as tf
            >>> strategy = tf.distribute.MirroredStrategy()
            >>> strategy.experimental_distribute_values_from_function(
            ...     lambda context: context.replica_id_in_sync_group + 10)
            10
        """
        from .input_lib import ValueContext
        return value_fn(ValueContext(self._communicator.rank, self.num_replicas_in_sync))


_strategies: weakref.WeakSet = weakref.WeakSet()
# Those whose several workers share memory (`sharded_update`).
_sharing_memory: weakref.WeakSet = weakref.WeakSet()


def sum_mirrored_gradients(grads_and_vars) -> list:
    """(gradient, variable) pairs with the gradients of mirrored variables summed over their
    strategy's replicas, each strategy's in one packed all-reduce (optimizers call this)."""
    pairs = list(grads_and_vars)
    replica = _context.stack[-1][1] if _context.stack else None
    for strategy in list(_strategies):
        if strategy.num_replicas_in_sync == 1:
            continue
        mine = [i for i, (g, v) in enumerate(pairs) if g is not None and strategy.mirrors(v)]
        if replica is not None and replica._strategy is strategy:
            started = [(i, replica._reduced(pairs[i][0])) for i in mine]
            for i, gradient in started:
                if gradient is not None:
                    pairs[i] = (gradient, pairs[i][1])
            mine = [i for i, gradient in started if gradient is None]
        if mine:
            pack, timeout = strategy._communication(None)
            summed = cross_replica.all_reduce(strategy._communicator, "sum",
                                              [pairs[i][0] for i in mine], pack, timeout)
            for i, gradient in zip(mine, summed):
                pairs[i] = (gradient, pairs[i][1])
    return pairs


class _DefaultStrategy(Strategy):
    """The strategy in force outside every scope: one replica, nothing mirrored."""

    def _create_variable(self, next_creator, **kwargs):
        return next_creator(**kwargs)

    def experimental_distribute_dataset(self, dataset, options=None):
        """`dataset` itself: the one replica reads every batch whole (as in TF, its
        iterator is the dataset's own, usable inside tf.function)."""
        return dataset


_default_strategy = _DefaultStrategy()


def get_strategy() -> Strategy:
    """The current strategy: the innermost `scope()` or `run`, else the default (one
    replica).

    Example:
        >>> import tapeflow as tf
        >>> tf.distribute.get_strategy().num_replicas_in_sync
        1
    """
    return _context.stack[-1][0] if _context.stack else _default_strategy


def has_strategy() -> bool:
    """Whether a strategy other than the default is current.

    Example:
        >>> import tapeflow as tf
        >>> tf.distribute.has_strategy()
        False
    """
    return get_strategy() is not _default_strategy


def get_replica_context():
    """The current ReplicaContext: inside `run`, or the default one outside every scope;
    None in the cross-replica context (in a scope, outside `run`).

    Example:
        >>> import tapeflow as tf
        >>> strategy = tf.distribute.MirroredStrategy()
        >>> with strategy.scope():
        ...     tf.distribute.get_replica_context() is None
        True
        >>> int(strategy.run(tf.distribute.get_replica_context).replica_id_in_sync_group)
        0
    """
    if not _context.stack:
        return ReplicaContext(_default_strategy)
    return _context.stack[-1][1]


def in_cross_replica_context() -> bool:
    """Whether the code runs in a strategy's scope but outside `run`.

    Example:
        >>> import tapeflow as tf
        >>> with tf.distribute.MirroredStrategy().scope():
        ...     tf.distribute.in_cross_replica_context()
        True
    """
    return bool(_context.stack) and _context.stack[-1][1] is None


def experimental_set_strategy(strategy) -> None:
    """Enters `strategy`'s scope until the next call (None: back to the default strategy).

    Example:
        >>> import tapeflow as tf
        >>> tf.distribute.experimental_set_strategy(tf.distribute.MirroredStrategy())
        >>> tf.distribute.has_strategy()
        True
        >>> tf.distribute.experimental_set_strategy(None)
    """
    global _set_scope
    if _set_scope is not None:
        _set_scope.close()
        _set_scope = None
    if strategy is not None:
        _set_scope = contextlib.ExitStack()
        _set_scope.enter_context(strategy.scope())


_set_scope = None
