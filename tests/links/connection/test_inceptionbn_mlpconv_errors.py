"""InceptionBN / MLPConvolution2D raise the exception types Chainer raises."""
import pytest

import minichainer.links as L


def test_inceptionbn_error_types():
    with pytest.raises(NotImplementedError):
        L.InceptionBN(3, 2, 2, 3, 2, 2, 'sum', proj_pool=2)
    with pytest.raises(AssertionError):
        L.InceptionBN(3, 2, 2, 3, 2, 2, 'max', proj_pool=None)
    with pytest.raises(AssertionError):
        L.InceptionBN(3, 2, 2, 3, 2, 2, 'avg', proj_pool=2, stride=2)
    with pytest.raises(ValueError):  # still ValueErrors too
        L.InceptionBN(3, 2, 2, 3, 2, 2, 'sum', proj_pool=2)


def test_mlpconv_wscale_keyword_is_value_error():
    with pytest.raises(ValueError, match='wscale'):
        L.MLPConvolution2D(3, (4, 5), wscale=1)
    with pytest.raises(TypeError, match='wscale'):
        L.MLPConvolution2D(3, (4, 5), None, 1, 0, None, 1)
