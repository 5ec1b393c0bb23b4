"""Reusable flat buffers that carry many parameter arrays in a few MPI calls.

A `PackedLayout` assigns every array of a list of parameters a slice of one flat
buffer per communication dtype. The buffer and the views on it are allocated once per
layout and reused at every step, so averaging the gradients of a model costs one copy in,
`ceil(bytes / bucket_bytes)` Allreduce calls and one scaled copy out. Parameters on a GPU
are packed into a device buffer of the same layout, which reaches MPI through the host
buffer (one copy each way per dtype) unless the MPI library is CUDA-aware.
"""
import numpy

from minichainer import backend

_FLOAT16 = numpy.dtype(numpy.float16)
_FLOAT32 = numpy.dtype(numpy.float32)
_SUPPORTED = frozenset(numpy.dtype(t) for t in (
    numpy.float16, numpy.float32, numpy.float64, numpy.int32, numpy.int64))


def comm_dtype(dtype, caller):
    """The dtype an array of `dtype` travels as (float16 goes as float32)."""
    dtype = numpy.dtype(dtype)
    if dtype not in _SUPPORTED:
        raise TypeError(
            '{}: dtype {} cannot be communicated (expected float16, float32, float64, '
            'int32 or int64)'.format(caller, dtype))
    return _FLOAT32 if dtype == _FLOAT16 else dtype


def packed_sizes(params):
    """`[(dtype, n), ...]`: the buffers a `PackedLayout` of `params` has."""
    sizes = {}
    for param in params:
        array = param.array
        dt = comm_dtype(array.dtype, 'multi-node communication of ' + str(param.name))
        sizes[dt] = sizes.get(dt, 0) + array.size
    return sorted(sizes.items(), key=lambda item: item[0].str)


class _Group:
    __slots__ = ('dtype', 'flat', 'entries', 'ranges', 'shared', 'device_flat',
                 'device_entries', 'xp')

    def __init__(self, dtype, params, shapes, bucket_elems, make_shared, device=None):
        n = 0
        for shape in shapes:
            n += int(numpy.prod(shape, dtype=numpy.int64))
        self.dtype = dtype
        if make_shared is None:
            self.shared = None
            self.flat = numpy.empty(n, dtype=dtype)
        else:
            self.shared = make_shared(dtype, n, bucket_elems)
            self.flat = self.shared.segment
        self.entries = _views(self.flat, params, shapes)
        # Parameters on a GPU: packed there into a device buffer of the same layout,
        # which is staged through `flat` (one device-to-host and one host-to-device copy
        # per group) unless the MPI library reads device memory (CUDA-aware MPI).
        if device is None:
            self.xp = numpy
            self.device_flat = None
            self.device_entries = ()
        else:
            self.xp = device.xp
            with backend.using_device(device):
                self.device_flat = device.xp.empty(n, dtype=dtype)
            self.device_entries = _views(self.device_flat, params, shapes)
        self.ranges = [(a, min(a + bucket_elems, n)) for a in range(0, n, bucket_elems)]

    def to_host(self):
        """Copy the device buffer into `flat` (nothing for host parameters)."""
        if self.device_flat is not None:
            self.device_flat.get(out=self.flat)

    def to_device(self):
        """Copy `flat` into the device buffer (nothing for host parameters)."""
        if self.device_flat is not None:
            self.device_flat.set(self.flat)


def _views(flat, params, shapes):
    entries = []
    offset = 0
    for param, shape in zip(params, shapes):
        size = int(numpy.prod(shape, dtype=numpy.int64))
        entries.append((param, flat[offset:offset + size].reshape(shape)))
        offset += size
    return entries


def _device_of(params, caller):
    """None when every array is a NumPy array, else the one device they share."""
    device = None
    for param in params:
        array = param.array
        if isinstance(array, numpy.ndarray):
            found = None
        else:
            found = backend.get_device_from_array(array)
            if found.xp is numpy:
                found = None
        if param is params[0]:
            device = found
        elif found != device:
            raise ValueError(
                '{}: all parameters must be on one device, but {} is on {} and {} on '
                '{}'.format(caller, params[0].name, device or '@numpy', param.name,
                            found or '@numpy'))
    return device


class PackedLayout:
    """The slices of one flat buffer per dtype for a fixed list of parameters.

    Args:
        params (list): Parameters, in the same order on every rank.
        attr (str): `'grad'` or `'array'`: which array of each parameter is packed
            (only its shape and dtype are read here).
        bucket_bytes (int): Upper bound of the bytes moved by one MPI call.
        make_shared: None (private buffers), or `make_shared(dtype, n, bucket_elems)`
            returning a `SharedSum` whose `segment` becomes the
            buffer of that dtype.
    """

    __slots__ = ('groups',)

    def __init__(self, params, bucket_bytes, make_shared=None):
        by_dtype = {}
        for param in params:
            array = param.array
            dt = comm_dtype(array.dtype, 'multi-node communication of ' + str(param.name))
            by_dtype.setdefault(dt, ([], []))
            by_dtype[dt][0].append(param)
            by_dtype[dt][1].append(array.shape)
        device = _device_of(params, 'multi-node communication') if params else None
        groups = []
        for dt in sorted(by_dtype, key=lambda d: d.str):
            ps, shapes = by_dtype[dt]
            bucket_elems = max(1, bucket_bytes // dt.itemsize)
            groups.append(_Group(dt, ps, shapes, bucket_elems, make_shared, device))
        self.groups = groups

    @property
    def on_device(self):
        """True when the parameters live on a GPU (their buffers are device buffers)."""
        return bool(self.groups) and self.groups[0].device_flat is not None

    def pack_grads(self, scale, stage=True):
        """Write every gradient times `scale` into the buffer (zeros for None); for GPU
        parameters into the device buffer, then (with `stage`) to the host buffer."""
        for group in self.groups:
            multiply = group.xp.multiply
            for param, view in group.device_entries or group.entries:
                g = param.grad
                if g is None:
                    view.fill(0)
                else:
                    multiply(g, scale, out=view, casting='same_kind')
            if stage:
                group.to_host()

    def unpack_grads(self, stage=True):
        """Make every gradient the buffer's reduced values.

        Where the dtypes agree the gradient becomes a view of the buffer (no copy; the
        next backward pass replaces it); float16 gradients get a converted copy. GPU
        gradients become views of the device buffer, filled from the host buffer first
        (with `stage`).
        """
        for group in self.groups:
            if stage:
                group.to_device()
            copyto = group.xp.copyto
            dtype = group.dtype
            for param, view in group.device_entries or group.entries:
                g = param.grad
                if g is view:
                    continue
                if param.array.dtype == dtype:
                    param.grad = view
                elif g is None:
                    param.grad = view.astype(param.array.dtype)
                else:
                    copyto(g, view, casting='same_kind')

    def release(self):
        """Give every gradient that is still a view of a shared buffer its own copy, then
        free the shared buffers (collective on each host)."""
        for group in self.groups:
            shared = group.shared
            if shared is None:
                continue
            for param, view in group.entries:
                if param.grad is view:
                    param.grad = view.copy()
            group.shared = None
            group.flat = None
            group.entries = ()
            shared.free()

    def pack_data(self, stage=True):
        """Copy every parameter's array into the buffer (staged to the host for GPU
        parameters when `stage`)."""
        for group in self.groups:
            copyto = group.xp.copyto
            for param, view in group.device_entries or group.entries:
                copyto(view, param.array, casting='same_kind')
            if stage:
                group.to_host()

    def unpack_data(self, stage=True):
        """Copy the buffer back into every parameter's array."""
        for group in self.groups:
            if stage:
                group.to_device()
            copyto = group.xp.copyto
            for param, view in group.device_entries or group.entries:
                copyto(param.array, view, casting='same_kind')
