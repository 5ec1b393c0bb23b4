"""chainer.testing.doctest_helper exists and answers its three conditions."""
from minichainer.testing import doctest_helper


def test_doctest_helper(monkeypatch):
    monkeypatch.delenv('READTHEDOCS', raising=False)
    assert doctest_helper.skipif(True) is True
    assert doctest_helper.skipif_requires_satisfied('numpy') is True
    assert doctest_helper.skipif_requires_satisfied('no-such-package-xyz') is False
    monkeypatch.setattr(doctest_helper, '_gpu_limit', 1)
    assert doctest_helper.skipif_not_enough_cuda_devices(2) is True
    assert doctest_helper.skipif_not_enough_cuda_devices(1) is False
    monkeypatch.setenv('READTHEDOCS', 'True')
    assert doctest_helper.skipif(True) is False
