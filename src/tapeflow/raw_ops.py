"""`tf.raw_ops`: tapeflow's ops under TF's op type names, called with TF's keywords.

One table drives every wrapper. `raw_op_defs.RAW_OP_DEFS` holds TF's facts for each op type
(its keyword arguments in order, their defaults, which are tensor inputs, its output names);
`_CALLS` below says how TF's arguments reach tapeflow's implementation where they do not
line up by themselves: the tapeflow function or op it runs, and each of that target's
arguments as one of TF's (`"name"`), a TF tensor argument read as a Python value
(`static("name")`), a dtype (`dtype("name")`) or a small function of all of them. An op
type with no entry runs its registry op directly when TF's inputs are exactly the kernel's
arguments (the elementwise ops and the like). A wrapper is built on first access, so
`import tapeflow` does not pay for it; `dir()` lists them all.

Like TF's, every wrapper takes keyword arguments only; an op with several outputs returns
a named tuple (type named after the op, fields after TF's outputs).

Example:
    >>> import tapeflow as tf
    >>> tf.raw_ops.MatMul(a=[[1.0, 2.0]], b=[[3.0], [4.0]], transpose_a=False).numpy()
    array([[11.]], dtype=float32)
    >>> tf.raw_ops.Sum(input=[[1, 2], [3, 4]], axis=1, keep_dims=True).numpy().ravel()
    array([3, 7], dtype=int32)
"""
from __future__ import annotations

import collections
import importlib
import inspect

import numpy as np

from .framework import errors, registry
from .framework.dtypes import as_dtype
from .framework.execute import execute
from .framework.graph import name_scope
from .framework.tensor import Tensor, convert_to_tensor
from .raw_op_defs import RAW_OP_DEFS

__all__: list = []


class _Source:
    """How one argument of the target is made from TF's arguments (a dict by name)."""

    __slots__ = ("read", "uses")

    def __init__(self, read, uses: tuple) -> None:
        self.read, self.uses = read, uses


def static(name: str, as_tuple: bool = False) -> _Source:
    """TF's tensor argument `name` as a Python value (an int, or a tuple of ints)."""
    def read(args):
        value = _python_value(args[name], name)
        if as_tuple and not isinstance(value, (tuple, list)):
            value = (value,)
        return tuple(value) if isinstance(value, list) else value
    return _Source(read, (name,))


def dtype(name: str, numpy: bool = False) -> _Source:
    """TF's dtype attribute `name` as a tapeflow DType (or its NumPy dtype)."""
    def read(args):
        d = as_dtype(args[name])
        return d._np if numpy else d
    return _Source(read, (name,))


def derived(read, *uses: str) -> _Source:
    """`read(args)`, using TF's arguments `uses`."""
    return _Source(read, uses)


def _python_value(value, name: str):
    if isinstance(value, (int, float, bool, str, tuple, list)) and not (
            isinstance(value, (list, tuple)) and any(hasattr(v, "_id") for v in value)):
        return value
    from .ops.array_ops import get_static_value
    known = get_static_value(value)
    if known is None:
        raise errors.InvalidArgumentError(
            None, None, f"raw op argument {name!r} must be known when the op is built, got "
            f"{value!r}")
    known = np.asarray(known)
    return known.item() if known.ndim == 0 else known.tolist()


class _Call:
    """One `_CALLS` entry: `target(*positional, **keywords)`, each a TF argument name, a
    `_Source` or a constant ('*name' spreads TF's list argument). `target` is 'module.path:function' under tapeflow, a function,
    or
    'op:OpType' for a registry op run through `execute` (a positional string that names a
    list input is spread)."""

    __slots__ = ("target", "positional", "keywords")

    def __init__(self, target: str, *positional, **keywords) -> None:
        self.target, self.positional, self.keywords = target, positional, keywords

    def uses(self) -> set:
        used = set()
        for source in self.positional + tuple(self.keywords.values()):
            if isinstance(source, str):
                used.add(source.lstrip("*"))
            elif isinstance(source, _Source):
                used.update(source.uses)
        return used

    def run(self, args: dict, params: dict):
        def value(source):
            if isinstance(source, str):
                return args[source.lstrip("*")]
            if isinstance(source, _Source):
                return source.read(args)
            return source
        keywords = {k: value(s) for k, s in self.keywords.items()}
        if isinstance(self.target, str) and self.target.startswith("op:"):
            op = registry.get_op(self.target[3:])
            inputs = []
            for source in self.positional:
                v = value(source)
                if isinstance(source, str) and params[source] == "inputs":
                    inputs.extend(v)
                else:
                    inputs.append(v)
            like = next((x for x in inputs if hasattr(x, "_id")), None)
            inputs = tuple(x if hasattr(x, "_id") else
                           convert_to_tensor(x, None if like is None or not isinstance(
                               x, (int, float)) else like.dtype) for x in inputs)
            return execute(op, inputs, keywords)
        if callable(self.target):
            fn = self.target
        else:
            module, _, function = self.target.partition(":")
            fn = getattr(importlib.import_module("tapeflow." + module), function)
        positional = []
        for source in self.positional:
            if isinstance(source, str) and source.startswith("*"):
                positional.extend(value(source))
            else:
                positional.append(value(source))
        return fn(*positional, **keywords)


def _reduce(function: str) -> _Call:
    return _Call(function, "input", axis=static("axis"), keepdims="keep_dims")


def _padding(args) -> object:
    if args["padding"] == "EXPLICIT":
        pads = list(args["explicit_paddings"])
        return [pads[i:i + 2] for i in range(0, len(pads), 2)]
    return args["padding"]


def _fused_batch_norm(args, count: int) -> tuple:
    from .batch_norm import fused_batch_norm
    factor = args.get("exponential_avg_factor", 1.0)
    outputs = fused_batch_norm(args["x"], args["scale"], args["offset"], args["mean"],
                               args["variance"], epsilon=args["epsilon"],
                               exponential_avg_factor=factor, data_format=args["data_format"],
                               is_training=args["is_training"])
    return outputs[:count]  # FusedBatchNorm and V2 have no reserve_space_3


def _fused_batch_norm_call(count: int) -> _Call:
    return _Call(_fused_batch_norm, derived(
        lambda a: a, "x", "scale", "offset", "mean", "variance", "epsilon",
        "exponential_avg_factor", "data_format", "is_training"), count)

_MATMUL = _Call("op:BatchMatMulV2", "a", "b", transpose_a="transpose_a",
                transpose_b="transpose_b")
_BATCH_MATMUL = _Call("op:BatchMatMulV2", "x", "y", adjoint_a="adj_x", adjoint_b="adj_y")

_CUDNN_ATTRS = ("rnn_mode", "input_mode", "direction", "dropout", "seed", "seed2")

# How TF's arguments reach tapeflow where they do not line up with a registry kernel.
_CALLS = {
    "Add": _Call("ops.math_ops:add", "x", "y"),
    "AddV2": _Call("ops.math_ops:add", "x", "y"),
    "Sub": _Call("ops.math_ops:subtract", "x", "y"),
    "Mul": _Call("ops.math_ops:multiply", "x", "y"),
    "RealDiv": _Call("ops.math_ops:realdiv", "x", "y"),
    "Pow": _Call("ops.math_ops:pow", "x", "y"),
    "Maximum": _Call("ops.math_ops:maximum", "x", "y"),
    "Minimum": _Call("ops.math_ops:minimum", "x", "y"),
    "MatMul": _MATMUL,
    "BatchMatMul": _BATCH_MATMUL,
    "BatchMatMulV2": _BATCH_MATMUL,
    "BatchMatMulV3": _BATCH_MATMUL,
    "Sum": _reduce("ops.math_ops:reduce_sum"),
    "Mean": _reduce("ops.math_ops:reduce_mean"),
    "Max": _reduce("ops.reduction_ops:reduce_max"),
    "Min": _reduce("ops.reduction_ops:reduce_min"),
    "Prod": _reduce("ops.reduction_ops:reduce_prod"),
    "All": _reduce("ops.reduction_ops:reduce_all"),
    "Any": _reduce("ops.reduction_ops:reduce_any"),
    "EuclideanNorm": _reduce("math:reduce_euclidean_norm"),
    "ArgMax": _Call("ops.reduction_ops:argmax", "input", axis=static("dimension"),
                    output_type=dtype("output_type")),
    "ArgMin": _Call("ops.reduction_ops:argmin", "input", axis=static("dimension"),
                    output_type=dtype("output_type")),
    "Cumsum": _Call("ops.reduction_ops:cumsum", "x", axis=static("axis"),
                    exclusive="exclusive", reverse="reverse"),
    "Cumprod": _Call("math:cumprod", "x", axis=static("axis"), exclusive="exclusive",
                     reverse="reverse"),
    "Cast": _Call("ops.math_ops:cast", "x", dtype("DstT")),
    "Reshape": _Call("ops.array_ops:reshape", "tensor", "shape"),
    "Transpose": _Call("ops.array_ops:transpose", "x", static("perm")),
    "ConcatV2": _Call("ops.array_ops:concat", "values", static("axis")),
    "Pack": _Call("ops.array_ops:stack", "values", axis="axis"),
    "Unpack": _Call("ops.array_ops:unstack", "value", num="num", axis="axis"),
    "SplitV": _Call("ops.array_ops:split", "value", static("size_splits"), static("axis"),
                    num="num_split"),
    "ExpandDims": _Call("ops.array_ops:expand_dims", "input", static("axis")),
    "Squeeze": _Call("ops.array_ops:squeeze", "input",
                     derived(lambda a: tuple(a["axis"]) or None, "axis")),
    "Tile": _Call("ops.array_ops:tile", "input", "multiples"),
    "PadV2": _Call("ops.array_ops:pad", "input", "paddings",
                   constant_values="constant_values"),
    "Shape": _Call("ops.array_ops:shape", "input", out_type=dtype("out_type")),
    "Size": _Call("ops.array_ops:size", "input", out_type=dtype("out_type")),
    "Rank": _Call("ops.array_ops:rank", "input"),
    "Identity": _Call("ops.array_ops:identity", "input"),
    "BroadcastTo": _Call("ops.array_ops:broadcast_to", "input", "shape"),
    "ReverseV2": _Call("ops.array_ops:reverse", "tensor", static("axis", as_tuple=True)),
    "Fill": _Call("ops.creation_ops:fill", "dims", "value"),
    "ZerosLike": _Call("ops.creation_ops:zeros_like", "x"),
    "OnesLike": _Call("ops.creation_ops:ones_like", "x"),
    "OneHot": _Call("ops.creation_ops:one_hot", "indices", "depth", on_value="on_value",
                    off_value="off_value", axis="axis"),
    "GatherV2": _Call("ops.gather_ops:gather", "params", "indices", axis=static("axis"),
                      batch_dims="batch_dims"),
    "GatherNd": _Call("ops.indexing_ops:gather_nd", "params", "indices"),
    "Slice": _Call("ops.indexing_ops:slice", "input", "begin", "size"),
    "StridedSlice": _Call("ops.indexing_ops:strided_slice", "input", "begin", "end", "strides",
                          begin_mask="begin_mask", end_mask="end_mask",
                          ellipsis_mask="ellipsis_mask", new_axis_mask="new_axis_mask",
                          shrink_axis_mask="shrink_axis_mask"),
    "SelectV2": _Call("ops.indexing_ops:where", "condition", "t", "e"),
    "Select": _Call("ops.indexing_ops:where_v1", "condition", "x", "y"),
    "TopKV2": _Call("ops.sort_ops:top_k", "input", static("k"), sorted="sorted",
                    index_type=dtype("index_type")),
    "Relu": _Call("nn:relu", "features"),
    "Relu6": _Call("nn:relu6", "features"),
    "Elu": _Call("nn:elu", "features"),
    "Selu": _Call("nn:selu", "features"),
    "Softplus": _Call("nn:softplus", "features"),
    "Softsign": _Call("nn:softsign", "features"),
    "LeakyRelu": _Call("nn:leaky_relu", "features", alpha="alpha"),
    "Softmax": _Call("nn:softmax", "logits"),
    "LogSoftmax": _Call("nn:log_softmax", "logits"),
    "BiasAdd": _Call("nn:bias_add", "value", "bias", data_format="data_format"),
    "Conv2D": _Call("nn:conv2d", "input", "filter", strides="strides",
                    padding=derived(_padding, "padding", "explicit_paddings"),
                    data_format="data_format", dilations="dilations"),
    "Conv3D": _Call("nn:conv3d", "input", "filter", strides="strides", padding="padding",
                    data_format="data_format", dilations="dilations"),
    "Conv2DBackpropInput": _Call("nn:conv2d_transpose", "out_backprop", "filter",
                                 static("input_sizes"), strides="strides",
                                 padding=derived(_padding, "padding", "explicit_paddings"),
                                 data_format="data_format", dilations="dilations"),
    "Conv3DBackpropInputV2": _Call("nn:conv3d_transpose", "out_backprop", "filter",
                                   static("input_sizes"), strides="strides", padding="padding",
                                   data_format="data_format", dilations="dilations"),
    "MaxPool": _Call("nn:max_pool2d", "input", ksize="ksize", strides="strides",
                     padding=derived(_padding, "padding", "explicit_paddings"),
                     data_format="data_format"),
    "AvgPool": _Call("nn:avg_pool2d", "value", ksize="ksize", strides="strides",
                     padding="padding", data_format="data_format"),
    "SoftmaxCrossEntropyWithLogits": _Call("op:SoftmaxCrossEntropyWithLogits", "features",
                                           "labels"),
    "SparseSoftmaxCrossEntropyWithLogits": _Call("op:SparseSoftmaxCrossEntropyWithLogits",
                                                 "features", "labels"),
    "Einsum": _Call("ops.special_math_ops:einsum", "equation", "*inputs"),
    "Unique": _Call("ops.counting_ops:unique", "x", out_idx=dtype("out_idx")),
    "UniqueWithCounts": _Call("ops.counting_ops:unique_with_counts", "x",
                              out_idx=dtype("out_idx")),
    "CumulativeLogsumexp": _Call("math:cumulative_logsumexp", "x", axis=static("axis"),
                                 exclusive="exclusive", reverse="reverse"),
    "CudnnRNN": _Call("op:CudnnRNN", "input", "input_h", "input_c", "params",
                      **{a: a for a in _CUDNN_ATTRS + ("is_training",)}),
    "CudnnRNNBackprop": _Call("op:CudnnRNNBackprop", "input", "input_h", "input_c", "params",
                              "output", "output_h", "output_c", "output_backprop",
                              "output_h_backprop", "output_c_backprop", "reserve_space",
                              **{a: a for a in _CUDNN_ATTRS}),
    "FusedBatchNorm": _fused_batch_norm_call(5),
    "FusedBatchNormV2": _fused_batch_norm_call(5),
    "FusedBatchNormV3": _fused_batch_norm_call(6),
}


# Registry ops whose kernels take TF's inputs as their inputs and TF's attributes under
# the same names (checked against their callers); other kernels need a `_CALLS` entry.
_AS_IS = frozenset("""
    AddN BroadcastArgs Complex Cross Diag DivNoNan DynamicPartition Equal FloorDiv FloorMod
    Igamma Igammac LeftShift MatrixSolve MatrixTriangularSolve MulNoNan NotEqual Polygamma
    Range RandomIndexShuffle RightShift SegmentMax SegmentMean SegmentMin SegmentProd
    SegmentSum SparseToDense SquaredDifference TridiagonalSolve TruncateDiv TruncateMod
    UnravelIndex Where Xdivy Xlog1py Xlogy
""".split())


def _direct_call(name: str):
    """The `_Call` running registry op `name` with TF's inputs as its inputs and TF's
    attributes as the kernel's keywords of the same names, or None where the kernel takes
    anything else (that needs an entry in `_CALLS`)."""
    params, _ = RAW_OP_DEFS[name]
    try:
        op = registry.get_op(name)
    except LookupError:
        return None
    inputs = [p for p in params if p[1] in ("input", "inputs")]
    attrs = [p[0] for p in params if p[1] == "attr"]
    kernel = op.kernel
    if not isinstance(kernel, np.ufunc) and name not in _AS_IS and \
            op.family not in (registry.ELEMENTWISE, registry.IDENTITY):
        return None  # a kernel argument named as TF's input may be an attribute here
    if isinstance(kernel, np.ufunc):
        if kernel.nin == len(inputs) == len(params) and all(p[1] == "input" for p in inputs):
            return _Call("op:" + name, *[p[0] for p in inputs])
        return None
    try:
        signature = list(inspect.signature(kernel).parameters.values())
    except (TypeError, ValueError):
        return None
    if len(signature) < len(inputs) or any(
            p.name != n or p.kind is p.KEYWORD_ONLY or
            (p.kind is p.VAR_POSITIONAL) != (kind == "inputs")
            for p, (n, kind, *_) in zip(signature, inputs)):
        return None
    rest = {p.name: p for p in signature[len(inputs):] if p.kind is not p.VAR_KEYWORD}
    needed = {n for n, p in rest.items() if p.default is p.empty}
    if not set(attrs) <= set(rest) or not needed <= set(attrs):
        return None
    return _Call("op:" + name, *[p[0] for p in inputs], **{a: a for a in attrs})


def _call_of(name: str):
    if name not in RAW_OP_DEFS:
        return None
    call = _CALLS.get(name)
    if call is not None:
        return call
    if name == "NoOp":
        return None
    return _direct_call(name)


def _loaded_ops() -> None:
    import pkgutil
    from . import ops
    for module in pkgutil.iter_modules(ops.__path__):
        importlib.import_module(f"{ops.__name__}.{module.name}")


_names_cache: list = []


def _names() -> list:
    if not _names_cache:
        _loaded_ops()
        _names_cache.extend(sorted(n for n in RAW_OP_DEFS if _call_of(n) is not None))
    return _names_cache


_REQUIRED = object()


def _wrapper(name: str):
    params, outputs = RAW_OP_DEFS[name]
    call = _call_of(name)
    kinds = {p[0]: p[1] for p in params}
    defaults = {p[0]: (p[2] if len(p) <= 2 or p[1] != "type" else as_dtype(p[2]))
                if len(p) > 2 else _REQUIRED for p in params}
    used = call.uses()
    keys = [p[0] for p in params] + ["name"]
    result_type = collections.namedtuple(name, [o[0] for o in outputs]) \
        if len(outputs) > 1 else None

    def raw_op(*args, **kwargs):
        if args:
            raise TypeError(f"{name} only takes keyword args (possible keys: {keys}). "
                            f"Please pass these args as kwargs instead.")
        unknown = sorted(set(kwargs) - set(keys))
        if unknown:
            raise TypeError(f"{name} got unexpected keyword arguments {unknown} (possible "
                            f"keys: {keys})")
        scope = kwargs.pop("name", None)
        given = dict(defaults)
        given.update(kwargs)
        missing = [k for k, v in given.items() if v is _REQUIRED and kinds[k] != "type"]
        if missing:
            raise TypeError(f"{name} missing required arguments {missing}")
        for key, value in given.items():
            if key not in used and value is not _REQUIRED and kinds[key] != "type" and \
                    not _same(value, defaults[key]):
                raise errors.UnimplementedError(
                    None, name, f"{name}: tapeflow supports only {key}={defaults[key]!r} "
                    f"(the default), got {value!r}")
        if scope:
            with name_scope(scope):
                out = call.run(given, kinds)
        else:
            out = call.run(given, kinds)
        if result_type is not None:
            return result_type(*out)
        if not outputs:
            return None
        return list(out) if outputs[0][1] else out

    raw_op.__name__ = raw_op.__qualname__ = name
    raw_op.__module__ = __name__
    raw_op.__signature__ = inspect.Signature(
        [inspect.Parameter(k, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                           default=inspect.Parameter.empty if defaults[k] is _REQUIRED
                           else defaults[k]) for k in keys[:-1]]
        + [inspect.Parameter("name", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None)])
    outs = ", ".join(o[0] for o in outputs) or "nothing"
    raw_op.__doc__ = (f"TF's raw op {name}, run by tapeflow; keyword arguments only.\n\n"
                      f"Args:\n    {', '.join(keys)}: as TF's op {name} takes them.\n\n"
                      f"Returns:\n    {outs}.\n")
    return raw_op


def _same(value, default) -> bool:
    if default is _REQUIRED:
        return False
    try:
        return bool(value == default) if not isinstance(value, Tensor) else False
    except (TypeError, ValueError):
        return False


def __getattr__(name: str):
    if name.startswith("__") or name not in _names():
        raise AttributeError(f"module 'tapeflow.raw_ops' has no attribute {name!r}")
    wrapper = _wrapper(name)
    globals()[name] = wrapper
    return wrapper


def __dir__() -> list:
    return list(_names())
