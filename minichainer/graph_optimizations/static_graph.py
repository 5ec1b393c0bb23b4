"""`@static_graph` (`chainer.graph_optimizations.static_graph`), run define-by-run.

Deliberate difference from Chainer: no static schedule is traced or replayed; the
decorated `__call__`/`forward` runs define-by-run on every call, so outputs, gradients
and random draws are exactly those of the undecorated chain.  The decorator's arguments
are validated and kept, and the chain gets a `schedule_manager` whose `end_forward()`
is accepted (a no-op) and a `static_schedule` that stays empty, so Chainer programs
that use them run unchanged.
"""
import functools
import threading

from minichainer.configuration import config

_OPTIONS = {'force_test_define_by_run': False, 'minimize_cache_size': True,
            'verbosity_level': 0, 'enable_double_backprop': False}


class ScheduleManager:
    """Stands for Chainer's schedule cache of a static chain (nothing is cached here)."""

    def __init__(self, minimize_cache_size=True, verbosity_level=0):
        self.minimize_cache_size = minimize_cache_size
        self.verbosity_level = verbosity_level

    def end_forward(self):
        """Mark the end of a forward pass (a no-op: there is no schedule to release)."""

    def __repr__(self):
        return 'ScheduleManager(define-by-run; no cached static schedules)'


class _DefineByRunSchedule:
    """What `chain.static_schedule` is here: a schedule that stays empty, since every
    call runs define-by-run."""

    def is_empty(self):
        return True

    def debug_print_ref_counts(self):
        """Chainer's debugging aid (nothing to print: no arrays are scheduled)."""

    def __repr__(self):
        return '<static schedule: define-by-run (empty)>'


def static_graph(*args, **kwargs):
    """Mark a chain's `__call__`/`forward` as a static (sub)graph.

    Use as `@static_graph` or `@static_graph(verbosity_level=..., ...)` with Chainer's
    keyword arguments `force_test_define_by_run`, `minimize_cache_size`,
    `verbosity_level` and `enable_double_backprop`.  The method runs define-by-run.

    Raises:
        TypeError: unknown decorator arguments.
        RuntimeError: a static chain is called inside another one (Chainer forbids it).
    """
    if len(args) == 1 and not kwargs and callable(args[0]):
        return _wrap(args[0], dict(_OPTIONS))
    if args:
        raise TypeError('static_graph: takes a method or keyword arguments only, got '
                        '{!r}'.format(args))
    unknown = set(kwargs) - set(_OPTIONS)
    if unknown:
        raise TypeError('static_graph: unexpected argument(s) {}; expected some of {}'.format(
            ', '.join(sorted(unknown)), ', '.join(sorted(_OPTIONS))))
    options = dict(_OPTIONS)
    options.update(kwargs)
    return lambda func: _wrap(func, options)


def _wrap(func, options):
    @functools.wraps(func)
    def wrapped_func(chain, *inner_args, **inner_kwargs):
        if not config.use_static_graph:
            return func(chain, *inner_args, **inner_kwargs)
        if getattr(config, 'schedule_func', None) is not None or \
                getattr(_running, 'depth', 0):
            raise RuntimeError('static_graph: static chains must not be nested '
                               '({} is called inside another static chain)'.format(
                                   type(chain).__name__))
        if not hasattr(chain, 'schedule_manager'):
            chain.schedule_manager = ScheduleManager(options['minimize_cache_size'],
                                                     options['verbosity_level'])
        chain.static_schedule = _DefineByRunSchedule()
        _running.depth = 1
        try:
            return func(chain, *inner_args, **inner_kwargs)
        finally:
            _running.depth = 0
    wrapped_func.static_graph_options = options
    return wrapped_func


_running = threading.local()  # depth > 0 while a static chain runs in this thread
