import numpy

import minichainer.functions as F


def test_array_functions_double_as_modules():
    # Chainer code imports the modules: ``from chainer.functions.array import concat``.
    from minichainer.functions.array import concat, split_axis, pad, where, resize_images
    assert concat is F.concat and concat.concat is F.concat
    assert concat.Concat.__name__ == 'Concat'
    assert split_axis.SplitAxis.__name__ == 'SplitAxis'
    assert pad.Pad.__name__ == 'Pad'
    assert where.Where.__name__ == 'Where'
    assert callable(resize_images.compute_indices_and_weights)
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    y, = concat.Concat(axis=0).apply((x, x))
    assert y.shape == (4, 3)


def test_all_names_are_exported():
    import minichainer.functions.array as A
    for name in A.__all__:
        assert callable(getattr(F, name)), name
    for name in ('as_strided', 'concat', 'resize_images', 'transpose_sequence', 'where'):
        assert name in A.__all__
