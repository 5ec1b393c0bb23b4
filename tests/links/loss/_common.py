"""Checks shared by the loss-link tests."""
import numpy as np
import pytest

from minichainer import serializers

from .. import _util


def check_npz_copy_and_device(make_link, keys, tmp_path):
    """npz round trip with Chainer's key names, the copy modes, and CPU-only devices."""
    _util.check_npz_round_trip(make_link, tmp_path)
    path = str(tmp_path / 'keys.npz')
    serializers.save_npz(path, make_link())
    with np.load(path) as f:
        assert f.files == keys
    link = make_link()
    _util.check_copy_modes(link)
    with pytest.deprecated_call(match='to_cpu'):
        assert link.to_cpu() is link
    assert link.to_device('@numpy') is link
    with pytest.raises(RuntimeError, match='GPU'), pytest.deprecated_call(match='to_gpu'):
        link.to_gpu()
    return link
