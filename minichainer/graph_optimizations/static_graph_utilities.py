"""`@static_code` (`chainer.graph_optimizations.static_graph_utilities`).

In minichainer the decorated function simply runs on every call, as it would inside a
static schedule's replay in Chainer.
"""
import functools


def static_code(*dec_args, **dec_kwargs):
    """Mark a function to run on every iteration of a static chain.

    Use as `@static_code` or `@static_code(func_name='name')`.  The function runs as
    is on every call; the `inputs`/`outputs` keyword arguments Chainer documents for
    it are passed through to the function unchanged.

    Raises:
        TypeError: an unknown decorator argument.
    """
    if len(dec_args) == 1 and not dec_kwargs and callable(dec_args[0]):
        return _wrap(dec_args[0], None)
    if dec_args:
        raise TypeError('static_code: takes a function or keyword arguments only, got '
                        '{!r}'.format(dec_args))
    unknown = set(dec_kwargs) - {'func_name'}
    if unknown:
        raise TypeError('static_code: unexpected argument(s) {}; Chainer accepts '
                        'func_name only'.format(', '.join(sorted(unknown))))
    func_name = dec_kwargs.get('func_name')
    return lambda func: _wrap(func, func_name)


def _wrap(func, func_name):
    @functools.wraps(func)
    def wrapped_func(*args, **kwargs):
        return func(*args, **kwargs)
    wrapped_func.static_code_func_name = func_name
    return wrapped_func


def static_forward_optimizations(func, inputs):
    """Run `func.forward(inputs)` (Chainer's hook for the static schedule trace)."""
    return func.forward(tuple(inputs))
