"""Noise injection functions (`chainer.functions.noise`)."""
