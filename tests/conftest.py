"""Shared fixtures for the minichainer test suite."""
import numpy
import pytest

import minichainer


@pytest.fixture(autouse=True)
def _isolate_global_state():
    """Give every test the default configuration and restore numpy's global RNG after it."""
    state = numpy.random.get_state()
    config_before = dict(minichainer.global_config.__dict__)
    yield
    numpy.random.set_state(state)
    minichainer.global_config.__dict__.clear()
    minichainer.global_config.__dict__.update(config_before)
    minichainer.config._local.__dict__.clear()
