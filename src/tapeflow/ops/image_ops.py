"""Image resampling and box ops: kernels for tf.image.

Every resize is linear in the image and separable: for a fixed input and output size, each
of the height and width axes is one interpolation matrix [out, in], and the op applies both.
The gradient op applies their transposes, so it is linear too and its own gradient is the
forward op again. A matrix is applied by its nonzero taps (a few per row), not by a matmul:
cheaper, and a nan or inf pixel reaches only the outputs that read it, as in TF. The weights follow TF's kernels step for step (float32
coordinates, half-pixel centres as TF 2's `tf.image.resize`, Keys' cubic read from a
1024-entry table) so that the numbers agree to float32 rounding.

The box ops (non-maximum suppression, drawing boxes, sampled crops) have no gradient rule,
as in TF; the resize rules live in `image_grad.py`.
"""
from __future__ import annotations

import functools
import math

import numpy as np

from ..framework import errors
from ..framework.graph_def import graph_def_form
from ..framework.registry import LINEAR, TRANSPARENT, define_op

_F32 = np.float32
_CUBIC_TABLE_SIZE = 1024


# -- interpolation matrices, one axis at a time ----------------------------------------------
def _matrix(out_size: int, in_size: int, rows, cols, weights) -> np.ndarray:
    """An [out_size, in_size] matrix adding `weights` at (rows, cols)."""
    matrix = np.zeros((out_size, in_size))
    np.add.at(matrix, (np.asarray(rows).ravel(), np.asarray(cols).ravel()),
              np.asarray(weights, np.float64).ravel())
    return matrix


def _half_pixel(in_size: int, out_size: int, offset: float = 0.5) -> np.ndarray:
    """Each output position's source coordinate, in float32 as TF computes it."""
    scale = _F32(in_size) / _F32(out_size)
    return (np.arange(out_size, dtype=_F32) + _F32(0.5)) * scale - _F32(offset)


def _bilinear_weights(in_size: int, out_size: int) -> np.ndarray:
    source = _half_pixel(in_size, out_size)
    floor = np.floor(source)
    lower = np.maximum(floor, 0).astype(np.int64)
    upper = np.minimum(np.ceil(source), in_size - 1).astype(np.int64)
    lerp = source - floor
    rows = np.arange(out_size)
    return _matrix(out_size, in_size, np.stack([rows, rows]), np.stack([lower, upper]),
                   np.stack([1 - lerp, lerp]))


def _nearest_weights(in_size: int, out_size: int) -> np.ndarray:
    source = np.floor(_half_pixel(in_size, out_size, offset=0.0)).astype(np.int64)
    source = np.clip(source, 0, in_size - 1)
    return _matrix(out_size, in_size, np.arange(out_size), source, np.ones(out_size))


def _keys_cubic(t, a: float = -0.5):
    """Keys' cubic convolution kernel at distances |t| < 2."""
    t = np.abs(t)
    near = ((a + 2) * t - (a + 3)) * t * t + 1
    far = ((a * t - 5 * a) * t + 8 * a) * t - 4 * a
    return np.where(t < 1, near, np.where(t < 2, far, 0.0))


def _bicubic_weights(in_size: int, out_size: int) -> np.ndarray:
    source = _half_pixel(in_size, out_size)
    start = np.floor(source)
    # The fraction is rounded to 1/1024 (TF reads the kernel from a table).
    fraction = np.rint((source - start) * _CUBIC_TABLE_SIZE).astype(_F32) / _CUBIC_TABLE_SIZE
    taps = np.arange(-1, 3)
    weights = _keys_cubic(taps[None, :].astype(_F32) - fraction[:, None]).astype(_F32)
    cols = start.astype(np.int64)[:, None] + taps[None, :]
    inside = (cols >= 0) & (cols < in_size)
    weights = np.where(inside, weights, _F32(0))
    total = weights.sum(axis=1, keepdims=True, dtype=_F32)
    weights = np.where(np.abs(total) > 0, weights / np.where(total == 0, 1, total), weights)
    rows = np.repeat(np.arange(out_size)[:, None], 4, axis=1)
    return _matrix(out_size, in_size, rows, np.clip(cols, 0, in_size - 1), weights)


def _area_weights(in_size: int, out_size: int) -> np.ndarray:
    scale = _F32(in_size) / _F32(out_size)
    rows, cols, weights = [], [], []
    for o in range(out_size):
        low, high = _F32(o) * scale, _F32(o + 1) * scale
        for i in range(int(math.floor(low)), int(math.ceil(high))):
            rows.append(o)
            cols.append(min(i, in_size - 1))
            weights.append((min(_F32(i + 1), high) - max(_F32(i), low)) / scale)
    return _matrix(out_size, in_size, rows, cols, weights)


def _lanczos(radius: int):
    def kernel(x):
        x = np.abs(x)
        safe = np.where(x <= 1e-3, 1.0, x)
        value = radius * np.sin(np.pi * safe) * np.sin(np.pi * safe / radius) / (
            np.pi ** 2 * safe ** 2)
        return np.where(x > radius, 0.0, np.where(x <= 1e-3, 1.0, value))
    return kernel, float(radius)


def _mitchell(x):
    x = np.abs(x)
    near = (7 / 6 * x - 2) * x * x + 8 / 9
    far = ((-7 / 18 * x + 2) * x - 10 / 3) * x + 16 / 9
    return np.where(x < 1, near, np.where(x < 2, far, 0.0))


# ScaleAndTranslate's kernels: (function of the distance, radius).
SAMPLING_KERNELS = {
    "lanczos1": _lanczos(1),
    "lanczos3": _lanczos(3),
    "lanczos5": _lanczos(5),
    "gaussian": (lambda x: np.where(np.abs(x) < 1.5, np.exp(-np.square(x) / 0.5), 0.0), 1.5),
    "box": (lambda x: np.where(np.abs(x) < 0.5, 1.0, np.where(np.abs(x) == 0.5, 0.5, 0.0)),
            0.5),
    "triangle": (lambda x: np.maximum(1 - np.abs(x), 0.0), 1.0),
    "keyscubic": (_keys_cubic, 2.0),
    "mitchellcubic": (_mitchell, 2.0),
}


def _sampled_weights(in_size: int, out_size: int, scale: float, translation: float,
                     kernel_type: str, antialias: bool) -> np.ndarray:
    kernel, radius = SAMPLING_KERNELS[kernel_type]
    inverse = _F32(1.0) / _F32(scale)
    # Widened by the downscaling factor, the kernel averages away aliasing.
    widen = max(float(inverse), 1.0) if antialias else 1.0
    reach = _F32(radius * widen)
    sample = (np.arange(out_size, dtype=_F32) + _F32(0.5)) * inverse - inverse * _F32(translation)
    start = np.clip(np.ceil(sample - reach - _F32(0.5)), 0, in_size - 1).astype(np.int64)
    end = np.clip(np.floor(sample + reach - _F32(0.5)), 0, in_size - 1).astype(np.int64) + 1
    matrix = np.zeros((out_size, in_size))
    for o in range(out_size):
        if sample[o] < 0 or sample[o] > in_size:
            continue
        source = np.arange(start[o], end[o])
        weights = kernel((source.astype(_F32) + _F32(0.5) - sample[o]) / _F32(widen))
        weights = weights.astype(_F32)
        total = weights.sum(dtype=_F32)
        if abs(total) >= 1000 * np.finfo(_F32).tiny:
            matrix[o, source] = weights / total
    return matrix


# -- the ops ---------------------------------------------------------------------------------
def _taps(matrix: np.ndarray) -> tuple:
    """The nonzero entries of each row of `matrix` [out, in] as (index, weight) arrays
    [out, k]; shorter rows are padded with weight 0 at index `in` (a zero the input gains)."""
    out_size, in_size = matrix.shape
    nonzero = matrix != 0
    counts = nonzero.sum(axis=1)
    width = max(int(counts.max(initial=0)), 1)
    index = np.full((out_size, width), in_size)
    weight = np.zeros((out_size, width))
    rows, cols = np.nonzero(nonzero)
    slots = np.arange(rows.size) - np.repeat(np.cumsum(counts) - counts, counts)
    index[rows, slots], weight[rows, slots] = cols, matrix[rows, cols]
    return index, weight


@functools.lru_cache(maxsize=256)
def _axis_matrices(weights, in_size: int, out_size: int, settings: tuple) -> tuple:
    """One axis's interpolation matrix [out, in], its transpose, and the taps of both
    (cached by sizes and settings)."""
    matrix = weights(in_size, out_size, *settings)
    return matrix, matrix.T, _taps(matrix), _taps(matrix.T)


def _axes_matrices(weights, in_sizes, out_sizes, attrs: dict, transposed: bool) -> list:
    """[(matrix, taps)] of the height and the width axis (the transposes for a gradient)."""
    axes = []
    for axis, (n, m) in enumerate(zip(in_sizes, out_sizes)):
        settings = (attrs["scale"][axis], attrs["translation"][axis], attrs["kernel_type"],
                    attrs["antialias"]) if attrs else ()  # ScaleAndTranslate's, per axis
        matrix, transpose, taps, transpose_taps = _axis_matrices(weights, n, m, settings)
        axes.append((transpose, transpose_taps) if transposed else (matrix, taps))
    return axes


def _along(x, taps: tuple, axis: int):
    """Applies an axis's taps to `x` along `axis`."""
    index, weight = taps
    padding = [(0, 0)] * x.ndim
    padding[axis] = (0, 1)
    x = np.pad(x, padding)
    shape = [1] * x.ndim
    shape[axis] = index.shape[0]
    out = None
    for j in range(index.shape[1]):
        term = np.take(x, index[:, j], axis=axis)
        term *= weight[:, j].reshape(shape).astype(x.dtype)
        if out is None:
            out = term
        else:
            out += term
    return out


@functools.lru_cache(maxsize=64)
def _sparse_passes(rows_key, cols_key, batch: int, channels: int, dtype: str) -> tuple:
    """The height pass as the CSR matrix kron(I_batch, rows) and the width pass as
    kron(cols.T, I_channels), in `dtype` (cached)."""
    from scipy import sparse
    rows, cols = rows_key.matrix, cols_key.matrix
    height = sparse.kron(sparse.identity(batch, dtype=dtype, format="csr"),
                         sparse.csr_matrix(rows.astype(dtype)), format="csr")
    width = sparse.kron(sparse.csr_matrix(cols.T.astype(dtype)),
                        sparse.identity(channels, dtype=dtype, format="csr"), format="csr")
    return height, width


class _Key:
    """A matrix hashed by identity (the cached matrices of `_axis_matrices` are unique)."""

    __slots__ = ("matrix",)

    def __init__(self, matrix) -> None:
        self.matrix = matrix

    def __hash__(self) -> int:
        return id(self.matrix)

    def __eq__(self, other) -> bool:
        return self.matrix is other.matrix


def _have_scipy() -> bool:
    try:
        import scipy.sparse  # noqa: F401
    except ImportError:
        return False
    return True


def _interpolate(x, rows: tuple, cols: tuple):
    """Applies the height and the width (matrix, taps) to x of shape [..., h, w, c].

    With SciPy, float32/float64 images take each pass as one sparse product over the
    rows of [batch * h, w * c] (the width pass too, as kron(cols.T, I_c), unless the
    channels are many and gathering whole pixels is cheaper); otherwise each pass gathers
    the taps. Either way a sum runs over a row's nonzero weights in index order, so the
    results agree to the bit."""
    if x.dtype not in (np.float32, np.float64) or x.size == 0 or not _have_scipy():
        return _along(_along(x, rows[1], x.ndim - 3), cols[1], x.ndim - 2)
    *lead, h, w, c = x.shape
    batch = int(np.prod(lead, dtype=np.int64))
    height, width = _sparse_passes(_Key(rows[0]), _Key(cols[0]), batch, c, x.dtype.name)
    out_h, out_w = rows[0].shape[0], cols[0].shape[0]
    y = height @ np.ascontiguousarray(x).reshape(batch * h, w * c)
    if c * x.itemsize >= 64:    # whole pixels are long runs: gather them
        return _along(y.reshape(*lead, out_h, w, c), cols[1], x.ndim - 2)
    return (y @ width).reshape(*lead, out_h, out_w, c)


def _check_image(op_name: str, x) -> None:
    if x.ndim < 3:
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: images must be [batch, height, width, channels], got "
            f"shape {list(x.shape)}")


def _resize_kernel(op_name: str, weights):
    def kernel(images, *, size, **attrs):
        _check_image(op_name, images)
        if images.shape[-3] == 0 or images.shape[-2] == 0:
            raise errors.InvalidArgumentError(
                None, op_name, f"{op_name}: input image must be of non-zero size, got shape "
                f"{list(images.shape)}")
        rows, cols = _axes_matrices(weights, images.shape[-3:-1], size, attrs,
                                    transposed=False)
        return _interpolate(images, rows, cols)
    return kernel


def _resize_grad_kernel(op_name: str, weights):
    def kernel(grads, *, image_size, **attrs):
        _check_image(op_name, grads)
        rows, cols = _axes_matrices(weights, image_size, grads.shape[-3:-1], attrs,
                                    transposed=True)
        return _interpolate(grads, rows, cols)
    return kernel


def _resize_pair(name: str, weights) -> tuple:
    """The resize op `name` and its gradient op `name + "Grad"`: both apply to [..., h, w, c]
    (any leading axes), so their rules are right on a batch of gradients as they are."""
    forward = define_op(name, _resize_kernel(name, weights), family=LINEAR,
                        batching=TRANSPARENT)
    backward = define_op(name + "Grad", _resize_grad_kernel(name + "Grad", weights),
                         family=LINEAR, batching=TRANSPARENT)
    return forward, backward


ResizeBilinear, ResizeBilinearGrad = _resize_pair("ResizeBilinear", _bilinear_weights)
ResizeNearestNeighbor, ResizeNearestNeighborGrad = _resize_pair("ResizeNearestNeighbor",
                                                                _nearest_weights)
ResizeBicubic, ResizeBicubicGrad = _resize_pair("ResizeBicubic", _bicubic_weights)
ResizeArea, ResizeAreaGrad = _resize_pair("ResizeArea", _area_weights)
ScaleAndTranslate, ScaleAndTranslateGrad = _resize_pair("ScaleAndTranslate", _sampled_weights)

# As GraphDef nodes: these ops sample at half-pixel centers (TF 2's tf.image.resize).
for _op in (ResizeBilinear, ResizeBilinearGrad, ResizeNearestNeighbor, ResizeNearestNeighborGrad,
            ResizeBicubic, ResizeBicubicGrad):
    graph_def_form(_op.name, attrs={"half_pixel_centers": True})

# Each resize op with its gradient op (the gradient op's gradient is the resize op).
RESIZE_PAIRS = ((ResizeBilinear, ResizeBilinearGrad),
                (ResizeNearestNeighbor, ResizeNearestNeighborGrad),
                (ResizeBicubic, ResizeBicubicGrad), (ResizeArea, ResizeAreaGrad),
                (ScaleAndTranslate, ScaleAndTranslateGrad))


# -- non-maximum suppression -----------------------------------------------------------------
def box_overlaps(boxes) -> np.ndarray:
    """Intersection over union of every pair of [y1, x1, y2, x2] boxes (either corner order),
    in their dtype; 0 where either box is empty."""
    y_low, y_high = np.minimum(boxes[:, 0], boxes[:, 2]), np.maximum(boxes[:, 0], boxes[:, 2])
    x_low, x_high = np.minimum(boxes[:, 1], boxes[:, 3]), np.maximum(boxes[:, 1], boxes[:, 3])
    area = (y_high - y_low) * (x_high - x_low)
    height = np.maximum(np.minimum(y_high[:, None], y_high) - np.maximum(y_low[:, None], y_low), 0)
    width = np.maximum(np.minimum(x_high[:, None], x_high) - np.maximum(x_low[:, None], x_low), 0)
    inter = height * width
    union = area[:, None] + area[None, :] - inter
    empty = (area[:, None] <= 0) | (area[None, :] <= 0)
    return np.where(empty, 0, inter / np.where(empty, 1, union)).astype(boxes.dtype)


def greedy_suppression(overlaps, scores, max_output_size: int, threshold: float,
                       score_threshold: float, soft_nms_sigma: float = 0.0) -> tuple:
    """Greedy (soft) non-maximum suppression over a matrix of overlaps: the indices picked in
    order of score (ties to the lower index) and their scores after soft decay. Thresholds
    compare in the scores' and overlaps' dtypes, as TF's kernels do."""
    scale = -0.5 / soft_nms_sigma if soft_nms_sigma > 0 else 0.0
    soft = soft_nms_sigma > 0
    threshold = overlaps.dtype.type(threshold)
    score_threshold = scores.dtype.type(score_threshold)
    # Candidates as [-score, index, first selected box not yet compared with].
    candidates = [[-s, i, 0] for i, s in enumerate(scores) if s > score_threshold]
    picked, picked_scores = [], []
    while len(picked) < max_output_size and candidates:
        best = min(range(len(candidates)), key=lambda c: candidates[c][:2])
        neg_score, index, begin = candidates.pop(best)
        score = original = -neg_score
        hard = False
        for j in range(len(picked) - 1, begin - 1, -1):
            overlap = overlaps[index, picked[j]]
            if not soft and overlap > threshold:
                hard = True
                break
            score *= scores.dtype.type(math.exp(scale * overlap * overlap))
            if score <= score_threshold:
                break
        if hard:
            continue
        if score == original:
            picked.append(index)
            picked_scores.append(score)
        elif score > score_threshold:
            candidates.append([-score, index, len(picked)])
    return np.asarray(picked, np.int32), np.asarray(picked_scores)


def _check_scores(op_name: str, scores, count: int) -> None:
    if scores.shape != (count,):
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: scores must be 1-D with one entry per box ({count}), "
            f"got shape {list(scores.shape)}")


def _padded(picked, picked_scores, max_output_size: int, pad: bool, score_dtype) -> tuple:
    valid = np.int32(picked.size)
    if pad:
        picked = np.pad(picked, (0, max_output_size - picked.size))
        picked_scores = np.pad(picked_scores, (0, max_output_size - picked_scores.size))
    return picked, picked_scores.astype(score_dtype), valid


def _non_max_suppression(boxes, scores, *, max_output_size, iou_threshold, score_threshold,
                         soft_nms_sigma, pad_to_max_output_size):
    name = "NonMaxSuppressionV5"
    if boxes.ndim != 2 or boxes.shape[1] != 4:
        raise errors.InvalidArgumentError(
            None, name, f"{name}: boxes must be [num_boxes, 4], got shape {list(boxes.shape)}")
    _check_scores(name, scores, boxes.shape[0])
    picked, picked_scores = greedy_suppression(box_overlaps(boxes), scores, max_output_size,
                                               iou_threshold, score_threshold, soft_nms_sigma)
    return _padded(picked, picked_scores, max_output_size, pad_to_max_output_size, scores.dtype)


def _suppression_with_overlaps(overlaps, scores, *, max_output_size, overlap_threshold,
                               score_threshold):
    name = "NonMaxSuppressionWithOverlaps"
    if overlaps.ndim != 2 or overlaps.shape[0] != overlaps.shape[1]:
        raise errors.InvalidArgumentError(
            None, name, f"{name}: overlaps must be square [num_boxes, num_boxes], got shape "
            f"{list(overlaps.shape)}")
    _check_scores(name, scores, overlaps.shape[0])
    return greedy_suppression(overlaps, scores, max_output_size, overlap_threshold,
                              score_threshold)[0]


def _combined_suppression(boxes, scores, *, max_output_size_per_class, max_total_size,
                          iou_threshold, score_threshold, pad_per_class, clip_boxes):
    batch, _, num_classes = scores.shape
    size = min(max_total_size, max_output_size_per_class * num_classes) if pad_per_class \
        else max_total_size
    out_boxes = np.zeros((batch, size, 4), np.float32)
    out_scores = np.zeros((batch, size), np.float32)
    out_classes = np.zeros((batch, size), np.float32)
    valid = np.zeros(batch, np.int32)
    for b in range(batch):
        found = []  # (score, class, box)
        for c in range(num_classes):
            class_boxes = boxes[b, :, 0 if boxes.shape[2] == 1 else c]
            picked, picked_scores = greedy_suppression(
                box_overlaps(class_boxes), scores[b, :, c], max_output_size_per_class,
                iou_threshold, score_threshold)
            found += [(s, c, class_boxes[i]) for i, s in zip(picked, picked_scores)]
        found.sort(key=lambda entry: -entry[0])
        found = found[:size]
        valid[b] = len(found)
        for k, (score, c, box) in enumerate(found):
            out_boxes[b, k] = np.clip(box, 0.0, 1.0) if clip_boxes else box
            out_scores[b, k], out_classes[b, k] = score, c
    return out_boxes, out_scores, out_classes, valid


NonMaxSuppressionV5 = define_op("NonMaxSuppressionV5", _non_max_suppression, num_outputs=3)
NonMaxSuppressionWithOverlaps = define_op("NonMaxSuppressionWithOverlaps",
                                          _suppression_with_overlaps)
CombinedNonMaxSuppression = define_op("CombinedNonMaxSuppression", _combined_suppression,
                                      num_outputs=4)


def _selected_dims(inputs, attrs) -> list:
    # How many boxes survive is known only when the graph runs (unless padded).
    count = attrs["max_output_size"] if attrs.get("pad_to_max_output_size") else None
    return [(np.dtype(np.int32), (count,)), (inputs[1]._value.dtype, (count,)),
            (np.dtype(np.int32), ())]


NonMaxSuppressionV5.shape_fn = _selected_dims
NonMaxSuppressionWithOverlaps.shape_fn = lambda inputs, attrs: _selected_dims(inputs, attrs)[:1]


# -- sampling crops ---------------------------------------------------------------------------
def _random_crop_window(rng, width: int, height: int, min_area: float, max_area: float,
                        aspect_ratio: float):
    """A [min_x, min_y, max_x, max_y] window of the given aspect ratio whose area is within
    [min_area, max_area] (fractions of the image), or None."""
    if max_area <= 0 or aspect_ratio <= 0 or width <= 0 or height <= 0 or min_area > max_area:
        return None
    min_area, max_area = min_area * width * height, max_area * width * height
    rows = int(np.rint(np.sqrt(min_area / aspect_ratio)))
    max_rows = int(np.rint(np.sqrt(max_area / aspect_ratio)))
    if np.rint(max_rows * aspect_ratio) > width:
        max_rows = int((width + 0.5 - 1e-7) / aspect_ratio)
        if np.rint(max_rows * aspect_ratio) > width:
            max_rows -= 1
    max_rows = min(max_rows, height)
    rows = min(rows, max_rows)
    if rows < max_rows:
        rows += int(rng.integers(0, max_rows - rows + 1))
    cols = int(np.rint(rows * aspect_ratio))
    if cols * rows < min_area:  # rounding made it too small: one row more
        rows += 1
        cols = int(np.rint(rows * aspect_ratio))
    area = cols * rows
    if area < min_area or area > max_area or cols > width or rows > height or cols <= 0 or \
            rows <= 0:
        return None
    y = int(rng.integers(0, height - rows)) if rows < height else 0
    x = int(rng.integers(0, width - cols)) if cols < width else 0
    return x, y, x + cols, y + rows


def _covers(window, boxes, min_object_covered: float) -> bool:
    """Whether the window covers at least that fraction of one of the (non-empty) boxes."""
    x0, y0, x1, y1 = window
    for bx0, by0, bx1, by1 in boxes:
        area = (bx1 - bx0) * (by1 - by0)
        if area == 0:
            continue
        inter = max(min(x1, bx1) - max(x0, bx0), 0) * max(min(y1, by1) - max(y0, by0), 0)
        if inter / area >= min_object_covered:
            return True
    return False


def _sample_distorted_bounding_box(image_size, bounding_boxes, min_object_covered, seed, *,
                                   aspect_ratio_range, area_range, max_attempts,
                                   use_image_if_no_bounding_boxes):
    name = "StatelessSampleDistortedBoundingBox"
    if image_size.shape != (3,) or bounding_boxes.ndim != 3 or bounding_boxes.shape[-1] != 4:
        raise errors.InvalidArgumentError(
            None, name, f"{name}: image_size must be [height, width, channels] and "
            f"bounding_boxes [batch, N, 4], got shapes {list(image_size.shape)} and "
            f"{list(bounding_boxes.shape)}")
    height, width = int(image_size[0]), int(image_size[1])
    flat = bounding_boxes.reshape(-1, 4).astype(np.float32)
    if flat.size and (flat.min() < 0 or flat.max() > 1):
        raise errors.InvalidArgumentError(
            None, name, f"{name}: all bounding box coordinates must be in [0.0, 1.0]")
    if float(min_object_covered) < 0:
        raise errors.InvalidArgumentError(
            None, name, f"{name}: min_object_covered must be non-negative, got "
            f"{float(min_object_covered)}")
    boxes = [(int(x0 * width), int(y0 * height), int(x1 * width), int(y1 * height))
             for y0, x0, y1, x1 in flat]
    if not boxes:
        if not use_image_if_no_bounding_boxes:
            raise errors.InvalidArgumentError(
                None, name, f"{name}: No bounding boxes provided as input. One must enable "
                f"use_image_if_no_bounding_boxes if you wish to not provide any bounding boxes.")
        boxes = [(0, 0, width, height)]
    rng = np.random.Generator(np.random.PCG64([int(s) % 2 ** 64 for s in seed.ravel()]))
    low_ratio, high_ratio = aspect_ratio_range
    window = None
    for _ in range(max_attempts):
        ratio = float(_F32(rng.random()) * _F32(high_ratio - low_ratio) + _F32(low_ratio))
        window = _random_crop_window(rng, width, height, area_range[0], area_range[1], ratio)
        if window is not None and _covers(window, boxes, float(min_object_covered)):
            break
        window = None
    x0, y0, x1, y1 = window or (0, 0, width, height)
    begin = np.array([y0, x0, 0], image_size.dtype)
    size = np.array([y1 - y0, x1 - x0, -1], image_size.dtype)
    box = np.array([[[y0 / height, x0 / width, y1 / height, x1 / width]]], np.float32)
    return begin, size, box


StatelessSampleDistortedBoundingBox = define_op(
    "StatelessSampleDistortedBoundingBox", _sample_distorted_bounding_box, num_outputs=3)
StatelessSampleDistortedBoundingBox.shape_fn = lambda inputs, attrs: [
    (inputs[0]._value.dtype, (3,)), (inputs[0]._value.dtype, (3,)), (np.dtype(np.float32),
                                                                     (1, 1, 4))]


# -- drawing ---------------------------------------------------------------------------------
def _draw_bounding_boxes(images, boxes, colors):
    name = "DrawBoundingBoxesV2"
    if images.ndim != 4 or images.shape[-1] not in (1, 3, 4):
        raise errors.InvalidArgumentError(
            None, name, f"{name}: images must be [batch, height, width, depth] with depth 1, "
            f"3 or 4, got shape {list(images.shape)}")
    batch, height, width, depth = images.shape
    if boxes.ndim != 3 or boxes.shape[0] != batch or boxes.shape[2] != 4:
        raise errors.InvalidArgumentError(
            None, name, f"{name}: boxes must be [batch ({batch}), num_boxes, 4], got shape "
            f"{list(boxes.shape)}")
    if colors.ndim != 2 or colors.shape[0] == 0 or colors.shape[1] < depth:
        raise errors.InvalidArgumentError(
            None, name, f"{name}: colors must be [num_colors, >= depth ({depth})], got shape "
            f"{list(colors.shape)}")
    canvas = images.copy()
    for b in range(batch):
        for k, (y1, x1, y2, x2) in enumerate(boxes[b].astype(np.float32)):
            color = colors[k % colors.shape[0], :depth]
            top, bottom = int(y1 * _F32(height - 1)), int(y2 * _F32(height - 1))
            left, right = int(x1 * _F32(width - 1)), int(x2 * _F32(width - 1))
            if top > bottom or left > right or top >= height or bottom < 0 or \
                    left >= width or right < 0:
                continue
            rows = slice(max(top, 0), min(bottom, height - 1) + 1)
            cols = slice(max(left, 0), min(right, width - 1) + 1)
            if top >= 0:
                canvas[b, top, cols] = color
            if bottom < height:
                canvas[b, bottom, cols] = color
            if left >= 0:
                canvas[b, rows, left] = color
            if right < width:
                canvas[b, rows, right] = color
    return canvas


DrawBoundingBoxesV2 = define_op("DrawBoundingBoxesV2", _draw_bounding_boxes)
