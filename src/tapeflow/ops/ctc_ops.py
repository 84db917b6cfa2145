"""Connectionist temporal classification: `ctc_loss` (op CTCLoss, the forward-backward
algorithm in log space, returning the loss and its logits gradient as TF's fused kernel
does; its rule is in ctc_grad.py), the label helpers `collapse_repeated` and
`ctc_unique_labels`, and the decoding ops (their SparseTensor results are made in
tapeflow/ctc_decoders.py)."""
from __future__ import annotations

import numpy as np

from ..framework import dtypes, errors
from ..framework.execute import execute
from ..framework.registry import define_op, no_gradient
from ..framework.tensor import Tensor
from .array_ops import transpose
from .comparison_ops import equal
from .indexing_ops import where
from .math_ops import cast
from .op_util import NO_ATTRS, as_input, index_input

__all__ = ["collapse_repeated", "ctc_loss", "ctc_unique_labels"]


def _log_softmax(x):
    shifted = x - x.max(axis=-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))


def _logaddexp(*terms):
    return np.logaddexp.reduce(np.stack(terms), axis=0)


def _ctc_loss(logits, labels, label_length, logit_length, blank):
    """Loss [batch] and logits gradient [time, batch, classes] of time-major `logits`."""
    steps, batch, classes = logits.shape
    log_probs = _log_softmax(logits.astype(np.float64))
    width = 2 * labels.shape[1] + 1
    extended = np.full((batch, width), blank, np.int64)
    extended[:, 1::2] = labels
    states = np.arange(width)
    valid = states[None, :] < 2 * label_length[:, None] + 1
    # A label state may be entered from two states back unless that one holds the same label.
    skip = np.zeros((batch, width), bool)
    skip[:, 2:] = (extended[:, 2:] != blank) & (extended[:, 2:] != extended[:, :-2])
    rows = np.arange(batch)[:, None]
    emit = log_probs[:, rows, extended]                       # [time, batch, width]
    alpha = np.full((steps, batch, width), -np.inf)
    alpha[0, :, :2] = emit[0, :, :2]
    alpha[0][~valid] = -np.inf
    for t in range(1, steps):
        prev = alpha[t - 1]
        one = np.concatenate([np.full((batch, 1), -np.inf), prev[:, :-1]], axis=1)
        two = np.where(skip, np.concatenate([np.full((batch, 2), -np.inf), prev[:, :-2]], 1),
                       -np.inf)
        alpha[t] = np.where(valid, _logaddexp(prev, one, two) + emit[t], -np.inf)
    beta = np.full((steps, batch, width), -np.inf)
    last = logit_length - 1
    ends = 2 * label_length
    beta[last, np.arange(batch), ends] = emit[last, np.arange(batch), ends]
    has_label = label_length > 0
    beta[last[has_label], np.arange(batch)[has_label], ends[has_label] - 1] = \
        emit[last[has_label], np.arange(batch)[has_label], ends[has_label] - 1]
    skip_back = np.zeros((batch, width), bool)
    skip_back[:, :-2] = skip[:, 2:]
    for t in range(steps - 2, -1, -1):
        nxt = beta[t + 1]
        one = np.concatenate([nxt[:, 1:], np.full((batch, 1), -np.inf)], axis=1)
        two = np.where(skip_back, np.concatenate([nxt[:, 2:], np.full((batch, 2), -np.inf)], 1),
                       -np.inf)
        inside = (t < last)[:, None]
        beta[t] = np.where(inside & valid, _logaddexp(nxt, one, two) + emit[t], beta[t])
    log_likelihood = np.logaddexp.reduce(alpha[0] + beta[0] - emit[0], axis=-1)
    occupancy = np.full((steps, batch, classes), -np.inf)
    through = alpha + beta - emit                              # [time, batch, width]
    for s in range(width):
        index = extended[:, s]
        occupancy[:, np.arange(batch), index] = np.logaddexp(
            occupancy[:, np.arange(batch), index], through[:, :, s])
    feasible = np.isfinite(log_likelihood)
    grad = np.exp(log_probs) - np.exp(occupancy - np.where(feasible, log_likelihood, 0)[None, :,
                                                                                        None])
    running = np.arange(steps)[:, None] < logit_length[None, :]
    grad = np.where(running[..., None] & feasible[None, :, None], grad, 0.0)
    return (-log_likelihood).astype(logits.dtype), grad.astype(logits.dtype)


CTCLoss = define_op("CTCLoss", _ctc_loss, num_outputs=2)


def _dense_labels(labels):
    """SparseTensor labels (anything with indices, values and dense_shape) as a dense
    [batch, max_length] array and the lengths."""
    indices = np.asarray(getattr(labels.indices, "_value", labels.indices)).astype(np.int64)
    values = np.asarray(getattr(labels.values, "_value", labels.values))
    shape = np.asarray(getattr(labels.dense_shape, "_value", labels.dense_shape))
    dense = np.zeros(tuple(int(d) for d in shape), values.dtype)
    dense[tuple(indices.T)] = values
    lengths = np.zeros(int(shape[0]), np.int32)
    np.maximum.at(lengths, indices[:, 0], indices[:, 1].astype(np.int32) + 1)
    return as_input(dense), as_input(lengths)


def ctc_loss(labels, logits, label_length, logit_length, logits_time_major=True, unique=None,
             blank_index=None, name=None) -> Tensor:
    """The CTC loss, -log p(labels | logits), per example, and its gradient (softmax minus
    the label posteriors, as TF's kernel computes it; no second derivative).

    Args:
        labels: [batch, max_label_length] int labels (padded), or a SparseTensor.
        logits: [time, batch, classes] unnormalized log probabilities ([batch, time,
            classes] when not `logits_time_major`).
        label_length: [batch] label lengths (ignored for SparseTensor labels).
        logit_length: [batch] numbers of valid time steps.
        unique: accepted (an optimization of TF's).
        blank_index: the blank class (negative counts from the end); default 0 for dense
            labels, required for SparseTensor labels.

    Returns:
        A [batch] tensor of the logits' dtype; inf where no alignment fits the labels
        (with a zero gradient).

    Raises:
        ValueError: a missing logit_length or label_length, or SparseTensor labels without
            a blank_index.
        InvalidArgumentError: shapes that do not fit, or a label out of range.

    Example:
        >>> import tapeflow as tf
        >>> logits = tf.zeros([2, 1, 3])   # two steps, uniform over 3 classes
        >>> float(tf.nn.ctc_loss([[1]], logits, [1], [2])[0])   # 3 of 9 paths spell [1]
        1.0986123
    """
    if logit_length is None:
        raise ValueError("Argument `logit_length` must be provided.")
    sparse = all(hasattr(labels, a) for a in ("indices", "values", "dense_shape"))
    if sparse:
        if blank_index is None:
            raise ValueError("Argument `blank_index` must be provided when `labels` is a "
                             "`SparseTensor`.")
        labels, label_length = _dense_labels(labels)
    elif label_length is None:
        raise ValueError("Argument `label_length` must be provided when `labels` is dense.")
    x = as_input(logits)
    if not x.dtype.is_floating:
        raise errors.InvalidArgumentError(
            None, "CTCLoss", f"CTCLoss: logits must be floating, got {x.dtype.name}.")
    if not logits_time_major:
        x = transpose(x, [1, 0, 2])
    labels = index_input("CTCLoss", labels)
    label_length = index_input("CTCLoss", label_length)
    logit_length = index_input("CTCLoss", logit_length)
    if x.ndim != 3 or labels.ndim != 2:
        raise errors.InvalidArgumentError(
            None, "CTCLoss", f"CTCLoss: logits must be 3-D and labels 2-D, got shapes "
            f"{list(x.shape)} and {list(labels.shape)}.")
    steps, batch, classes = x.shape
    blank = (0 if blank_index is None else int(blank_index)) % classes
    _check_lengths(labels, label_length, logit_length, steps, batch, classes)
    labels = cast(labels, dtypes.int64)
    if blank:  # TF moves the blank class first (last for SparseTensor labels): a label
        # equal to it then reads the class below it.
        labels = where(equal(labels, blank), labels - 1, labels)
    return execute(CTCLoss, (x, labels, cast(label_length, dtypes.int64),
                             cast(logit_length, dtypes.int64)), {"blank": blank})[0]


def _check_lengths(labels, label_length, logit_length, steps, batch, classes) -> None:
    """Eagerly, the lengths and labels against the logits' shape."""
    if labels.shape[0] != batch or label_length.shape.as_list() != [batch] or \
            logit_length.shape.as_list() != [batch]:
        raise errors.InvalidArgumentError(
            None, "CTCLoss", f"CTCLoss: labels {list(labels.shape)}, label_length "
            f"{list(label_length.shape)} and logit_length {list(logit_length.shape)} must "
            f"match the batch size {batch}.")
    if type(labels) is not Tensor or type(logit_length) is not Tensor:
        return
    if np.any(logit_length._value > steps) or np.any(logit_length._value < 1):
        raise errors.InvalidArgumentError(
            None, "CTCLoss", f"CTCLoss: logit_length must be in [1, {steps}], got "
            f"{logit_length._value.tolist()}.")
    used = np.arange(labels.shape[1])[None, :] < label_length._value[:, None]
    if np.any(label_length._value > labels.shape[1]) or np.any(
            used & ((labels._value < 0) | (labels._value >= classes))):
        raise errors.InvalidArgumentError(
            None, "CTCLoss", f"CTCLoss: labels must be in [0, {classes}) within label_length "
            f"(at most {labels.shape[1]}), got lengths {label_length._value.tolist()}.")


def _collapse_repeated(labels, seq_length):
    batch = labels.shape[0]
    keep = np.ones(labels.shape, bool)
    keep[:, 1:] = labels[:, 1:] != labels[:, :-1]
    keep &= np.arange(labels.shape[1])[None, :] < seq_length[:, None]
    lengths = keep.sum(axis=1)
    out = np.zeros((batch, int(lengths.max(initial=0))), labels.dtype)
    for b in range(batch):
        out[b, :lengths[b]] = labels[b][keep[b]]
    return out, lengths.astype(seq_length.dtype)


def _unique_labels(labels):
    out = np.zeros(labels.shape, np.int64)
    index = np.zeros(labels.shape, np.int32)
    for b, row in enumerate(labels):
        values, first, inverse = np.unique(row, return_index=True, return_inverse=True)
        order = np.argsort(first)   # the values in order of first occurrence
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        out[b, :len(values)] = values[order]
        index[b] = rank[inverse]
    return out, index


CollapseRepeated = define_op("CollapseRepeated", _collapse_repeated, num_outputs=2)
CTCUniqueLabels = define_op("CTCUniqueLabels", _unique_labels, num_outputs=2)
no_gradient("CollapseRepeated")
no_gradient("CTCUniqueLabels")


def collapse_repeated(labels, seq_length, name=None) -> tuple:
    """Merges runs of a repeated label within each row's first `seq_length` entries.

    Returns:
        `(collapsed_labels, new_seq_length)`: the rows left-aligned and zero-padded to the
        longest new length.

    Example:
        >>> import tapeflow as tf
        >>> labels, lengths = tf.nn.collapse_repeated([[1, 1, 2, 2, 3], [4, 4, 4, 0, 0]], [5, 3])
        >>> labels.numpy().tolist(), lengths.numpy().tolist()
        ([[1, 2, 3], [4, 0, 0]], [3, 1])
    """
    labels = index_input("CollapseRepeated", labels)
    seq_length = index_input("CollapseRepeated", seq_length)
    return tuple(execute(CollapseRepeated, (labels, seq_length), NO_ATTRS))


def ctc_unique_labels(labels, name=None) -> list:
    """Each row's distinct labels in order of first appearance (zero-padded, int64) and,
    for every label, the index of its value among them (int32).

    Example:
        >>> import tapeflow as tf
        >>> unique, index = tf.nn.ctc_unique_labels([[3, 4, 3], [1, 1, 0]])
        >>> unique.numpy().tolist(), index.numpy().tolist()
        ([[3, 4, 0], [1, 0, 0]], [[0, 1, 0], [0, 0, 1]])
    """
    return list(execute(CTCUniqueLabels, (index_input("CTCUniqueLabels", labels),), NO_ATTRS))


def _sparse_parts(paths: list, batch: int) -> tuple:
    """Label sequences (one per example) as SparseTensor components."""
    indices = np.array([(b, i) for b, path in enumerate(paths) for i in range(len(path))],
                       np.int64).reshape(-1, 2)
    values = np.array([label for path in paths for label in path], np.int64)
    shape = np.array([batch, max((len(p) for p in paths), default=0)], np.int64)
    return indices, values, shape


def _greedy_decode(inputs, sequence_length, merge_repeated, blank):
    steps, batch, _ = inputs.shape
    best = inputs.argmax(axis=-1)                       # [time, batch], ties to the first
    paths, scores = [], np.zeros((batch, 1), inputs.dtype)
    for b in range(batch):
        length = int(sequence_length[b])
        path, previous = [], -1
        for label in best[:length, b]:
            if label != blank and not (merge_repeated and label == previous):
                path.append(int(label))
            previous = label
        paths.append(path)
        scores[b, 0] = -inputs[np.arange(length), b, best[:length, b]].sum()
    return (*_sparse_parts(paths, batch), scores)


def _beam_search(inputs, sequence_length, beam_width, top_paths):
    """Prefix beam search over log-softmax probabilities, the blank being the last class:
    each beam is a labelling with the log probabilities of its alignments ending in a
    blank and in a label."""
    steps, batch, classes = inputs.shape
    blank = classes - 1
    log_probs = _log_softmax(inputs.astype(np.float64))
    all_paths = [[] for _ in range(top_paths)]
    scores = np.zeros((batch, top_paths), inputs.dtype)
    for b in range(batch):
        beams = {(): (0.0, -np.inf)}
        for t in range(int(sequence_length[b])):
            lp = log_probs[t, b]
            grown: dict = {}

            def add(prefix, blank_term, label_term):
                old = grown.get(prefix, (-np.inf, -np.inf))
                grown[prefix] = (np.logaddexp(old[0], blank_term),
                                 np.logaddexp(old[1], label_term))

            for prefix, (p_blank, p_label) in beams.items():
                total = np.logaddexp(p_blank, p_label)
                add(prefix, total + lp[blank], -np.inf)
                for c in range(classes - 1):
                    if prefix and prefix[-1] == c:
                        add(prefix + (c,), -np.inf, p_blank + lp[c])
                        add(prefix, -np.inf, p_label + lp[c])
                    else:
                        add(prefix + (c,), -np.inf, total + lp[c])
            ranked = sorted(grown.items(), key=lambda kv: -np.logaddexp(*kv[1]))
            beams = dict(ranked[:beam_width])
        ranked = sorted(beams.items(), key=lambda kv: -np.logaddexp(*kv[1]))[:top_paths]
        for k, (prefix, probs) in enumerate(ranked):
            all_paths[k].append(list(prefix))
            scores[b, k] = np.logaddexp(*probs)
    parts = [_sparse_parts(paths, batch) for paths in all_paths]
    return (*[p for part in parts for p in part], scores)


CTCGreedyDecoder = define_op("CTCGreedyDecoder", _greedy_decode, num_outputs=4)
CTCBeamSearchDecoder = define_op("CTCBeamSearchDecoder", _beam_search, num_outputs=None)
CTCBeamSearchDecoder.shape_fn = lambda inputs, attrs: [
    spec for _ in range(attrs["top_paths"])
    for spec in ((np.dtype(np.int64), (None, 2)), (np.dtype(np.int64), (None,)),
                 (np.dtype(np.int64), (2,)))] + [
    (inputs[0]._value.dtype, (inputs[0]._dims[1], attrs["top_paths"]))]
no_gradient("CTCGreedyDecoder")
no_gradient("CTCBeamSearchDecoder")


def _decoder_inputs(op_name: str, inputs, sequence_length) -> tuple:
    x = as_input(inputs)
    if not x.dtype.is_floating or x.ndim != 3:
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: inputs must be a 3-D float tensor [time, batch, "
            f"classes], got {x.dtype.name} of shape {list(x.shape)}.")
    lengths = index_input(op_name, sequence_length)
    if lengths.shape.as_list() != [x.shape[1]]:
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: sequence_length must have shape [{x.shape[1]}], got "
            f"{lengths.shape.as_list()}.")
    if type(lengths) is Tensor and np.any(lengths._value > x.shape[0]):
        raise errors.InvalidArgumentError(
            None, op_name, f"{op_name}: sequence_length {lengths._value.tolist()} exceeds the "
            f"{x.shape[0]} time steps.")
    return x, lengths


def ctc_greedy_decode(inputs, sequence_length, merge_repeated=True, blank_index=None) -> tuple:
    """The best class at each step, repeats merged (`merge_repeated`) and blanks removed.

    Returns:
        `((indices, values, dense_shape), neg_sum_logits)`: the decoded labels as
        SparseTensor components, and minus the sum of each example's best logits, [batch, 1].
    """
    x, lengths = _decoder_inputs("CTCGreedyDecoder", inputs, sequence_length)
    blank = (x.shape[2] - 1 if blank_index is None else int(blank_index)) % x.shape[2]
    indices, values, shape, scores = execute(CTCGreedyDecoder, (x, lengths), {
        "merge_repeated": bool(merge_repeated), "blank": blank})
    return (indices, values, shape), scores


def ctc_beam_search_decode(inputs, sequence_length, beam_width=100, top_paths=1) -> tuple:
    """The `top_paths` most probable labellings by prefix beam search (the blank is the
    last class).

    Returns:
        `(paths, log_probabilities)`: a list of `top_paths` (indices, values, dense_shape)
        SparseTensor components, and [batch, top_paths] log probabilities.

    Raises:
        InvalidArgumentError: bad shapes, or top_paths above beam_width.
    """
    x, lengths = _decoder_inputs("CTCBeamSearchDecoder", inputs, sequence_length)
    if not 0 < int(top_paths) <= int(beam_width):
        raise errors.InvalidArgumentError(
            None, "CTCBeamSearchDecoder", f"CTCBeamSearchDecoder: top_paths must be in [1, "
            f"beam_width={beam_width}], got {top_paths}.")
    outputs = execute(CTCBeamSearchDecoder, (x, lengths), {"beam_width": int(beam_width),
                                                           "top_paths": int(top_paths)})
    paths = [tuple(outputs[3 * k:3 * k + 3]) for k in range(int(top_paths))]
    return paths, outputs[-1]
