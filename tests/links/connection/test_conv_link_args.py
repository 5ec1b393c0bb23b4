"""Convolution links reject invalid arguments at construction with a ValueError naming
the argument and its value."""
import pytest

import minichainer.links as L


@pytest.mark.parametrize('make, words', [
    (lambda: L.Convolution2D(3, 4, 0), ['Convolution2D', 'ksize', '0']),
    (lambda: L.Convolution2D(3, 4, 3, stride=0), ['stride', '0']),
    (lambda: L.Convolution2D(3, 4, 3, pad=-1), ['pad', '-1']),
    (lambda: L.Convolution2D(3, 4, 3, dilate=0), ['dilate', '0']),
    (lambda: L.Convolution2D(4, 4, 3, groups=0), ['groups', '0']),
    (lambda: L.Convolution2D(3, 4, 3, groups=2), ['groups', '2']),
    (lambda: L.Convolution2D(4, (3, 0)), ['ksize', '(3, 0)']),
    (lambda: L.ConvolutionND(3, 2, 4, 3, stride=(1, 0, 1)), ['ConvolutionND', 'stride']),
    (lambda: L.Convolution1D(2, 4, 3, pad=-2), ['Convolution1D', 'pad', '-2']),
    (lambda: L.Convolution3D(2, 4, 0), ['Convolution3D', 'ksize']),
    (lambda: L.Deconvolution2D(2, 4, 3, stride=0), ['Deconvolution2D', 'stride']),
    (lambda: L.DeconvolutionND(2, 2, 4, 3, dilate=(1, 0)), ['DeconvolutionND', 'dilate']),
    (lambda: L.DepthwiseConvolution2D(3, 2, 3, stride=0), ['DepthwiseConvolution2D']),
    (lambda: L.DilatedConvolution2D(3, 4, 3, dilate=0), ['DilatedConvolution2D', 'dilate']),
])
def test_invalid_link_arguments(make, words):
    with pytest.raises(ValueError) as info:
        make()
    for word in words:
        assert word in str(info.value)
