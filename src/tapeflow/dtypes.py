"""tf.dtypes: the DType objects and `as_dtype`, with the conversions `cast` and `complex`."""
from .framework.dtypes import (DType, as_dtype, bool, complex64, complex128, double, float16,
                               float32, float64, half, int8, int16, int32, int64, uint8)
from .framework.dtypes import (bfloat16, qint8, qint16, qint32, quint8, quint16, resource,
                               string, uint16, uint32, uint64, variant)
from .ops.complex_ops import complex
from .ops.math_ops import cast

__all__ = ["DType", "as_dtype", "bool", "cast", "complex", "complex64", "complex128", "double",
           "float16", "float32", "float64", "half", "int8", "int16", "int32", "int64", "uint8"]
__all__ += ["bfloat16", "qint8", "qint16", "qint32", "quint8", "quint16", "resource", "string",
            "uint16", "uint32", "uint64", "variant"]
