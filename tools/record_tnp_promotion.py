"""Records TensorFlow's dtype promotion, per promotion mode, into a fixture for the tests.

Run with TensorFlow installed (one process per mode: a mode is process-wide):
    /work/tfvenv/bin/python tools/record_tnp_promotion.py tests/experimental/promotion_tf.json

For every mode ("off", "legacy", "safe", "all") and every ordered pair of operands (a
tensor of each dtype, holding 1, or a Python int, float or complex), the file holds the
outcome of `x + y`: [dtype, weak] or ["raised", exception class]. It also holds what the
numpy namespace's `result_type` and `add` give for a table of calls, with prefer_float32 off
and on.
"""
import json
import os
import subprocess
import sys

DTYPES = ["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
          "bfloat16", "float16", "float32", "float64", "complex64", "complex128"]
PYTHON = {"i*": "1", "f*": "1.0", "c*": "1j"}


def _record_mode(mode: str) -> dict:
    import tensorflow as tf
    if mode != "off":
        tf.experimental.numpy.experimental_enable_numpy_behavior(dtype_conversion_mode=mode)
    operands = {d: (lambda d=d: tf.constant(1 if d != "bool" else True, d)) for d in DTYPES}
    operands.update({k: (lambda v=v: eval(v)) for k, v in PYTHON.items()})

    def outcome(fn):
        try:
            r = fn()
        except Exception as e:  # noqa: BLE001  (the class is what is recorded)
            return ["raised", type(e).__name__]
        return [r.dtype.name, "weak=True" in repr(r)]

    pairs = {}
    for a, make_a in operands.items():
        for b, make_b in operands.items():
            if a in PYTHON and b in PYTHON:
                continue
            pairs[f"{a},{b}"] = outcome(lambda: make_a() + make_b())
    unary = {k: outcome(lambda v=v: tf.math.abs(eval(v))) for k, v in PYTHON.items()}
    return {"add": pairs, "abs_of_python": unary}


TNP_CALLS = {
    "asarray(1)": "tnp.asarray(1)", "asarray(1.5)": "tnp.asarray(1.5)",
    "asarray(1j)": "tnp.asarray(1j)", "asarray([1, 2.5])": "tnp.asarray([1, 2.5])",
    "add(int32, 1.5)": "tnp.add(tf.constant(1), 1.5)",
    "add(int32, 1)": "tnp.add(tf.constant(1), 1)",
    "add(float32, 1.5)": "tnp.add(tf.constant(1.0), 1.5)",
    "add(int32, float32)": "tnp.add(tf.constant(1), tf.constant(1.0))",
    "add(int8, uint8)": "tnp.add(tf.constant(1, tf.int8), tf.constant(1, tf.uint8))",
    "add(float16, int16)": "tnp.add(tf.constant(1, tf.float16), tf.constant(1, tf.int16))",
    "mean(int32)": "tnp.mean(tf.constant([1, 2]))", "sqrt(int32)": "tnp.sqrt(tf.constant(4))",
    "true_divide(int32, int32)": "tnp.true_divide(tf.constant(1), tf.constant(2))",
    "arange(3)": "tnp.arange(3)", "arange(3.0)": "tnp.arange(3.0)",
    "linspace(0, 1, 3)": "tnp.linspace(0, 1, 3)", "zeros(2)": "tnp.zeros(2)",
    "ones(2, int32)": "tnp.ones(2, tnp.int32)", "full(2, 7)": "tnp.full(2, 7)",
    "eye(2)": "tnp.eye(2)", "sum(bool)": "tnp.sum(tf.constant([True, True]))",
    "prod(int32)": "tnp.prod(tf.constant([2, 3]))", "var(int32)": "tnp.var(tf.constant([1, 2]))",
    "exp(int64)": "tnp.exp(tf.constant(1, tf.int64))",
    "power(int32, 2.0)": "tnp.power(tf.constant(2), 2.0)",
    "result_type(int32, float32)": "tnp.result_type(tnp.int32, tnp.float32)",
    "result_type(1, 1.0)": "tnp.result_type(1, 1.0)",
}


def _record_tnp(prefer_float32: bool) -> dict:
    import tensorflow as tf
    tnp = tf.experimental.numpy
    tnp.experimental_enable_numpy_behavior(prefer_float32=prefer_float32)
    out = {}
    for key, source in TNP_CALLS.items():
        r = eval(source)
        out[key] = r.name if isinstance(r, tf.DType) else tf.as_dtype(r.dtype).name
    out["int32 + float32 (operator)"] = (tf.constant(1) + tf.constant(1.0)).dtype.name
    out["int32 + 1.5 (operator)"] = (tf.constant(1) + 1.5).dtype.name
    out["float32 + 1.5 (operator)"] = (tf.constant(1.0) + 1.5).dtype.name
    return out


def main(path: str) -> None:
    if len(sys.argv) > 2:  # a child: one mode
        kind, arg = sys.argv[2].split("=")
        result = _record_mode(arg) if kind == "mode" else _record_tnp(arg == "1")
        print(json.dumps(result))
        return
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")

    def child(arg):
        out = subprocess.run([sys.executable, __file__, path, arg], env=env, check=True,
                             capture_output=True, text=True).stdout
        return json.loads(out.strip().splitlines()[-1])

    import tensorflow as tf
    fixture = {"tensorflow": tf.__version__, "dtypes": DTYPES, "python": list(PYTHON),
               "modes": {m: child(f"mode={m}") for m in ("off", "legacy", "safe", "all")},
               "tnp": {"prefer_float64": child("tnp=0"), "prefer_float32": child("tnp=1")}}
    with open(path, "w") as f:
        json.dump(fixture, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
