"""``minichainer.functions`` mirrors Chainer's layout: family packages give modules."""
import importlib
import json
import os

import pytest

import minichainer.functions as F

FAMILIES = ['activation', 'array', 'connection', 'evaluation', 'loss', 'math', 'noise',
            'normalization', 'pooling', 'util', 'rnn']


@pytest.mark.parametrize('module, function', [
    ('activation.relu', 'relu'), ('activation.lstm', 'lstm'), ('array.concat', 'concat'),
    ('connection.linear', 'linear'), ('evaluation.accuracy', 'accuracy'),
    ('loss.softmax_cross_entropy', 'softmax_cross_entropy'), ('math.sum', 'sum'),
    ('noise.dropout', 'dropout'), ('normalization.batch_normalization',
                                   'batch_normalization'),
    ('pooling.max_pooling_2d', 'max_pooling_2d'), ('util.forget', 'forget'),
    ('rnn.lstm', 'lstm'),
])
def test_family_import_gives_module(module, function):
    family, name = module.split('.')
    package = importlib.import_module('minichainer.functions.' + family)
    importlib.import_module('minichainer.functions.' + module)
    mod = getattr(package, name)
    assert mod.__name__ == 'minichainer.functions.' + module
    assert getattr(mod, function) is getattr(F, function)


def test_functions_namespace_has_no_modules():
    import types
    for name in dir(F):
        if name.startswith('_') or name in FAMILIES:
            continue
        assert not isinstance(getattr(F, name), types.ModuleType), name


def test_core_names():
    for name in ('relu', 'sigmoid', 'tanh', 'softmax', 'linear', 'convolution_2d',
                 'max_pooling_2d', 'batch_normalization', 'dropout', 'softmax_cross_entropy',
                 'mean_squared_error', 'accuracy', 'sum', 'matmul', 'reshape', 'concat',
                 'mean', 'exp', 'log', 'lstm', 'n_step_lstm', 'embed_id', 'forget'):
        assert callable(getattr(F, name)), name
