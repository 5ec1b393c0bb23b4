"""Idioms of Chainer-based libraries (ChainerCV, ChainerRL, Chainer Chemistry) that
minichainer must honour as Chainer 7.8.1 does."""
import numpy

import minichainer
import minichainer.links as L
from minichainer import link_hook


class _Recorder(minichainer.LinkHook):
    name = 'recorder'

    def __init__(self):
        self.seen = []

    def forward_postprocess(self, args):
        self.seen.append((type(args.link).__name__, args.out.shape))


def test_hook_put_into_private_link_hook_dict_is_called(monkeypatch):
    # Chainer Chemistry's saliency calculators register a LinkHook by writing into
    # ``chainer._get_link_hooks()`` (no ``with hook:``); Chainer calls it on every link.
    # That access switches every later Link call to the hook look-up for the rest of the
    # process; undo it afterwards so the tests that trace one iteration's path do not
    # depend on whether this one ran first in their worker.
    monkeypatch.setattr(link_hook, '_direct_access', [])
    monkeypatch.setattr(link_hook.registered_hooks, 'value', link_hook.registered_hooks.value)
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


def test_private_one_step_rnn_cells_under_chainer_names():
    # ChainerRL steps an NStepLSTM by hand with ``chainer.functions.rnn.n_step_lstm._lstm``
    # (and Chainer has ``n_step_gru._gru`` alike); one step equals the link's own output.
    from minichainer.functions.rnn import n_step_gru, n_step_lstm
    rng = numpy.random.RandomState(0)
    x = rng.randn(2, 3).astype(numpy.float32)
    for link, cell, has_c in ((L.NStepLSTM(1, 3, 4, 0.0), n_step_lstm._lstm, True),
                              (L.NStepGRU(1, 3, 4, 0.0), n_step_gru._gru, False)):
        h0 = numpy.zeros((2, 4), dtype=numpy.float32)
        h, c = cell(x, h0, h0 if has_c else None, link.ws[0], link.bs[0])
        out = link(None, None, [x[0:1], x[1:2]]) if has_c else link(None, [x[0:1], x[1:2]])
        ys = out[-1]
        numpy.testing.assert_allclose(h.array, numpy.concatenate([y.array for y in ys]),
                                      rtol=1e-5, atol=1e-6)
        assert (c is None) != has_c
