"""Idioms of Chainer-based libraries (ChainerCV, ChainerRL, Chainer Chemistry) that
minichainer must honour as Chainer 7.8.1 does."""
import numpy

import minichainer
import minichainer.links as L


class _Recorder(minichainer.LinkHook):
    name = 'recorder'

    def __init__(self):
        self.seen = []

    def forward_postprocess(self, args):
        self.seen.append((type(args.link).__name__, args.out.shape))


def test_hook_put_into_private_link_hook_dict_is_called():
    # Chainer Chemistry's saliency calculators register a LinkHook by writing into
    # ``chainer._get_link_hooks()`` (no ``with hook:``); Chainer calls it on every link.
    hook = _Recorder()
    link = L.Linear(3, 2)
    hooks = minichainer._get_link_hooks()
    hooks['chem_recorder'] = hook
    try:
        link(numpy.ones((4, 3), dtype=numpy.float32))
    finally:
        del hooks['chem_recorder']
    assert hook.seen == [('Linear', (4, 2))]
    link(numpy.ones((1, 3), dtype=numpy.float32))
    assert len(hook.seen) == 1


def _exp_return(episode):
    return 1.0


def test_parameterized_class_names_show_functions_by_name():
    # ChainerRL parameterizes over functions; Chainer names the generated class with the
    # function's ``__name__``, so test ids read ``..._func=_exp_return, ...}``.
    @minichainer.testing.parameterize({'func': _exp_return, 'dtype': numpy.float32, 'n': 2})
    class TestSomething(object):
        __module__ = __name__

        def test_it(self):
            pass

    names = [k for k in list(globals()) if k.startswith('TestSomething_param_')]
    for k in names:
        del globals()[k]
    assert names == ['TestSomething_param_0_{dtype=float32, func=_exp_return, n=2}']
