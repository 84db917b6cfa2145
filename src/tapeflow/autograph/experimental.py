"""`tf.autograph.experimental`: `do_not_convert` and `set_loop_options`."""
from .api import do_not_convert, set_loop_options

__all__ = ["do_not_convert", "set_loop_options"]
