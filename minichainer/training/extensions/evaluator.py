"""Evaluator: run a model over validation data and report the mean of what it reports."""
import copy
import sys
import warnings

from minichainer import backend
from minichainer import configuration
from minichainer import function
from minichainer import reporter as reporter_module
from minichainer.dataset import convert
from minichainer.training import extension


class Evaluator(extension.Extension):
    """Trainer extension that evaluates the target link(s) on an iterator.

    Each call resets the `'main'` iterator (which must not repeat: `evaluate` raises
    `ValueError` for an iterator whose `repeat` is True, where Chainer would loop
    forever; constructing the evaluator with one only warns, as in Chainer) (or, for an iterator without `reset`,
    iterates over a copy of it), feeds every converted batch to `eval_func` (the
    `'main'` target by default) under `no_backprop_mode()` and
    `using_config('train', False)`, and reports the mean of every value reported
    during the sweep, prefixed by the extension's name: `validation/main/loss`.

    Args:
        iterator: Iterator or dict of iterators (`'main'` is used).
        target: Link or dict of links (observers; `'main'` is called by default).
        converter: Batch converter (`concat_examples` by default).
        device: Device batches are sent to.
        eval_hook (callable): Called as `eval_hook(evaluator)` before each sweep.
        eval_func (callable): Called with the converted batch instead of the target.
        progress_bar (bool): Show a tqdm bar over the sweep.

    The default trigger is `(1, 'epoch')`, priority `PRIORITY_WRITER` and name
    `'validation'`.
    """

    trigger = 1, 'epoch'
    default_name = 'validation'
    priority = extension.PRIORITY_WRITER
    name = None

    def __init__(self, iterator, target, converter=None, device=None, eval_hook=None,
                 eval_func=None, **kwargs):
        progress_bar = kwargs.pop('progress_bar', False)
        if kwargs:
            raise TypeError('Evaluator() got unexpected keyword argument(s) {}'.format(
                ', '.join(repr(k) for k in sorted(kwargs))))
        if device is not None:
            device = backend.get_device(device)
        if not isinstance(iterator, dict):
            iterator = {'main': iterator}
        self._iterators = iterator
        if not isinstance(target, dict):
            target = {'main': target}
        self._targets = target
        if converter is None:
            converter = convert.concat_examples
        self.converter = converter
        self.device = device
        self.eval_hook = eval_hook
        self.eval_func = eval_func
        self._progress_bar = progress_bar
        for key, it in iterator.items():
            if getattr(it, 'repeat', False) is True:
                warnings.warn(
                    'The `repeat` property of the iterator {} is set to `True`. '
                    'Typically, the evaluator sweeps over iterators until they stop, but '
                    'as the property being `True`, this iterator might not stop and '
                    'evaluation could go into an infinite loop. We recommend to check '
                    'the configuration of iterators'.format(key))

    def get_iterator(self, name):
        """Return the iterator named `name`."""
        return self._iterators[name]

    def get_all_iterators(self):
        """Return a dict of all iterators."""
        return dict(self._iterators)

    def get_target(self, name):
        """Return the target link named `name`."""
        return self._targets[name]

    def get_all_targets(self):
        """Return a dict of all target links."""
        return dict(self._targets)

    def __call__(self, trainer=None):
        """Evaluate, report the results to the current reporter and return them."""
        reporter = reporter_module.Reporter()
        prefix = self.name + '/' if self.name is not None else ''
        for name, target in self._targets.items():
            reporter.add_observer(prefix + name, target)
            namedlinks = getattr(target, 'namedlinks', None)
            if namedlinks is not None:
                reporter.add_observers(prefix + name, namedlinks(skipself=True))

        with reporter:
            with configuration.using_config('train', False):
                result = self.evaluate()

        reporter_module.report(result)
        return result

    def evaluate(self):
        """Sweep the `'main'` iterator once and return the dict of means."""
        iterator = self._iterators['main']
        eval_func = self.eval_func or self._targets['main']

        if self.eval_hook:
            self.eval_hook(self)

        if getattr(iterator, 'repeat', False) is True:
            # A repeating iterator never raises StopIteration: the sweep below would
            # never end (Chainer only warns, at construction, and then hangs).
            raise ValueError(
                '{}: the iterator {!r} has repeat=True, so evaluating over it would never '
                'end; create it with repeat=False (e.g. SerialIterator(dataset, '
                'batch_size, repeat=False, shuffle=False))'.format(
                    type(self).__name__, self._iterator_name(iterator)))
        if hasattr(iterator, 'reset'):
            iterator.reset()
            it = iterator
        else:
            warnings.warn(
                'This iterator does not have the reset method. Evaluator copies the '
                'iterator instead of resetting. This behavior is deprecated. Please '
                'implement the reset method.', DeprecationWarning)
            it = copy.copy(iterator)

        summary = reporter_module.DictSummary()
        pbar = None
        if self._progress_bar:
            from tqdm import tqdm
            total = None
            dataset = getattr(it, 'dataset', None)
            batch_size = getattr(it, 'batch_size', None)
            if dataset is not None and batch_size:
                total = -(-len(dataset) // batch_size)
            pbar = tqdm(total=total, desc=self.name or 'validation', unit='batch',
                        leave=False, file=sys.stdout)

        try:
            for batch in it:
                observation = {}
                with reporter_module.report_scope(observation):
                    in_arrays = convert.call_converter(self.converter, batch, self.device)
                    with function.no_backprop_mode():
                        if isinstance(in_arrays, tuple):
                            eval_func(*in_arrays)
                        elif isinstance(in_arrays, dict):
                            eval_func(**in_arrays)
                        else:
                            eval_func(in_arrays)
                summary.add(observation)
                if pbar is not None:
                    pbar.update()
        finally:
            if pbar is not None:
                pbar.close()

        return summary.compute_mean()

    def _iterator_name(self, iterator):
        for name, it in self._iterators.items():
            if it is iterator:
                return name
        return type(iterator).__name__

    def finalize(self):
        """Finalize every iterator."""
        for iterator in self._iterators.values():
            iterator.finalize()
