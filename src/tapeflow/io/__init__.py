"""tf.io: TF's files. `gfile` (local paths), whole files (`read_file`, `write_file`,
`matching_files`), TFRecord files, Examples and serialized tensors, GraphDefs (`write_graph`); the format modules beside
them (`checksum`, `table`) are the pieces checkpoints and TFRecords share. The string codecs
(base64, raw bytes, CSV records, compressed strings) are ops on string tensors
(ops/string_codec_ops.py); the image codecs are tf.image's."""
from . import gfile
from ..ops.string_codec_ops import (decode_base64, decode_compressed, decode_csv, decode_raw,
                                    encode_base64)
from .files import matching_files, read_file, write_file
from .graph_files import write_graph
from .parsing import (parse_example, parse_sequence_example, parse_single_example,
                      parse_single_sequence_example)
from .parsing_config import (FixedLenFeature, FixedLenSequenceFeature, RaggedFeature,
                             SparseFeature, VarLenFeature)
from .serialization import (deserialize_many_sparse, parse_tensor, serialize_many_sparse,
                            serialize_sparse, serialize_tensor)
from .tf_record import TFRecordOptions, TFRecordWriter

__all__ = ["FixedLenFeature", "FixedLenSequenceFeature", "RaggedFeature", "SparseFeature",
           "TFRecordOptions", "TFRecordWriter", "VarLenFeature", "decode_base64",
           "decode_compressed", "decode_csv", "decode_raw", "deserialize_many_sparse",
           "encode_base64", "gfile", "matching_files",
           "parse_example", "parse_sequence_example", "parse_single_example",
           "parse_single_sequence_example", "parse_tensor", "read_file",
           "serialize_many_sparse", "serialize_sparse", "serialize_tensor",
           "write_file", "write_graph"]

# tf.io's image codecs are tf.image's (loaded on first use)
_IMAGE_CODECS = ("decode_and_crop_jpeg", "decode_bmp", "decode_gif", "decode_image",
                 "decode_jpeg", "decode_png", "decode_webp", "encode_jpeg", "encode_png",
                 "extract_jpeg_shape", "is_jpeg")
__all__ += list(_IMAGE_CODECS)


def __getattr__(name: str):
    if name in _IMAGE_CODECS:
        from .. import image
        return getattr(image, name)
    raise AttributeError(f"module 'tapeflow.io' has no attribute {name!r}")
