"""The ```python blocks of the tutorial-style pages run, in order, so they cannot rot.

Each page runs in a fresh interpreter inside a temporary working directory (pages may
write files such as ``result_tutorial/``), its blocks executed one after the other in
one namespace. A fresh process keeps the pages from sharing state with each other or
with pytest (PrintReport, like Chainer's, binds ``sys.stdout`` when it is imported).
Blocks fenced as ```py (or any other language) are shown but not run: use that for
fragments.
"""
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCS = os.path.join(ROOT, 'docs')

PAGES = ['index.md', 'getting-started.md', 'tutorial.md', 'concepts.md',
         'custom-updater.md', 'extensions.md', 'custom-iterator.md', 'reliability.md',
         'autodiff.md', 'functions.md', 'distributions.md', 'onnx.md', '../README.md']

_FENCE = re.compile(r'^```python[ \t]*\n(.*?)^```[ \t]*$', re.M | re.S)

# Runs the blocks of one page; each block is compiled under the name
# '<page>[block <i>]' so a traceback says where the failing line is.
_RUNNER = r'''
import re, sys
page, path = sys.argv[1], sys.argv[2]
with open(path) as f:
    text = f.read()
namespace = {'__name__': '__docs__'}
fence = re.compile(r'^```python[ \t]*\n(.*?)^```[ \t]*$', re.M | re.S)
for i, m in enumerate(fence.finditer(text)):
    exec(compile(m.group(1), '{}[block {}]'.format(page, i + 1), 'exec'), namespace)
'''


def python_blocks(text):
    """The bodies of the ```python fenced blocks of a Markdown text, in order."""
    return [m.group(1) for m in _FENCE.finditer(text)]


def test_python_blocks_finds_only_python_fences():
    text = 'a\n```python\nx = 1\n```\n```py\ny = 2\n```\n```python\nz = 3\n```\n'
    assert python_blocks(text) == ['x = 1\n', 'z = 3\n']


def test_every_page_has_code_to_run():
    for page in PAGES:
        with open(os.path.join(DOCS, page)) as f:
            assert python_blocks(f.read()), '{} has no ```python block'.format(page)


@pytest.mark.parametrize('page', PAGES)
def test_page_code_runs(page, tmp_path):
    env = dict(os.environ)
    env['PYTHONPATH'] = ROOT + os.pathsep + env.get('PYTHONPATH', '')
    env['MPLBACKEND'] = 'Agg'
    env['OPENBLAS_NUM_THREADS'] = '1'
    proc = subprocess.run(
        [sys.executable, '-c', _RUNNER, page, os.path.join(DOCS, page)],
        cwd=str(tmp_path), env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, '{} failed:\n{}\n{}'.format(page, proc.stdout[-3000:],
                                                             proc.stderr[-5000:])
