"""Shared fixtures for the minichainer test suite."""
import numpy
import pytest

import minichainer


@pytest.fixture(autouse=True)
def _isolate_global_state():
    """Give every test the default configuration and a seeded global RNG (restored after).

    Seeding makes the random directions of gradient checks reproducible from run to run.
    """
    state = numpy.random.get_state()
    numpy.random.seed(0)
    config_before = dict(minichainer.global_config.__dict__)
    yield
    numpy.random.set_state(state)
    minichainer.global_config.__dict__.clear()
    minichainer.global_config.__dict__.update(config_before)
    minichainer.config._local.__dict__.clear()
