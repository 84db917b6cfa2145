"""`tf.experimental.dtensor`: the descriptions of a device mesh and of a tensor's sharding
over it (`Mesh`, `Layout`), as DTensor writes them.

A `Mesh` names the axes of a grid of devices (this process's logical devices); a `Layout`
says, per tensor dimension, which mesh axis shards it (or `UNSHARDED`). tapeflow runs every
op on the host, so a layout describes a tensor without moving it: DTensor's sharded
execution (`pack`, `relayout`, `call_with_layout`) is not here.

Example:
    >>> import tapeflow as tf
    >>> from tapeflow.experimental import dtensor
    >>> mesh = dtensor.create_mesh([("batch", 1)], device_type="CPU")
    >>> mesh.dim_names, mesh.shape(), mesh.local_devices()
    (['batch'], [1], ['/job:localhost/replica:0/task:0/device:CPU:0'])
    >>> layout = dtensor.Layout(["batch", dtensor.UNSHARDED], mesh)
    >>> layout.sharding_specs, layout.rank, layout.num_shards(0)
    (['batch', 'unsharded'], 2, 1)
"""
from __future__ import annotations

import math

import numpy as np

from ..framework.device import DeviceSpec

__all__ = ["Mesh", "Layout", "UNSHARDED", "MATCH", "create_mesh", "create_distributed_mesh"]

UNSHARDED = "unsharded"
MATCH = "match"


class Mesh:
    """A named grid of devices: axis names, the global device ids (row-major over the
    axes) and this process's devices among them."""

    def __init__(self, dim_names, global_device_ids, local_device_ids, local_devices,
                 mesh_name: str = "", global_devices=None, use_xla_spmd: bool = False):
        self._dim_names = list(dim_names)
        self._ids = np.asarray(global_device_ids)
        if self._ids.ndim != len(self._dim_names):
            raise ValueError(f"Mesh: {len(self._dim_names)} dimension names for a "
                             f"{self._ids.ndim}-D array of device ids (shape "
                             f"{list(self._ids.shape)})")
        self._local_ids = [int(i) for i in local_device_ids]
        self._local_devices = [DeviceSpec.from_string(d) if isinstance(d, str) else d
                               for d in local_devices]
        if len(self._local_ids) != len(self._local_devices):
            raise ValueError(f"Mesh: {len(self._local_ids)} local device ids for "
                             f"{len(self._local_devices)} local devices")
        self._name = mesh_name
        self._use_xla_spmd = use_xla_spmd

    @property
    def dim_names(self) -> list:
        """The axis names."""
        return list(self._dim_names)

    @property
    def name(self) -> str:
        return self._name

    @property
    def size(self) -> int:
        """The number of devices."""
        return int(self._ids.size)

    def shape(self) -> list:
        """The number of devices along each axis."""
        return list(self._ids.shape)

    def dim_size(self, dim_name: str) -> int:
        """The number of devices along the axis `dim_name`.

        Raises:
            ValueError: no such axis.
        """
        if dim_name not in self._dim_names:
            raise ValueError(f"Mesh has no dimension {dim_name!r} (it has {self._dim_names})")
        return self.shape()[self._dim_names.index(dim_name)]

    def device_type(self) -> str:
        """The type of the mesh's devices (CPU, GPU, TPU)."""
        return self._local_devices[0].device_type if self._local_devices else "CPU"

    def num_local_devices(self) -> int:
        return len(self._local_devices)

    def local_devices(self) -> list:
        """This process's devices, as full device names."""
        return [d.to_string() for d in self._local_devices]

    def local_device_ids(self) -> list:
        return list(self._local_ids)

    def use_xla_spmd(self) -> bool:
        return self._use_xla_spmd

    def to_string(self) -> str:
        """DTensor's text form: `name|axis=size,...|global ids|local ids|devices`."""
        dims = ",".join(f"{n}={s}" for n, s in zip(self._dim_names, self.shape()))
        return "|".join([self._name, dims, ",".join(str(int(i)) for i in self._ids.ravel()),
                         ",".join(map(str, self._local_ids)), ",".join(self.local_devices())])

    def __eq__(self, other) -> bool:
        return isinstance(other, Mesh) and self.to_string() == other.to_string()

    def __hash__(self) -> int:
        return hash(self.to_string())

    def __repr__(self) -> str:
        return f"Mesh.from_string({self.to_string()})"


class Layout:
    """How a tensor of rank `len(sharding_specs)` is split over `mesh`: each dimension is
    sharded along the named mesh axis, or `UNSHARDED`."""

    def __init__(self, sharding_specs, mesh: Mesh):
        if not isinstance(mesh, Mesh):
            raise ValueError(f"Layout: mesh must be a dtensor.Mesh, got {type(mesh).__name__}")
        used = [s for s in sharding_specs if s not in (UNSHARDED, MATCH)]
        for spec in sharding_specs:
            if spec not in (UNSHARDED, MATCH) and spec not in mesh.dim_names:
                raise ValueError(f"{spec}: A dimension sharding must either be a valid mesh "
                                 f"dimension or UNSHARDED.")
        if len(set(used)) != len(used):
            raise ValueError(f"Layout: a mesh dimension shards two tensor dimensions: "
                             f"{list(sharding_specs)}")
        self._specs = list(sharding_specs)
        self._mesh = mesh

    @classmethod
    def replicated(cls, mesh: Mesh, rank: int) -> "Layout":
        """The layout of a tensor of `rank` held whole on every device."""
        return cls([UNSHARDED] * rank, mesh)

    @classmethod
    def batch_sharded(cls, mesh: Mesh, batch_dim: str, rank: int, axis: int = 0) -> "Layout":
        """Sharded along `batch_dim` in dimension `axis`, whole in the others."""
        specs = [UNSHARDED] * rank
        specs[axis] = batch_dim
        return cls(specs, mesh)

    @property
    def sharding_specs(self) -> list:
        return list(self._specs)

    @property
    def mesh(self) -> Mesh:
        return self._mesh

    @property
    def rank(self) -> int:
        return len(self._specs)

    def num_shards(self, idx: int) -> int:
        """Into how many pieces dimension `idx` is cut."""
        spec = self._specs[idx]
        return 1 if spec in (UNSHARDED, MATCH) else self._mesh.dim_size(spec)

    def is_fully_replicated(self) -> bool:
        return all(s == UNSHARDED for s in self._specs)

    def to_string(self) -> str:
        return f"sharding_specs:{','.join(self._specs)}, mesh:{self._mesh.to_string()}"

    def __eq__(self, other) -> bool:
        return isinstance(other, Layout) and self.to_string() == other.to_string()

    def __hash__(self) -> int:
        return hash(self.to_string())

    def __repr__(self) -> str:
        return f"Layout.from_string({self.to_string()})"


def create_mesh(mesh_dims=None, mesh_name: str = "", devices=None, device_type=None,
                use_xla_spmd: bool = False) -> Mesh:
    """A mesh over this process's devices.

    Args:
        mesh_dims: (axis name, size) pairs; by default one axis "batch" over all devices.
        mesh_name: its name.
        devices: device names to use (default: the logical devices of `device_type`).
        device_type: CPU, GPU or TPU (default: the first available of GPU, CPU).

    Returns:
        The Mesh.

    Raises:
        ValueError: the axes' sizes do not multiply to the number of devices.
    """
    from ..config import list_logical_devices
    if devices is None:
        kind = (device_type or ("GPU" if list_logical_devices("GPU") else "CPU")).upper()
        devices = [d.name for d in list_logical_devices(kind)]
    specs = [_full(d) for d in devices]
    if mesh_dims is None:
        mesh_dims = [("batch", len(specs))]
    names = [name for name, _ in mesh_dims]
    shape = [int(size) for _, size in mesh_dims]
    if math.prod(shape) != len(specs):
        raise ValueError(f"length of devices ({len(specs)}) must be equal to total size of "
                         f"the mesh of shape {shape}")
    ids = np.arange(len(specs)).reshape(shape)
    return Mesh(names, ids, list(range(len(specs))), specs, mesh_name,
                use_xla_spmd=use_xla_spmd)


def create_distributed_mesh(mesh_dims, mesh_name: str = "", local_devices=None,
                            device_type=None, use_xla_spmd: bool = False) -> Mesh:
    """A mesh over every client's devices: tapeflow has one client, so the mesh is
    `create_mesh` over this process's devices."""
    return create_mesh(mesh_dims, mesh_name, local_devices, device_type, use_xla_spmd)


def _full(name: str) -> DeviceSpec:
    spec = DeviceSpec.from_string(name)
    return DeviceSpec(job=spec.job or "localhost", replica=0 if spec.replica is None
                      else spec.replica, task=0 if spec.task is None else spec.task,
                      device_type=spec.device_type, device_index=spec.device_index)
