"""Links built, run and differentiated here match what Chainer 7.8.1 computes.

``data/chainer781_reference.npz`` was written by ``make_chainer_reference.py`` with the
real Chainer 7.8.1 (NumPy 1.23); parameters drawn from numpy's global RNG must be
identical, outputs and gradients equal to float32 rounding.
"""
import os

import numpy as np
import pytest

import minichainer
import minichainer.functions as F
from minichainer import initializers as inits
import minichainer.links as L

from . import parity_cases

_REFERENCE = os.path.join(os.path.dirname(__file__), 'data', 'chainer781_reference.npz')


@pytest.fixture(scope='module')
def results():
    with np.load(_REFERENCE) as ref:
        reference = {k: ref[k] for k in ref.files}
    return reference, parity_cases.run_cases(minichainer, L, F, inits)


def test_same_entries(results):
    reference, ours = results
    # Chainer 7.8.1 cannot backpropagate through Deconvolution2D with NumPy 1.23 here.
    assert set(reference) == set(ours) - {'deconv:grad/W', 'deconv:grad/b'}


def test_initial_parameters_are_identical(results):
    reference, ours = results
    for key in sorted(k for k in reference if ':param' in k):
        if key.startswith(('init_orth', 'bn', 'classifier:param/predictor/bn')):
            # QR (LAPACK) may differ in the last bits; BN parameters are not random.
            np.testing.assert_allclose(ours[key], reference[key], rtol=1e-6, atol=1e-7,
                                       err_msg=key)
        else:
            np.testing.assert_array_equal(ours[key], reference[key], err_msg=key)


def test_outputs_and_gradients_match(results):
    reference, ours = results
    for key in sorted(k for k in reference if ':param' not in k):
        np.testing.assert_allclose(ours[key], reference[key], rtol=1e-4, atol=1e-5,
                                   err_msg=key)
