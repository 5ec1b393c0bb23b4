"""Utility functions (`chainer.functions.util`)."""
