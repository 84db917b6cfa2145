"""tf.test.Benchmark: timing helpers whose reports are TF's BenchmarkEntries, printed in
text format or, with $TEST_REPORT_FILE_PREFIX set, written as the serialized proto file
TF's tools read; and running the `benchmark*` methods of every Benchmark class.
"""
from __future__ import annotations

import math
import numbers
import os
import re
import sys
import time

__all__ = ["Benchmark", "report_benchmark_entry", "run_benchmarks", "benchmark_config"]

TEST_REPORTER_TEST_ENV = "TEST_REPORT_FILE_PREFIX"
# Every Benchmark subclass, in definition order (run by `--benchmark_filter=`).
GLOBAL_BENCHMARK_REGISTRY: list = []


# -- BenchmarkEntries (TF's test_log.proto): the schema, made into messages by protobuf -----
_SCHEMA = {  # message: [(field, number, type, label, message type)]
    "EntryValue": [("double_value", 1, "double", "optional", None),
                   ("string_value", 2, "string", "optional", None)],
    "MetricEntry": [("name", 1, "string", "optional", None),
                    ("value", 2, "double", "optional", None),
                    ("min_value", 3, "message", "optional", "google.protobuf.DoubleValue"),
                    ("max_value", 4, "message", "optional", "google.protobuf.DoubleValue")],
    "BenchmarkEntry": [("name", 1, "string", "optional", None),
                       ("iters", 2, "int64", "optional", None),
                       ("cpu_time", 3, "double", "optional", None),
                       ("wall_time", 4, "double", "optional", None),
                       ("throughput", 5, "double", "optional", None),
                       ("extras", 6, "message", "repeated", "BenchmarkEntry.ExtrasEntry"),
                       ("metrics", 7, "message", "repeated", "MetricEntry")],
    "BenchmarkEntries": [("entry", 1, "message", "repeated", "BenchmarkEntry")],
}


def _messages():
    """The message classes of the schema (protobuf, imported on first use)."""
    global _MESSAGES
    if _MESSAGES is None:
        try:
            from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
            from google.protobuf import wrappers_pb2
        except ImportError as error:
            raise ImportError("tf.test.Benchmark writes TF's BenchmarkEntries protos with the "
                              "`protobuf` package: pip install protobuf") from error
        field = descriptor_pb2.FieldDescriptorProto
        file = descriptor_pb2.FileDescriptorProto(
            name="tapeflow/test_log.proto", package="tensorflow", syntax="proto3",
            dependency=["google/protobuf/wrappers.proto"])
        for name, fields in _SCHEMA.items():
            message = file.message_type.add(name=name)
            for field_name, number, kind, label, type_name in fields:
                message.field.add(
                    name=field_name, number=number,
                    type=getattr(field, f"TYPE_{kind.upper()}"),
                    label=getattr(field, f"LABEL_{label.upper()}"),
                    type_name=None if type_name is None else (
                        f".{type_name}" if type_name.startswith("google.")
                        else f".tensorflow.{type_name}"))
            if name == "BenchmarkEntry":
                # TF's map<string, EntryValue> extras, as the repeated key-value messages a
                # map is on the wire, so entries keep the order they were given in (as TF's)
                entry = message.nested_type.add(name="ExtrasEntry")
                entry.field.add(name="key", number=1, type=field.TYPE_STRING,
                                label=field.LABEL_OPTIONAL)
                entry.field.add(name="value", number=2, type=field.TYPE_MESSAGE,
                                label=field.LABEL_OPTIONAL, type_name=".tensorflow.EntryValue")
        pool = descriptor_pool.DescriptorPool()
        pool.AddSerializedFile(wrappers_pb2.DESCRIPTOR.serialized_pb)
        pool.Add(file)
        _MESSAGES = {name: message_factory.GetMessageClass(
            pool.FindMessageTypeByName(f"tensorflow.{name}")) for name in _SCHEMA}
    return _MESSAGES


_MESSAGES = None


def _entries(name, iters, cpu_time, wall_time, throughput, extras, metrics):
    """A BenchmarkEntries message holding one entry."""
    entries = _messages()["BenchmarkEntries"]()
    entry = entries.entry.add(name=name)
    for field, value in (("iters", iters), ("cpu_time", cpu_time), ("wall_time", wall_time),
                         ("throughput", throughput)):
        if value is not None:
            setattr(entry, field, int(value) if field == "iters" else float(value))
    for key, value in (extras or {}).items():
        extra = entry.extras.add(key=key)
        if isinstance(value, numbers.Number):
            extra.value.double_value = float(value)
        else:
            extra.value.string_value = str(value)
    for metric in metrics or []:
        added = entry.metrics.add(name=metric["name"], value=float(metric["value"]))
        for bound in ("min_value", "max_value"):
            if bound in metric:
                getattr(added, bound).value = float(metric[bound])
    return entries


def report_benchmark_entry(name: str, iters=None, cpu_time=None, wall_time=None,
                           throughput=None, extras=None, metrics=None) -> None:
    """Reports one benchmark result: prints it as a text BenchmarkEntries proto, or, when
    $TEST_REPORT_FILE_PREFIX is set, writes the serialized proto to that prefix plus
    `name` (with "/" as "__").

    Args:
        name: the entry's name; iters: iterations run; cpu_time, wall_time: seconds;
        throughput: MB/s; extras: a dict of numbers or strings; metrics: a list of dicts
        with "name", "value" and optionally "min_value", "max_value".

    Raises:
        TypeError: extras is no dict, metrics no list, or a metric lacks "name"/"value".
        IOError: the report file already exists.

    Example:
        >>> from tapeflow.testing.benchmark import report_benchmark_entry
        >>> report_benchmark_entry("B.benchmark_add", iters=10, wall_time=0.5)
        entry {
          name: "B.benchmark_add"
          iters: 10
          wall_time: 0.5
        }
        <BLANKLINE>
    """
    if extras is not None and not isinstance(extras, dict):
        raise TypeError("extras must be a dict")
    if metrics is not None:
        if not isinstance(metrics, list):
            raise TypeError("metrics must be a list")
        for metric in metrics:
            for key in ("name", "value"):
                if key not in metric:
                    raise TypeError(f"metric must has a {key!r} field")
    entries = _entries(name, iters, cpu_time, wall_time, throughput, extras, metrics)
    prefix = os.environ.get(TEST_REPORTER_TEST_ENV)
    if prefix is None:
        print(entries)  # protobuf's text format
        return
    path = prefix + name.replace("/", "__")
    if os.path.exists(path):
        raise IOError(f"File already exists: {path}")
    with open(path, "wb") as f:
        f.write(entries.SerializeToString())


class _BenchmarkRegistrar(type):
    """Registers every concrete Benchmark class where it is defined."""

    def __new__(mcs, name, bases, attrs):
        cls = super().__new__(mcs, name, bases, attrs)
        if not cls.is_abstract():
            GLOBAL_BENCHMARK_REGISTRY.append(cls)
        return cls


class Benchmark(metaclass=_BenchmarkRegistrar):
    """Base class of benchmarks: methods named `benchmark*` run under `tf.test.main()` with
    `--benchmark_filter=REGEX` (or `all`), and report with `report_benchmark`.

    Example:
        >>> import tapeflow as tf
        >>> class AddBenchmark(tf.test.Benchmark):
        ...     def benchmark_add(self):
        ...         self.report_benchmark(iters=1, wall_time=0.25)
        >>> AddBenchmark().benchmark_add()
        entry {
          name: "AddBenchmark.benchmark_add"
          iters: 1
          wall_time: 0.25
        }
        <BLANKLINE>
    """

    @classmethod
    def is_abstract(cls) -> bool:
        """True for Benchmark itself, which is never registered or run."""
        return len(cls.mro()) <= 2

    def _get_name(self, overwrite_name=None) -> str:
        frame, name = sys._getframe(1), None
        while frame is not None:  # the outermost method of a Benchmark on the stack
            if isinstance(frame.f_locals.get("self"), Benchmark):
                name = frame.f_code.co_name
            frame = frame.f_back
        if name is None:
            raise ValueError("Unable to determine calling Benchmark class.")
        return f"{type(self).__name__}.{overwrite_name or name}"

    def report_benchmark(self, iters=None, cpu_time=None, wall_time=None, throughput=None,
                         extras=None, name=None, metrics=None) -> None:
        """Reports a result named "<class>.<benchmark method>" (or "<class>.<name>"); see
        `report_benchmark_entry` for the arguments."""
        report_benchmark_entry(self._get_name(name), iters=iters, cpu_time=cpu_time,
                               wall_time=wall_time, throughput=throughput, extras=extras,
                               metrics=metrics)

    def run_op_benchmark(self, sess, op_or_tensor, feed_dict=None, burn_iters: int = 2,
                         min_iters: int = 10, store_trace: bool = False,
                         store_memory_usage: bool = True, name=None, extras=None,
                         mbs: int = 0) -> dict:
        """Runs `op_or_tensor` in `sess` `burn_iters` times untimed, then `min_iters` times
        timed, and reports the median wall time.

        Args:
            sess: a Session; op_or_tensor: what to run; feed_dict: its feeds;
            store_trace, store_memory_usage: accepted (tapeflow keeps no step traces);
            name, extras: for the report; mbs: megabytes moved, for the throughput.

        Returns:
            The reported values as a dict (iters, wall_time, extras, name, throughput), the
            extras also holding wall_time_mean and wall_time_stdev.
        """
        for _ in range(burn_iters):
            sess.run(op_or_tensor, feed_dict=feed_dict)
        deltas = []
        for _ in range(min_iters):
            start = time.time()
            sess.run(op_or_tensor, feed_dict=feed_dict)
            deltas.append(time.time() - start)
        ordered = sorted(deltas)
        median = (ordered[len(ordered) // 2] + ordered[(len(ordered) - 1) // 2]) / 2.0 \
            if ordered else -1
        values = {"iters": min_iters, "wall_time": median,
                  "extras": extras if extras is not None else {}, "name": name,
                  "throughput": mbs / median}
        self.report_benchmark(**values)
        mean = sum(deltas) / len(deltas) if deltas else -1
        stdev = (math.sqrt(sum((d - mean) ** 2 for d in deltas) / (len(deltas) - 1))
                 if len(deltas) > 1 else -1)
        values["extras"].update(wall_time_mean=mean, wall_time_stdev=stdev)
        return values

    def evaluate(self, tensors):
        """NumPy values of `tensors`: run in the default session, or eagerly their values."""
        from ..framework.context import executing_eagerly, get_default_session
        from ..framework import nest
        if executing_eagerly():
            return nest.map_structure(lambda t: None if t is None else t.numpy(), tensors)
        session = get_default_session()
        if session is None:
            from ..client.session import Session
            with Session() as session:
                return session.run(tensors)
        return session.run(tensors)


def run_benchmarks(regex: str) -> list:
    """Runs every registered benchmark method whose "module.Class.method" name matches
    `regex` ("all" matches all).

    Returns:
        The names run.

    Raises:
        ValueError: no benchmark matches.
    """
    selected = []
    for cls in list(GLOBAL_BENCHMARK_REGISTRY):
        instance = None
        for attr in dir(cls):
            if not attr.startswith("benchmark") or not callable(getattr(cls, attr)):
                continue
            full_name = f"{cls.__module__}.{cls.__name__}.{attr}"
            if regex == "all" or re.search(regex, full_name):
                selected.append(full_name)
                instance = instance or cls()
                getattr(instance, attr)()
    if not selected:
        raise ValueError(f"No benchmarks matched the pattern: '{regex}'")
    return selected


def benchmark_config():
    """A ConfigProto with the dependency optimizer off, for benchmark sessions (tensorboard's
    proto classes: the `tensorboard` extra).

    Raises:
        ImportError: the `tensorboard` package is not installed.
    """
    from ..summary import tensorboard_module
    purpose = "tf.test.benchmark_config makes its ConfigProto with"
    config = tensorboard_module("compat.proto.config_pb2", purpose).ConfigProto()
    rewriter = tensorboard_module("compat.proto.rewriter_config_pb2", purpose)
    config.graph_options.rewrite_options.dependency_optimization = rewriter.RewriterConfig.OFF
    return config
