"""Gradient-check rows for diag_ops: diagonals, traces and bands."""
import tapeflow as tf

from ._table import case, normal

case("MatrixDiagV3", tf.linalg.diag, normal(2, 3))
case("MatrixDiagV3", lambda d: tf.linalg.diag(d, k=1), normal(3), label="k=1")
case("MatrixDiagV3", lambda d: tf.linalg.diag(d, k=-1, num_rows=4, num_cols=5), normal(3),
     label="k=-1,4x5")
case("MatrixDiagPartV3", tf.linalg.diag_part, normal(2, 3, 3))
case("MatrixDiagPartV3", lambda x: tf.linalg.diag_part(x, k=1), normal(3, 4), label="k=1")
case("MatrixDiagPartV3", tf.linalg.trace, normal(2, 3, 3), label="trace")
case("MatrixBandPart", lambda x: tf.linalg.band_part(x, 1, 0), normal(3, 4))
case("MatrixBandPart", lambda x: tf.linalg.band_part(x, -1, 0), normal(2, 3, 3),
     label="lower triangle")
case("MatrixBandPart", lambda x: tf.linalg.band_part(x, 0, -1), normal(3, 3),
     label="upper triangle")
case("Diag", tf.linalg.tensor_diag, normal(2, 3))
case("DiagPart", tf.linalg.tensor_diag_part, normal(2, 3, 2, 3))
