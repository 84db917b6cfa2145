"""The tf.gradients seed's example, verbatim except for the import: TF1 graph mode.

tf.gradients is graph-mode API: in TF 2 it needs `tf.compat.v1` with eager execution
disabled, and so it does here. It prints [4.0]: the derivative of x**2 at x = 2.
"""
import tapeflow.compat.v1 as tf

tf.disable_eager_execution()


# define a simple function
def f(x):
    return tf.square(x)


# create an input variable
x = tf.Variable(2.0)

# calculate the gradients of f(x) with respect to x
grads = tf.gradients(f(x), x)

# initialize variables, create session and run
init = tf.global_variables_initializer()
sess = tf.Session()
sess.run(init)

# print the result of the gradient calculation
print(sess.run(grads))
