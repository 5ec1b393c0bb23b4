"""``distribution_unittest`` stand-in: ``chainer.distributions`` is not provided."""
import unittest

_REASON = 'chainer.distributions is not provided by minichainer'


def distribution_unittest(*args, **kwargs):
    """Class decorator that skips the decorated test case (no ``chainer.distributions``).

    Keeps test modules that use Chainer's distribution test helper importable.
    """
    def decorate(klass):
        return unittest.skip(_REASON)(klass)
    return decorate
