"""tf.test.Benchmark: timing helpers whose reports are TF's BenchmarkEntries, printed in
text format or, with $TEST_REPORT_FILE_PREFIX set, written as the serialized proto file
TF's tools read; and running the `benchmark*` methods of every Benchmark class.
"""
from __future__ import annotations

import math
import numbers
import os
import re
import struct
import sys
import time

__all__ = ["Benchmark", "report_benchmark_entry", "run_benchmarks", "benchmark_config"]

TEST_REPORTER_TEST_ENV = "TEST_REPORT_FILE_PREFIX"
# Every Benchmark subclass, in definition order (run by `--benchmark_filter=`).
GLOBAL_BENCHMARK_REGISTRY: list = []


# -- BenchmarkEntries (tensorflow/core/util/test_log.proto) in wire and text format ----------
def _varint(n: int) -> bytes:
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _field(number: int, kind: str, value) -> bytes:
    if kind == "double":
        return _varint(number << 3 | 1) + struct.pack("<d", value)
    if kind == "int64":
        return _varint(number << 3) + _varint(int(value))
    data = value.encode("utf-8") if kind == "string" else value
    return _varint(number << 3 | 2) + _varint(len(data)) + data


def _entry_fields(entry: dict) -> list:
    """(number, name, kind, value) of an entry's fields in proto order; kind "message" holds
    a list of such fields."""
    fields = [(1, "name", "string", entry["name"])]
    for number, name, kind in ((2, "iters", "int64"), (3, "cpu_time", "double"),
                               (4, "wall_time", "double"), (5, "throughput", "double")):
        if entry.get(name) is not None:
            fields.append((number, name, kind, entry[name]))
    for key, value in (entry.get("extras") or {}).items():
        inner = ((1, "double_value", "double", float(value)) if isinstance(value, numbers.Number)
                 else (2, "string_value", "string", str(value)))
        fields.append((6, "extras", "message", [(1, "key", "string", key),
                                                (2, "value", "message", [inner])]))
    for metric in entry.get("metrics") or []:
        inner = [(1, "name", "string", metric["name"]),
                 (2, "value", "double", float(metric["value"]))]
        inner += [(number, bound, "message", [(1, "value", "double", float(metric[bound]))])
                  for number, bound in ((3, "min_value"), (4, "max_value")) if bound in metric]
        fields.append((7, "metrics", "message", inner))
    return fields


def _serialize(fields: list) -> bytes:
    return b"".join(_field(number, "bytes", _serialize(value)) if kind == "message"
                    else _field(number, kind, value) for number, _, kind, value in fields)


def _text(fields: list, indent: str = "") -> str:
    lines = []
    for _, name, kind, value in fields:
        if kind == "message":
            lines.append(f"{indent}{name} {{\n{_text(value, indent + '  ')}{indent}}}\n")
        elif kind == "string":
            lines.append(f'{indent}{name}: "{value}"\n')
        elif kind == "int64":
            lines.append(f"{indent}{name}: {int(value)}\n")
        else:
            text = repr(float(value))
            lines.append(f"{indent}{name}: {text[:-2] if text.endswith('.0') else text}\n")
    return "".join(lines)


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
    fields = [(1, "entry", "message", _entry_fields(dict(
        name=name, iters=iters, cpu_time=cpu_time, wall_time=wall_time,
        throughput=throughput, extras=extras, metrics=metrics)))]
    prefix = os.environ.get(TEST_REPORTER_TEST_ENV)
    if prefix is None:
        print(_text(fields))
        return
    path = prefix + name.replace("/", "__")
    if os.path.exists(path):
        raise IOError(f"File already exists: {path}")
    with open(path, "wb") as f:
        f.write(_serialize(fields))


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
