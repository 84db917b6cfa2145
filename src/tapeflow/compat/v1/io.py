"""tf.compat.v1.io: tf.io and TF 1's TFRecord names (`tf_record_iterator`,
`TFRecordCompressionType`)."""
from ...io import *  # noqa: F401,F403  (tf.io's names)
from ...io import __all__ as _io_names
from ...io.tf_record import TFRecordCompressionType, tf_record_iterator

__all__ = list(_io_names) + ["TFRecordCompressionType", "tf_record_iterator"]
