"""The ```python blocks of the tutorial-style pages run, in order, so they cannot rot.

Each page runs in one fresh namespace inside a temporary working directory (pages may
write files such as ``result_tutorial/``). Blocks fenced as ```py (or any other
language) are shown but not run: use that for fragments.
"""
import os
import re

import numpy
import pytest

import minichainer

DOCS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), 'docs')

PAGES = ['tutorial.md', 'concepts.md', 'custom-updater.md', 'extensions.md',
         'custom-iterator.md', 'reliability.md', 'getting-started.md', 'index.md']

_FENCE = re.compile(r'^```python[ \t]*\n(.*?)^```[ \t]*$', re.M | re.S)


def python_blocks(text):
    """The bodies of the ```python fenced blocks of a Markdown text, in order."""
    return [m.group(1) for m in _FENCE.finditer(text)]


def test_python_blocks_finds_only_python_fences():
    text = 'a\n```python\nx = 1\n```\n```py\ny = 2\n```\n```python\nz = 3\n```\n'
    assert python_blocks(text) == ['x = 1\n', 'z = 3\n']


@pytest.mark.parametrize('page', PAGES)
def test_page_code_runs(page, tmp_path, monkeypatch, capsys):
    with open(os.path.join(DOCS, page)) as f:
        text = f.read()
    blocks = python_blocks(text)
    if page not in ('getting-started.md', 'index.md'):
        assert blocks, '{} has no ```python block to test'.format(page)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv('MPLBACKEND', 'Agg')
    namespace = {'__name__': '__docs__'}
    numpy.random.seed(0)
    with minichainer.using_config('train', True):
        for i, block in enumerate(blocks):
            code = compile(block, '{}[block {}]'.format(page, i + 1), 'exec')
            exec(code, namespace)
