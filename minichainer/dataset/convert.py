"""Converters turning a list of examples into batched arrays (`chainer.dataset.convert`).

`concat_examples` hands on the stacked arrays of a batch that follows the batch
protocol of `minichainer.dataset.example_batch`
without restacking them; the protocol's names (`ExampleBatch`, `BatchLayout`,
`gather_batch`) are also importable from here, where they were defined before.
"""
import numpy

from minichainer import backend
from minichainer.dataset.example_batch import BatchLayout
from minichainer.dataset.example_batch import ExampleBatch
from minichainer.dataset.example_batch import gather_batch  # noqa: F401  (re-exported)

_TUPLE = BatchLayout.TUPLE
_DICT = BatchLayout.DICT


# -- Converters -------------------------------------------------------------------------

class Converter:
    """Base class of converters: `converter(batch, device)` returns the converted batch.

    `device` is a `Device` or None.
    """

    def __call__(self, batch, device):
        raise NotImplementedError('Converter subclasses must implement __call__')


class _ArbitraryCallableConverter(Converter):
    """Wraps a callable; the device argument is normalised to a Device (or None)."""

    def __init__(self, base_callable):
        if not callable(base_callable):
            raise TypeError('converter: can only wrap a callable, got {}'.format(
                type(base_callable)))
        self.base_callable = base_callable
        self.__doc__ = getattr(base_callable, '__doc__', None)
        self.__name__ = getattr(base_callable, '__name__', type(self).__name__)
        self.__wrapped__ = base_callable

    def __call__(self, *args, **kwargs):
        if len(args) >= 2:
            args = list(args)
            args[1] = _get_device(args[1])
        elif 'device' in kwargs:
            kwargs['device'] = _get_device(kwargs['device'])
        return self.base_callable(*args, **kwargs)

    def __repr__(self):
        return '<converter {}>'.format(self.__name__)


def converter():
    """Decorator turning `f(batch, device)` into a
    [`Converter`][minichainer.dataset.convert.Converter].

    The wrapped function receives `device` as a `Device`
    (or None) even when the caller passes an int or a string such as `'@numpy'`.
    """
    def wrap(func):
        return _ArbitraryCallableConverter(func)
    return wrap


def call_converter(converter, batch, device):
    """Call `converter(batch, device)` the way its style expects.

    A [`Converter`][minichainer.dataset.convert.Converter] (new style) gets `device` as a Device or
    None; any other callable (old style, Chainer 5) gets None, `-1` for the CPU or the GPU's
    integer id for a CuPy device.  Updaters and evaluators call their converter through this
    function.

    Raises:
        RuntimeError: an old-style converter is given a device that is neither the CPU nor
            a GPU.
    """
    if device is not None and not isinstance(device, backend.Device):
        device = backend.get_device(device)
    if isinstance(converter, Converter):
        return converter(batch, device)
    if device is None:
        return converter(batch, None)
    if device.xp is numpy:
        return converter(batch, -1)
    gpu = getattr(device, 'device', None)  # a GpuDevice: its cupy.cuda.Device
    if gpu is not None and getattr(gpu, 'id', None) is not None:
        return converter(batch, gpu.id)  # old style: the CUDA device id, as in Chainer
    raise RuntimeError(
        'converter {!r} does not support device {}; decorate it with '
        'minichainer.dataset.converter()'.format(converter, device))


_call_converter = call_converter  # Chainer's name (chainer.dataset.convert)


def _get_device(device_spec):
    if device_spec is None:
        return None
    return backend.get_device(device_spec)


def to_device(device, x):
    """Send an array (or nested tuple/list/dict of arrays) to `device`.

    Args:
        device: None (leave `x` where it is), a negative int or `'@numpy'`
            (the CPU), or any device specifier accepted by
            [`minichainer.backend.get_device`][minichainer.backend.get_device].
        x: The array(s).

    Returns:
        The array(s) on `device`.
    """
    if device is None:
        return x
    if not isinstance(device, backend.Device):
        device = backend.get_device(device)
    return device.send(x)


def _is_array(x):
    return isinstance(x, numpy.ndarray) or isinstance(x, backend.get_array_types())


def _concat_arrays(arrays, padding):
    if not _is_array(arrays[0]):
        arrays = numpy.asarray(arrays)
        if padding is None:
            return arrays
    if padding is not None:
        return _concat_arrays_with_padding(arrays, padding)
    first_shape = arrays[0].shape
    for i, array in enumerate(arrays):
        if array.shape != first_shape:
            raise ValueError(
                'concat_examples: arrays to concatenate must have the same shape, but '
                'example 0 has shape {} and example {} has shape {}; pass padding= to '
                'pad them'.format(first_shape, i, array.shape))
    xp = backend.get_array_module(arrays[0])
    return xp.stack(arrays)


def _concat_arrays_with_padding(arrays, padding):
    shape = numpy.array(arrays[0].shape, dtype=int)
    for array in arrays[1:]:
        if len(array.shape) != len(shape):
            raise ValueError(
                'concat_examples: cannot pad arrays of different ndim: shapes {} and '
                '{}'.format(arrays[0].shape, array.shape))
        if numpy.any(shape != array.shape):
            numpy.maximum(shape, array.shape, out=shape)
    shape = (len(arrays),) + tuple(int(s) for s in shape)
    xp = backend.get_array_module(arrays[0])
    result = xp.full(shape, padding, dtype=arrays[0].dtype)
    for i in range(len(arrays)):
        src = arrays[i]
        result[(i,) + tuple(slice(dim) for dim in src.shape)] = src
    return result


def _concat_examples(batch, device=None, padding=None):
    if type(batch) is ExampleBatch:  # the batch protocol (example_batch.py)
        arrays = batch.stacked_arrays()
        if arrays is not None:
            if device is None:
                return arrays
            layout = batch.layout
            if layout is _TUPLE:
                return tuple([device.send(a) for a in arrays])
            if layout is _DICT:
                return {k: device.send(a) for k, a in arrays.items()}
            return device.send(arrays)

    if len(batch) == 0:
        raise ValueError('concat_examples: batch is empty')

    first_elem = batch[0]

    if isinstance(first_elem, tuple):
        if not isinstance(padding, tuple):
            padding = [padding] * len(first_elem)
        result = []
        for i in range(len(first_elem)):
            result.append(to_device(device, _concat_arrays(
                [example[i] for example in batch], padding[i])))
        return tuple(result)

    if isinstance(first_elem, dict):
        if not isinstance(padding, dict):
            padding = {key: padding for key in first_elem}
        result = {}
        for key in first_elem:
            result[key] = to_device(device, _concat_arrays(
                [example[key] for example in batch], padding[key]))
        return result

    return to_device(device, _concat_arrays(batch, padding))


_concat_examples.__name__ = 'concat_examples'  # (its __qualname__ stays: pickled by name)
_concat_examples.__doc__ = """Concatenate a list of examples into batched array(s).

    Examples that are tuples give a tuple of arrays, dicts give a dict of arrays and
    plain arrays (or scalars) give one array; each output stacks the corresponding
    element of every example along a new first axis.

    Args:
        batch (list): Examples, typically a batch from an iterator. An
            [`ExampleBatch`][minichainer.dataset.example_batch.ExampleBatch] is converted without
            restacking (its `stacked_arrays()` are returned).
        device: Device specifier to send the arrays to; None leaves them in place.
        padding: None (shapes must match, else `ValueError` naming the shapes),
            or a scalar (or a tuple/dict of scalars, one per element) used to fill
            arrays padded to the smallest shape holding every example.

    Returns:
        An array, a tuple of arrays or a dict of arrays.
    """

concat_examples = _ArbitraryCallableConverter(_concat_examples)


def concat_examples_func(batch, device=None, padding=None):
    """The plain function behind `concat_examples` (Chainer's name for it).

    Takes the same arguments; `device` may be any device specifier.
    """
    if device is not None:
        device = _get_device(device)
    return _concat_examples(batch, device, padding)


class ConcatWithAsyncTransfer:
    """Converter interface that would overlap host-to-GPU copies with computation.

    On the CPU there is nothing to overlap: calling it is equivalent to
    `concat_examples`. `stream` and `compute_stream` are accepted for
    compatibility and must be None.
    """

    def __init__(self, stream=None, compute_stream=None):
        if stream is not None or compute_stream is not None:
            raise RuntimeError(
                'ConcatWithAsyncTransfer: CUDA streams are not available in '
                'minichainer (CPU only); pass stream=None and compute_stream=None')
        self._stream = stream
        self.compute_stream = compute_stream
        self._device = None

    def __call__(self, batch, device=None, padding=None):
        return concat_examples(batch, device, padding)
