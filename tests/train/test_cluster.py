"""tf.train.ClusterSpec: jobs, task indices and addresses (dense and sparse jobs), equality,
its dict form and errors."""
import pytest

import tapeflow as tf
import tapeflow.compat.v1 as tf1

CLUSTER = {"worker": ["w0:2222", "w1:2222"], "ps": {1: "p1:2222", 3: "p3:2222"}, "chief": []}


def test_jobs_tasks_and_addresses():
    spec = tf.train.ClusterSpec(CLUSTER)
    assert spec.jobs == ["worker", "ps", "chief"] and bool(spec)
    assert [spec.num_tasks(j) for j in spec.jobs] == [2, 2, 0]
    assert spec.task_indices("ps") == [1, 3] and spec.task_address("worker", 1) == "w1:2222"
    assert spec.job_tasks("ps") == [None, "p1:2222", None, "p3:2222"]
    assert spec.as_dict() == {"worker": ["w0:2222", "w1:2222"],
                              "ps": {1: "p1:2222", 3: "p3:2222"}, "chief": {}}
    assert repr(spec) == ("ClusterSpec({'chief': {}, 'ps': {1: 'p1:2222', 3: 'p3:2222'}, "
                          "'worker': ['w0:2222', 'w1:2222']})")
    copy = tf1.train.ClusterSpec(spec)
    assert copy == spec and not copy != spec and copy.as_dict() == spec.as_dict()
    assert tf.train.ClusterSpec({"worker": {"0": "a:1", "1": "b:1"}}).as_dict() == {
        "worker": ["a:1", "b:1"]}                       # string indices, as in JSON
    assert not tf.train.ClusterSpec({})


@pytest.mark.parametrize("call, message", [
    (lambda s: s.num_tasks("gpu"), "No such job in cluster: 'gpu'"),
    (lambda s: s.task_address("ps", 0), "No task with index 0 in job 'ps'"),
    (lambda s: s.job_tasks("x"), "No such job"),
])
def test_unknown_jobs_and_tasks(call, message):
    with pytest.raises(ValueError, match=message):
        call(tf.train.ClusterSpec(CLUSTER))


@pytest.mark.parametrize("cluster, message", [
    (["w0:1"], "must be a dictionary"),
    ({"worker": "w0:1"}, "must be a list or a dictionary"),
    ({"worker": [2222]}, "Task address 2222 must be bytes or unicode"),
])
def test_bad_clusters(cluster, message):
    with pytest.raises(TypeError, match=message):
        tf.train.ClusterSpec(cluster)
