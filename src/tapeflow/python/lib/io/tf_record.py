"""`tensorflow.python.lib.io.tf_record`: TFRecord files, tapeflow's (`tapeflow.io.tf_record`)
under the private module's name that libraries and their tests import.

Example:
    >>> from tapeflow.python.lib.io import tf_record
    >>> tf_record.TFRecordOptions.get_compression_type_string("ZLIB")
    'ZLIB'
"""
from ....io.tf_record import (TFRecordCompressionType, TFRecordOptions, TFRecordWriter,
                              tf_record_iterator)

__all__ = ["TFRecordCompressionType", "TFRecordOptions", "TFRecordWriter",
           "tf_record_iterator"]
