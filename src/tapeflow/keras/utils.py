"""keras.utils: seeding, and drawing models (`plot_model`, `model_to_dot`)."""
from .backend import set_random_seed
from .model_plot import model_to_dot, plot_model

__all__ = ["model_to_dot", "plot_model", "set_random_seed"]
