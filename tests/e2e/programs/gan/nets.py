"""Tiny DCGAN-style generator and discriminator (sibling module of train_gan.py)."""
import numpy

import chainer
from chainer.backends import cuda
import chainer.functions as F
import chainer.links as L


def add_noise(h, sigma=0.2):
    xp = cuda.get_array_module(h.array)
    if chainer.config.train:
        return h + sigma * xp.random.randn(*h.shape)
    return h


class Generator(chainer.Chain):

    def __init__(self, n_hidden, bottom_width=2, ch=16, wscale=0.02):
        super(Generator, self).__init__()
        self.n_hidden = n_hidden
        self.ch = ch
        self.bottom_width = bottom_width
        with self.init_scope():
            w = chainer.initializers.Normal(wscale)
            self.l0 = L.Linear(n_hidden, bottom_width * bottom_width * ch, initialW=w)
            self.dc1 = L.Deconvolution2D(ch, ch // 2, 4, 2, 1, initialW=w)
            self.dc2 = L.Deconvolution2D(ch // 2, ch // 4, 4, 2, 1, initialW=w)
            self.dc3 = L.Deconvolution2D(ch // 4, 3, 3, 1, 1, initialW=w)
            self.bn0 = L.BatchNormalization(bottom_width * bottom_width * ch)
            self.bn1 = L.BatchNormalization(ch // 2)
            self.bn2 = L.BatchNormalization(ch // 4)

    def make_hidden(self, batchsize):
        return numpy.random.uniform(-1, 1, (batchsize, self.n_hidden, 1, 1)) \
            .astype(numpy.float32)

    def forward(self, z):
        h = F.reshape(F.relu(self.bn0(self.l0(z))),
                      (len(z), self.ch, self.bottom_width, self.bottom_width))
        h = F.relu(self.bn1(self.dc1(h)))
        h = F.relu(self.bn2(self.dc2(h)))
        return F.sigmoid(self.dc3(h))


class Discriminator(chainer.Chain):

    def __init__(self, bottom_width=2, ch=16, wscale=0.02):
        w = chainer.initializers.Normal(wscale)
        super(Discriminator, self).__init__()
        with self.init_scope():
            self.c0 = L.Convolution2D(3, ch // 4, 3, 1, 1, initialW=w)
            self.c1 = L.Convolution2D(ch // 4, ch // 2, 4, 2, 1, initialW=w)
            self.c2 = L.Convolution2D(ch // 2, ch, 4, 2, 1, initialW=w)
            self.l3 = L.Linear(bottom_width * bottom_width * ch, 1, initialW=w)
            self.bn1 = L.BatchNormalization(ch // 2, use_gamma=False)
            self.bn2 = L.BatchNormalization(ch, use_gamma=False)

    def forward(self, x):
        h = add_noise(x)
        h = F.leaky_relu(add_noise(self.c0(h)))
        h = F.leaky_relu(add_noise(self.bn1(self.c1(h))))
        h = F.leaky_relu(add_noise(self.bn2(self.c2(h))))
        return self.l3(h)
