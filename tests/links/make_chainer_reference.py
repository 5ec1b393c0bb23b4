"""Regenerate ``data/chainer781_reference.npz`` with the real Chainer 7.8.1.

Run with an interpreter where ``import chainer`` gives Chainer 7.8.1 (it needs
NumPy < 2), from this directory: ``python make_chainer_reference.py``.
"""
import os
import sys

import numpy as np


def main():
    import chainer
    import chainer.functions as F
    from chainer import initializers as inits
    import chainer.links as L
    if chainer.__version__ != '7.8.1':
        sys.exit('make_chainer_reference.py needs Chainer 7.8.1, got ' + chainer.__version__)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import parity_cases
    out = parity_cases.run_cases(chainer, L, F, inits)
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'data',
                        'chainer781_reference.npz')
    np.savez_compressed(path, **out)
    print('wrote', path, len(out), 'arrays')


if __name__ == '__main__':
    main()
