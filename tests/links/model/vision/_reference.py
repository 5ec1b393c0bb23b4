"""Comparisons against ``chainer_reference.json`` (made by ``make_chainer_reference.py``
with the real Chainer 7.8.1)."""
import hashlib
import json
import os

import numpy as np

import minichainer
from minichainer import serializers

from ._shared import FastDraws  # noqa: F401 (re-exported for the tests)
from ._shared import FORWARD
from ._shared import key_lines
from ._shared import model_input

with open(os.path.join(os.path.dirname(__file__), 'chainer_reference.json')) as _f:
    REF = json.load(_f)


def check_keys(model, name):
    ref = REF[name]
    keys = key_lines(model, serializers.DictionarySerializer)
    if 'keys' in ref:
        assert keys == ref['keys']
    else:
        assert len(keys) == ref['n_keys']
        assert hashlib.sha256('\n'.join(keys).encode()).hexdigest() == ref['keys_sha256']


def check_draws(calls, name):
    """Same sequence of random draws (kind, shape, parameters) as Chainer."""
    ref = REF[name]['draws']
    assert [(c[0], c[3]) for c in calls] == [(r[0], r[3]) for r in ref]
    np.testing.assert_allclose([c[1:3] for c in calls], [r[1:3] for r in ref], rtol=1e-12)


def check_summary(array, ref, label):
    a = np.asarray(array, dtype=np.float64)
    assert list(a.shape) == ref['shape'], label
    scale = ref['abssum'] / a.size
    np.testing.assert_allclose([a.sum(), np.abs(a).sum()], [ref['sum'], ref['abssum']],
                               rtol=1e-4, atol=1e-4 * ref['abssum'], err_msg=label)
    np.testing.assert_allclose(a.ravel()[:4], ref['head'], rtol=1e-4, atol=1e-4 * scale,
                               err_msg=label)


def check_forward(model, name, key='forward'):
    """Test-mode outputs of ``model`` on the reference input equal Chainer's."""
    shape, layers = FORWARD[name]
    with minichainer.using_config('train', False), minichainer.no_backprop_mode():
        out = model(model_input(shape), layers=layers)
    assert sorted(out) == sorted(layers)
    for layer in layers:
        check_summary(out[layer].array, REF[name][key][layer], '{} {}'.format(name, layer))
    return out
