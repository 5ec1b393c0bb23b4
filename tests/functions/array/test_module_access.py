import numpy

import minichainer.functions as F


def test_array_functions_double_as_modules():
    # Chainer code imports the modules: ``from chainer.functions.array import concat``.
    from minichainer.functions.array import concat, split_axis, pad, where, resize_images
    assert concat.concat is F.concat
    assert concat.Concat.__name__ == 'Concat'
    assert split_axis.SplitAxis.__name__ == 'SplitAxis'
    assert pad.Pad.__name__ == 'Pad'
    assert where.Where.__name__ == 'Where'
    assert callable(resize_images.compute_indices_and_weights)
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    y, = concat.Concat(axis=0).apply((x, x))
    assert y.shape == (4, 3)


def test_all_names_are_exported():
    for name in ('as_strided', 'concat', 'resize_images', 'transpose_sequence', 'where',
                 'flatten', 'swapaxes', 'moveaxis', 'rollaxis', 'expand_dims', 'squeeze',
                 'stack', 'hstack', 'vstack', 'dstack', 'split_axis', 'separate', 'repeat',
                 'tile', 'pad', 'pad_sequence', 'select_item', 'cast', 'copy', 'flip',
                 'fliplr', 'flipud', 'permutate', 'depth2space', 'space2depth', 'im2col',
                 'diagonal', 'scatter_add', 'get_item', 'reshape', 'transpose', 'broadcast',
                 'broadcast_to'):
        assert callable(getattr(F, name)), name
