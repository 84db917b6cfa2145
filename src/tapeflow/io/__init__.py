"""tf.io: reading and writing TF's files (the format modules `checksum` and `table` are the
pieces checkpoints and TFRecords share), and the string codecs (base64, raw bytes, CSV
records, compressed strings)."""
from ..ops.string_codec_ops import (decode_base64, decode_compressed, decode_csv, decode_raw,
                                    encode_base64)

__all__ = ["decode_base64", "decode_compressed", "decode_csv", "decode_raw", "encode_base64"]
