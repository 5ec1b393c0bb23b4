"""`DeviceResident`: base of objects owning arrays on a device (`chainer.device_resident`).

`to_device` moves the arrays to the CPU (`'@numpy'`) or, where CuPy is available, a GPU
(`'@cupy:N'`); `to_gpu` (deprecated) moves them to a GPU but, as in Chainer, leaves arrays
already on another GPU where they are (with a `RuntimeWarning`). `to_gpu` without CuPy,
`to_intel64` and `to_chx` raise a clear `RuntimeError`.
"""
import warnings

import numpy

from minichainer import backend
from minichainer.backends import _cpu
from minichainer.backends import cuda


_TO_METHODS = ('to_cpu', 'to_gpu', 'to_intel64')
_FINAL_METHODS = ('to_device', 'to_chx', 'from_chx')


def _no_backend(what, why=None):
    if why is not None:
        return RuntimeError('{}: no GPU backend is available ({}); keep the model on the CPU '
                            "('@numpy' or -1)".format(what, why))
    return RuntimeError(
        '{}: not available in minichainer (iDeep and ChainerX are not supported); keep the '
        "model on the CPU ('@numpy' or -1) or use a GPU ('@cupy:N') where CuPy is "
        'available'.format(what))


class DeviceResident:
    """Base class of objects that hold arrays on a device (links, optimizers...).

    Subclasses extend `device_resident_accept` to show their arrays and variables
    to a `DeviceResidentsVisitor`.
    """

    _device = _cpu.CpuDevice()

    def __init_subclass__(cls, **kwargs):
        # As Chainer's final methods: to_device/to_chx/from_chx cannot be overridden; the
        # legacy to_cpu/to_gpu/to_intel64 can, with a DeprecationWarning at class creation.
        super().__init_subclass__(**kwargs)
        for name in _FINAL_METHODS + _TO_METHODS:
            if name not in cls.__dict__:
                continue
            if not any(getattr(base, name, None) is getattr(DeviceResident, name)
                       for base in cls.__bases__):
                continue
            if name in _FINAL_METHODS:
                raise TypeError('method {!r} is final.'.format(name))
            warnings.warn('Overriding method {!r}.'.format(name), DeprecationWarning,
                          stacklevel=2)

    def __init__(self):
        # Names of the legacy ``to_*`` methods a subclass overrides: ``to_device`` calls them
        # for backward compatibility, as Chainer does.
        cls = type(self)
        self._overridden_to_methods = tuple(
            m for m in _TO_METHODS
            if getattr(cls, m, None) is not getattr(DeviceResident, m))

    def device_resident_accept(self, visitor):
        """Apply `visitor` to this object (subclasses also visit their arrays)."""
        visitor.visit_device_resident(self)

    @property
    def device(self):
        """The `Device` this object lives on."""
        return self._device

    @property
    def xp(self):
        """Array module of the device (`numpy`)."""
        device = self.device
        return None if device is None else device.xp

    def to_cpu(self):
        """Move all registered arrays to the CPU (a no-op here). Returns self.

        Deprecated since Chainer 7 (a `DeprecationWarning`, as Chainer): use
        `to_device('@numpy')`.
        """
        _warn_deprecated('to_cpu', '@numpy')
        self.device_resident_accept(
            _ToDeviceVisitor(_cpu.CpuDevice(), entry_method='to_cpu', root=self))
        return self

    def to_gpu(self, device=None):
        """Move all registered arrays to a GPU (`device`: an id or `cupy.cuda.Device`;
        None is the current one). Returns self.

        Deprecated since Chainer 7: use `to_device('@cupy:N')`. Arrays already on a GPU
        are not moved (a `RuntimeWarning` when that GPU is another one), as in Chainer.

        Raises:
            RuntimeError: CuPy is not available (not installed, or no GPU answers).
        """
        _warn_deprecated('to_gpu', '@cupy:N')
        try:
            cuda.check_cuda_available()
        except RuntimeError as e:
            raise _no_backend('{}.to_gpu'.format(type(self).__name__), e) from None
        gpu = cuda.GpuDevice(cuda.get_device_or_current(device))
        self.device_resident_accept(_ToDeviceVisitor(
            gpu, entry_method='to_gpu', root=self, skip_between_cupy_devices=True))
        return self

    def to_intel64(self):
        """Raise `RuntimeError`: iDeep is not available in minichainer."""
        _warn_deprecated('to_intel64', '@intel64')
        raise _no_backend('{}.to_intel64'.format(type(self).__name__))

    def to_chx(self):
        """Raise `RuntimeError`: ChainerX is not available in minichainer."""
        raise _no_backend('{}.to_chx'.format(type(self).__name__))

    def from_chx(self):
        """No-op (nothing ever lives on ChainerX here). Returns self."""
        return self

    def to_device(self, device):
        """Move all registered arrays to `device` (see `minichainer.get_device`): the CPU,
        a GPU (`'@cupy:N'`, between GPUs too), or a user-defined device. Returns self.

        Raises:
            RuntimeError: `device` names a GPU where CuPy is not available, a GPU id the
                machine lacks, or another unavailable backend.
        """
        device = backend.get_device(device)
        self.device_resident_accept(_ToDeviceVisitor(device))
        return self


class DeviceResidentsVisitor:
    """Base class of visitors walking a hierarchy of `DeviceResident` objects."""

    def visit_device_resident(self, device_resident):
        """Process a `DeviceResident`."""
        raise NotImplementedError

    def visit_array(self, arr):
        """Process an array; return the (possibly new) array."""
        raise NotImplementedError

    def visit_variable(self, param):
        """Process a Variable or Parameter in place."""
        raise NotImplementedError


def _warn_deprecated(method, spec):
    warnings.warn("{} is deprecated. Please use to_device('{}') instead.".format(
        method, spec), DeprecationWarning, stacklevel=3)


class _ToDeviceVisitor(DeviceResidentsVisitor):
    # Recursive to_device(). For backward compatibility, a resident whose class overrides
    # the legacy to_cpu()/to_gpu() gets it called (except the resident the call started
    # from), as in Chainer.

    def __init__(self, device, entry_method=None, root=None,
                 skip_between_cupy_devices=False):
        self._device = device
        self._entry_method = entry_method
        self._root = root
        self._skip_between_cupy_devices = (
            skip_between_cupy_devices and isinstance(device, cuda.GpuDevice))

    def visit_device_resident(self, device_resident):
        device_resident._device = self._device
        overridden = getattr(device_resident, '_overridden_to_methods', ())
        if not overridden or device_resident is self._root:
            return
        if self._entry_method is not None:
            method = self._entry_method
        elif isinstance(self._device, _cpu.CpuDevice):
            method = 'to_cpu'
        elif isinstance(self._device, cuda.GpuDevice):
            method = 'to_gpu'
        else:
            method = None
        if method in overridden:
            if method == 'to_gpu':
                device_resident.to_gpu(device=self._device.device.id)
            else:
                getattr(device_resident, method)()

    def visit_array(self, arr):
        if self._skip_between_cupy_devices and not isinstance(arr, numpy.ndarray):
            src = backend.get_device_from_array(arr)
            if isinstance(src, cuda.GpuDevice):
                _warn_to_gpu(src, self._device)
                return arr
        return self._device.send(arr)

    def visit_variable(self, param):
        if self._skip_between_cupy_devices:
            src = param.device
            if isinstance(src, cuda.GpuDevice):
                _warn_to_gpu(src, self._device)
                return
        to_device = getattr(param, 'to_device', None)
        if to_device is not None:
            to_device(self._device)


def _warn_to_gpu(src_device, dst_device):
    src_id = src_device.device.id
    dst_id = dst_device.device.id
    if src_id != dst_id:
        warnings.warn(
            'You are trying to transfer a DeviceResident to GPU-{dst} which is already on '
            'GPU-{src}.\n`DeviceResident.to_gpu` does nothing if the DeviceResident is '
            'already on GPU.\nYou can use `DeviceResident.to_device()` method to perform '
            'inter-GPU transfer.\n'.format(dst=dst_id, src=src_id), RuntimeWarning)
