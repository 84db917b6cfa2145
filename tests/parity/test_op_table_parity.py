"""Every row of the gradient-check table, run again with real TensorFlow: forward values,
dtypes and shapes, first-order gradients and (where the row asks) second order agree."""
import pytest

import tapeflow
from tapeflow.testing.op_cases import CASES

pytestmark = pytest.mark.parity

# Rows whose values come from a random generator whose numbers are not TF's: only kinds,
# dtypes and shapes are compared.
RANDOM = {"StatelessParameterizedTruncatedNormal",
          "StatelessParameterizedTruncatedNormal[interval above the mean]"}
_CPU_ONLY = "TF's CPU kernels lack it (they exist on GPU); tapeflow computes it"
_NO_CONJ = ("TF's rule multiplies by the local derivative without conjugating it, against its own "
            "convention; tapeflow conjugates (the table checks it by finite differences)")
_CUMPROD_AT_ZERO = ("TF 2.21's Cumprod gradient divides by x with div_no_nan, so it is 0 at a zero "
                    "instead of the product of the other entries (tensorflow/tensorflow#119430, "
                    "fixed upstream by #120282); tapeflow's is exact (checked by finite "
                    "differences)")
# TF behaviour that tapeflow deliberately does better: {row id: reason}. Each is an xfail, strict:
# when TF changes, the test says so.
KNOWN_DIFFERENCES = {
    **{f"SparseValuesGather[{f}]": f"TF 2.21's sparse {f} gradient raises TypeError; "
       "tapeflow's is checked by finite differences" for f in ("maximum", "minimum")},
    "SparseValuesScatter[reduce_sum sparse keepdims]": "TF registers no gradient for "
                                                       "SparseReduceSumSparse (LookupError)",
    "SparseValuesScatter[softmax]": "second order: TF's SparseSoftmax gradient is not "
                                    "differentiable again (NotImplementedError)",
    "Prod[with zeros]": f"second order: {_CUMPROD_AT_ZERO}",
    "Cumprod[two zeros]": _CUMPROD_AT_ZERO,
    **{f"Cumprod[with zeros,exclusive={e},reverse={r}]": _CUMPROD_AT_ZERO
       for e in (False, True) for r in (False, True)},
    "UnsortedSegmentProd[zeros]": "second order: TF's UnsortedSegmentProd gradient gives nan at "
                                  "the zero entries; tapeflow's is finite (checked by finite "
                                  "differences)",
    "DynamicStitch[repeated index]": "TF's DynamicStitch gradient gathers the output gradient "
                                     "for a slice a later piece overwrote too; tapeflow's gives "
                                     "it 0 (checked by finite differences)",
    "Softsign": "second order: TF registers no gradient for SoftsignGrad (LookupError)",
    "EagerPyFunc": "second order: TF's py_function gradient is not recorded by an outer tape "
                   "(None); tapeflow's is",
    "Mean[moments variance]": "second order: TF's moments computes the variance around "
                              "stop_gradient(mean), which leaves the first derivative exact but "
                              "not the second; tapeflow differentiates the variance itself",
    "SquaredDifference[complex]": _NO_CONJ,
    "Cumprod[complex]": _NO_CONJ,
    "Conv2D[dilation 2]": f"dilated convolution gradients: {_CPU_ONLY}",
    "Conv2DBackpropInput[conv2d_transpose VALID,dilation 2]": f"dilated transpose: {_CPU_ONLY}",
    "Conv2D[NCHW]": f"NCHW convolution: {_CPU_ONLY}",
    "AvgPool[NCHW]": f"NCHW pooling: {_CPU_ONLY}",
    "MaxPool[explicit padding]": "second order: TF's MaxPoolGradGrad rejects explicit padding",
    "MaxPool[max_pool1d explicit padding]":
        "second order: TF's MaxPoolGradGrad rejects explicit padding",
    "AvgPool[avg_pool1d NCW]": f"NCW pooling: {_CPU_ONLY}",
    "Conv2D[grouped, 2 groups]": f"grouped convolution gradients: {_CPU_ONLY} (forward values "
                                 f"in test_conv_parity.py)",
    "Conv2D[convolution 1-D grouped]": f"grouped convolution gradients: {_CPU_ONLY} (forward "
                                       f"values in test_conv_parity.py)",
    **{f"{op}[{label}]": f"float64 3-D pooling: {_CPU_ONLY} (float32 in test_conv_parity.py)"
       for op in ("MaxPool3D", "AvgPool3D")
       for label in ("k=2,s=2,VALID", "k=[1, 3, 2, 2, 1],s=1,SAME")},
    **{row: "TF's RFFT/IRFFT gradients assume the input already has fft_length's size (bins): "
            "cropping raises InvalidArgumentError (incompatible shapes); tapeflow crops with a "
            "strided slice, which has a gradient"
       for row in ("RFFT[cropped]", "IRFFT[cropped bins]")},
    **{row: "TF registers no gradient for RFFT3D and IRFFT3D (LookupError); tapeflow's are "
            "checked by finite differences"
       for row in ("RFFT3D[(2, 3, 2)]", "RFFT3D[(2, 2, 3)]", "IRFFT3D[(2, 3, 2) to [2, 3, 2]]",
                   "IRFFT3D[(2, 3, 2) to [2, 3, 3]]", "IRFFT3D[(2, 2, 2) to [2, 2, 3]]",
                   "IRFFT3D[(2, 2, 2) to [2, 2, 4]]")},
    **{row: "TF registers no gradient for Lu and MatrixLogarithm (LookupError); tapeflow's are "
            "checked by finite differences"
       for row in ("Lu", "Lu[batch]", "Lu[lu_reconstruct]", "Lu[lu_matrix_inverse]",
                   "Lu[complex]", "MatrixTriangularSolve[lu_solve]", "MatrixLogarithm[complex]",
                   "MatrixLogarithm[complex,batch]")},
    "MatrixSquareRoot[complex]": "TF's MatrixSquareRoot gradient solves its Sylvester equation "
                                 "with the transpose of the root, not its adjoint (no conj); "
                                 "tapeflow's is checked by finite differences",
    "TridiagonalSolve[complex,conjugate_rhs]": "TF's complex TridiagonalSolve gradient with "
                                               "respect to the diagonals disagrees with finite "
                                               "differences; tapeflow's agrees",
    "SelfAdjointEigV2[eigh_tridiagonal]": "TF computes eigh_tridiagonal by bisection, whose "
                                          "gradient disagrees with finite differences; "
                                          "tapeflow's goes through eigh and agrees",
    "Eig[eigvals]": "second order: TF's Eig gradient (compute_v=False) differentiated again "
                    "disagrees with finite differences on the second matrix of a batch; "
                    "tapeflow's agrees",
    **{row: "TF's Python wrapper mixes a float32 constant into float64 inputs "
            "(InvalidArgumentError); float32 in test_toplevel_parity.py / test_nn_extra_parity.py"
       for row in ("HistogramFixedWidthBins", "CTCLoss", "CTCLoss[repeat]")},
    "MaxPool3D[pool MAX 3-D]": f"float64 3-D pooling: {_CPU_ONLY} (float32 in "
                               f"test_conv_parity.py)",
    **{c.id: "TF 2.21 has GPU kernels only for FFTND, IFFTND, RFFTND and IRFFTND (NotFoundError "
             "on CPU) and registers no gradient for them; tapeflow computes them and their "
             "gradients (checked by finite differences)"
       for c in CASES if c.op in ("FFTND", "IFFTND", "RFFTND", "IRFFTND")},
    "AvgPool3D[avg_pool 3-D]": f"float64 3-D pooling: {_CPU_ONLY} (float32 in "
                               f"test_conv_parity.py)",
}

# float64 throughout; LAPACK against Eigen and SciPy's special functions against TF's agree to
# about 1e-12.
RTOL, ATOL = 1e-7, 1e-10


def _params():
    for c in CASES:
        marks = ()
        if c.id in KNOWN_DIFFERENCES:
            marks = pytest.mark.xfail(reason=KNOWN_DIFFERENCES[c.id], strict=True)
        yield pytest.param(c, id=c.id, marks=marks)


@pytest.mark.parametrize("case", list(_params()))
def test_row_matches_tensorflow(case, parity):
    try:
        twin = parity.translate(case.fn)
        theirs = parity.evaluate(parity.tf, twin, case.args, order=_order(case), key=case.id)
    except parity.Untranslatable as e:
        pytest.skip(str(e))
    ours = parity.evaluate(tapeflow, case.fn, case.args, order=_order(case), key=case.id)
    parity.assert_same(ours, theirs, rtol=RTOL, atol=ATOL, values=case.id not in RANDOM,
                       where=case.id)


def _order(case) -> int:
    return case.order if case.differentiable else 1


def test_exceptions_name_rows_of_the_table():
    assert set(KNOWN_DIFFERENCES) | RANDOM <= {c.id for c in CASES}
