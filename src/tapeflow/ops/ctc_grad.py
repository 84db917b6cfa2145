"""The gradient rule of CTCLoss."""
from __future__ import annotations

from ..framework.registry import RegisterGradient
from .array_ops import PreventGradient, Reshape
from .ctc_ops import CTCLoss
from .op_util import shape_of


@RegisterGradient(CTCLoss.name)
def _ctc_loss_grad(op, grad_loss, grad_backprop):
    # As TF: the fused kernel's gradient output, scaled per example; differentiating it
    # again is a LookupError, when that is computed.
    batch = shape_of(grad_loss)[0]
    backprop = PreventGradient(op.outputs[1], message="ctc_loss has no second derivative")
    return Reshape(grad_loss, (1, batch, 1)) * backprop, None, None, None
