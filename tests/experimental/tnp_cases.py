"""The table of numpy-namespace calls whose dtypes and values were recorded from TF 2.21
(tools/record_tnp_values.py writes tnp_values_tf.json; test_numpy.py checks tapeflow)."""
import numpy as np


def cases(tnp) -> dict:
    """name -> a function of no arguments calling `tnp` (TF's or tapeflow's namespace)."""
    x = np.array([[1.5, -2.0, 3.0], [0.5, 4.0, -1.0]])
    i = np.array([[1, 2, 3], [4, 5, 6]], np.int32)
    return {
     "sum_axis0": lambda: tnp.sum(x, axis=0), "mean": lambda: tnp.mean(i), "var_ddof": lambda: tnp.var(x, ddof=1),
     "std": lambda: tnp.std(x, axis=1), "cumsum": lambda: tnp.cumsum(i), "cumprod_axis1": lambda: tnp.cumprod(i, axis=1),
     "amax": lambda: tnp.amax(x, axis=1), "ptp": lambda: tnp.ptp(x), "argmax": lambda: tnp.argmax(x),
     "average_w": lambda: tnp.average(x, axis=1, weights=[1., 2., 3.]), "clip": lambda: tnp.clip(x, -1, 2),
     "around": lambda: tnp.around(np.array([0.5, 1.5, 2.25]), 1), "sqrt_int": lambda: tnp.sqrt(i),
     "log2": lambda: tnp.log2(x * x), "sinc": lambda: tnp.sinc(np.array([0.0, 0.5])), "hypot": lambda: tnp.hypot(i, 2),
     "logaddexp": lambda: tnp.logaddexp(x, 1.0), "true_divide_int": lambda: tnp.true_divide(i, 4),
     "floor_divide": lambda: tnp.floor_divide(i, 4), "mod": lambda: tnp.mod(-i, 4), "power": lambda: tnp.power(i, 2),
     "gcd": lambda: tnp.gcd(i, 4), "lcm": lambda: tnp.lcm(i, 4), "heaviside": lambda: tnp.heaviside(x, 0.5),
     "isclose": lambda: tnp.isclose(x, x + 1e-9), "diff": lambda: tnp.diff(x, axis=1), "tril": lambda: tnp.tril(x),
     "triu_k": lambda: tnp.triu(np.ones((3, 3)), 1), "diag": lambda: tnp.diag([1., 2.]), "diagonal": lambda: tnp.diagonal(x),
     "trace": lambda: tnp.trace(i), "vander": lambda: tnp.vander([1, 2, 3]), "kron": lambda: tnp.kron([[1, 2]], [[1], [3]]),
     "outer": lambda: tnp.outer([1, 2], [3., 4.]), "dot": lambda: tnp.dot(x, x.T), "inner": lambda: tnp.inner(x, x),
     "vdot": lambda: tnp.vdot(x, x), "matmul_vec": lambda: tnp.matmul(x, [1., 2., 3.]), "cross": lambda: tnp.cross([1., 0, 0], [0, 1., 0]),
     "tensordot": lambda: tnp.tensordot(x, x, [[1], [1]]), "take": lambda: tnp.take(x, [0, 4]),
     "take_along_axis": lambda: tnp.take_along_axis(x, np.array([[0], [2]]), 1), "where": lambda: tnp.where(x > 0, x, 0),
     "select": lambda: tnp.select([x > 2, x < 0], [x, -x], 9.), "concatenate": lambda: tnp.concatenate([i, x]),
     "hstack": lambda: tnp.hstack([[1, 2], [3]]), "vstack": lambda: tnp.vstack([[1, 2], [3, 4]]),
     "dstack": lambda: tnp.dstack([[1, 2], [3, 4]]), "stack": lambda: tnp.stack([i, i], axis=1),
     "split": lambda: tnp.split(np.arange(6), [2, 5]), "flip": lambda: tnp.flip(x), "rot90": lambda: tnp.rot90(x),
     "roll": lambda: tnp.roll(x, 2), "repeat": lambda: tnp.repeat(i, 2), "tile": lambda: tnp.tile([1, 2], (2, 2)),
     "moveaxis": lambda: tnp.moveaxis(np.zeros((2, 3, 4)), 0, -1), "swapaxes": lambda: tnp.swapaxes(x, 0, 1),
     "atleast_3d": lambda: tnp.atleast_3d([1, 2]), "pad": lambda: tnp.pad(i, 1), "sort": lambda: tnp.sort(x, axis=None),
     "argsort": lambda: tnp.argsort(x), "nonzero": lambda: tnp.nonzero(x > 0), "compress": lambda: tnp.compress([True, False, True], x, axis=1),
     "polyval": lambda: tnp.polyval([1., 2., 3.], x), "arange_f": lambda: tnp.arange(0, 1, 0.25), "linspace_noend": lambda: tnp.linspace(0, 1, 4, endpoint=False),
     "logspace": lambda: tnp.logspace(0, 2, 3), "geomspace": lambda: tnp.geomspace(1, 100, 3), "eye_k": lambda: tnp.eye(3, 4, k=1),
     "tri": lambda: tnp.tri(3), "full": lambda: tnp.full((2,), 1.5), "signbit": lambda: tnp.signbit(np.array([-0.0, 1.0, -2.0])),
     "count_nonzero": lambda: tnp.count_nonzero(x > 0, axis=0), "nansum": lambda: tnp.nansum(np.array([1.0, np.nan])),
     "nanmean": lambda: tnp.nanmean(np.array([1.0, np.nan, 3.0])), "prod_bool": lambda: tnp.prod(np.array([True, True])),
     "fix": lambda: tnp.fix(x), "float_power": lambda: tnp.float_power(i, 2), "exp2": lambda: tnp.exp2(i),
     "cbrt": lambda: tnp.cbrt(x), "array_equal": lambda: tnp.array_equal(i, i), "allclose": lambda: tnp.allclose(x, x),
     "ix_": lambda: tnp.ix_([0, 1], [2, 1]), "meshgrid": lambda: tnp.meshgrid([1, 2], [3., 4., 5.]),
     "reshape_F": lambda: tnp.reshape(np.arange(6), (2, 3), order="F"), "einsum": lambda: tnp.einsum("ij,kj->ik", x, i),
     "bitwise_and": lambda: tnp.bitwise_and(i, 3), "logical_xor": lambda: tnp.logical_xor(x > 0, i > 3),
     "max_bool": lambda: tnp.max(np.array([True, False])),
     "add_bool": lambda: tnp.add(tnp.asarray(x > 0), tnp.asarray(i > 3)),
     "maximum_bool_tensors": lambda: tnp.maximum(tnp.asarray(x > 0), tnp.asarray(i > 3)),
     "add_tensors": lambda: tnp.add(tnp.asarray(x), tnp.asarray(x)), "multiply_bool": lambda: tnp.multiply(x > 0, i > 3),
     "maximum_bool": lambda: tnp.maximum(x > 0, True), "add_int_float": lambda: tnp.add(i, 0.5),
     "subtract_scalar_first": lambda: tnp.subtract(1.5, x), "arctan2_int": lambda: tnp.arctan2(i, 2), "divmod": lambda: tnp.divmod(i, 4),
    }
