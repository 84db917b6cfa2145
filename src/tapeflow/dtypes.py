"""tf.dtypes: the DType objects and `as_dtype`, with the conversions `cast` and `complex`."""
from .framework.dtypes import (DType, as_dtype, bool, complex64, complex128, double, float16,
                               float32, float64, half, int8, int16, int32, int64, uint8)
from .framework.dtypes import (bfloat16, qint8, qint16, qint32, quint8, quint16, resource,
                               string, uint16, uint32, uint64, variant)
from .ops.cast_ops import saturate_cast
from .ops.complex_ops import complex
from .ops.math_ops import cast

# The quantized dtypes (TF's set also holds their reference types, which tapeflow lacks).
QUANTIZED_DTYPES = frozenset([qint8, quint8, qint16, quint16, qint32])

__all__ = ["DType", "as_dtype", "bool", "cast", "complex", "complex64", "complex128", "double",
           "float16", "float32", "float64", "half", "int8", "int16", "int32", "int64", "uint8"]
__all__ += ["bfloat16", "qint8", "qint16", "qint32", "quint8", "quint16", "resource", "string",
            "uint16", "uint32", "uint64", "variant", "QUANTIZED_DTYPES", "saturate_cast"]
