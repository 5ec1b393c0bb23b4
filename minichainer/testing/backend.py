"""Backend-parameterized tests (`chainer.testing.inject_backend_tests`, `BackendConfig`).

The CPU configurations run, and the CUDA ones where CuPy is available with enough GPUs
(those using cuDNN are skipped: CuPy 14 has none); ChainerX and iDeep configurations are
generated (with Chainer's names and marks) and skipped.
"""
import functools

import minichainer
from minichainer import backend
from minichainer.testing import _bundle
from minichainer.testing import attr


class BackendConfig:
    """One backend configuration of an injected test (`chainer.testing.BackendConfig`).

    Args:
        params (dict): any of `use_chainerx`, `chainerx_device`, `use_cuda`,
            `cuda_device`, `use_cudnn`, `cudnn_deterministic`, `autotune`,
            `cudnn_fast_batch_normalization`, `use_ideep`.
    """

    _props = [
        ('use_chainerx', False),
        ('chainerx_device', None),
        ('use_cuda', False),
        ('cuda_device', None),
        ('use_cudnn', 'never'),
        ('cudnn_deterministic', False),
        ('autotune', False),
        ('cudnn_fast_batch_normalization', False),
        ('use_ideep', 'never'),
    ]

    _device = None

    def __init__(self, params):
        if not isinstance(params, dict):
            raise TypeError('BackendConfig: params must be a dict, got {!r}'.format(params))
        self._contexts = []
        for key, value in self._props:
            setattr(self, key, value)
        for key, value in params.items():
            if not hasattr(self, key):
                raise ValueError('Parameter {} is not defined'.format(key))
            setattr(self, key, value)
        if self.use_chainerx and not isinstance(self.chainerx_device, str):
            raise ValueError('BackendConfig: \'chainerx_device\' must be a ChainerX device '
                             'specifier string when use_chainerx is True, got {!r}'.format(
                                 self.chainerx_device))
        if self.use_cuda and self.cuda_device is None:
            self.cuda_device = 0

    @property
    def is_available(self):
        """True for configurations minichainer can run here (CPU ones; CUDA ones where
        CuPy is available with enough GPUs)."""
        if self.use_chainerx or self.use_ideep != 'never':
            return False
        if self.use_cuda:
            from minichainer.backends import cuda
            return cuda.available and self.cuda_device < cuda.device_count()
        return True

    @property
    def xp(self):
        """Array module of the configuration (`numpy`, or `cupy` for CUDA)."""
        return self.device.xp

    @property
    def device(self):
        """The `Device` of the configuration."""
        if self._device is None:
            if not self.is_available:
                self._unavailable()
            if self.use_cuda:
                self._device = backend.get_device(
                    '@cupy:{}'.format(self.cuda_device))
            else:
                self._device = backend.CpuDevice()
        return self._device

    def _unavailable(self):
        raise RuntimeError('BackendConfig: {!r} needs a backend minichainer cannot use here '
                           '(the CPU/NumPy backend, and CUDA where CuPy works with enough '
                           'GPUs)'.format(self))

    def __enter__(self):
        contexts = [
            minichainer.using_config('use_cudnn', self.use_cudnn),
            minichainer.using_config('cudnn_deterministic', self.cudnn_deterministic),
            minichainer.using_config('autotune', self.autotune),
            minichainer.using_config('use_ideep', self.use_ideep),
            backend.using_device(self.device),
        ]
        for c in contexts:
            c.__enter__()
        self._contexts.append(contexts)
        return self

    def __exit__(self, typ, value, traceback):
        for c in reversed(self._contexts.pop()):
            c.__exit__(typ, value, traceback)

    def __repr__(self):
        return '<BackendConfig {}>'.format(' '.join(
            '{}={!r}'.format(k, getattr(self, k)) for k, _ in self._props))

    def get_func_str(self):
        """A string usable in a method or class name (Chainer's format)."""
        parts = []
        for key, _ in self._props:
            value = getattr(self, key)
            value = 'true' if value is True else 'false' if value is False else str(value)
            parts.append('{}_{}'.format(key, value))
        return '__'.join(parts)

    def get_pytest_marks(self):
        """Marks (decorators) for the configuration; GPU/ChainerX/iDeep ones also skip."""
        marks = []
        if self.use_chainerx:
            marks.append(attr.chainerx)
            backend_name, _, index = self.chainerx_device.partition(':')
            if backend_name == 'cuda':
                marks.append(attr.gpu)
                if index and int(index) >= 1:
                    marks.append(attr.multi_gpu(int(index) + 1))
        elif self.use_cuda:
            marks.append(attr.gpu)
            if self.use_cudnn != 'never':
                marks.append(attr.cudnn)
            if self.cuda_device >= 1:
                marks.append(attr.multi_gpu(self.cuda_device + 1))
        elif self.use_ideep != 'never':
            marks.append(attr.ideep)
        return marks

    def get_array(self, np_array):
        """Send NumPy array(s) to the configuration's device."""
        return self.device.send(np_array)


def _test_case_generator(base, method_names, params):
    if method_names is not None:
        def keep_others(base_method):
            return None if base_method.__name__ in method_names else base_method
        yield base.__name__, {}, keep_others

    for param in params:
        backend_config = BackendConfig(param)
        marks = backend_config.get_pytest_marks()
        class_name = '{}_{}'.format(base.__name__, backend_config.get_func_str())

        def method_generator(base_method, backend_config=backend_config, marks=marks):
            if method_names is not None and base_method.__name__ not in method_names:
                return None

            @functools.wraps(base_method)
            def new_method(self, *args, **kwargs):
                return base_method(self, backend_config, *args, **kwargs)
            del new_method.__wrapped__  # pytest must not take backend_config for a fixture
            for mark in marks:
                new_method = mark(new_method)
            return new_method

        yield class_name, {}, method_generator


def inject_backend_tests(method_names, params):
    """Class decorator running test methods once per backend configuration.

    Each `params` dict (see [`BackendConfig`][minichainer.testing.backend.BackendConfig]) yields a
    generated class `{Base}_{config}` whose test methods (all `test_*`, or those in `method_names`)
    receive the [`BackendConfig`][minichainer.testing.backend.BackendConfig] as their first
    argument. Configurations needing CUDA, ChainerX or iDeep are skipped.
    """
    if not (method_names is None or isinstance(method_names, list)):
        raise TypeError('inject_backend_tests: method_names must be either None or a list, '
                        'got {!r}'.format(method_names))
    if not isinstance(params, list) or not all(isinstance(d, dict) for d in params):
        raise TypeError('inject_backend_tests: params must be a list of dicts, got {!r}'
                        .format(params))
    return _bundle.make_decorator(
        lambda base: _test_case_generator(base, method_names, params))
