"""The documentation site builds with ``mkdocs build --strict`` (skipped when mkdocs, the
``docs`` extra, is not installed); the generated API pages cover the public names and
show no raw reST/Sphinx markup."""
import os
import re
import subprocess
import sys

import pytest

from tests.docs._api_pages import load_generator

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_api_pages_cover_core_names():
    generator = load_generator()
    pages = generator.generate()
    for path in ('minichainer.training.trainer.Trainer',
                 'minichainer.functions.activation.relu.relu',
                 'minichainer.links.connection.linear.Linear',
                 'minichainer.optimizers.adam.Adam',
                 'minichainer.iterators.serial_iterator.SerialIterator'):
        assert any('::: {}\n'.format(path) in text for text in pages.values()), path


@pytest.fixture(scope='module')
def built_site(tmp_path_factory):
    """``(mkdocs build --strict process, site directory)``, built once for this module."""
    pytest.importorskip('mkdocs')
    pytest.importorskip('material')
    pytest.importorskip('mkdocstrings_handlers.python')
    tmp_path = tmp_path_factory.mktemp('docs')
    env = dict(os.environ)
    env['NO_MKDOCS_2_WARNING'] = '1'
    proc = subprocess.run(
        [sys.executable, '-m', 'mkdocs', 'build', '--strict', '--site-dir',
         str(tmp_path / 'site')], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=600)
    return proc, tmp_path


def test_mkdocs_build_strict(built_site):
    proc, tmp_path = built_site
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-5000:]
    for page in ('index.html', 'tutorial/index.html', 'api/functions/index.html',
                 'benchmarks/index.html'):
        assert (tmp_path / 'site' / page).exists(), page
    with open(tmp_path / 'site' / 'api' / 'training' / 'index.html') as f:
        assert 'StandardUpdater' in f.read()
    with open(tmp_path / 'site' / 'api' / 'functions' / 'index.html') as f:
        assert 'softmax_cross_entropy' in f.read()


# reST that the Markdown renderer leaves as text: ":class:`x`" becomes ":class:<code>x</code>"
_RAW_ON_PAGE = re.compile(
    r':(?:py:)?(?:class|func|meth|attr|mod|data|obj|exc|const|any|math|ref|doc):'
    r'(?:<code>|`)'
    r'|(?:^|>)\s*\.\. [a-z-]+::'
    r'|(?<![\w.`\[])~(?:mini)?chainer\.\w'
    r'|\w::</p>', re.M)


def test_api_pages_show_no_raw_sphinx_markup(built_site):
    proc, tmp_path = built_site
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-5000:]
    generator = load_generator()
    found = []
    for name in sorted(generator.PAGES):
        with open(tmp_path / 'site' / 'api' / name[:-3] / 'index.html') as f:
            html = f.read()
        for m in _RAW_ON_PAGE.finditer(html):
            found.append('api/{}: ...{}...'.format(
                name, html[max(0, m.start() - 60):m.end() + 40].replace('\n', ' ')))
    assert not found, '{} raw reST/Sphinx markups on the API pages:\n{}'.format(
        len(found), '\n'.join(found[:40]))
