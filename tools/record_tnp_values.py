"""Records what TF's numpy namespace gives for the calls in tests/experimental/tnp_cases.py.

    TF_CPP_MIN_LOG_LEVEL=3 /work/tfvenv/bin/python tools/record_tnp_values.py \
        tests/experimental/tnp_values_tf.json

Each entry is a list of [dtype, values] (one per output), or ["raised", class name].
"""
import json
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).parent.parent / "tests" / "experimental"))


def main(path: str) -> None:
    import tensorflow as tf
    from tnp_cases import cases

    out = {}
    for name, call in cases(tf.experimental.numpy).items():
        try:
            result = call()
        except Exception as e:  # noqa: BLE001  (the class is what is recorded)
            out[name] = ["raised", type(e).__name__]
            continue
        results = result if isinstance(result, (list, tuple)) else [result]
        out[name] = [[tf.as_dtype(r.dtype).name, np.asarray(r).tolist()] for r in results]
    pathlib.Path(path).write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
