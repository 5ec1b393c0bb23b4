"""Reporter, report scopes and online summaries (`chainer.reporter`).

Values reported with [`report`][minichainer.reporter.report] inside a
[`Reporter.scope`][minichainer.reporter.Reporter.scope] land in that scope's observation dictionary,
prefixed by the registered name of the observer (`main/loss`, `validation/main/accuracy`).
[`Summary`][minichainer.reporter.Summary] and [`DictSummary`][minichainer.reporter.DictSummary]
accumulate scalars online and serialize their state so that a resumed
[`LogReport`][minichainer.training.extensions.log_report.LogReport] continues its averages.
"""
import collections
import contextlib
import json
import threading
import warnings

import numpy

from minichainer import configuration
from minichainer import serializer as serializer_module
from minichainer import variable

_thread_local = threading.local()


def _get_reporters():
    try:
        return _thread_local.reporters
    except AttributeError:
        reporters = _thread_local.reporters = []
        return reporters


class Reporter:
    """Object to which observed values are reported.

    Observers (any objects, told apart by `id`) are registered under a name; a value
    reported with an observer is stored as `'<observer name>/<key>'` in the current
    `observation` dictionary.

    Attributes:
        observation (dict): The dictionary the reported values go to.
    """

    def __init__(self):
        self._observer_names = {}
        self.observation = {}

    def __enter__(self):
        """Make this reporter the current one."""
        _get_reporters().append(self)

    def __exit__(self, exc_type, exc_value, traceback):
        """Restore the previously current reporter."""
        _get_reporters().pop()

    def scope(self, observation):
        """Make this reporter current and report into `observation` inside `with`."""
        # The trainer enters a scope every iteration: it is made without an
        # ``__init__`` call.
        scope = _new_scope(_ReporterScope)
        scope._reporter = self
        scope._observation = observation
        return scope

    def add_observer(self, name, observer):
        """Register `observer` under `name`."""
        self._observer_names[id(observer)] = name

    def add_observers(self, prefix, observers):
        """Register each `(name, observer)` pair under `prefix + name`."""
        names = self._observer_names
        for name, observer in observers:
            names[id(observer)] = prefix + name

    def report(self, values, observer=None):
        """Store `values` (a dict) in the observation, prefixed by the observer's name.

        Variables are copied without their graph unless
        `config.keep_graph_on_report` is True.

        Raises:
            KeyError: `observer` is not registered to this reporter.
        """
        if not configuration.get_value('keep_graph_on_report'):
            # A reported Variable is replaced by one sharing the array but not the
            # graph, so that keeping observations does not keep whole graphs alive.
            Variable = variable.Variable
            copied = {}
            for k, v in values.items():
                if isinstance(v, Variable):
                    c = variable.new_variable(v.array, v.requires_grad)
                    name = v.name
                    if name is not None:
                        c.name = name
                    v = c
                copied[k] = v
            values = copied
        if observer is not None:
            try:
                observer_name = self._observer_names[id(observer)]
            except KeyError:
                raise KeyError(
                    'Given observer is not registered to the reporter: {!r} (register it '
                    'with Reporter.add_observer first)'.format(type(observer).__name__)
                ) from None
            observation = self.observation
            for key, value in values.items():
                observation['%s/%s' % (observer_name, key)] = value
        else:
            self.observation.update(values)


class _ReporterScope:
    """What `Reporter.scope` returns: makes `_reporter` current, reporting into
    `_observation`, and restores the previous state on exit."""

    __slots__ = ('_reporter', '_observation', '_old', '_stack')

    def __enter__(self):
        reporter = self._reporter
        self._old = reporter.observation
        reporter.observation = self._observation
        stack = self._stack = _get_reporters()  # this thread's; kept for __exit__
        stack.append(reporter)

    def __exit__(self, exc_type, exc_value, traceback):
        self._stack.pop()
        self._reporter.observation = self._old


_new_scope = object.__new__


def get_current_reporter():
    """Return the current reporter.

    Raises:
        IndexError: no reporter is current (as in Chainer, where the stack is a list).
    """
    reporters = _get_reporters()
    if not reporters:
        raise IndexError('get_current_reporter: no reporter is current; use it inside '
                         '"with reporter:" or "with reporter.scope(observation):"')
    return reporters[-1]


def report(values, observer=None):
    """Report `values` to the current reporter; do nothing when there is none."""
    reporters = _get_reporters()
    if reporters:
        reporters[-1].report(values, observer)


@contextlib.contextmanager
def report_scope(observation):
    """Report into `observation` with the current reporter inside a `with` block."""
    current = get_current_reporter()
    old = current.observation
    current.observation = observation
    try:
        yield
    finally:
        current.observation = old


_FOLD_EVERY = 1024

_numpy_scalar_types = (numpy.generic, numpy.ndarray)


def _as_numpy1_scalar(x):
    # Chainer 7 ran on NumPy 1.x, where arithmetic between a Python scalar and a NumPy
    # scalar (or 0-dim array) promoted the Python int as int64 and the Python float as
    # float64: ``0.0 + 1 * float32_value`` was a float64.  NumPy 2 keeps float32 there
    # (NEP 50).  Converting the Python operand first gives NumPy 1's result on both.
    t = type(x)
    if t is float:
        return numpy.float64(x)
    if t is int and -2 ** 63 <= x < 2 ** 63:
        return numpy.int64(x)
    return x


def _common_float_dtype(values):
    # The dtype shared by every value when all are NumPy floating scalars or 0-dim
    # arrays of one dtype, else None.
    first = values[0]
    if not isinstance(first, _numpy_scalar_types):
        return None
    dtype = first.dtype
    if dtype.kind != 'f':
        return None
    for v in values:
        if getattr(v, 'dtype', None) != dtype or getattr(v, 'ndim', 1) != 0 \
                or not isinstance(v, _numpy_scalar_types):
            return None
    return dtype


def _has_device_values(values):
    return any(not isinstance(v, _host_value_types) and hasattr(v, 'dtype') for v in values)


def _values_to_host(values):
    """`values` with the device (CuPy) 0-dim arrays replaced by NumPy scalars of their
    dtype, copied to the host in one transfer per device and dtype."""
    groups = {}
    for i, v in enumerate(values):
        if not isinstance(v, _host_value_types) and hasattr(v, 'dtype'):
            device_id = getattr(getattr(v, 'device', None), 'id', None)
            groups.setdefault((type(v), device_id, v.dtype), []).append(i)
    if not groups:
        return values
    values = list(values)
    from minichainer import backend
    cpu = backend.CpuDevice()
    for indexes in groups.values():
        first = values[indexes[0]]
        xp = backend.get_array_module(first)
        with backend.using_device(backend.get_device_from_array(first)):
            host = cpu.send(xp.stack([values[i].reshape(()) for i in indexes]))
        for i, h in zip(indexes, host):
            values[i] = h
    return values


def _summaries_to_host(summaries):
    # One device-to-host copy for the values pending in all `summaries` (a report's
    # worth), instead of one per summary or per value.
    summaries = [s for s in summaries if _has_device_values(s._pending)]
    if not summaries:
        return
    flat = [v for s in summaries for v in s._pending]
    flat = _values_to_host(flat)
    start = 0
    for s in summaries:
        n = len(s._pending)
        s._pending = flat[start:start + n]
        start += n


_host_value_types = (numpy.generic, numpy.ndarray, int, float)


class Summary:
    """Online summarization of a sequence of (weighted) scalars: mean and std.

    The sums are those Chainer 7.8.1 computes on NumPy 1.x (`_x += weight * value`,
    `_x2 += weight * value * value`, `_n += weight`, starting from `0.0, 0.0,
    0`): a float16/float32 value therefore accumulates in float64, on NumPy 2 as well.
    Unweighted values are buffered and folded into the sums in batches with
    `numpy.add.accumulate` (strictly sequential, so the sums are bit-identical to
    adding the values one by one), which keeps `add` cheap on the training loop's
    hot path. Values on a GPU (CuPy 0-dim arrays) stay there until they are folded, then
    come to the host together (one copy per summary fold, and one for all the summaries
    of a `DictSummary` at a report), so their sums are the CPU's (Chainer summed them on
    the GPU, in float32 for float32 values).
    """

    def __init__(self):
        self._sx = 0.0
        self._sx2 = 0.0
        self._sn = 0
        self._pending = []

    def add(self, value, weight=1):
        """Add a scalar (Python/NumPy scalar or 0-dim array) with weight `weight`."""
        if type(weight) is int and weight == 1:
            pending = self._pending
            pending.append(value)
            if len(pending) >= _FOLD_EVERY:
                self._fold()
        else:
            self._fold()
            if isinstance(value, _numpy_scalar_types) or \
                    isinstance(weight, _numpy_scalar_types):
                weight = _as_numpy1_scalar(weight)
                self._sx = _as_numpy1_scalar(self._sx)
                self._sx2 = _as_numpy1_scalar(self._sx2)
                self._sn = _as_numpy1_scalar(self._sn)
            term = weight * value
            self._sx += term
            self._sx2 += term * value
            self._sn += weight

    def _fold(self):
        pending = self._pending
        if not pending:
            return
        self._pending = []
        x = self._sx
        x2 = self._sx2
        dtype = _common_float_dtype(pending)
        if dtype is None and _has_device_values(pending):
            pending = _values_to_host(pending)
            dtype = _common_float_dtype(pending)
        if dtype is None and all(type(v) is float for v in pending):
            dtype = numpy.dtype(numpy.float64)
        if dtype is not None and type(x) in (float, numpy.float64) \
                and type(x2) in (float, numpy.float64):
            # ``1 * value`` is the value as float64 (or wider, for longdouble).
            acc = numpy.result_type(numpy.float64, dtype)
            terms = numpy.array(pending, dtype=dtype).astype(acc, copy=False)
            x = numpy.add.accumulate(
                numpy.concatenate((numpy.array([x], acc), terms)))[-1]
            x2 = numpy.add.accumulate(
                numpy.concatenate((numpy.array([x2], acc), terms * terms)))[-1]
            if type(self._sx) is float and all(type(v) is float for v in pending):
                x, x2 = float(x), float(x2)
        else:
            one = 1
            for v in pending:
                if isinstance(v, _numpy_scalar_types):
                    one = numpy.int64(1)
                    x = _as_numpy1_scalar(x)
                    x2 = _as_numpy1_scalar(x2)
                    term = one * v
                else:
                    term = 1 * v
                x += term
                x2 += term * v
        self._sx = x
        self._sx2 = x2
        self._sn += len(pending)

    @property
    def _x(self):
        self._fold()
        return self._sx

    @_x.setter
    def _x(self, value):
        self._fold()
        self._sx = value

    @property
    def _x2(self):
        self._fold()
        return self._sx2

    @_x2.setter
    def _x2(self, value):
        self._fold()
        self._sx2 = value

    @property
    def _n(self):
        self._fold()
        return self._sn

    @_n.setter
    def _n(self, value):
        self._fold()
        self._sn = value

    def compute_mean(self):
        """Return the (weighted) mean of the values added so far."""
        self._fold()
        return self._sx / self._sn

    def make_statistics(self):
        """Return `(mean, std)` of the values added so far."""
        self._fold()
        x, n = self._sx, self._sn
        mean = x / n
        var = self._sx2 / n - mean * mean
        std = numpy.sqrt(var)
        return mean, std

    def serialize(self, serializer):
        """Save or load the accumulated sums (`_x`, `_x2`, `_n`)."""
        self._fold()
        try:
            self._sx = serializer('_x', self._sx)
            self._sx2 = serializer('_x2', self._sx2)
            self._sn = serializer('_n', self._sn)
        except KeyError:
            warnings.warn('The previous statistics are not saved.')


class DictSummary:
    """Online summarization of dictionaries of scalars.

    Only scalars, 0-dim arrays and Variables holding them are accumulated; a value may
    be a `(value, weight)` tuple.  Strings are skipped (Chainer fails on them).
    """

    def __init__(self):
        self._summaries = collections.defaultdict(Summary)

    def add(self, d):
        """Add every scalar entry of the dict `d`.

        Raises:
            ValueError: the weight of a `(value, weight)` entry is not a scalar.
        """
        summaries = self._summaries
        Variable = variable.Variable
        for k, v in d.items():
            w = 1
            if isinstance(v, tuple):
                v, w = v[0], v[1]
                if isinstance(w, Variable):
                    w = w.array
                if not numpy.isscalar(w) and getattr(w, 'ndim', -1) != 0:
                    raise ValueError(
                        'DictSummary.add: the weight given to {!r} must be a scalar, '
                        'got {!r}'.format(k, w))
            if isinstance(v, Variable):
                v = v.array
            if getattr(v, 'ndim', -1) == 0 or (
                    numpy.isscalar(v) and not isinstance(v, (str, bytes))):
                summaries[k].add(v, weight=w)

    def compute_mean(self):
        """Return a dict of the mean of each entry."""
        _summaries_to_host(self._summaries.values())
        return {name: summary.compute_mean()
                for name, summary in self._summaries.items()}

    def make_statistics(self):
        """Return a dict with `key` → mean and `key.std` → standard deviation."""
        _summaries_to_host(self._summaries.values())
        stats = {}
        for name, summary in self._summaries.items():
            mean, std = summary.make_statistics()
            stats[name] = mean
            stats[name + '.std'] = std
        return stats

    def serialize(self, serializer):
        """Save or load the summaries: `_names` (JSON list) and `_summaries/<i>`."""
        if isinstance(serializer, serializer_module.Serializer):
            names = list(self._summaries.keys())
            serializer('_names', json.dumps(names))
            for index, name in enumerate(names):
                self._summaries[name].serialize(serializer['_summaries'][str(index)])
        else:
            self._summaries.clear()
            try:
                names = json.loads(str(serializer('_names', '')))
            except KeyError:
                warnings.warn('The names of statistics are not saved.')
                return
            for index, name in enumerate(names):
                self._summaries[name].serialize(serializer['_summaries'][str(index)])
