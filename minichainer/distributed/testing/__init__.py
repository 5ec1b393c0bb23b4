"""Helpers of ChainerMN's tests (`chainermn.testing`)."""
from minichainer.distributed.testing.device import get_device  # noqa: F401
