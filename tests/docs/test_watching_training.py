"""The ```python blocks of docs/watching-training.md run (they need tensorboardX).

Run in this process, in a temporary directory (the page prints nothing through
PrintReport, the reason the other pages get a fresh interpreter), so that tensorboardX
and matplotlib are imported once per test process rather than once more here.
"""
import os

import pytest

from . import test_snippets as _snippets


def test_watching_training_page_runs(tmp_path, monkeypatch):
    pytest.importorskip('tensorboardX')
    pytest.importorskip('matplotlib')
    monkeypatch.setenv('MPLBACKEND', 'Agg')
    monkeypatch.chdir(tmp_path)
    with open(os.path.join(_snippets.DOCS, 'watching-training.md')) as f:
        blocks = _snippets.python_blocks(f.read())
    assert len(blocks) == 2
    namespace = {'__name__': '__docs__'}
    for i, block in enumerate(blocks):
        exec(compile(block, 'watching-training.md[block {}]'.format(i + 1), 'exec'),
             namespace)
    assert namespace['trainer'].updater.iteration == 30
    assert os.listdir(tmp_path / 'result_watching' / 'tb')
    assert (tmp_path / 'result_watching' / 'loss.png').exists()
