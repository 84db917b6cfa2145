"""tf.io: TF's files. `gfile` (local paths), TFRecord files; the format modules beside them
(`checksum`, `table`) are the pieces checkpoints and TFRecords share."""
from . import gfile
from .tf_record import TFRecordOptions, TFRecordWriter

__all__ = ["TFRecordOptions", "TFRecordWriter", "gfile"]
