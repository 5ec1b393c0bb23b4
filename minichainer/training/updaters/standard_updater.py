"""StandardUpdater: one optimizer step per mini-batch from one iterator."""
from minichainer import backend
from minichainer.dataset import convert
from minichainer.training import _updater


class StandardUpdater(_updater.Updater):
    """The standard updater: reads a batch, converts it and calls `optimizer.update`.

    Args:
        iterator: Dataset iterator, or a dict of them (the one used for updates and
            for `epoch`/`epoch_detail` is `'main'`).
        optimizer: Optimizer, or a dict of them (`'main'` is used by
            `update_core`).
        converter: Converter from a batch to the arguments of the loss function
            (default `concat_examples`).
        device: Device the models are sent to (None: leave them where they are).
        loss_func: Loss function; the target link of the optimizer by default.
        loss_scale (float): Loss scaling factor given to the optimizers.
        auto_new_epoch (bool): Call `optimizer.new_epoch(auto=True)` at each new
            epoch (and set `use_auto_new_epoch`).
        input_device: Device the batches are sent to (`device` by default).

    Attributes:
        converter, loss_func, iteration (int): as in Chainer.
    """

    def __init__(self, iterator, optimizer, converter=None, device=None,
                 loss_func=None, loss_scale=None, auto_new_epoch=True, **kwargs):
        input_device = kwargs.pop('input_device', None)
        if kwargs:
            raise TypeError('StandardUpdater() got unexpected keyword argument(s) {}'.format(
                ', '.join(repr(k) for k in sorted(kwargs))))
        if device is not None:
            device = backend.get_device(device)
        if input_device is None:
            input_device = device
        else:
            input_device = backend.get_device(input_device)

        if not isinstance(iterator, dict):
            iterator = {'main': iterator}
        if 'main' not in iterator:
            raise ValueError("StandardUpdater: the iterator dict must have a 'main' entry, "
                             'got keys {}'.format(sorted(iterator)))
        self._iterators = iterator

        if not isinstance(optimizer, dict):
            optimizer = {'main': optimizer}
        self._optimizers = optimizer

        if device is not None:
            for opt in self._optimizers.values():
                opt.target.to_device(device)

        if converter is None:
            converter = convert.concat_examples
        self.converter = converter
        self.loss_func = loss_func
        self.iteration = 0
        self._device = device
        self._input_device = input_device

        self.loss_scale = loss_scale
        if loss_scale is not None:
            for opt in self._optimizers.values():
                opt.set_loss_scale(loss_scale)

        self.auto_new_epoch = auto_new_epoch
        if auto_new_epoch:
            for opt in self._optimizers.values():
                opt.use_auto_new_epoch = True

    @property
    def device(self):
        """Device the models were sent to (None if not given)."""
        return self._device

    @property
    def input_device(self):
        """Device batches are sent to (None if not given)."""
        return self._input_device

    @property
    def epoch(self):
        return self._iterators['main'].epoch

    @property
    def epoch_detail(self):
        return self._iterators['main'].epoch_detail

    @property
    def previous_epoch_detail(self):
        return self._iterators['main'].previous_epoch_detail

    @property
    def is_new_epoch(self):
        return self._iterators['main'].is_new_epoch

    def finalize(self):
        """Finalize every iterator."""
        for iterator in self._iterators.values():
            iterator.finalize()

    def get_optimizer(self, name):
        """Return the optimizer named `name` (`'main'` for a single one)."""
        return self._optimizers[name]

    def get_all_optimizers(self):
        """Return a new dict of all optimizers."""
        return dict(self._optimizers)

    def get_iterator(self, name):
        """Return the iterator named `name` (`'main'` for a single one)."""
        return self._iterators[name]

    def update(self):
        """Run `update_core` and count the iteration."""
        self.update_core()
        self.iteration += 1

    def update_core(self):
        """One step: next batch, convert, `optimizer.update(loss_func, *args)`.

        Override this in custom updaters.
        """
        iterator = self._iterators['main']
        batch = iterator.next()
        in_arrays = convert.call_converter(self.converter, batch, self._input_device)

        optimizer = self._optimizers['main']
        loss_func = self.loss_func or optimizer.target

        if isinstance(in_arrays, tuple):
            optimizer.update(loss_func, *in_arrays)
        elif isinstance(in_arrays, dict):
            optimizer.update(loss_func, **in_arrays)
        else:
            optimizer.update(loss_func, in_arrays)

        if self.auto_new_epoch and iterator.is_new_epoch:
            optimizer.new_epoch(auto=True)

    def serialize(self, serializer):
        """Save or load iterators (`iterator:<name>`), optimizers
        (`optimizer:<name>`), models (`model:<name>`) and `iteration`."""
        for name, iterator in self._iterators.items():
            iterator.serialize(serializer['iterator:' + name])
        for name, optimizer in self._optimizers.items():
            optimizer.serialize(serializer['optimizer:' + name])
            optimizer.target.serialize(serializer['model:' + name])
        self.iteration = serializer('iteration', self.iteration)
