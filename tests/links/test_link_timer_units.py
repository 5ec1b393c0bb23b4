"""link_hooks.TimerHook.print_report honours ``unit`` ('%3.2f<unit>' cells), as Chainer."""
import io
import re

import numpy as np
import pytest

import minichainer.links as L
from minichainer import link_hooks


def _report(hook, **kw):
    s = io.StringIO()
    hook.print_report(file=s, **kw)
    return s.getvalue()


def test_units():
    hook = link_hooks.TimerHook()
    link = L.Linear(2, 3)
    with hook:
        link(np.ones((1, 2), np.float32))
    assert re.search(r'Linear +\d+\.\d\dms +1', _report(hook, unit='ms'))
    assert re.search(r'Linear +\d+\.\d\dns +1', _report(hook, unit='ns'))
    assert re.search(r'Linear +\d+\.\d\d(sec|ms|us|ns) +1', _report(hook))
    assert re.search(r'Linear +\d+\.\d\d(sec|ms|us|ns) +1', _report(hook, unit='auto_foreach'))
    assert hook._choose_unit(2e-5) == (1e6, 'us')
    with pytest.raises(ValueError):
        hook.print_report(unit='hours')
