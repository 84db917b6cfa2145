"""Keras initializers seeded with an int give Keras 3's values (TensorFlow backend): bit for
bit for the uniform and normal families (TF's stateless draws seeded [seed, 0]), to the
rounding of the QR decomposition for Orthogonal; in float16, float32 and float64."""
import numpy as np
import pytest

import tapeflow

pytestmark = pytest.mark.parity

INITIALIZERS = {
    "GlorotUniform": {}, "GlorotNormal": {}, "HeNormal": {}, "HeUniform": {},
    "LecunNormal": {}, "LecunUniform": {}, "RandomNormal": {"mean": 0.5, "stddev": 0.3},
    "RandomUniform": {"minval": -2.1, "maxval": 3.3},
    "TruncatedNormal": {"mean": 1.0, "stddev": 0.5},
    "VarianceScaling": {"scale": 3.0, "mode": "fan_out", "distribution": "untruncated_normal"},
    "Orthogonal": {"gain": 2.0},
    "HeUniform axes": {"input_axes": [0, 1], "output_axes": [2]},
}


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("seed", [0, 7, 2 ** 40 + 3])
@pytest.mark.parametrize("name", sorted(INITIALIZERS))
def test_seeded_initializer_gives_keras_values(name, seed, dtype, tensorflow):
    import keras
    if name == "Orthogonal" and dtype == "float16":
        pytest.skip("TF's QR has no float16 kernel")
    shape = (3, 2, 6) if name != "Orthogonal" else (4, 7)
    make = lambda module: getattr(module.initializers, name.split()[0])(
        seed=seed, **INITIALIZERS[name])
    theirs = np.asarray(make(keras)(shape, dtype=dtype))
    ours = make(tapeflow.keras)(shape, dtype=dtype).numpy()
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    assert make(tapeflow.keras).get_config() == make(keras).get_config()
    if name == "Orthogonal":
        np.testing.assert_allclose(ours, theirs, atol=1e-6 if dtype == "float32" else 1e-12)
    else:
        np.testing.assert_array_equal(ours, theirs)
