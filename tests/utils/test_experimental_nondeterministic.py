"""utils.experimental and utils.nondeterministic warnings."""
import importlib
import warnings

import pytest

import minichainer
from minichainer import configuration
from minichainer import utils


def test_experimental_warns_future_warning():
    with pytest.warns(FutureWarning,
                      match=r'^chainer\.foo\.f is experimental\. The interface can change in '
                            r'the future\.$'):
        utils.experimental('chainer.foo.f')


def test_experimental_can_be_disabled(monkeypatch):
    monkeypatch.setattr(minichainer, 'disable_experimental_feature_warning', True,
                        raising=False)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        utils.experimental('chainer.foo.f')


def test_nondeterministic_follows_config():
    # as in Chainer, the package attribute is the function, shadowing the module
    module = importlib.import_module('minichainer.utils.nondeterministic')
    assert utils.nondeterministic is module.nondeterministic
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        utils.nondeterministic('F.foo')  # warn_nondeterministic defaults to False
    with configuration.using_config('warn_nondeterministic', True):
        with pytest.warns(UserWarning, match='non-deterministic.*Source: F.foo$'):
            utils.nondeterministic('F.foo')
