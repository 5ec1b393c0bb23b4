"""The documentation site builds with ``mkdocs build --strict`` (skipped when mkdocs, the
``docs`` extra, is not installed); the generated API pages cover the public names."""
import importlib.util
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _load_generator():
    path = os.path.join(ROOT, 'docs', 'api', '_generate.py')
    spec = importlib.util.spec_from_file_location('_docs_api_generate', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_api_pages_cover_core_names():
    generator = _load_generator()
    pages = generator.generate()
    for path in ('minichainer.training.trainer.Trainer',
                 'minichainer.functions.activation.relu.relu',
                 'minichainer.links.connection.linear.Linear',
                 'minichainer.optimizers.adam.Adam',
                 'minichainer.iterators.serial_iterator.SerialIterator'):
        assert any('::: {}\n'.format(path) in text for text in pages.values()), path


def test_mkdocs_build_strict(tmp_path):
    pytest.importorskip('mkdocs')
    pytest.importorskip('material')
    pytest.importorskip('mkdocstrings_handlers.python')
    env = dict(os.environ)
    env['NO_MKDOCS_2_WARNING'] = '1'
    proc = subprocess.run(
        [sys.executable, '-m', 'mkdocs', 'build', '--strict', '--site-dir',
         str(tmp_path / 'site')], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-5000:]
    for page in ('index.html', 'tutorial/index.html', 'api/functions/index.html',
                 'benchmarks/index.html'):
        assert (tmp_path / 'site' / page).exists(), page
    with open(tmp_path / 'site' / 'api' / 'training' / 'index.html') as f:
        assert 'StandardUpdater' in f.read()
    with open(tmp_path / 'site' / 'api' / 'functions' / 'index.html') as f:
        assert 'softmax_cross_entropy' in f.read()
