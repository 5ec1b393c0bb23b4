"""An extension writing a grid of generated images with Pillow."""
import os

import numpy

import chainer
import chainer.backends.cuda
from chainer import Variable


def out_generated_image(gen, dis, rows, cols, seed, dst):
    @chainer.training.make_extension()
    def make_image(trainer):
        numpy.random.seed(seed)
        n_images = rows * cols
        xp = gen.xp
        z = Variable(xp.asarray(gen.make_hidden(n_images)))
        with chainer.using_config('train', False):
            x = gen(z)
        x = chainer.backends.cuda.to_cpu(x.array)
        numpy.random.seed()
        x = numpy.asarray(numpy.clip(x * 255, 0.0, 255.0), dtype=numpy.uint8)
        _, _, H, W = x.shape
        x = x.reshape((rows, cols, 3, H, W)).transpose(0, 3, 1, 4, 2)
        x = x.reshape((rows * H, cols * W, 3))
        preview_dir = '{}/preview'.format(dst)
        path = preview_dir + '/image{:0>8}.png'.format(trainer.updater.iteration)
        if not os.path.exists(preview_dir):
            os.makedirs(preview_dir)
        from PIL import Image
        Image.fromarray(x).save(path)
    return make_image
