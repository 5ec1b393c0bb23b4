"""Evaluators over data split across ranks (`create_multi_node_evaluator`)."""
import copy
import types

import numpy

from minichainer import backend
from minichainer import function
from minichainer.dataset import convert
from minichainer.training import extension


def _mean_over_ranks(comm, local):
    """Mean over the ranks of each value of the dicts `local` (one collective)."""
    local = {k: (v.array if hasattr(v, 'array') else v) for k, v in local.items()}
    everyone = comm.mpi_comm.allgather(local)
    keys = sorted(everyone[0])
    for r, d in enumerate(everyone):
        if sorted(d) != keys:
            raise ValueError(
                'multi-node evaluator: rank {} reported {} but rank 0 reported {}; every '
                'rank must report the same keys'.format(r, sorted(d), keys))
    n = len(everyone)
    out = {}
    for k in keys:
        total = everyone[0][k]
        for d in everyone[1:]:
            total = total + d[k]
        value = total / n
        if isinstance(everyone[0][k], numpy.ndarray) and isinstance(value, numpy.ndarray):
            value = value.astype(everyone[0][k].dtype, copy=False)
        out[k] = value
    return out


def create_multi_node_evaluator(actual_evaluator, communicator):
    """Make `actual_evaluator` report the mean over the ranks of its per-rank results.

    Each rank evaluates its own part of the data (e.g. from `scatter_dataset`);
    the dict returned by `evaluate()` is then averaged over the ranks (every rank gets
    the same values, in one collective call). With equally many batches per rank this is
    the mean a single process computes over all the data. The evaluator is patched in
    place (attributes `_mn_original_evaluate` and `_mn_communicator`) and returned.

    Raises:
        ValueError: (at evaluation) the ranks reported different keys.
    """
    actual_evaluator._mn_original_evaluate = actual_evaluator.evaluate
    actual_evaluator._mn_communicator = communicator

    def evaluate(self):
        return _mean_over_ranks(self._mn_communicator, self._mn_original_evaluate())

    actual_evaluator.evaluate = types.MethodType(evaluate, actual_evaluator)
    return actual_evaluator


class GenericMultiNodeEvaluator(extension.Extension):
    """Evaluation whose results cannot be averaged: every rank computes
    `calc_local` per batch and `root` `aggregate`-s them all.

    Args:
        comm: The communicator.
        iterator: A non-repeating iterator over this rank's data.
        target (callable): Model called by the default `calc_local`.
        device: Device for the converter.
        converter: Batch converter (`concat_examples` by default).
        root (int): The aggregating rank.
        progress_hook (callable): Called with each batch on `root`.
    """

    trigger = 1, 'epoch'
    default_name = 'validation'
    priority = extension.PRIORITY_WRITER
    name = None

    def __init__(self, comm, iterator, target, device=None, converter=None, root=0,
                 progress_hook=None):
        if not 0 <= root < comm.size:
            raise ValueError('GenericMultiNodeEvaluator: root must be in [0, {}), got '
                             '{!r}'.format(comm.size, root))
        if converter is None:
            converter = convert.concat_examples
        if device is not None:
            device = backend.get_device(device)
        self.comm = comm
        self.iterator = iterator
        self._targets = {'main': target}
        self.converter = converter
        self.device = device
        self.root = root
        self._progress_hook = progress_hook

    def __call__(self, trainer=None):
        if getattr(self.iterator, 'repeat', False) is True:
            raise ValueError(
                'GenericMultiNodeEvaluator: the iterator has repeat=True, so evaluating '
                'over it would never end; create it with repeat=False')
        if hasattr(self.iterator, 'reset'):
            self.iterator.reset()
            it = self.iterator
        else:
            it = copy.copy(self.iterator)
        results = self._evaluate_local(it)
        if self.comm.rank == self.root:
            return self.aggregate(results)
        return None

    def calc_local(self, *args, **kwargs):
        """Compute one batch's result (must not be None); calls the target by default."""
        return self._targets['main'](*args, **kwargs)

    def aggregate(self, results):
        """Combine the list of every rank's results (on `root` only); identity by
        default."""
        return results

    def _evaluate_local(self, iterator):
        gathered = []
        while True:
            try:
                batch = iterator.next()
            except StopIteration:
                batch = None
            result = None
            if batch is not None:
                in_arrays = convert._call_converter(self.converter, batch, self.device)
                with function.no_backprop_mode():
                    if isinstance(in_arrays, tuple):
                        result = self.calc_local(*in_arrays)
                    elif isinstance(in_arrays, dict):
                        result = self.calc_local(**in_arrays)
                    else:
                        result = self.calc_local(in_arrays)
                if self._progress_hook and self.comm.rank == self.root:
                    self._progress_hook(batch)
            step = self.comm.gather_obj(result, root=self.root)
            done = None
            if self.comm.rank == self.root:
                valid = [r for r in step if r is not None]
                gathered.extend(valid)
                done = not valid
            if self.comm.bcast_obj(done, root=self.root):
                return gathered
