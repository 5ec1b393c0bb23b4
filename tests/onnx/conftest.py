"""Fixtures of the ONNX exporter tests: `onnx_roundtrip` (export at every opset, check,
run in ONNX Runtime, compare; see `_onnx_roundtrip.py`) and `ort_session`."""
import os
import sys

import pytest

# the test files import the shared round trip as a plain module (a package here would be
# named `onnx` and hide the real one)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _onnx_roundtrip import _modules, _session, roundtrip  # noqa: E402


@pytest.fixture
def ort_session():
    """`ort_session(model_proto)`: a one-thread ONNX Runtime CPU session."""
    _modules()
    return _session


@pytest.fixture
def onnx_roundtrip():
    """The `roundtrip(model, args, opsets=None, rtol=1e-4, atol=1e-5, train=False,
    **export_kwargs)` helper (see this module)."""
    _modules()
    return roundtrip
