"""The callback protocol (Callback, CallbackList), History, the progress bar and
LambdaCallback.

The progress bar is tqdm's (an optional dependency, in the `demo` extra); without tqdm,
verbose training prints one line per epoch instead.
"""
from __future__ import annotations

import sys

import numpy as np

__all__ = ["Callback", "CallbackList", "History", "ProgbarLogger", "LambdaCallback"]


class Callback:
    """Base class: override the `on_*` methods you need; `self.model` is set by `fit`."""

    def __init__(self) -> None:
        self.model = None
        self.params: dict = {}

    def set_model(self, model) -> None:
        self.model = model

    def set_params(self, params: dict) -> None:
        self.params = params

    def on_train_begin(self, logs=None): pass
    def on_train_end(self, logs=None): pass
    def on_epoch_begin(self, epoch, logs=None): pass
    def on_epoch_end(self, epoch, logs=None): pass
    def on_train_batch_begin(self, batch, logs=None): pass
    def on_train_batch_end(self, batch, logs=None): pass
    def on_test_begin(self, logs=None): pass
    def on_test_end(self, logs=None): pass
    def on_test_batch_begin(self, batch, logs=None): pass
    def on_test_batch_end(self, batch, logs=None): pass
    def on_predict_begin(self, logs=None): pass
    def on_predict_end(self, logs=None): pass
    def on_predict_batch_begin(self, batch, logs=None): pass
    def on_predict_batch_end(self, batch, logs=None): pass

    # Keras's aliases for the training-batch hooks.
    def on_batch_begin(self, batch, logs=None):
        self.on_train_batch_begin(batch, logs)

    def on_batch_end(self, batch, logs=None):
        self.on_train_batch_end(batch, logs)


class CallbackList:
    """Calls every callback of a list in order (what `fit` drives)."""

    def __init__(self, callbacks=None, model=None, **params) -> None:
        self.callbacks = list(callbacks or [])
        for callback in self.callbacks:
            callback.set_model(model)
            callback.set_params(params)

    def __getattr__(self, hook: str):
        if not hook.startswith("on_"):
            raise AttributeError(hook)

        def call_all(*args):
            for callback in self.callbacks:
                getattr(callback, hook)(*args)
        return call_all


class History(Callback):
    """Records each epoch's logs: `history.history['loss']` is the list of epoch losses.

    `fit` returns it; `history.epoch` lists the epoch indices.
    """

    def __init__(self) -> None:
        super().__init__()
        self.history: dict = {}
        self.epoch: list = []

    def on_train_begin(self, logs=None) -> None:
        self.epoch = []

    def on_epoch_end(self, epoch, logs=None) -> None:
        self.epoch.append(epoch)
        for key, value in (logs or {}).items():
            self.history.setdefault(key, []).append(value)
        self.model.history = self


def format_logs(logs: dict) -> str:
    """'loss: 0.1234 - acc: 0.5000'; a result with several values (F1Score per class)
    shows their mean, as Keras's progress bar does."""
    return " - ".join(f"{key}: {float(np.mean(value)):.4f}" for key, value in logs.items())


def _tqdm():
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm


class ProgbarLogger(Callback):
    """A tqdm progress bar per epoch (verbose=1), or one line per epoch (verbose=2, or
    when tqdm is not installed). Bars go to stderr, epoch lines to stdout."""

    def __init__(self, verbose: int = 1) -> None:
        super().__init__()
        self.verbose = verbose
        self._bar = None

    def on_epoch_begin(self, epoch, logs=None) -> None:
        epochs = self.params.get("epochs", 1)
        tqdm = _tqdm() if self.verbose == 1 else None
        if tqdm is None:
            return
        self._bar = tqdm(total=self.params.get("steps"), desc=f"Epoch {epoch + 1}/{epochs}",
                         unit="batch", leave=True, file=sys.stderr, dynamic_ncols=True)

    def on_train_batch_end(self, batch, logs=None) -> None:
        if self._bar is not None:
            self._bar.set_postfix_str(format_logs(logs or {}), refresh=False)
            self._bar.update(1)

    def on_epoch_end(self, epoch, logs=None) -> None:
        if self._bar is not None:
            self._bar.set_postfix_str(format_logs(logs or {}), refresh=False)
            self._bar.close()
            self._bar = None
        else:
            print(f"Epoch {epoch + 1}/{self.params.get('epochs', 1)} - {format_logs(logs or {})}",
                  flush=True)


class LambdaCallback(Callback):
    """A callback made of plain functions, e.g. `LambdaCallback(on_epoch_end=fn)`.

    `on_epoch_begin/end(epoch, logs)`, `on_batch_begin/end(batch, logs)` (training
    batches), `on_train_begin/end(logs)`; other `on_*` hooks by keyword.

    Example:
        >>> import tapeflow as tf
        >>> seen = []
        >>> cb = tf.keras.callbacks.LambdaCallback(on_epoch_end=lambda e, logs: seen.append(e))
        >>> cb.on_epoch_end(0, {})
        >>> seen
        [0]
    """

    def __init__(self, on_epoch_begin=None, on_epoch_end=None, on_batch_begin=None,
                 on_batch_end=None, on_train_begin=None, on_train_end=None, **kwargs) -> None:
        super().__init__()
        hooks = {"on_epoch_begin": on_epoch_begin, "on_epoch_end": on_epoch_end,
                 "on_train_batch_begin": on_batch_begin, "on_train_batch_end": on_batch_end,
                 "on_train_begin": on_train_begin, "on_train_end": on_train_end, **kwargs}
        for hook, fn in hooks.items():
            if not hook.startswith("on_") or not hasattr(Callback, hook):
                raise TypeError(f"LambdaCallback: unknown hook {hook!r}")
            if fn is not None:
                setattr(self, hook, fn)
