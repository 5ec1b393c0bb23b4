"""ParallelUpdater: data-parallel training, each sub-batch on its own model copy."""
import contextlib
import copy

from minichainer import backend
from minichainer import function
from minichainer.dataset import convert
from minichainer.training.updaters import standard_updater


_no_context = contextlib.nullcontext()


class ParallelUpdater(standard_updater.StandardUpdater):
    """Data-parallel updater: one model copy per device, gradients summed into 'main'.

    Each iteration takes one batch from the 'main' iterator, gives example `i` to the
    `i % n`-th model (in the order of `models`/`devices`), computes every copy's loss,
    adds the copies' gradients into the main model (the optimizer's target), updates
    it and copies its parameters back to the copies, as Chainer's `ParallelUpdater`
    does. On minichainer's CPU (@numpy) devices the copies run one after another: the
    result equals Chainer's on its CPU devices, not a speed-up. GPU devices
    (`'@cupy:0'`, `'@cupy:1'`, ...) each compute their copy's loss with that GPU
    current; the gradients are summed into the main model's device by `addgrads`.

    Args:
        iterator, optimizer, converter, loss_func, loss_scale, auto_new_epoch: as for
            `StandardUpdater`.
        models (dict): Model copies by name, including 'main' (the optimizer's target).
        devices (dict): Devices by name, including 'main'; used to make the copies
            (deep copies of the optimizer's target) when `models` is None.
    """

    def __init__(self, iterator, optimizer, converter=None, models=None, devices=None,
                 loss_func=None, loss_scale=None, auto_new_epoch=True):
        super().__init__(iterator, optimizer, converter=converter, loss_func=loss_func,
                         loss_scale=loss_scale, auto_new_epoch=auto_new_epoch)
        if models is None:
            if devices is None:
                raise ValueError('ParallelUpdater: either models or devices must be '
                                 'given, got neither')
            if 'main' not in devices:
                raise KeyError("ParallelUpdater: devices must contain a 'main' key, got "
                               'keys {}'.format(sorted(devices)))
            target = self.get_optimizer('main').target
            models = {'main': target}
            for name, device in devices.items():
                if name != 'main':
                    model = copy.deepcopy(target)
                    model.to_device(device)
                    models[name] = model
            target.to_device(devices['main'])
        elif devices is None:
            devices = {name: None for name in models}
        self._devices = {name: None if d is None else backend.get_device(d)
                         for name, d in devices.items()}
        self._models = models

    def connect_trainer(self, trainer):
        """Register the model copies other than the main one as reporter observers."""
        main = self.get_optimizer('main').target
        for name, model in self._models.items():
            if model is not main:
                trainer.reporter.add_observer(name, model)

    def update_core(self):
        optimizer = self.get_optimizer('main')
        main = optimizer.target
        iterator = self.get_iterator('main')
        batch = iterator.next()

        n = len(self._models)
        in_arrays = {name: convert.call_converter(self.converter, batch[i::n],
                                                  self._devices[name])
                     for i, name in enumerate(self._models)}
        for model in self._models.values():
            model.cleargrads()
        losses = []
        for name, model in self._models.items():
            args = in_arrays[name]
            loss_func = self.loss_func or model
            device = self._devices[name]
            # each copy computes with its own GPU current, as in Chainer
            with function.force_backprop_mode(), (
                    _no_context if device is None else backend.using_device(device)):
                if isinstance(args, tuple):
                    losses.append(loss_func(*args))
                elif isinstance(args, dict):
                    losses.append(loss_func(**args))
                else:
                    losses.append(loss_func(args))
        for model in self._models.values():  # parameters first built in forward
            model.cleargrads()
        for name, loss in zip(self._models, losses):
            device = self._devices[name]
            with _no_context if device is None else backend.using_device(device):
                loss.backward(loss_scale=self.loss_scale)
        others = [m for m in self._models.values() if m is not main]
        for model in others:
            main.addgrads(model)
        optimizer.update()
        for model in others:
            model.copyparams(main)

        if self.auto_new_epoch and iterator.is_new_epoch:
            optimizer.new_epoch(auto=True)
