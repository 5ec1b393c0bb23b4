import os
import subprocess
import sys

import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import allocator


class _FakeMallopt:
    def __init__(self, result=1):
        self.calls = []
        self.result = result

    def __call__(self, param, value):
        self.calls.append((param, value))
        return self.result


@pytest.fixture
def fresh(monkeypatch):
    """The module as before any attempt, with a recording `mallopt` and no user settings."""
    monkeypatch.setattr(allocator._state, 'pending', True)
    monkeypatch.setattr(allocator._state, 'applied', False)
    fake = _FakeMallopt()
    monkeypatch.setattr(allocator, '_glibc_mallopt', lambda: fake)
    for name in allocator._USER_SETTINGS + (allocator.ENV_VAR,):
        monkeypatch.delenv(name, raising=False)
    return fake


def test_applies_both_settings_once(fresh):
    assert allocator.tune_malloc() is True
    assert allocator.tune_malloc() is True
    assert fresh.calls == [(allocator._M_MMAP_THRESHOLD, allocator.MMAP_THRESHOLD),
                           (allocator._M_TRIM_THRESHOLD, allocator.TRIM_THRESHOLD)]


def test_convolutions_make_no_process_wide_call(fresh):
    # the settings are made once, when the engine is imported, not inside a call
    x = numpy.ones((1, 2, 4, 4), numpy.float32)
    W = numpy.ones((3, 2, 3, 3), numpy.float32)
    F.convolution_2d(x, W)
    F.deconvolution_2d(x, W.swapaxes(0, 1).copy())
    F.convolution_nd(x, W)
    assert fresh.calls == []


@pytest.mark.parametrize('value', ['0', 'false', 'OFF', 'no'])
def test_opt_out(fresh, monkeypatch, value):
    monkeypatch.setenv(allocator.ENV_VAR, value)
    assert allocator.tune_malloc() is False
    assert fresh.calls == []


@pytest.mark.parametrize('name', ['MALLOC_TOP_PAD_', 'MALLOC_TRIM_THRESHOLD_', 'GLIBC_TUNABLES'])
def test_user_settings_are_left_alone(fresh, monkeypatch, name):
    monkeypatch.setenv(name, '1')
    assert allocator.tune_malloc() is False
    assert fresh.calls == []


def test_refusal_reports_false(fresh):
    fresh.result = 0
    assert allocator.tune_malloc() is False
    assert fresh.calls == [(allocator._M_MMAP_THRESHOLD, allocator.MMAP_THRESHOLD)]


def test_not_glibc(monkeypatch):
    def no_confstr(name):
        raise ValueError('unrecognized configuration name')
    monkeypatch.setattr(allocator.os, 'confstr', no_confstr)
    assert allocator._glibc_mallopt() is None
    monkeypatch.setattr(allocator.os, 'confstr', lambda name: None)
    assert allocator._glibc_mallopt() is None
    monkeypatch.delattr(allocator.os, 'confstr')
    assert allocator._glibc_mallopt() is None


def _run(env_update):
    # `import minichainer` alone makes no setting; importing the functions (and so the
    # convolution engine) does, once, and the engine records the outcome
    code = ('import minichainer\n'
            'from minichainer.utils import allocator\n'
            'assert allocator._state.pending\n'
            'import minichainer.functions\n'
            'from minichainer.functions.connection import convolution_engine\n'
            'assert not allocator._state.pending\n'
            'assert convolution_engine.MALLOC_TUNED is allocator._state.applied\n'
            'print(allocator._state.applied)\n')
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), **env_update)
    for name in allocator._USER_SETTINGS:
        env.pop(name, None)
    out = subprocess.run([sys.executable, '-c', code], env=env, capture_output=True,
                         text=True, check=True)
    return out.stdout.strip()


@pytest.mark.skipif(not sys.platform.startswith('linux'), reason='glibc only')
def test_real_process():
    try:
        glibc = os.confstr('CS_GNU_LIBC_VERSION')
    except (ValueError, OSError):
        glibc = None
    if not glibc:
        pytest.skip('not glibc')
    assert _run({allocator.ENV_VAR: '1'}) == 'True'
    assert _run({allocator.ENV_VAR: '0'}) == 'False'
