"""Records what TensorFlow gives for each cell of its type-promotion guide, as listed in
tests/experimental/test_promotion_guide.py (CELLS), one process per cell (the modes are
process-wide). Prints a JSON list: the repr of each cell's last expression, or
"raised <class>".

    TF_CPP_MIN_LOG_LEVEL=3 /work/tfvenv/bin/python tools/record_promotion_guide.py
"""
import importlib.util
import json
import os
import pathlib
import subprocess
import sys

TEST = pathlib.Path(__file__).parent.parent / "tests" / "experimental" / "test_promotion_guide.py"


def _cells() -> list:
    source = TEST.read_text()
    start = source.index("CELLS = [")
    scope: dict = {}
    exec(source[start:source.index("\n]\n", start) + 3], scope)  # noqa: S102  (a literal)
    return scope["CELLS"]


def _run_cell(index: int) -> str:
    import numpy as np
    import tensorflow as tf
    mode, source, _ = _cells()[index]
    tf.experimental.numpy.experimental_enable_numpy_behavior(dtype_conversion_mode=mode)
    *body, last = source.split("\n")
    scope = {"tf": tf, "tnp": tf.experimental.numpy, "np": np}
    try:
        exec("\n".join(body), scope)  # noqa: S102  (the guide's cell)
        return repr(eval(last, scope))  # noqa: S307
    except Exception as e:  # noqa: BLE001  (the class is what is recorded)
        return f"raised {type(e).__name__}"


def main() -> None:
    if len(sys.argv) > 1:
        print(json.dumps(_run_cell(int(sys.argv[1]))))
        return
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    results = [json.loads(subprocess.run([sys.executable, __file__, str(i)], env=env,
                                         check=True, capture_output=True, text=True)
                          .stdout.strip().splitlines()[-1])
               for i in range(len(_cells()))]
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
