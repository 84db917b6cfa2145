"""Gradient-check rows for image_ops: each resize and its gradient op (both linear, so the
second order is the pair again); the box ops have no gradient rule."""
from tapeflow.ops import image_ops

from ._table import EXEMPT, case, normal

# (resize op, its attrs besides the sizes, label)
_SAMPLED = [(image_ops.ScaleAndTranslate, {"kernel_type": k, "antialias": a}, f"{k}, {a}")
            for k, a in [("lanczos3", True), ("lanczos5", False), ("gaussian", True),
                         ("mitchellcubic", False), ("triangle", True), ("keyscubic", True),
                         ("box", False), ("lanczos1", True)]]
RESIZES = [(image_ops.ResizeBilinear, {}, ""), (image_ops.ResizeNearestNeighbor, {}, ""),
           (image_ops.ResizeBicubic, {}, ""), (image_ops.ResizeArea, {}, "")] + _SAMPLED


def _attrs(op, extra: dict, image_size: tuple, size: tuple) -> dict:
    if op is not image_ops.ScaleAndTranslate:
        return extra
    return {**extra, "scale": (size[0] / image_size[0], size[1] / image_size[1]),
            "translation": (0.0, 0.0)}


for _op, _extra, _label in RESIZES:
    _backward = dict(image_ops.RESIZE_PAIRS)[_op]
    for _image, _size in [((4, 5), (3, 7)), ((2, 3), (5, 2))]:
        _attr = _attrs(_op, _extra, _image, _size)
        _tag = f"{_image}->{_size}" + (f", {_label}" if _label else "")
        case(_op.name, lambda x, op=_op, size=_size, attr=_attr: op(x, size=size, **attr),
             normal(2, *_image, 2), label=_tag)
        case(_backward.name, lambda g, op=_backward, image=_image, attr=_attr:
             op(g, image_size=image, **attr), normal(2, *_size, 2), label=_tag)

for _op in ("NonMaxSuppressionV5", "NonMaxSuppressionWithOverlaps", "CombinedNonMaxSuppression",
            "DrawBoundingBoxesV2", "StatelessSampleDistortedBoundingBox"):
    EXEMPT[_op] = "tests/image/test_boxes.py (no gradient rule, as TF: LookupError)"
