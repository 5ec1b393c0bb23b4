"""Shared checks for the link tests."""
import numpy as np

from minichainer import serializers


def param_arrays(link):
    return {name: p.array for name, p in link.namedparams(include_uninit=False)}


def check_npz_round_trip(make_link, tmp_path, prepare=None):
    """Save a link built with one seed and load it into one built with another seed."""
    np.random.seed(0)
    src = make_link()
    np.random.seed(1)
    dst = make_link()
    if prepare is not None:
        prepare(src)
        prepare(dst)
    src_arrays = param_arrays(src)
    assert src_arrays, 'the link has no initialized parameters'
    path = str(tmp_path / 'link.npz')
    serializers.save_npz(path, src)
    serializers.load_npz(path, dst)
    dst_arrays = param_arrays(dst)
    assert list(dst_arrays) == list(src_arrays)
    for name in src_arrays:
        np.testing.assert_array_equal(dst_arrays[name], src_arrays[name], err_msg=name)
    return src, dst


def check_copy_modes(link):
    """share: same arrays; copy: equal but distinct arrays; init: re-drawn arrays."""
    names = [n for n, _ in link.namedparams(include_uninit=False)]
    shared = link.copy('share')
    copied = link.copy('copy')
    np.random.seed(12345)
    inited = link.copy('init')
    for copy_ in (shared, copied, inited):
        assert [n for n, _ in copy_.namedparams(include_uninit=False)] == names
    orig = dict(link.namedparams())
    for name, p in shared.namedparams(include_uninit=False):
        assert p is not orig[name] and p.array is orig[name].array
    for name, p in copied.namedparams(include_uninit=False):
        assert p.array is not orig[name].array
        np.testing.assert_array_equal(p.array, orig[name].array)
    for name, p in inited.namedparams(include_uninit=False):
        assert p.array is not orig[name].array and p.shape == orig[name].shape
    return shared, copied, inited


def lecun(seed, shape):
    """What LeCunNormal draws for ``shape`` from numpy's global RNG seeded with ``seed``."""
    fan_in = int(np.prod(shape[1:]))
    np.random.seed(seed)
    return np.random.normal(0.0, np.sqrt(1. / fan_in), shape).astype(np.float32)
