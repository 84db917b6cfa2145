"""tf.experimental.dtensor's meshes and layouts, as TF 2.21 describes them (recorded)."""
import pytest

from tapeflow.experimental import dtensor


def test_a_mesh_and_a_layout_over_this_process():
    mesh = dtensor.create_mesh([("batch", 1)], device_type="CPU")
    assert repr(mesh) == "Mesh.from_string(|batch=1|0|0|/job:localhost/replica:0/task:0/device:CPU:0)"
    assert (mesh.dim_names, mesh.shape(), mesh.size, mesh.device_type()) == (["batch"], [1], 1, "CPU")
    assert mesh.dim_size("batch") == 1 and mesh == dtensor.create_distributed_mesh([("batch", 1)])
    layout = dtensor.Layout(["batch", dtensor.UNSHARDED], mesh)
    assert (layout.sharding_specs, layout.rank, layout.mesh) == (["batch", "unsharded"], 2, mesh)
    assert [layout.num_shards(0), layout.num_shards(1)] == [1, 1]
    assert dtensor.Layout.replicated(mesh, rank=2).is_fully_replicated()
    assert dtensor.Layout.batch_sharded(mesh, "batch", 2).sharding_specs == ["batch", "unsharded"]


def test_bad_meshes_and_layouts():
    mesh = dtensor.create_mesh([("batch", 1)], device_type="CPU")
    with pytest.raises(ValueError, match="A dimension sharding must either be a valid mesh"):
        dtensor.Layout(["x"], mesh)
    with pytest.raises(ValueError, match=r"length of devices \(1\) must be equal to total size"):
        dtensor.create_mesh([("batch", 2)], device_type="CPU")
