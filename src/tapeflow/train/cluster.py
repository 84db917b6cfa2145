"""`ClusterSpec`: the jobs of a cluster and the network addresses of their tasks, as
`TF_CONFIG`'s "cluster" entry describes them."""
from __future__ import annotations

__all__ = ["ClusterSpec"]


def _no_job(job_name) -> ValueError:
    return ValueError(f"No such job in cluster: {job_name!r}")


class ClusterSpec:
    """A cluster: {job name: its tasks' addresses}, each job's tasks a list (indices 0, 1,
    ...) or a dict from task index to address (sparse jobs).

    Args:
        cluster: that dict, or another ClusterSpec.

    Raises:
        TypeError: not a dict or ClusterSpec, a job's tasks neither a list nor a dict, or a
            job name or address that is not a string.

    Example:
        >>> import tapeflow as tf
        >>> cluster = tf.train.ClusterSpec({"worker": ["w0:2222", "w1:2222"],
        ...                                 "ps": {1: "p1:2222"}})
        >>> cluster.num_tasks("worker"), cluster.task_address("ps", 1), cluster.job_tasks("ps")
        (2, 'p1:2222', [None, 'p1:2222'])
        >>> cluster
        ClusterSpec({'ps': {1: 'p1:2222'}, 'worker': ['w0:2222', 'w1:2222']})
    """

    def __init__(self, cluster) -> None:
        if isinstance(cluster, ClusterSpec):
            cluster = cluster.as_dict()
        if not isinstance(cluster, dict):
            raise TypeError("`cluster` must be a dictionary mapping one or more job names to "
                            "lists of network addresses, or a ClusterSpec")
        self._jobs: dict = {}
        for job_name, tasks in cluster.items():
            if isinstance(tasks, (list, tuple)):
                indexed = dict(enumerate(tasks))
            elif isinstance(tasks, dict):
                indexed = {int(i): address for i, address in tasks.items()}
            else:
                raise TypeError(f"The tasks for job {job_name!r} must be a list or a dictionary "
                                "from integers to strings.")
            if not isinstance(job_name, (str, bytes)):
                raise TypeError(f"Job name {job_name!r} must be bytes or unicode")
            for address in indexed.values():
                if not isinstance(address, (str, bytes)):
                    raise TypeError(f"Task address {address!r} must be bytes or unicode")
            self._jobs[job_name] = indexed

    def __bool__(self) -> bool:
        return bool(self._jobs)

    def __eq__(self, other) -> bool:
        return self._jobs == (other._jobs if isinstance(other, ClusterSpec) else other)

    def __ne__(self, other) -> bool:
        return not self == other

    __hash__ = None

    def __repr__(self) -> str:
        jobs = self.as_dict()
        return "ClusterSpec({" + ", ".join(f"{k!r}: {jobs[k]!r}" for k in sorted(jobs)) + "})"

    @property
    def jobs(self) -> list:
        return list(self._jobs)

    def _tasks(self, job_name) -> dict:
        try:
            return self._jobs[job_name]
        except KeyError:
            raise _no_job(job_name) from None

    def num_tasks(self, job_name) -> int:
        return len(self._tasks(job_name))

    def task_indices(self, job_name) -> list:
        return sorted(self._tasks(job_name))

    def task_address(self, job_name, task_index):
        tasks = self._tasks(job_name)
        if task_index not in tasks:
            raise ValueError(f"No task with index {task_index!r} in job {job_name!r}")
        return tasks[task_index]

    def job_tasks(self, job_name) -> list:
        """The job's addresses by task index, None where an index has no task."""
        tasks = self._tasks(job_name)
        return [tasks.get(i) for i in range(max(tasks) + 1)]

    def as_dict(self) -> dict:
        """{job: addresses}: a list where the task indices are 0..n-1, else a dict."""
        result = {}
        for job_name, tasks in self._jobs.items():
            if not tasks:
                result[job_name] = {}
            elif max(tasks) + 1 == len(tasks):
                result[job_name] = self.job_tasks(job_name)
            else:
                result[job_name] = {i: tasks[i] for i in sorted(tasks)}
        return result
