"""tf.data.Dataset: a lazy, streaming sequence of elements built from sources
(`from_tensor_slices`, `from_generator`, `range`...) and transformations (`map`, `batch`,
`shuffle`...).

Nothing is computed when a dataset is built: each iteration (`for x in ds`, `iter(ds)`)
pulls elements one at a time through the chain, so a generator of any length (infinite
ones too) is never held in memory. Elements are Tensors, or tuples / dicts of them.
"""
from __future__ import annotations

import numpy as np

from ..framework import dtypes, errors
from ..framework.context import executing_eagerly
from ..framework.graph import init_scope
from ..framework.tensor import Tensor, convert_to_tensor
from ..ops import iterator_ops
from ..trackable.base import Trackable
from ..ops.optional_ops import Optional
from . import structure
from .options import Options

__all__ = ["Dataset", "OwnedIterator", "GraphIterator", "AUTOTUNE", "INFINITE_CARDINALITY",
           "UNKNOWN_CARDINALITY"]

AUTOTUNE = -1
INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2


class Dataset:
    """A sequence of elements, each a Tensor or a nested structure (tuple, dict) of them.

    Build one with a source (`Dataset.from_tensor_slices`, `from_tensors`, `from_generator`,
    `range`, `zip`) and chain transformations; every transformation returns a new Dataset
    and leaves this one as it was. Iterate it in eager code (`for x in ds`, `iter`,
    `next`), or hand it to `keras.Model.fit`.

    Example:
        >>> import tapeflow as tf
        >>> ds = tf.data.Dataset.range(10).filter(lambda x: x % 2 == 0).map(lambda x: x * x)
        >>> [int(x) for x in ds.batch(2).unbatch()]
        [0, 4, 16, 36, 64]
        >>> ds.element_spec
        TensorSpec(shape=(), dtype=tf.int64, name=None)
    """

    _spec_cache = None

    # -- what each kind of dataset defines -------------------------------------------------
    def _elements(self):
        """A fresh Python iterator over the elements."""
        raise NotImplementedError

    def _cardinality(self) -> int:
        """The number of elements, INFINITE_CARDINALITY or UNKNOWN_CARDINALITY."""
        return UNKNOWN_CARDINALITY

    def _compute_spec(self):
        raise NotImplementedError

    def _inputs(self) -> list:
        """The datasets this one reads (whose options it inherits)."""
        return []

    # -- inspection ------------------------------------------------------------------------
    def options(self) -> Options:
        """The options of this dataset: its inputs' merged, with those given to
        `with_options` on the way put over them."""
        merged = Options()
        for dataset in self._inputs():
            merged = merged.merge(dataset.options())
        own = getattr(self, "_own_options", None)
        return merged if own is None else merged.merge(own)

    def with_options(self, options: Options) -> "Dataset":
        """This dataset with `options` set (over those it has).

        Raises:
            TypeError: `options` is not a `tf.data.Options`.

        Example:
            >>> import tapeflow as tf
            >>> options = tf.data.Options()
            >>> options.deterministic = False
            >>> tf.data.Dataset.range(2).with_options(options).options().deterministic
            False
        """
        if not isinstance(options, Options):
            raise TypeError(f"with_options: expected tf.data.Options, got "
                            f"{type(options).__name__}")
        return transformations.OptionsDataset(self, options)

    @property
    def element_spec(self):
        """The structure of TensorSpecs (shape, dtype) every element matches; a None
        dimension varies between elements."""
        if self._spec_cache is None:
            with init_scope():  # as when built: a spec found from elements reads them eagerly
                self._spec_cache = self._compute_spec()
        return self._spec_cache

    def cardinality(self) -> Tensor:
        """The number of elements as an int64 scalar Tensor: -1
        (`tf.data.INFINITE_CARDINALITY`) when infinite, -2 (`UNKNOWN_CARDINALITY`) when
        it cannot be known without iterating (after `filter`, `from_generator`...).

        Example:
            >>> import tapeflow as tf
            >>> int(tf.data.Dataset.range(5).batch(2).cardinality())
            3
            >>> int(tf.data.Dataset.range(5).repeat().cardinality())
            -1
        """
        return Tensor(np.array(self._cardinality(), dtype=np.int64))

    def __len__(self) -> int:
        """The number of elements.

        Raises:
            TypeError: the dataset is infinite, or its length is unknown.
        """
        count = self._cardinality()
        if count == INFINITE_CARDINALITY:
            raise TypeError("The dataset is infinite.")
        if count == UNKNOWN_CARDINALITY:
            raise TypeError("The dataset length is unknown.")
        return count

    def __bool__(self) -> bool:
        return True

    def __repr__(self) -> str:
        return f"<_{type(self).__name__} element_spec={self.element_spec}>"

    # -- iteration -------------------------------------------------------------------------
    def __iter__(self) -> "OwnedIterator":
        """An iterator over the elements (eager execution only; in a function tf.function
        converts, `iter(dataset)` is a `GraphIterator` and a `for` loop over the dataset a
        `tf.while_loop`).

        Raises:
            RuntimeError: called by unconverted code while a graph is being built.
        """
        if not executing_eagerly():
            raise RuntimeError("`tf.data.Dataset` only supports Python-style iteration in "
                               "eager mode or in code tf.function converts (a for loop "
                               "over the dataset, iter() and next()).")
        return OwnedIterator(self)

    def as_numpy_iterator(self):
        """An iterator over the elements as NumPy values (arrays, NumPy scalars for
        rank-0 tensors), keeping their tuple / dict structure.

        Example:
            >>> import tapeflow as tf
            >>> list(tf.data.Dataset.from_tensor_slices(([1, 2], [3.0, 4.0]))
            ...      .as_numpy_iterator())
            [(np.int32(1), np.float32(3.0)), (np.int32(2), np.float32(4.0))]
        """
        for element in self:
            yield structure.map_structure(lambda t: t.numpy(), element)

    def reduce(self, initial_state, reduce_func):
        """Folds the elements into a state: `state = reduce_func(state, element)` for each.

        Example:
            >>> import numpy as np
            >>> import tapeflow as tf
            >>> int(tf.data.Dataset.range(5).reduce(np.int64(0), lambda total, x: total + x))
            10
        """
        state = structure.to_element(initial_state)
        for element in self._elements():
            iterator_ops.raise_if_error(element)
            state = structure.to_element(reduce_func(state, element), lists_are_structures=True)
        return state

    def get_single_element(self, name=None):
        """The one element of a dataset of exactly one element.

        Raises:
            InvalidArgumentError: the dataset is empty or has more than one element.

        Example:
            >>> import tapeflow as tf
            >>> tf.data.Dataset.from_tensors([1, 2]).get_single_element().numpy().tolist()
            [1, 2]
        """
        elements = self._elements()
        first = next(elements, None)
        if first is None:
            raise errors.InvalidArgumentError(None, "DatasetToSingleElement",
                                              "Dataset was empty.")
        if next(elements, None) is not None:
            raise errors.InvalidArgumentError(None, "DatasetToSingleElement",
                                              "Dataset had more than one element.")
        return iterator_ops.raise_if_error(first)

    def apply(self, transformation_func) -> "Dataset":
        """`transformation_func(self)`, which must return a Dataset."""
        result = transformation_func(self)
        if not isinstance(result, Dataset):
            raise TypeError("`transformation_func` must return a `tf.data.Dataset` object, "
                            f"got {type(result).__name__}.")
        return result

    # -- sources ---------------------------------------------------------------------------
    @staticmethod
    def from_tensor_slices(tensors, name=None) -> "Dataset":
        """One element per row of `tensors`: the slices along the first dimension of each
        tensor of the structure (a tuple or dict of arrays gives tuple or dict elements).

        Raises:
            ValueError: the tensors' first dimensions differ, a tensor is a scalar, or the
                structure is empty.

        Example:
            >>> import tapeflow as tf
            >>> ds = tf.data.Dataset.from_tensor_slices({"x": [[1, 2], [3, 4]], "y": [0, 1]})
            >>> [int(e["y"]) for e in ds], ds.element_spec["x"].shape
            ([0, 1], TensorShape([2]))
        """
        return sources.TensorSliceDataset(tensors)

    @staticmethod
    def from_tensors(tensors, name=None) -> "Dataset":
        """A dataset of one element, `tensors` (a Tensor or a tuple / dict of them).

        Example:
            >>> import tapeflow as tf
            >>> [t.numpy().tolist() for t in tf.data.Dataset.from_tensors([1, 2])]
            [[1, 2]]
        """
        return sources.TensorDataset(tensors)

    @staticmethod
    def from_generator(generator, output_types=None, output_shapes=None, args=None,
                       output_signature=None, name=None) -> "Dataset":
        """Elements yielded by `generator(*args)`, called anew for each iteration and
        read one element at a time (a generator may be infinite).

        Args:
            generator: a callable returning an iterator (a generator function).
            output_signature: a (nested) structure of `tf.TensorSpec` every yielded element
                matches; values are converted to the specs' dtypes.
            output_types, output_shapes: the older form: dtypes (and shapes, default
                unknown) in the structure of the elements.
            args: arguments passed to `generator`.

        Raises:
            TypeError: neither or both of `output_signature` and `output_types`.
            InvalidArgumentError: (while iterating) a yielded element whose structure,
                dtype or shape does not match.

        Example:
            >>> import itertools
            >>> import tapeflow as tf
            >>> ds = tf.data.Dataset.from_generator(
            ...     itertools.count, output_signature=tf.TensorSpec([], tf.int64))
            >>> [int(x) for x in ds.take(3)]
            [0, 1, 2]
        """
        return sources.GeneratorDataset(generator, output_types, output_shapes, args,
                                        output_signature)

    @staticmethod
    def range(*args, output_type=None, name=None) -> "Dataset":
        """`range(stop)`, `range(start, stop[, step])`: the numbers Python's range gives,
        as int64 scalars (or `output_type`).

        Raises:
            InvalidArgumentError: a step of 0.

        Example:
            >>> import tapeflow as tf
            >>> [int(x) for x in tf.data.Dataset.range(5, 0, -2)]
            [5, 3, 1]
        """
        return sources.RangeDataset(args, output_type)

    @staticmethod
    def zip(*args, datasets=None, name=None) -> "Dataset":
        """Elements combined from several datasets in their structure: `zip(a, b)` or
        `zip((a, b))` gives tuples, `zip({"x": a, "y": b})` dicts; it ends with the
        shortest.

        Raises:
            TypeError: no datasets, or a leaf that is not a Dataset.

        Example:
            >>> import tapeflow as tf
            >>> ds = tf.data.Dataset.zip(tf.data.Dataset.range(3), tf.data.Dataset.range(5, 9))
            >>> [(int(a), int(b)) for a, b in ds]
            [(0, 5), (1, 6), (2, 7)]
        """
        if datasets is None:
            if not args:
                raise TypeError("Must pass at least one dataset to `zip`.")
            datasets = args[0] if len(args) == 1 else args
        return transformations.ZipDataset(datasets)

    # -- transformations -------------------------------------------------------------------
    def map(self, map_func, num_parallel_calls=None, deterministic=None, name=None) -> "Dataset":
        """`map_func` applied to each element; a tuple element is unpacked into its
        arguments, as `map_func(*element)`. Returning a list makes a tuple element.

        `map_func` runs eagerly on each element (`num_parallel_calls` and `deterministic`
        are accepted; elements keep their order). `element_spec` comes from tracing it
        once in a graph, as TF does.

        Example:
            >>> import tapeflow as tf
            >>> ds = tf.data.Dataset.from_tensor_slices(([1, 2], [10, 20]))
            >>> [int(x) for x in ds.map(lambda a, b: a + b)]
            [11, 22]
        """
        return transformations.MapDataset(self, map_func)

    def filter(self, predicate, name=None) -> "Dataset":
        """The elements for which `predicate(element)` (unpacked like `map`) is True.

        Raises:
            ValueError: (while iterating) the predicate does not return a scalar bool.

        Example:
            >>> import tapeflow as tf
            >>> [int(x) for x in tf.data.Dataset.range(10).filter(lambda x: x % 4 == 0)]
            [0, 4, 8]
        """
        return transformations.FilterDataset(self, predicate)

    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None,
              deterministic=None, name=None) -> "Dataset":
        """Consecutive elements stacked into batches of `batch_size` (the last one smaller
        unless `drop_remainder`).

        Raises:
            InvalidArgumentError: a batch size below 1, or (while iterating) elements of
                different shapes in one batch (use `padded_batch`).

        Example:
            >>> import tapeflow as tf
            >>> [b.numpy().tolist() for b in tf.data.Dataset.range(5).batch(2)]
            [[0, 1], [2, 3], [4]]
        """
        return batching.BatchDataset(self, batch_size, drop_remainder)

    def ragged_batch(self, batch_size, drop_remainder=False, row_splits_dtype=dtypes.int64,
                     name=None) -> "Dataset":
        """Batches of `batch_size` elements in which components whose shape is not fully
        known become RaggedTensors (rows of their own lengths); others stack as `batch`.

        Raises:
            InvalidArgumentError: a batch size below 1.

        Example:
            >>> import tapeflow as tf
            >>> ds = tf.data.Dataset.range(4).map(lambda i: tf.range(i))
            >>> [b.to_list() for b in ds.ragged_batch(2)]
            [[[], [0]], [[0, 1], [0, 1, 2]]]
        """
        return batching.RaggedBatchDataset(self, batch_size, drop_remainder,
                                           dtypes.as_dtype(row_splits_dtype))

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None,
                     drop_remainder=False, name=None) -> "Dataset":
        """Batches of elements padded at the end of each dimension to a common shape.

        Args:
            padded_shapes: per component, the shape to pad to; a None (or -1) dimension
                pads to the longest in the batch (the default for every dimension).
            padding_values: per component, the scalar to pad with (default 0, False);
                a Tensor of the component's dtype, or a Python number.

        Raises:
            InvalidArgumentError: (while iterating) an element longer than its padded shape.
            TypeError: a padding value whose dtype differs from its component's.

        Example:
            >>> import tapeflow as tf
            >>> ds = tf.data.Dataset.range(1, 4).map(lambda n: tf.fill([n], n))
            >>> [b.numpy().tolist() for b in ds.padded_batch(2)]
            [[[1, 0], [2, 2]], [[3, 3, 3]]]
        """
        return batching.PaddedBatchDataset(self, batch_size, padded_shapes, padding_values,
                                           drop_remainder)

    def window(self, size, shift=None, stride=1, drop_remainder=False,
               name=None) -> "Dataset":
        """Windows of `size` elements (every `stride`-th), a new one every `shift` elements
        (default `size`); each window is the element structure with a Dataset in place of
        each tensor. The last windows are shorter unless `drop_remainder`.

        Raises:
            InvalidArgumentError: a size, shift or stride below 1.

        Example:
            >>> import tapeflow as tf
            >>> windows = tf.data.Dataset.range(5).window(3, shift=1, drop_remainder=True)
            >>> [w.numpy().tolist() for w in windows.flat_map(lambda w: w.batch(3))]
            [[0, 1, 2], [1, 2, 3], [2, 3, 4]]
        """
        return batching.WindowDataset(self, size, shift, stride, drop_remainder)

    def unbatch(self, name=None) -> "Dataset":
        """The rows of each element along its first dimension, as separate elements.

        Raises:
            ValueError: an element with a scalar component.

        Example:
            >>> import tapeflow as tf
            >>> [int(x) for x in tf.data.Dataset.range(5).batch(2).unbatch()]
            [0, 1, 2, 3, 4]
        """
        return batching.UnbatchDataset(self)

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True,
                name=None) -> "Dataset":
        """The elements in random order, drawn from a buffer of `buffer_size` elements that
        is refilled from the input as it empties (a buffer at least as large as the dataset
        gives a uniform shuffle).

        The order follows TF's seed rules: with `tf.random.set_seed` or `seed`, it is the
        same in every run; each iteration gets a new order unless
        `reshuffle_each_iteration=False`. Orders differ from TF's.

        Raises:
            InvalidArgumentError: a buffer size below 1.

        Example:
            >>> import tapeflow as tf
            >>> ds = tf.data.Dataset.range(5).shuffle(5, seed=1, reshuffle_each_iteration=False)
            >>> sorted(int(x) for x in ds), [int(x) for x in ds] == [int(x) for x in ds]
            ([0, 1, 2, 3, 4], True)
        """
        return transformations.ShuffleDataset(self, buffer_size, seed, reshuffle_each_iteration)

    def repeat(self, count=None, name=None) -> "Dataset":
        """The elements `count` times over (forever when None or -1).

        Example:
            >>> import tapeflow as tf
            >>> [int(x) for x in tf.data.Dataset.range(2).repeat(2)]
            [0, 1, 0, 1]
        """
        return transformations.RepeatDataset(self, count)

    def take(self, count, name=None) -> "Dataset":
        """The first `count` elements (all of them when -1).

        Example:
            >>> import tapeflow as tf
            >>> [int(x) for x in tf.data.Dataset.range(10).take(3)]
            [0, 1, 2]
        """
        return transformations.TakeDataset(self, count)

    def skip(self, count, name=None) -> "Dataset":
        """The elements after the first `count` (none when -1).

        Example:
            >>> import tapeflow as tf
            >>> [int(x) for x in tf.data.Dataset.range(5).skip(3)]
            [3, 4]
        """
        return transformations.SkipDataset(self, count)

    def save(self, path, compression=None, shard_func=None, checkpoint_args=None) -> None:
        """Writes the elements under the directory `path` in TF's format (see
        `tapeflow.data.snapshot`); `Dataset.load(path)` reads them back, in TF too.

        Example:
            >>> import os, tempfile
            >>> import tapeflow as tf
            >>> path = os.path.join(tempfile.mkdtemp(), "saved")
            >>> tf.data.Dataset.from_tensor_slices({"x": [1, 2]}).save(path, "GZIP")
            >>> [int(e["x"]) for e in tf.data.Dataset.load(path, compression="GZIP")]
            [1, 2]
        """
        from .snapshot import save
        save(self, path, compression, shard_func, checkpoint_args)

    @staticmethod
    def load(path, element_spec=None, compression=None, reader_func=None,
             wait=False) -> "Dataset":
        """The dataset `Dataset.save` (tapeflow's or TF's) wrote under `path`."""
        from .snapshot import load
        return load(path, element_spec, compression, reader_func, wait)

    def cache(self, filename="", name=None) -> "Dataset":
        """The elements, kept after the first complete iteration so later ones do not
        recompute them: in memory, or with `filename` in that file, which later
        iterations (and later programs) read instead of the input.

        Example:
            >>> import tapeflow as tf
            >>> calls = []
            >>> ds = tf.data.Dataset.range(3).map(lambda x: calls.append(1) or x).cache()
            >>> _ = list(ds); _ = list(ds)
            >>> len(calls)
            3
        """
        return transformations.CacheDataset(self, filename)

    def ignore_errors(self, log_warning=False, name=None) -> "Dataset":
        """The elements without those that failed (a record that does not parse, a map
        function that raised an op error), which iterating would raise.

        Args:
            log_warning: log each dropped error (with the `logging` module).

        Example:
            >>> import tapeflow as tf
            >>> ds = tf.data.Dataset.from_tensor_slices(["1", "x", "3"]).map(tf.strings.to_number)
            >>> [float(x) for x in ds.ignore_errors()]
            [1.0, 3.0]
        """
        return transformations.IgnoreErrorsDataset(self, log_warning)

    def prefetch(self, buffer_size, name=None) -> "Dataset":
        """The same elements (the buffer size is accepted; elements are produced when
        asked for)."""
        return transformations.PrefetchDataset(self)

    def enumerate(self, start=0, name=None) -> "Dataset":
        """`(index, element)` pairs, the index an int64 counting from `start`.

        Example:
            >>> import tapeflow as tf
            >>> [(int(i), int(x)) for i, x in tf.data.Dataset.range(5, 7).enumerate()]
            [(0, 5), (1, 6)]
        """
        return Dataset.zip((Dataset.range(start, np.iinfo(np.int64).max), self))

    def concatenate(self, dataset, name=None) -> "Dataset":
        """This dataset's elements, then `dataset`'s.

        Raises:
            TypeError: the elements differ in structure or dtypes.

        Example:
            >>> import tapeflow as tf
            >>> a, b = tf.data.Dataset.range(2), tf.data.Dataset.range(5, 7)
            >>> [int(x) for x in a.concatenate(b)]
            [0, 1, 5, 6]
        """
        return transformations.ConcatenateDataset(self, dataset)

    def flat_map(self, map_func, name=None) -> "Dataset":
        """The elements of the datasets `map_func(element)` returns, one after another.

        Example:
            >>> import tapeflow as tf
            >>> ds = tf.data.Dataset.range(1, 3).flat_map(lambda n: tf.data.Dataset.range(n))
            >>> [int(x) for x in ds]
            [0, 0, 1]
        """
        return transformations.FlatMapDataset(self, map_func)


    def interleave(self, map_func, cycle_length=None, block_length=None,
                   num_parallel_calls=None, deterministic=None, name=None) -> "Dataset":
        """The elements of the datasets `map_func(element)` makes, `cycle_length` of them
        open at a time and read in turn, `block_length` elements (default 1) from each;
        a finished one is replaced by the next input element's dataset, as TF orders them.
        `cycle_length` defaults to the number of CPU cores, as in TF.

        Example:
            >>> import tapeflow as tf
            >>> ds = tf.data.Dataset.range(1, 4).interleave(
            ...     lambda n: tf.data.Dataset.from_tensors(n).repeat(n), cycle_length=2)
            >>> [int(x) for x in ds]
            [1, 2, 2, 3, 3, 3]
        """
        return transformations.InterleaveDataset(self, map_func, cycle_length, block_length)


_ITERATOR_IN_GRAPH = ("A tf.data iterator cannot be iterated by Python inside a graph; use "
                      "next(), or a for loop in code tf.function converts.")


class OwnedIterator(Trackable):
    """An iterator over a dataset's elements (what `iter(dataset)` returns in eager code).

    A trackable: `tf.train.Checkpoint` saves its position (an int64 count of the elements
    read, under `.../.ATTRIBUTES/ITERATOR_STATE`) and restoring replays the dataset to it,
    so a pipeline whose passes are alike (a seeded shuffle that does not reshuffle each
    iteration included) continues where it was saved; one that reshuffles each pass
    continues with a new pass's order.
    (TF saves an opaque variant there: the two libraries' iterator states do not move
    between them.)

    Inside tf.function (given as an argument or captured), `next(it)` and `it.get_next()`
    read the next element when the graph runs, continuing from where eager code and earlier
    calls left it, and a `for` loop over it (in converted code) continues from there too.

    Example:
        >>> import tapeflow as tf
        >>> it = iter(tf.data.Dataset.range(5))
        >>> int(next(it)), int(it.get_next())
        (0, 1)
        >>> step = tf.function(lambda it: next(it) * 10)
        >>> int(step(it)), int(step(it)), int(next(it))
        (20, 30, 4)
    """

    def __init__(self, dataset: Dataset) -> None:
        self._dataset = dataset
        self._consumed = 0
        self._elements = self._counting(dataset._elements())
        self._handle = None

    def _counting(self, elements):
        for element in elements:
            self._consumed += 1
            yield element

    def _serialize_to_tensors(self) -> dict:
        return {"ITERATOR_STATE": np.array([self._consumed], np.int64)}

    def _restore_from_tensors(self, restored_tensors: dict):
        """Replays the dataset to the saved position.

        Raises:
            InvalidArgumentError: the state is not one tapeflow saved (TF's is opaque).
        """
        state = np.asarray(restored_tensors["ITERATOR_STATE"])
        if state.dtype.kind not in "iu" or state.size != 1:
            raise errors.InvalidArgumentError(
                None, None, f"Cannot restore a tf.data iterator from a state of dtype "
                            f"{state.dtype} and shape {list(state.shape)}: tapeflow saves an "
                            f"int64 position (TF's iterator state is opaque)")
        import itertools
        target = int(state.reshape(-1)[0])
        if self._consumed > target:         # past it: a new pass over the dataset
            self._consumed = 0
            self._elements = self._counting(self._dataset._elements())
        for _ in itertools.islice(self._elements, target - self._consumed):
            pass
        if self._handle is not None:
            self._handle = iterator_ops.register(self._elements, self)
        return self

    @property
    def element_spec(self):
        return self._dataset.element_spec

    @property
    def handle(self) -> Tensor:
        """The int64 tensor naming this iterator to the graph ops that read it."""
        if self._handle is None:
            self._handle = iterator_ops.register(self._elements, self)
        return convert_to_tensor(np.int64(self._handle))

    def __iter__(self) -> "OwnedIterator":
        if not executing_eagerly():
            raise RuntimeError(_ITERATOR_IN_GRAPH)
        return self

    def __next__(self):
        if not executing_eagerly():
            return iterator_ops.get_next(self.handle, self.element_spec)
        element = next(self._elements)
        if type(element) is iterator_ops.ElementError:  # the next element is still there
            raise element.error
        return element

    def get_next(self):
        """The next element (inside a graph: read when the graph runs).

        Raises:
            OutOfRangeError: the dataset has no more elements.
        """
        try:
            return next(self)
        except StopIteration:
            raise errors.OutOfRangeError(None, "IteratorGetNext", "End of sequence") from None

    def get_next_as_optional(self) -> Optional:
        """The next element as a `tf.experimental.Optional`, empty at the end of the
        dataset (inside a graph: decided when the graph runs)."""
        if not executing_eagerly():
            return _optional_next(self.handle, self.element_spec)
        try:
            return Optional.from_value(next(self._elements))
        except StopIteration:
            return Optional.empty(self.element_spec)

    def __repr__(self) -> str:
        return f"<OwnedIterator element_spec={self.element_spec}>"


class GraphIterator:
    """What `iter(dataset)` returns in code tf.function converts: an iterator made each
    time the graph runs. `next(it)` (or `it.get_next()`) is an element read when the graph
    runs, in program order; it raises OutOfRangeError then at the end of the dataset.
    (Converted code only, so no doctest: a doctest has no source to convert;
    tests/autograph/test_dataset_loops.py shows it.)
    """

    def __init__(self, dataset: Dataset) -> None:
        self._element_spec = dataset.element_spec
        self.handle = iterator_ops.make_iterator(dataset)

    @property
    def element_spec(self):
        return self._element_spec

    def __iter__(self):
        raise RuntimeError(_ITERATOR_IN_GRAPH)

    def __next__(self):
        return self.get_next()

    def get_next(self):
        """The next element (read when the graph runs).

        Raises (when the graph runs):
            OutOfRangeError: the dataset has no more elements.
        """
        return iterator_ops.get_next(self.handle, self._element_spec)

    def get_next_as_optional(self) -> Optional:
        """The next element as a `tf.experimental.Optional`, empty at the end (decided
        when the graph runs)."""
        return _optional_next(self.handle, self._element_spec)

    def __repr__(self) -> str:
        return f"<GraphIterator element_spec={self.element_spec}>"


def _optional_next(handle, element_spec) -> Optional:
    has_value, flat = iterator_ops.get_next_as_optional(handle, True, element_spec)
    return Optional(has_value, flat, element_spec)


from . import batching, sources, transformations  # noqa: E402  (they subclass Dataset)
