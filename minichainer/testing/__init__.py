"""Helpers for testing Chainer-style code (``chainer.testing``)."""
from minichainer.testing.array import assert_allclose  # noqa: F401
