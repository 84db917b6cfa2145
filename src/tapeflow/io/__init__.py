"""tf.io: reading and writing TF's files, and the string codecs (base64, raw bytes, CSV
records, compressed strings)."""
from ..ops.string_codec_ops import (decode_base64, decode_compressed, decode_csv, decode_raw,
                                    encode_base64)

__all__ = ["decode_base64", "decode_compressed", "decode_csv", "decode_raw", "encode_base64"]
