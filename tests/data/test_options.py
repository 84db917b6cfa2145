"""tf.data.Options: typed options, merged along a pipeline, as TF 2.21 does."""
import pytest

import tapeflow as tf


def test_unset_options_are_none_and_assignments_are_checked():
    o = tf.data.Options()
    assert o.deterministic is None and o.experimental_external_state_policy is None
    assert o.experimental_optimization.apply_default_optimizations is None
    assert o.experimental_distribute.auto_shard_policy == tf.data.experimental.AutoShardPolicy.AUTO
    with pytest.raises(AttributeError, match="Cannot set the property foo on Options"):
        o.foo = 1
    with pytest.raises(TypeError, match='Property "deterministic" must be of type'):
        o.deterministic = 3
    o.experimental_deterministic = False
    assert o.deterministic is False
    assert [p.value for p in tf.data.experimental.AutoShardPolicy] == [-1, 0, 1, 2, 3]
    assert [p.name for p in tf.data.experimental.ExternalStatePolicy] == ["WARN", "IGNORE", "FAIL"]


def test_options_merge_along_the_pipeline():
    o = tf.data.Options()
    o.experimental_optimization.apply_default_optimizations = False
    o.experimental_external_state_policy = tf.data.experimental.ExternalStatePolicy.IGNORE
    ds = tf.data.Dataset.range(3).with_options(o)
    assert ds.options() == o and [int(x) for x in ds] == [0, 1, 2]
    later = tf.data.Options()
    later.deterministic = False
    merged = ds.map(lambda x: x + 1).with_options(later).options()
    assert merged.deterministic is False  # TF: False, False
    assert merged.experimental_optimization.apply_default_optimizations is False
    again = tf.data.Options()
    again.deterministic = True
    assert ds.with_options(later).with_options(again).options().deterministic is True
    zipped = tf.data.Dataset.zip((ds, tf.data.Dataset.range(3))).options()
    assert zipped.experimental_optimization.apply_default_optimizations is False
    with pytest.raises(TypeError, match="with_options"):
        ds.with_options({"deterministic": True})


def test_a_spec_found_from_elements_is_found_eagerly_inside_a_trace():
    # flat_map's element spec reads the first inner dataset; asked first inside a
    # tf.function, it still runs on values, not graph tensors.
    ds = tf.data.Dataset.range(2).map(lambda i: tf.range(4) + tf.cast(i, tf.int32)).flat_map(
        lambda row: tf.data.Dataset.from_tensor_slices(tf.reshape(row, [2, 2])))
    it = iter(ds)
    assert tf.function(lambda it: it.get_next())(it).numpy().tolist() == [0, 1]
