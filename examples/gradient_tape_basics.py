"""The GradientTape examples of the seed article, with only the import changed."""
import tapeflow as tf

# The derivative of y = x ** 2 at x = 3.
x = tf.constant(3.0)
with tf.GradientTape() as g:
    g.watch(x)
    y = x * x
dy_dx = g.gradient(y, x)  # y' = 2 * x = 2 * 3 = 6
print("dy/dx:", dy_dx.numpy())

# Nested tapes give higher derivatives.
x = tf.constant(3.0)
with tf.GradientTape() as g:
    g.watch(x)
    with tf.GradientTape() as gg:
        gg.watch(x)
        y = x * x
    dy_dx = gg.gradient(y, x)  # y' = 2 * x = 2 * 3 = 6
d2y_dx2 = g.gradient(dy_dx, x)  # y'' = 2
print("dy/dx:", dy_dx.numpy(), "d2y/dx2:", d2y_dx2.numpy())

# A persistent tape computes several gradients.
x = tf.constant(3.0)
with tf.GradientTape(persistent=True) as g:
    g.watch(x)
    y = x * x
    z = y * y
dz_dx = g.gradient(z, x)  # z = y ^ 2 = x ^ 4, z' = 4 * x ^ 3 = 4 * 3 ^ 3 = 108
dy_dx = g.gradient(y, x)  # y' = 2 * x = 2 * 3 = 6
del g  # Drop the reference to the tape
print("dz/dx:", dz_dx.numpy(), "dy/dx:", dy_dx.numpy())
