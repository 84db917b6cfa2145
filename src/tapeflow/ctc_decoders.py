"""tf.nn's CTC decoders: ops from ops/ctc_ops.py, their labels as SparseTensors."""
from __future__ import annotations

from .framework.sparse_tensor import SparseTensor
from .ops.ctc_ops import ctc_beam_search_decode, ctc_greedy_decode

__all__ = ["ctc_beam_search_decoder", "ctc_greedy_decoder"]


def _sparse(parts):
    return SparseTensor(*parts)


def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True, blank_index=None):
    """Greedy (best path) CTC decoding: the most likely class at each step, runs of one
    class merged (with `merge_repeated`), blanks removed.

    Args:
        inputs: [max_time, batch, classes] logits.
        sequence_length: [batch] numbers of valid steps.
        blank_index: the blank class (default the last; negative counts from the end).

    Returns:
        `(decoded, neg_sum_logits)`: a one-element list holding the labels as a
        SparseTensor ([batch, longest] int64), and [batch, 1] minus the sums of the chosen
        logits.

    Raises:
        InvalidArgumentError: inputs not 3-D, or lengths that do not fit.

    Example:
        >>> import tapeflow as tf
        >>> logits = tf.math.log([[[0.1, 0.9]], [[0.8, 0.2]], [[0.8, 0.2]], [[0.1, 0.9]]])
        >>> decoded, _ = tf.nn.ctc_greedy_decoder(logits, [4])
        >>> decoded[0].values.numpy().tolist()
        [0]
    """
    parts, scores = ctc_greedy_decode(inputs, sequence_length, merge_repeated, blank_index)
    return [_sparse(parts)], scores


def ctc_beam_search_decoder(inputs, sequence_length, beam_width=100, top_paths=1):
    """CTC beam search decoding: the `top_paths` most probable labellings, summing the
    probabilities of their alignments within the beam; the blank is the last class.

    Args:
        inputs: [max_time, batch, classes] logits.
        sequence_length: [batch] numbers of valid steps.
        beam_width: the number of labellings kept at each step.
        top_paths: how many labellings to return (at most beam_width).

    Returns:
        `(decoded, log_probabilities)`: a list of `top_paths` SparseTensors, and
        [batch, top_paths] log probabilities of those labellings.

    Raises:
        InvalidArgumentError: inputs not 3-D, lengths that do not fit, or top_paths above
            beam_width.

    Example:
        >>> import tapeflow as tf
        >>> logits = tf.math.log([[[0.6, 0.4]], [[0.6, 0.4]]])
        >>> decoded, log_probs = tf.nn.ctc_beam_search_decoder(logits, [2])
        >>> decoded[0].values.numpy().tolist(), round(float(log_probs[0, 0]), 4)
        ([0], -0.1744)
    """
    paths, scores = ctc_beam_search_decode(inputs, sequence_length, beam_width, top_paths)
    return [_sparse(parts) for parts in paths], scores
