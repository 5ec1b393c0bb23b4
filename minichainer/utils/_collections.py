"""`chainer.utils._collections`: on Python 3 the built-in ordered dict suffices."""
import collections

OrderedDict = collections.OrderedDict
