"""Gradient-check rows for image_ops: each resize and its gradient op (both linear, so the
second order is the pair again), and the box ops without gradients."""
import tapeflow as tf
from tapeflow.ops import image_ops

from ._table import case, normal, uniform

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

_BOXES = [[0.0, 0.0, 1.0, 1.0], [0.0, 0.1, 1.0, 1.1], [0.5, 0.5, 1.5, 1.5], [1.0, 1.0, 0.2, 0.2]]
case("NonMaxSuppressionV5", lambda b, s: tf.image.non_max_suppression(b, s, 3), _BOXES,
     uniform(0, 1, 4), differentiable=False)
case("NonMaxSuppressionWithOverlaps",
     lambda o, s: tf.image.non_max_suppression_overlaps(o, s, 2), uniform(0, 1, 3, 3),
     uniform(0, 1, 3), differentiable=False)
case("CombinedNonMaxSuppression",
     lambda b, s: tf.image.combined_non_max_suppression(tf.cast(b, tf.float32),
                                                   tf.cast(s, tf.float32), 2, 3)[1],
     [[[b] for b in _BOXES]], uniform(0, 1, 1, 4, 2), differentiable=False)
case("DrawBoundingBoxesV2", lambda x: tf.image.draw_bounding_boxes(x, [[_BOXES[2]]], [[1.0]]),
     normal(1, 4, 4, 1), differentiable=False)
case("StatelessSampleDistortedBoundingBox",
     lambda b: tf.image.stateless_sample_distorted_bounding_box(
         [9, 8, 1], tf.cast(b, tf.float32), seed=(1, 2))[2], [[[0.1, 0.2, 0.8, 0.9]]],
     differentiable=False)
