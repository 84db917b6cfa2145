"""Non-maximum suppression in its variants and drawing boxes: selections on small cases
worked out by hand, graph mode, no gradients, and errors (against TF:
tests/parity/test_image_parity.py)."""
import numpy as np
import pytest

import tapeflow as tf

# Two boxes overlapping with IoU 0.9 / 1.1, one far away, one empty.
BOXES = np.array([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 2, 1, 3], [5, 5, 5, 6]], np.float32)
SCORES = np.array([0.8, 0.9, 0.7, 0.95], np.float32)


@pytest.mark.parametrize("kwargs, expected", [
    ({"max_output_size": 4}, [3, 1, 2]),
    ({"max_output_size": 2}, [3, 1]),
    ({"max_output_size": 4, "iou_threshold": 0.9}, [3, 1, 0, 2]),
    ({"max_output_size": 4, "score_threshold": 0.8}, [3, 1]),
    ({"max_output_size": 0}, []),
])
def test_non_max_suppression(kwargs, expected):
    picked = tf.image.non_max_suppression(BOXES, SCORES, **kwargs)
    assert picked.dtype == tf.int32 and picked.numpy().tolist() == expected


def test_corner_order_does_not_matter():
    flipped = BOXES[:, [2, 3, 0, 1]]
    assert tf.image.non_max_suppression(flipped, SCORES, 4).numpy().tolist() == [3, 1, 2]


def test_soft_nms_decays_instead_of_dropping():
    picked, scores = tf.image.non_max_suppression_with_scores(BOXES, SCORES, 4,
                                                              soft_nms_sigma=0.5)
    assert picked.numpy().tolist() == [3, 1, 2, 0]
    iou = 0.9 / 1.1
    np.testing.assert_allclose(scores.numpy(), [0.95, 0.9, 0.7, 0.8 * np.exp(-iou ** 2)],
                               rtol=1e-6)


def test_padded_and_batched():
    picked, valid = tf.image.non_max_suppression_padded(BOXES, SCORES, 5,
                                                        pad_to_max_output_size=True)
    assert picked.numpy().tolist() == [3, 1, 2, 0, 0] and int(valid) == 3
    picked, valid = tf.image.non_max_suppression_padded(
        np.stack([BOXES, BOXES]), np.stack([SCORES, SCORES[::-1]]), 3,
        pad_to_max_output_size=True)
    assert picked.numpy().tolist() == [[3, 1, 2], [0, 2, 3]]
    assert valid.numpy().tolist() == [3, 3]
    with pytest.raises(ValueError):
        tf.image.non_max_suppression_padded(np.stack([BOXES]), np.stack([SCORES]), 3)


def test_overlaps():
    overlaps = [[1.0, 0.6, 0.1], [0.6, 1.0, 0.2], [0.1, 0.2, 1.0]]
    picked = tf.image.non_max_suppression_overlaps(overlaps, [0.5, 0.9, 0.3], 3, 0.5)
    assert picked.numpy().tolist() == [1, 2]


def test_combined():
    boxes = np.stack([BOXES[:, None], BOXES[:, None] * 0.5])  # [2, 4, 1, 4]
    scores = np.stack([np.stack([SCORES, SCORES[::-1]], -1)] * 2)  # [2, 4, 2]
    out_boxes, out_scores, classes, valid = tf.image.combined_non_max_suppression(
        boxes, scores, 2, 3)
    assert out_boxes.shape == (2, 3, 4) and valid.numpy().tolist() == [3, 3]
    np.testing.assert_allclose(out_scores[0].numpy(), [0.95, 0.95, 0.9])
    assert classes[0].numpy().tolist() == [0, 1, 0]
    assert out_boxes.numpy().max() <= 1.0  # clipped


@pytest.mark.parametrize("fn", [
    lambda b, s: tf.image.non_max_suppression_with_scores(b, s, 4)[1],
    lambda b, s: tf.image.combined_non_max_suppression(b[None, :, None], s[None, :, None],
                                                       2, 2)[1],
    lambda b, s: tf.image.draw_bounding_boxes(s[None, :, None, None], b[None], [[1.0]]),
    lambda b, s: tf.image.stateless_sample_distorted_bounding_box(
        [9, 9, 1], b[None, :3] / 5, (1, 2), min_object_covered=s[0])[2],
])
def test_box_ops_have_no_gradient_as_in_tf(fn):
    boxes, scores = tf.constant(BOXES), tf.constant(SCORES)
    with tf.GradientTape() as tape:
        tape.watch([boxes, scores])
        total = tf.reduce_sum(fn(boxes, scores))
    with pytest.raises(LookupError):
        tape.gradient(total, [boxes, scores])


def test_indices_are_not_differentiated_and_run_in_a_function():
    boxes, scores = tf.constant(BOXES), tf.constant(SCORES)
    nms = tf.function(lambda b, s: tf.image.non_max_suppression(b, s, 4))
    assert nms(boxes, scores).numpy().tolist() == [3, 1, 2]
    with tf.GradientTape() as tape:
        tape.watch([boxes, scores])
        total = tf.reduce_sum(tf.cast(tf.image.non_max_suppression(boxes, scores, 4),
                                      tf.float32))
    assert tape.gradient(total, [boxes, scores]) == [None, None]


def test_draw_bounding_boxes():
    drawn = tf.image.draw_bounding_boxes(tf.zeros([1, 4, 5, 3]), [[[0.0, 0.25, 1.0, 1.0]]],
                                         [[1.0, 0.5, 0.0, 1.0]])
    outline = np.zeros((4, 5), bool)
    outline[[0, -1], 1:] = outline[:, [1, -1]] = True
    np.testing.assert_array_equal(drawn[0, :, :, 0].numpy(), outline.astype(np.float32))
    np.testing.assert_array_equal(drawn[0, 0, 1].numpy(), [1.0, 0.5, 0.0])
    default = tf.image.draw_bounding_boxes(tf.zeros([1, 3, 3, 1]), [[[0, 0, 1, 1]]], None)
    assert default.numpy().sum() == 8


@pytest.mark.parametrize("call", [
    lambda: tf.image.non_max_suppression(BOXES, SCORES, 3, iou_threshold=1.5),
    lambda: tf.image.non_max_suppression(BOXES, SCORES, -1),
    lambda: tf.image.non_max_suppression(BOXES[:, :3], SCORES, 3),
    lambda: tf.image.non_max_suppression(BOXES, SCORES[:3], 3),
    lambda: tf.image.non_max_suppression_with_scores(BOXES, SCORES, 3, soft_nms_sigma=-1.0),
    lambda: tf.image.non_max_suppression_overlaps(np.ones((3, 2)), [1.0, 2.0, 3.0], 2),
    lambda: tf.image.draw_bounding_boxes(tf.zeros([1, 3, 3, 2]), [[[0, 0, 1, 1]]], [[1.0]]),
    lambda: tf.image.draw_bounding_boxes(tf.zeros([1, 3, 3, 1]), [[0, 0, 1, 1]], [[1.0]]),
])
def test_errors(call):
    with pytest.raises(tf.errors.InvalidArgumentError):
        call()


def test_sampled_crops_cover_a_box_and_fit():
    box = np.array([[[0.2, 0.3, 0.6, 0.7]]], np.float32)
    for k in range(20):
        begin, size, window = tf.image.stateless_sample_distorted_bounding_box(
            [40, 30, 3], box, seed=(k, 1), min_object_covered=0.6,
            aspect_ratio_range=(0.5, 2.0), area_range=(0.1, 0.8))
        (y, x, _), (h, w, depth) = begin.numpy(), size.numpy()
        assert depth == -1 and 0 <= y and y + h <= 40 and 0 <= x and x + w <= 30
        assert 0.1 * 1200 <= h * w <= 0.8 * 1200 or (h, w) == (40, 30)
        covered = max(min(y + h, 24) - max(y, 8), 0) * max(min(x + w, 21) - max(x, 9), 0)
        assert covered >= 0.6 * 16 * 12 or (h, w) == (40, 30)
        np.testing.assert_allclose(window.numpy(), [[[y / 40, x / 30, (y + h) / 40,
                                                      (x + w) / 30]]], rtol=1e-6)


def test_sampled_crops_repeat_for_a_seed():
    def draw(**kwargs):
        return [t.numpy() for t in tf.image.stateless_sample_distorted_bounding_box(
            [40, 30, 3], [[[0.1, 0.1, 0.9, 0.9]]], **kwargs)]
    np.testing.assert_array_equal(draw(seed=(3, 4))[0], draw(seed=(3, 4))[0])
    tf.random.set_seed(2)
    first = tf.image.sample_distorted_bounding_box([40, 30, 3], [[[0.1, 0.1, 0.9, 0.9]]],
                                                   seed=5)[1].numpy()
    tf.random.set_seed(2)
    np.testing.assert_array_equal(
        tf.image.sample_distorted_bounding_box([40, 30, 3], [[[0.1, 0.1, 0.9, 0.9]]],
                                               seed=5)[1].numpy(), first)


@pytest.mark.parametrize("kwargs", [
    {"bounding_boxes": [[[0.0, 0.0, 1.5, 1.0]]]},
    {"bounding_boxes": np.zeros((1, 0, 4))},
    {"bounding_boxes": [[[0.0, 0.0, 1.0, 1.0]]], "area_range": (0.0, 1.0)},
    {"bounding_boxes": [[[0.0, 0.0, 1.0, 1.0]]], "min_object_covered": -0.5},
])
def test_sampled_crop_errors(kwargs):
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.image.stateless_sample_distorted_bounding_box([40, 30, 3], seed=(1, 2), **kwargs)
