"""tf.test.experimental: device synchronization for benchmarks."""
__all__ = ["sync_devices"]


def sync_devices() -> None:
    """Blocks until every device has finished the ops it was given. tapeflow's ops run
    synchronously with NumPy, so each has finished when it returns: nothing is pending.

    Example:
        >>> import tapeflow as tf
        >>> y = tf.linalg.matmul(tf.ones([4, 4]), tf.ones([4, 4]))
        >>> tf.test.experimental.sync_devices()
        >>> float(y[0, 0])
        4.0
    """
