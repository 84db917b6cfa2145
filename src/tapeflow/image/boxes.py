"""Bounding boxes: non-maximum suppression in its variants, and drawing boxes."""
from __future__ import annotations

import numpy as np

import tapeflow as tf

from ..ops import image_ops
from ._util import static_int

_NMS = "non_max_suppression"


def _settings(fn_name: str, max_output_size, threshold, what: str, score_threshold) -> tuple:
    size = static_int(max_output_size, fn_name, "max_output_size")
    if size < 0:
        raise tf.errors.InvalidArgumentError(
            None, fn_name, f"{fn_name}: max_output_size must be non-negative, got {size}")
    threshold = float(tf.get_static_value(threshold) if tf.is_tensor(threshold) else threshold)
    if not 0.0 <= threshold <= 1.0:
        raise tf.errors.InvalidArgumentError(
            None, fn_name, f"{fn_name}: {what} must be in [0, 1], got {threshold}")
    score_threshold = float(tf.get_static_value(score_threshold)
                            if tf.is_tensor(score_threshold) else score_threshold)
    return size, threshold, score_threshold


def _suppress(boxes, scores, max_output_size, iou_threshold, score_threshold, soft_nms_sigma,
              pad: bool, fn_name: str):
    size, iou, floor = _settings(fn_name, max_output_size, iou_threshold, "iou_threshold",
                                 score_threshold)
    if soft_nms_sigma < 0:
        raise tf.errors.InvalidArgumentError(
            None, fn_name, f"{fn_name}: soft_nms_sigma must be non-negative, got "
            f"{soft_nms_sigma}")
    boxes = tf.convert_to_tensor(boxes)
    scores = tf.convert_to_tensor(scores, dtype=boxes.dtype)
    return image_ops.NonMaxSuppressionV5(
        boxes, scores, max_output_size=size, iou_threshold=iou, score_threshold=floor,
        soft_nms_sigma=float(soft_nms_sigma), pad_to_max_output_size=pad)


def non_max_suppression(boxes, scores, max_output_size, iou_threshold=0.5,
                        score_threshold=float("-inf"), name=None):
    """Greedily selects boxes by descending score, dropping any whose IoU with a selected box
    exceeds `iou_threshold`.

    Args:
        boxes: [num_boxes, 4] float boxes (y1, x1, y2, x2), corners in either order.
        scores: [num_boxes] float scores.
        max_output_size: the most boxes to select.
        iou_threshold: overlap above which a box is suppressed, in [0, 1].
        score_threshold: boxes scoring at or below it are never selected.

    Returns:
        int32 indices into `boxes`, at most max_output_size, best first.

    Raises:
        InvalidArgumentError: malformed shapes, a negative max_output_size or an
            iou_threshold outside [0, 1].

    Example:
        >>> import tapeflow as tf
        >>> boxes = [[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 2, 1, 3]]
        >>> tf.image.non_max_suppression(boxes, [0.9, 0.8, 0.7], 3).numpy()
        array([0, 2], dtype=int32)
    """
    return _suppress(boxes, scores, max_output_size, iou_threshold, score_threshold, 0.0,
                     False, _NMS)[0]


def non_max_suppression_with_scores(boxes, scores, max_output_size, iou_threshold=0.5,
                                    score_threshold=float("-inf"), soft_nms_sigma=0.0,
                                    name=None):
    """`non_max_suppression` that also returns the selected scores; with soft_nms_sigma > 0,
    overlapping boxes have their scores decayed by exp(-iou**2 / (2 sigma)) instead of being
    dropped (Soft-NMS).

    Args:
        boxes, scores, max_output_size, iou_threshold, score_threshold: as
            `non_max_suppression`.
        soft_nms_sigma: the Soft-NMS width; 0 gives hard suppression.

    Returns:
        (selected_indices int32, selected_scores).

    Raises:
        InvalidArgumentError: as `non_max_suppression`, or a negative soft_nms_sigma.

    Example:
        >>> import tapeflow as tf
        >>> boxes = [[0, 0, 1, 1], [0, 0.5, 1, 1.5]]
        >>> idx, s = tf.image.non_max_suppression_with_scores(boxes, [0.9, 0.8], 2,
        ...                                                   soft_nms_sigma=0.5)
        >>> idx.numpy(), s.numpy().round(3)
        (array([0, 1], dtype=int32), array([0.9  , 0.716], dtype=float32))
    """
    indices, selected, _ = _suppress(boxes, scores, max_output_size, iou_threshold,
                                     score_threshold, soft_nms_sigma, False,
                                     "non_max_suppression_with_scores")
    return indices, selected


def non_max_suppression_padded(boxes, scores, max_output_size, iou_threshold=0.5,
                               score_threshold=float("-inf"), pad_to_max_output_size=False,
                               name=None, sorted_input=False, canonicalized_coordinates=False,
                               tile_size=512):
    """`non_max_suppression` returning the number of boxes selected; with
    `pad_to_max_output_size`, the indices are padded with zeros to max_output_size, and
    boxes may carry batch dimensions [..., num_boxes, 4].

    Args:
        boxes, scores, max_output_size, iou_threshold, score_threshold: as
            `non_max_suppression` (with leading batch dimensions when padded).
        pad_to_max_output_size: pad the indices to max_output_size.
        sorted_input, canonicalized_coordinates, tile_size: accepted for compatibility;
            the result does not depend on them.

    Returns:
        (selected_indices int32, valid_outputs int32).

    Raises:
        ValueError: batched boxes without pad_to_max_output_size.
        InvalidArgumentError: as `non_max_suppression`.

    Example:
        >>> import tapeflow as tf
        >>> boxes = [[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 2, 1, 3]]
        >>> idx, n = tf.image.non_max_suppression_padded(boxes, [0.9, 0.8, 0.7], 4,
        ...                                              pad_to_max_output_size=True)
        >>> idx.numpy(), int(n)
        (array([0, 2, 0, 0], dtype=int32), 2)
    """
    boxes = tf.convert_to_tensor(boxes)
    scores = tf.convert_to_tensor(scores, dtype=boxes.dtype)
    if boxes.shape.rank > 2 and not pad_to_max_output_size:
        raise ValueError(f"non_max_suppression_padded: 'pad_to_max_output_size' (value "
                         f"{pad_to_max_output_size}) must be True for batched input")
    if boxes.shape.rank == 2:
        indices, _, valid = _suppress(boxes, scores, max_output_size, iou_threshold,
                                      score_threshold, 0.0, pad_to_max_output_size,
                                      "non_max_suppression_padded")
        return indices, valid
    lead = boxes.shape[:-2].as_list()
    flat_boxes = tf.reshape(boxes, [-1] + boxes.shape[-2:].as_list())
    flat_scores = tf.reshape(scores, [-1, scores.shape[-1]])
    picked = [_suppress(b, s, max_output_size, iou_threshold, score_threshold, 0.0, True,
                        "non_max_suppression_padded")
              for b, s in zip(tf.unstack(flat_boxes), tf.unstack(flat_scores))]
    indices = tf.reshape(tf.stack([p[0] for p in picked]), lead + [-1])
    return indices, tf.reshape(tf.stack([p[2] for p in picked]), lead)


def non_max_suppression_overlaps(overlaps, scores, max_output_size, overlap_threshold=0.5,
                                 score_threshold=float("-inf"), name=None):
    """`non_max_suppression` with the pairwise overlaps given instead of boxes.

    Args:
        overlaps: [num_boxes, num_boxes] float overlaps.
        scores: [num_boxes] float scores.
        max_output_size: the most boxes to select.
        overlap_threshold: overlap above which a box is suppressed.
        score_threshold: boxes scoring at or below it are never selected.

    Returns:
        int32 indices, best first.

    Raises:
        InvalidArgumentError: malformed shapes or a negative max_output_size.

    Example:
        >>> import tapeflow as tf
        >>> overlaps = [[1.0, 0.7], [0.7, 1.0]]
        >>> tf.image.non_max_suppression_overlaps(overlaps, [0.5, 0.9], 2).numpy()
        array([1], dtype=int32)
    """
    name = "non_max_suppression_overlaps"
    size = static_int(max_output_size, name, "max_output_size")
    if size < 0:
        raise tf.errors.InvalidArgumentError(
            None, name, f"{name}: max_output_size must be non-negative, got {size}")
    overlaps = tf.convert_to_tensor(overlaps)
    scores = tf.convert_to_tensor(scores, dtype=overlaps.dtype)
    return image_ops.NonMaxSuppressionWithOverlaps(
        overlaps, scores, max_output_size=size, overlap_threshold=float(overlap_threshold),
        score_threshold=float(score_threshold))


def combined_non_max_suppression(boxes, scores, max_output_size_per_class, max_total_size,
                                 iou_threshold=0.5, score_threshold=float("-inf"),
                                 pad_per_class=False, clip_boxes=True, name=None):
    """Per-class non-maximum suppression over a batch, the survivors of all classes merged
    by score.

    Args:
        boxes: [batch, num_boxes, q, 4], q 1 (boxes shared by all classes) or num_classes.
        scores: [batch, num_boxes, num_classes].
        max_output_size_per_class: the most boxes kept per class.
        max_total_size: the most boxes kept per image.
        iou_threshold, score_threshold: as `non_max_suppression`.
        pad_per_class: keep at most max_output_size_per_class * num_classes boxes when
            smaller than max_total_size.
        clip_boxes: clip the boxes to [0, 1].

    Returns:
        (nmsed_boxes [batch, n, 4], nmsed_scores [batch, n], nmsed_classes [batch, n],
        valid_detections [batch] int32), zero-padded beyond valid_detections.

    Raises:
        InvalidArgumentError: malformed shapes or thresholds.

    Example:
        >>> import tapeflow as tf
        >>> boxes = tf.constant([[[[0, 0, 1, 1]], [[0, 0.1, 1, 1.1]]]])
        >>> scores = tf.constant([[[0.9, 0.1], [0.8, 0.7]]])
        >>> out = tf.image.combined_non_max_suppression(boxes, scores, 2, 3)
        >>> out[2].numpy(), int(out[3][0])
        (array([[0., 1., 0.]], dtype=float32), 2)
    """
    name = "combined_non_max_suppression"
    per_class, iou, floor = _settings(name, max_output_size_per_class, iou_threshold,
                                      "iou_threshold", score_threshold)
    total = static_int(max_total_size, name, "max_total_size")
    boxes = tf.convert_to_tensor(boxes, dtype=tf.float32)
    scores = tf.convert_to_tensor(scores, dtype=tf.float32)
    if boxes.shape.rank != 4 or boxes.shape[-1] != 4 or scores.shape.rank != 3 or \
            boxes.shape[2] not in (1, scores.shape[2]):
        raise tf.errors.InvalidArgumentError(
            None, name, f"{name}: boxes must be [batch, num_boxes, q, 4] and scores [batch, "
            f"num_boxes, num_classes] with q 1 or num_classes, got shapes "
            f"{boxes.shape.as_list()} and {scores.shape.as_list()}")
    return image_ops.CombinedNonMaxSuppression(
        boxes, scores, max_output_size_per_class=per_class, max_total_size=total,
        iou_threshold=iou, score_threshold=floor, pad_per_class=bool(pad_per_class),
        clip_boxes=bool(clip_boxes))


def draw_bounding_boxes(images, boxes, colors, name=None):
    """Draws the outlines of boxes onto a batch of images, one pixel wide, cycling through
    `colors`.

    Args:
        images: [batch, height, width, depth] float images, depth 1, 3 or 4.
        boxes: [batch, num_boxes, 4] normalized (y1, x1, y2, x2).
        colors: [num_colors, 4] (RGBA; the first `depth` entries are used); None draws with
            TF's default colour table.

    Returns:
        The images with the boxes drawn, of `images`' dtype.

    Raises:
        InvalidArgumentError: malformed shapes.

    Example:
        >>> import tapeflow as tf
        >>> out = tf.image.draw_bounding_boxes(tf.zeros([1, 3, 3, 1]), [[[0, 0, 1, 1]]], [[1.0]])
        >>> out[0, :, :, 0].numpy()
        array([[1., 1., 1.],
               [1., 0., 1.],
               [1., 1., 1.]], dtype=float32)
    """
    images = tf.convert_to_tensor(images)
    if colors is None:
        colors = _DEFAULT_COLORS.copy()
        if images.shape[-1] == 1:
            colors[:, 0] = 1.0
    return image_ops.DrawBoundingBoxesV2(
        images, tf.convert_to_tensor(boxes, dtype=tf.float32),
        tf.cast(tf.convert_to_tensor(colors, dtype=tf.float32), images.dtype))


_DEFAULT_COLORS = np.array([[1, 1, 0, 1], [0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 0, 1],
                            [0.5, 0, 0.5, 1], [0.5, 0.5, 0, 1], [0.5, 0, 0, 1], [0, 0, 0.5, 1],
                            [0, 1, 1, 1], [1, 0, 1, 1]], np.float32)


def _distortion_settings(fn_name: str, aspect_ratio_range, area_range, max_attempts,
                         use_image_if_no_bounding_boxes) -> dict:
    ratios = tuple(float(r) for r in (aspect_ratio_range or (0.75, 1.33)))
    areas = tuple(float(a) for a in (area_range or (0.05, 1.0)))
    if len(ratios) != 2 or min(ratios) <= 0:
        raise tf.errors.InvalidArgumentError(
            None, fn_name, f"{fn_name}: aspect_ratio_range must be two positive floats, got "
            f"{aspect_ratio_range}")
    if len(areas) != 2 or not 0 < areas[0] <= 1 or not 0 < areas[1] <= 1:
        raise tf.errors.InvalidArgumentError(
            None, fn_name, f"{fn_name}: area_range must be two floats in (0, 1], got "
            f"{area_range}")
    attempts = 100 if max_attempts is None else static_int(max_attempts, fn_name,
                                                             "max_attempts")
    if attempts <= 0:
        raise tf.errors.InvalidArgumentError(
            None, fn_name, f"{fn_name}: max_attempts must be positive, got {attempts}")
    return {"aspect_ratio_range": ratios, "area_range": areas, "max_attempts": attempts,
            "use_image_if_no_bounding_boxes": bool(use_image_if_no_bounding_boxes)}


def stateless_sample_distorted_bounding_box(image_size, bounding_boxes, seed,
                                            min_object_covered=0.1, aspect_ratio_range=None,
                                            area_range=None, max_attempts=None,
                                            use_image_if_no_bounding_boxes=None, name=None):
    """A random crop of an image for augmentation, decided by `seed` alone: a window of
    aspect ratio within `aspect_ratio_range` and area (a fraction of the image) within
    `area_range` that covers at least `min_object_covered` of one of the bounding boxes;
    the whole image when `max_attempts` draws find none.

    Args:
        image_size: [height, width, channels], integers.
        bounding_boxes: [batch, N, 4] float (y_min, x_min, y_max, x_max) in [0, 1].
        seed: [2] ints.
        min_object_covered: the fraction of a box the crop must cover.
        aspect_ratio_range: (low, high) width / height; default (0.75, 1.33).
        area_range: (low, high) fractions of the image area; default (0.05, 1.0).
        max_attempts: draws before falling back to the whole image; default 100.
        use_image_if_no_bounding_boxes: with no boxes, treat the whole image as one.

    Returns:
        (begin, size, bboxes): begin [y, x, 0] and size [height, width, -1] for `tf.slice`,
        of image_size's dtype, and the window as a [1, 1, 4] float32 box.

    Raises:
        InvalidArgumentError: coordinates outside [0, 1], no boxes without
            use_image_if_no_bounding_boxes, or bad ranges.

    Example:
        >>> import tapeflow as tf
        >>> begin, size, box = tf.image.stateless_sample_distorted_bounding_box(
        ...     [40, 30, 3], [[[0.1, 0.1, 0.9, 0.9]]], seed=(1, 2))
        >>> tf.slice(tf.zeros([40, 30, 3]), begin, size).shape[2]
        3
    """
    fn = "stateless_sample_distorted_bounding_box"
    settings = _distortion_settings(fn, aspect_ratio_range, area_range, max_attempts,
                                    use_image_if_no_bounding_boxes)
    return image_ops.StatelessSampleDistortedBoundingBox(
        tf.convert_to_tensor(image_size), tf.cast(bounding_boxes, tf.float32),
        tf.cast(min_object_covered, tf.float32), tf.cast(seed, tf.int64), **settings)


def sample_distorted_bounding_box(image_size, bounding_boxes, seed=0, min_object_covered=0.1,
                                  aspect_ratio_range=None, area_range=None, max_attempts=None,
                                  use_image_if_no_bounding_boxes=None, name=None):
    """`stateless_sample_distorted_bounding_box` drawing from the seeded stateful generator
    (tf.random.set_seed and the op `seed`; 0 for none). Draws are not TF's.

    Raises:
        InvalidArgumentError: as `stateless_sample_distorted_bounding_box`.

    Example:
        >>> import tapeflow as tf
        >>> begin, size, box = tf.image.sample_distorted_bounding_box(
        ...     [40, 30, 3], tf.zeros([1, 0, 4]), use_image_if_no_bounding_boxes=True)
        >>> box.shape
        TensorShape([1, 1, 4])
    """
    key = tf.random.uniform([2], maxval=2 ** 31 - 1, dtype=tf.int32, seed=seed or None)
    return stateless_sample_distorted_bounding_box(
        image_size, bounding_boxes, key, min_object_covered, aspect_ratio_range, area_range,
        max_attempts, use_image_if_no_bounding_boxes)
