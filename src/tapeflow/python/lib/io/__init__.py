"""`tensorflow.python.lib.io`: `tf_record`, TFRecord files (tapeflow.io.tf_record)."""
