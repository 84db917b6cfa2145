"""Keras optimizers on float64 variables, against values recorded from Keras 3.15 on
TensorFlow 2.21: three steps of each on w = [1, -2, 3] with gradients k * [0.3, -0.7, 1.1]
(k = 1, 2, 3). Keras keeps the learning rate in a float32 variable and casts some
hyperparameters through float32 (betas in powers, SGD's momentum, weight decay, constant
slot fills) while using others as exact Python floats; the values agree to float64
rounding only when tapeflow rounds the same ones."""
import numpy as np
import pytest

import tapeflow as tf

CASES = [  # (optimizer, keyword arguments, w after three steps under Keras)
    ('SGD', {'learning_rate': 0.05, 'momentum': 0.9, 'nesterov': True},
     [0.7816150016918033, -1.4904350039475411, 2.199255006203279]),
    ('Adam', {'learning_rate': 0.05, 'amsgrad': True},
     [0.8538426983209206, -1.8538421900233542, 2.8538420513959504]),
    ('AdamW', {'learning_rate': 0.05, 'weight_decay': 0.1},
     [0.8396576070865245, -1.8247319770005246, 2.809806713927136]),
    ('RMSprop', {'learning_rate': 0.05, 'momentum': 0.5, 'centered': True},
     [0.3248276325142568, -1.3248258343166466, 2.324825593564463]),
    ('Adagrad', {'learning_rate': 0.05},
     [0.8865484791868584, -1.8707980366491883, 2.867618615530774]),
    ('Nadam', {'learning_rate': 0.05},
     [0.8533837587361395, -1.8533837388464574, 2.8533837334219974]),
    ('Adamax', {'learning_rate': 0.05},
     [0.877340313192406, -1.877340297843927, 2.8773402936579773]),
    ('Adadelta', {'learning_rate': 1.0},
     [0.9946235690133423, -1.994623531830462, 2.9946235268521813]),
    ('Ftrl', {'learning_rate': 0.05, 'l1_regularization_strength': 0.01, 'l2_regularization_strength': 0.02, 'beta': 0.1},
     [0.12260486011211938, -0.9183617838501842, 1.8673429291802113]),
    ('Lion', {'learning_rate': 0.05},
     [0.8499999977648258, -1.8499999977648258, 2.849999997764826]),
    ('Lamb', {'learning_rate': 0.05},
     [0.6906313268947549, -1.6906312852439558, 2.6906312738846445]),
    ('Adafactor', {'learning_rate': 0.05},
     [0.6906312947831761, -1.690631294783176, 2.690631294783176]),
    ('SGD', {'learning_rate': 0.05, 'clipnorm': 0.5},
     [0.9831827101624842, -1.960759657045797, 2.9383366039291086]),
    ('SGD', {'learning_rate': 0.05, 'global_clipnorm': 0.5},
     [0.9831827101624842, -1.960759657045797, 2.9383366039291086]),
]


@pytest.mark.parametrize("graph", [False, True], ids=["eager", "function"])
@pytest.mark.parametrize("name, kwargs, expected", CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_float64_steps_match_keras(name, kwargs, expected, graph):
    w = tf.Variable(np.array([1.0, -2.0, 3.0]))
    opt = getattr(tf.keras.optimizers, name)(**kwargs)

    def step(k):
        opt.apply_gradients([(tf.constant([0.3, -0.7, 1.1], tf.float64) * k, w)])

    if graph:
        step = tf.function(step)
    for k in (1.0, 2.0, 3.0):
        step(tf.constant(k, tf.float64))
    assert w.dtype == tf.float64
    np.testing.assert_allclose(w.numpy(), expected, rtol=1e-13, atol=0)


def test_hyperparameter_cast_goes_through_float32():
    from tapeflow.keras.optimizers.base import cast_hyperparameter
    assert float(cast_hyperparameter(0.9, np.zeros(1))) == 0.8999999761581421
    assert cast_hyperparameter(0.9, np.zeros(1, np.float32)).dtype == np.float32
    assert float(cast_hyperparameter(0.9, tf.zeros([1], tf.float64))) == 0.8999999761581421
