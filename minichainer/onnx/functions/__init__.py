"""The converters: one table `converters` mapping a FunctionNode name to its converter.

Every `convert_<Name>` function of the modules below is exported here and registered
under `<Name>`, the Chainer FunctionNode class name (e.g. `Convolution2DFunction`);
a module that does not exist (yet) is skipped.  `CLASS_NAME_ALIASES` maps a
minichainer FunctionNode class name that differs from Chainer's to Chainer's, so that
the table and users' `external_converters` use Chainer's names.
"""
import importlib

from minichainer.onnx.functions.converter import FunctionConverter

_MODULES = ('activation', 'array', 'connection', 'loss', 'math', 'noise', 'normalization',
            'pooling', 'rnn')

#: minichainer FunctionNode class name -> Chainer's, where they differ.
CLASS_NAME_ALIASES = {
    # F.sign makes a node only while exporting (Chainer's exporter wrapped it as 'sign')
    'Sign': 'sign',
}

#: Chainer FunctionNode name -> converter taking one FunctionConverterParams.
converters = {}


def _load():
    for module_name in _MODULES:
        full_name = '{}.{}'.format(__name__, module_name)
        try:
            module = importlib.import_module(full_name)
        except ModuleNotFoundError as e:
            if e.name == full_name:
                continue
            raise
        for attr in sorted(vars(module)):
            if attr.startswith('convert_') and callable(getattr(module, attr)):
                fn = getattr(module, attr)
                if getattr(fn, '__module__', None) != module.__name__ and \
                        not hasattr(fn, '__wrapped__'):
                    continue   # a helper imported from elsewhere
                globals()[attr] = fn
                converters[attr[len('convert_'):]] = FunctionConverter(fn)


_load()
