"""Regenerate ``chainer_reference.json`` with the real Chainer 7.8.1 (numpy 1.x).

Run from this directory with a Python that has Chainer 7.8.1 installed::

    python make_chainer_reference.py

It records, for every vision model: the npz keys with shapes and dtypes (a SHA-256 of
them for the big ResNets), the draws made while building it under ``FastDraws``, the
available layers and test-mode outputs of a fixed input with those weights; for
ResNet50 and GoogLeNet also values drawn from the real generator seeded with 0.
"""
import hashlib
import json

import numpy

import chainer
from chainer.links.model.vision import googlenet
from chainer.links.model.vision import resnet
from chainer.links.model.vision import vgg
from chainer import serializers

from _shared import FastDraws
from _shared import FORWARD
from _shared import key_lines
from _shared import model_input

MODELS = {
    'resnet50': lambda: resnet.ResNet50Layers(pretrained_model=None),
    'resnet50_fb': lambda: resnet.ResNet50Layers(pretrained_model=None, downsample_fb=True),
    'resnet101': lambda: resnet.ResNet101Layers(pretrained_model=None),
    'resnet152': lambda: resnet.ResNet152Layers(pretrained_model=None),
    'googlenet': lambda: googlenet.GoogLeNet(pretrained_model=None),
    'vgg16': lambda: vgg.VGG16Layers(pretrained_model=None),
    'vgg19': lambda: vgg.VGG19Layers(pretrained_model=None),
}

HASHED_KEYS = ('resnet50_fb', 'resnet101', 'resnet152')


def summary(v):
    a = v.array.astype(numpy.float64)
    return {'shape': list(v.shape), 'sum': float(a.sum()), 'abssum': float(abs(a).sum()),
            'head': [float(u) for u in v.array.ravel()[:4]]}


def forward(name, model):
    shape, layers = FORWARD[name]
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        out = model(model_input(shape), layers=layers)
    return {k: summary(v) for k, v in out.items()}


def main():
    ref = {}
    for name, make in MODELS.items():
        entry = {}
        with FastDraws() as draws:
            model = make()
        entry['draws'] = draws.calls
        keys = key_lines(model, serializers.DictionarySerializer)
        if name in HASHED_KEYS:
            entry['keys_sha256'] = hashlib.sha256('\n'.join(keys).encode()).hexdigest()
            entry['n_keys'] = len(keys)
        else:
            entry['keys'] = keys
        entry['available_layers'] = model.available_layers
        entry['forward'] = forward(name, model)
        if name == 'resnet50':
            x = model_input((2, 3, 32, 32))
            with chainer.using_config('train', True):
                entry['train_res3'] = summary(model(x, layers=['res3'])['res3'])
            entry['train_bn1_avg_mean_head'] = [float(u) for u in model.bn1.avg_mean[:4]]
        if name == 'googlenet':
            numpy.random.seed(3)
            with chainer.using_config('train', True):
                entry['train_loss3_fc'] = summary(
                    model(model_input((1, 3, 224, 224)), layers=['loss3_fc'])['loss3_fc'])
        del model
        if name in ('resnet50', 'googlenet'):
            numpy.random.seed(0)
            model = make()
            params = dict(model.namedparams())
            last = '/fc6/W' if name == 'resnet50' else '/loss2_fc2/W'
            entry['seed0_heads'] = {
                p: [float(u) for u in params[p].array.ravel()[:4]] for p in ('/conv1/W', last)}
            entry['seed0_next_uniform'] = float(numpy.random.uniform())
            entry['seed0_forward'] = forward(name, model)
        ref[name] = entry
    with open('chainer_reference.json', 'w') as f:   # one line per model
        f.write('{\n' + ',\n'.join('{}: {}'.format(json.dumps(name), json.dumps(
            entry, sort_keys=True)) for name, entry in ref.items()) + '\n}\n')


if __name__ == '__main__':
    main()
