"""tf.io: reading and writing TF's files (the format modules `checksum` and `table` are the
pieces checkpoints and TFRecords share)."""
