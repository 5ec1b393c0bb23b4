"""Image-classification CNNs of `chainer.links.model.vision`: VGG, ResNet, GoogLeNet.

The three model modules (`vgg`, `resnet`, `googlenet`) share what lives here: the
`forward`/`extract`/`predict` machinery driven by each model's ordered
`functions` table, the image preprocessing behind their `prepare` functions
(Pillow is imported on first use only), ten-crop oversampling and the loading of
pre-trained weights.

Pre-trained weights: Chainer converts the original Caffe models to `.npz` files in
`<dataset root>/pfnet/chainer/models/`. minichainer has no Caffe reader, so
`pretrained_model='auto'` loads the converted file from that very place (a cache
Chainer made is reused as is) and explains how to get it when it is missing.
"""
import os

import numpy

import minichainer
from minichainer import backend
from minichainer import function
from minichainer.functions.array.reshape import reshape
from minichainer.functions.math.sum import sum as sum_
from minichainer import link
from minichainer.utils import argument
from minichainer.utils import imgproc
from minichainer import variable

_PIL_HINT = ('install Pillow (pip install Pillow, or pip install minichainer[examples])')


def _pil():
    """Return `PIL.Image`, importing it on first use (an optional dependency)."""
    try:
        from PIL import Image
    except ImportError as e:
        raise ImportError(
            'prepare: turning images into model input needs Pillow, which cannot be '
            'imported ({}); {}'.format(e, _PIL_HINT)) from e
    return Image


def pil_available():
    """True when Pillow can be imported (the `available` flag of the model modules)."""
    try:
        _pil()
    except ImportError:
        return False
    return True


def module_getattr(module_name):
    """A module `__getattr__` giving the lazily computed `available` flag."""
    def __getattr__(name):
        if name == 'available':
            return pil_available()
        raise AttributeError('module {!r} has no attribute {!r}'.format(module_name, name))
    return __getattr__


def prepare_image(image, size, mean_bgr, label):
    """Resize an RGB image and return it as a BGR, mean-subtracted CHW array.

    `image` is a PIL image or a `numpy.ndarray` of shape `(H, W)`, `(H, W, C)`,
    `(1, H, W)` or `(3, H, W)` with values in [0, 255]. `size` is PIL's
    `(width, height)`, or None to keep the size. The result has the configured
    default dtype (`minichainer.get_dtype()`).
    """
    Image = _pil()
    if isinstance(image, numpy.ndarray):
        if image.ndim == 3:
            if image.shape[0] == 1:
                image = image[0]
            elif image.shape[0] == 3:
                image = image.transpose(1, 2, 0)
        elif image.ndim != 2:
            raise ValueError(
                '{}: image must be an array of shape (H, W), (H, W, C), (1, H, W) or '
                '(3, H, W), got shape {}'.format(label, image.shape))
        image = Image.fromarray(image.astype(numpy.uint8))
    elif not isinstance(image, Image.Image):
        raise TypeError('{}: image must be a PIL image or a numpy.ndarray, got {}'.format(
            label, type(image).__name__))
    image = image.convert('RGB')
    if size:
        image = image.resize(size)
    dtype = minichainer.get_dtype()
    out = numpy.asarray(image, dtype=dtype)[:, :, ::-1]   # RGB -> BGR (a view)
    out = out - numpy.asarray(mean_bgr, dtype=dtype)
    return out.transpose(2, 0, 1)


# Ten crops per image (corners, centre, mirrored): ``chainer.utils.imgproc.oversample``.
oversample_images = imgproc.oversample


def _unexpected_kwargs(method, kwargs, **removed):
    argument.check_unexpected_kwargs(kwargs, **removed)
    raise TypeError('{}() got unexpected keyword argument(s) {}'.format(
        method, ', '.join(repr(k) for k in sorted(kwargs))))


_USE_CONFIG = '{} argument is not supported anymore. Use chainer.using_config'


class VisionModel(link.Chain):
    """Base of the vision models: everything but the layers and their order.

    A subclass defines `functions` (an ordered dict: layer name -> list of callables
    applied in turn) and these class attributes: `_mean_bgr` (mean pixel of
    `prepare`), `_extract_default` (default layer of `extract`),
    `_removed_kwarg` (the old keyword `forward` rejects with a hint) and
    `_branches` (layer -> earlier layer whose output it starts from).
    """

    _branches = {}
    _removed_kwarg = 'test'

    @property
    def functions(self):
        raise NotImplementedError

    @property
    def available_layers(self):
        """Names of the layers `forward` and `extract` can return, in order."""
        return list(self.functions)

    @classmethod
    def convert_caffemodel_to_npz(cls, path_caffemodel, path_npz, *args, **kwargs):
        """Not supported: minichainer cannot read Caffe models.

        Convert the caffemodel once with Chainer (this classmethod there) and give the
        resulting `.npz` file as `pretrained_model`.
        """
        raise NotImplementedError(
            '{}.convert_caffemodel_to_npz: minichainer cannot read Caffe models; run '
            'chainer.links.{}.convert_caffemodel_to_npz({!r}, {!r}) once with Chainer and '
            'pass the .npz file as pretrained_model'.format(
                cls.__name__, cls.__name__, path_caffemodel, path_npz))

    def _check_layers(self, layers, functions, method):
        if isinstance(layers, str):
            raise TypeError('{}.{}: layers must be a list of layer names, got the string '
                            '{!r} (use [{!r}])'.format(type(self).__name__, method,
                                                       layers, layers))
        targets = set(layers)
        unknown = targets.difference(functions)
        if unknown:
            raise ValueError('{}.{}: unknown layer(s) {}; available layers are {}'.format(
                type(self).__name__, method, sorted(unknown), list(functions)))
        return targets

    def forward(self, x, layers=None, **kwargs):
        """Run the network up to the last requested layer.

        Args:
            x: Input batch `(N, 3, H, W)` (see `prepare`).
            layers (list of str): Layers to return (default `['prob']`).

        Returns:
            dict: layer name -> [`Variable`][minichainer.variable.Variable] for each requested
                layer.
        """
        if kwargs:
            name = self._removed_kwarg
            _unexpected_kwargs('forward', kwargs, **{name: _USE_CONFIG.format(name)})
        if layers is None:
            layers = ['prob']
        functions = self.functions
        targets = self._check_layers(layers, functions, 'forward')
        branches = self._branches
        sources = set(branches.values())
        saved = {}
        activations = {}
        h = x
        for key, funcs in functions.items():
            if not targets:
                break
            if key in branches:
                h = saved[branches[key]]
            for f in funcs:
                h = f(h)
            if key in targets:
                activations[key] = h
                targets.discard(key)
            if key in sources:
                saved[key] = h
        return activations

    def extract(self, images, layers=None, size=(224, 224), **kwargs):
        """Preprocess `images` with `prepare` and return `forward`'s feature maps.

        The configuration (`train`, `enable_backprop`) is left as it is.

        Args:
            images: Iterable of PIL images or arrays (RGB).
            layers (list of str): Layers to return (the class's usual feature layer by
                default).
            size (pair of ints): Size the images are resized to; None keeps them (then
                they must all have the same size).
        """
        if kwargs:
            name = self._removed_kwarg
            _unexpected_kwargs('extract', kwargs, **{
                name: _USE_CONFIG.format(name), 'volatile': _USE_CONFIG.format('volatile')})
        if layers is None:
            layers = [self._extract_default]
        from minichainer.dataset.convert import concat_examples  # loaded on first use
        x = concat_examples(
            [prepare_image(image, size, self._mean_bgr, 'extract') for image in images])
        return self(variable.Variable(self.xp.asarray(x)), layers=layers)

    def _average_crops(self, y):
        return sum_(y, axis=1) / 10

    def predict(self, images, oversample=True):
        """Class probabilities `(N, 1000)` of the images, in test mode without backprop.

        The images are resized to 256x256; with `oversample` the probabilities of the
        ten 224x224 crops (corners, centre, mirrored) are averaged, otherwise only the
        centre crop is used.
        """
        from minichainer.dataset.convert import concat_examples  # loaded on first use
        x = concat_examples(
            [prepare_image(image, (256, 256), self._mean_bgr, 'predict') for image in images])
        if oversample:
            x = oversample_images(x, (224, 224))
        else:
            x = x[:, :, 16:240, 16:240]
        with function.no_backprop_mode(), minichainer.using_config('train', False):
            y = self(variable.Variable(self.xp.asarray(x)), layers=['prob'])['prob']
            if oversample:
                y = self._average_crops(reshape(y, (len(y) // 10, 10) + y.shape[1:]))
        return y


def pretrained_path(owner, pretrained_model, auto_npz_name=None, how=None):
    """Where the constructors load pre-trained weights from (None: random weights).

    Called before the layers are built, so that a missing file fails at once.
    `auto_npz_name` is given when `pretrained_model` asks for the converted Caffe
    model (`'auto'`, or a `.caffemodel` name for ResNet): it names that file in
    `<dataset root>/pfnet/chainer/models/`, and `how` tells how Chainer makes it.
    Otherwise a non-empty `pretrained_model` is the `.npz` file itself.
    """
    if not pretrained_model:
        return None
    if auto_npz_name is None:
        if isinstance(pretrained_model, (str, os.PathLike)) and not os.path.exists(
                pretrained_model):
            raise FileNotFoundError('{}: pretrained_model {!r} does not exist'.format(
                owner, os.fspath(pretrained_model)))
        return pretrained_model
    from minichainer.dataset.download import get_dataset_directory  # loaded on first use
    root = get_dataset_directory('pfnet/chainer/models/')
    path = os.path.join(root, auto_npz_name)
    if not os.path.exists(path):
        raise FileNotFoundError(
            '{}(pretrained_model={!r}) loads the converted pre-trained model {}, which does '
            'not exist. minichainer cannot convert Caffe models; create that file once '
            'with Chainer ({}; set CHAINER_DATASET_ROOT or MINICHAINER_DATASET_ROOT so '
            'that both use the same dataset root), or pass the path of an .npz file as '
            'pretrained_model'.format(owner, pretrained_model, path, how))
    return path


def load_pretrained(model, path):
    """Load the weights found by `pretrained_path` (if any) into `model`."""
    if path is not None:
        from minichainer.serializers.npz import load_npz  # loaded on first use
        load_npz(path, model)
