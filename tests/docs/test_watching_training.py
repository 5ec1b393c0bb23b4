"""The ```python blocks of docs/watching-training.md run (they need tensorboardX)."""
import os

import pytest

from . import test_snippets as _snippets


def test_watching_training_page_runs(tmp_path):
    pytest.importorskip('tensorboardX')
    _snippets.test_page_code_runs('watching-training.md', tmp_path)
    with open(os.path.join(_snippets.DOCS, 'watching-training.md')) as f:
        assert len(_snippets.python_blocks(f.read())) == 2
    assert os.listdir(tmp_path / 'result_watching' / 'tb')
    assert (tmp_path / 'result_watching' / 'log').exists()
