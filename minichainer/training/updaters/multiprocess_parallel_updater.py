"""MultiprocessParallelUpdater: data-parallel training on several GPUs of one machine,
one process per GPU, gradients summed with NCCL (`cupy.cuda.nccl`).

NOT verified on GPUs: the machines minichainer was tested on have at most one GPU, and
the CuPy test double has no NCCL. The gather/scatter helpers run on the double; the
processes and NCCL calls follow Chainer 7's updater step by step.
"""
import multiprocessing
import warnings

import numpy

from minichainer import backend
from minichainer import reporter as reporter_module
from minichainer.dataset import convert
from minichainer.training.updaters import standard_updater


def _nccl():
    """CuPy's NCCL module, or None when CuPy or NCCL is missing."""
    from minichainer.backends import cuda
    if not cuda.available:
        return None
    try:
        from cupy.cuda import nccl
    except Exception:
        return None
    return nccl if getattr(nccl, 'available', True) else None


def _calc_loss(model, in_arrays):
    if isinstance(in_arrays, tuple):
        return model(*in_arrays)
    if isinstance(in_arrays, dict):
        return model(**in_arrays)
    return model(in_arrays)


class _Worker(multiprocessing.Process):
    """A sub-device's process: computes its share of the batch, sends the gradients to
    the master (NCCL reduce) and receives the updated parameters (NCCL broadcast)."""

    def __init__(self, proc_id, pipe, master):
        super().__init__()
        self.proc_id = proc_id
        self.pipe = pipe
        self.converter = master.converter
        self.model = master._master
        self.device = master._devices[proc_id]
        self.iterator = master._mpu_iterators[proc_id]
        self.n_devices = len(master._devices)

    def run(self):
        nccl = _nccl()
        self.device.use()
        _, comm_id = self.pipe.recv()
        comm = nccl.NcclCommunicator(self.n_devices, comm_id, self.proc_id)
        self.model.to_device(self.device)
        reporter = reporter_module.Reporter()
        reporter.add_observer('main', self.model)
        reporter.add_observers('main', self.model.namedlinks(skipself=True))
        stream = self.device.xp.cuda.Stream.null
        while True:
            job, _ = self.pipe.recv()
            if job == 'finalize':
                self.device.xp.cuda.Device().synchronize()
                break
            if job != 'update':
                continue
            self.model.cleargrads()
            batch = convert.call_converter(self.converter, self.iterator.next(),
                                           self.device)
            with reporter.scope({}):  # the sub-devices' reports are dropped, as Chainer
                loss = _calc_loss(self.model, batch)
            self.model.cleargrads()
            loss.backward()
            del loss
            gg = gather_grads(self.model)
            comm.reduce(gg.data.ptr, gg.data.ptr, gg.size, nccl.NCCL_FLOAT32,
                        nccl.NCCL_SUM, 0, stream.ptr)
            del gg
            self.model.cleargrads()
            gp = gather_params(self.model)
            comm.bcast(gp.data.ptr, gp.size, nccl.NCCL_FLOAT32, 0, stream.ptr)
            scatter_params(self.model, gp)
            del gp


class MultiprocessParallelUpdater(standard_updater.StandardUpdater):
    """Synchronous data-parallel SGD over several GPUs, one process per GPU (Chainer 7).

    Each GPU takes a batch from its own iterator, the gradients are summed into the
    master GPU (the first device, or `devices['main']`) with NCCL, the master updates
    and broadcasts the parameters. Only the master's reports reach the trainer. As in
    Chainer, the learning rate (or `eps` of Adam, AdaGrad, RMSprop, RMSpropGraves,
    AdaDelta) is adjusted for the larger batch, with a warning.

    Requires CuPy with NCCL and a CUDA context not yet created in this process (or the
    `spawn`/`forkserver` start method). Not verified on several GPUs (see the module).

    Args:
        iterators (list): One iterator per device, over datasets of the same length.
        optimizer: The optimizer of the model to train.
        converter: Converter of each batch (`concat_examples` by default).
        devices (list or dict): GPU devices (`'@cupy:0'`, integer ids, ...); a dict must
            have the key `'main'`.
        auto_new_epoch (bool): Call `optimizer.new_epoch` at each new epoch of the main
            iterator.

    Raises:
        RuntimeError: CuPy or NCCL is missing, or CUDA is already initialized under the
            `fork` start method.
        ValueError: `devices` is not a list/tuple/dict, names no device or does not match
            `iterators`.
    """

    def __init__(self, iterators, optimizer, converter=convert.concat_examples,
                 devices=None, auto_new_epoch=True):
        if not MultiprocessParallelUpdater.available():
            raise RuntimeError(
                'MultiprocessParallelUpdater needs several GPU devices with CuPy and NCCL '
                '(cupy.cuda.nccl), which are not available here; got devices={!r}. Use '
                'StandardUpdater (one device) or ParallelUpdater instead.'.format(devices))
        if isinstance(devices, dict):
            devices = dict(devices)
            if 'main' not in devices:
                raise ValueError("MultiprocessParallelUpdater: a devices dict needs the key "
                                 "'main', got keys {}".format(sorted(devices)))
            main = devices.pop('main')
            devices = [main] + list(devices.values())
        elif isinstance(devices, (list, tuple)):
            devices = list(devices)
        else:
            raise ValueError(
                'MultiprocessParallelUpdater: devices must be a list, tuple or dict of GPU '
                'devices, got {!r}'.format(devices))
        if not devices or any(d is None for d in devices):
            raise ValueError('MultiprocessParallelUpdater: GPU devices must be specified, '
                             'got {!r}'.format(devices))
        if len(iterators) != len(devices):
            raise ValueError(
                'MultiprocessParallelUpdater: one iterator per device is needed, got {} '
                'iterators for {} devices'.format(len(iterators), len(devices)))
        for iterator in iterators[1:]:
            if len(iterator.dataset) != len(iterators[0].dataset):
                raise ValueError('MultiprocessParallelUpdater: the iterators must run over '
                                 'datasets of the same length')
        from minichainer.backends import cuda
        try:
            cuda.cupy.cuda.driver.ctxGetCurrent()
            initialized = bool(cuda.cupy.cuda.driver.ctxGetCurrent())
        except Exception:
            initialized = False
        if initialized and multiprocessing.get_start_method() not in ('spawn',
                                                                      'forkserver'):
            raise RuntimeError(
                'MultiprocessParallelUpdater: the CUDA context is already initialized in '
                'this process, and the worker processes would be forked from it. Create '
                'the updater before any CUDA call, or use '
                "multiprocessing.set_start_method('spawn') or 'forkserver'.")
        _scale_for_batch(optimizer, len(devices))
        super().__init__(iterator=iterators[0], optimizer=optimizer, converter=converter,
                         auto_new_epoch=auto_new_epoch)
        self._master = optimizer.target
        self._devices = [backend.get_device(d) for d in devices]
        self._mpu_iterators = iterators
        self._initialized = False
        self._pipes = []
        self._workers = []
        self.comm = None

    @staticmethod
    def available():
        """True when CuPy and its NCCL binding can be used."""
        return _nccl() is not None

    def _send_message(self, message):
        for pipe in self._pipes:
            pipe.send(message)

    def setup_workers(self):
        """Start one process per sub-device and the NCCL communicator (once)."""
        if self._initialized:
            return
        self._initialized = True
        self._master.cleargrads()
        for i in range(1, len(self._devices)):
            pipe, worker_end = multiprocessing.Pipe()
            worker = _Worker(i, worker_end, self)
            worker.start()
            self._workers.append(worker)
            self._pipes.append(pipe)
        with backend.using_device(self._devices[0]):
            self._master.to_device(self._devices[0])
            if len(self._devices) > 1:
                nccl = _nccl()
                comm_id = nccl.get_unique_id()
                self._send_message(('set comm_id', comm_id))
                self.comm = nccl.NcclCommunicator(len(self._devices), comm_id, 0)

    def update_core(self):
        self.setup_workers()
        self._send_message(('update', None))
        device = self._devices[0]
        with backend.using_device(device):
            self._master.cleargrads()
            optimizer = self.get_optimizer('main')
            iterator = self.get_iterator('main')
            batch = convert.call_converter(self.converter, iterator.next(), device)
            loss = _calc_loss(self._master, batch)
            self._master.cleargrads()
            loss.backward()
            del loss
            if self.comm is not None:
                nccl = _nccl()
                stream = device.xp.cuda.Stream.null
                gg = gather_grads(self._master)
                self.comm.reduce(gg.data.ptr, gg.data.ptr, gg.size, nccl.NCCL_FLOAT32,
                                 nccl.NCCL_SUM, 0, stream.ptr)
                scatter_grads(self._master, gg)
                del gg
            optimizer.update()
            if self.comm is not None:
                gp = gather_params(self._master)
                self.comm.bcast(gp.data.ptr, gp.size, nccl.NCCL_FLOAT32, 0, stream.ptr)
            if self.auto_new_epoch and iterator.is_new_epoch:
                optimizer.new_epoch(auto=True)

    def finalize(self):
        """Stop the worker processes, then finalize the iterators."""
        self._send_message(('finalize', None))
        for worker in self._workers:
            worker.join()
        super().finalize()


def _scale_for_batch(optimizer, n):
    name = type(optimizer).__name__
    if name in ('Adam', 'AdaGrad', 'RMSprop'):
        optimizer.eps *= n
        what = 'optimizer.eps is changed to {}'.format(optimizer.eps)
    elif name in ('RMSpropGraves', 'AdaDelta'):
        optimizer.eps *= n ** 2
        what = 'optimizer.eps is changed to {}'.format(optimizer.eps)
    elif hasattr(optimizer, 'lr'):
        optimizer.lr /= n
        what = 'optimizer.lr is changed to {}'.format(optimizer.lr)
    else:
        return
    warnings.warn(what + ' by MultiprocessParallelUpdater for new batch size.')


def size_num_grads(link):
    """Return `(total size, count)` of the non-empty parameters of `link`."""
    size = 0
    num = 0
    for param in link.params():
        if param.size == 0:
            continue
        size += param.size
        num += 1
    return size, num


def _gpu_params(name, link):
    xp = getattr(link, 'xp', numpy)
    if xp is numpy:
        raise RuntimeError(
            '{} works only on GPU: the link {!r} lives on the CPU (move it with '
            "link.to_device('@cupy:0'))".format(name, type(link).__name__))
    return xp, [p for _, p in sorted(link.namedparams()) if p.size != 0]


def _gather(name, link, attr):
    # One float32 array of every non-empty parameter's `attr` (sorted by name; zeros
    # where it is None), as Chainer's kernel builds it, here with one copy per array.
    xp, params = _gpu_params(name, link)
    size = sum(p.size for p in params)
    out = xp.empty(size, dtype=numpy.float32)
    offset = 0
    for p in params:
        view = out[offset:offset + p.size]
        array = getattr(p, attr)
        if array is None:
            view.fill(0)
        else:
            view[...] = array.ravel()
        offset += p.size
    return out


def _scatter(name, link, array, attr):
    xp, params = _gpu_params(name, link)
    size = sum(p.size for p in params)
    if getattr(array, 'shape', None) != (size,):
        raise ValueError('{}: array must have shape ({},) (the link\'s parameter size), '
                         'got {}'.format(name, size, getattr(array, 'shape', None)))
    offset = 0
    for p in params:
        piece = array[offset:offset + p.size].reshape(p.shape)
        offset += p.size
        target = getattr(p, attr)
        if target is None:
            setattr(p, attr, piece.astype(p.dtype))
        else:
            xp.copyto(target, piece, casting='same_kind')


def gather_grads(link):
    """All gradients of `link` in one float32 GPU array (None gradients as zeros)."""
    return _gather('gather_grads', link, 'grad')


def gather_params(link):
    """All parameter arrays of `link` in one float32 GPU array."""
    return _gather('gather_params', link, 'data')


def scatter_grads(link, array):
    """Inverse of `gather_grads`: write the pieces of `array` into the gradients."""
    _scatter('scatter_grads', link, array, 'grad')


def scatter_params(link, array):
    """Inverse of `gather_params`: write the pieces of `array` into the parameters."""
    _scatter('scatter_params', link, array, 'data')
