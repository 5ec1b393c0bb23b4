"""The API reference shows no raw reST/Sphinx markup.

The docs are built by MkDocs + mkdocstrings (Google-style docstrings, Markdown), which
renders ``:class:`~minichainer.Variable``` or ``.. note::`` as the literal text.  This test
walks the same selection the API pages render -- every ``::: path`` entry that
docs/api/_generate.py writes, and the public members of each class -- and checks the
docstring of each.  (The built HTML pages are checked the same way in test_build.py when
mkdocs is installed.)  Cross-references are written ``[`Name`][minichainer.module.Name]``.
"""
import importlib
import inspect
import os
import re

from tests.docs._api_pages import load_generator

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# what renders wrong in Markdown, with the fix to name in the failure message
RAW_MARKUP = [
    (re.compile(r':(?:py:)?(?:class|func|meth|attr|mod|data|obj|exc|const|any|math|ref|doc)'
                r':`'), 'Sphinx role; write [`Name`][minichainer.path] or `Name`'),
    (re.compile(r'^[ \t]*\.\. [a-z-]+::', re.M), 'reST directive; write a Google section '
     '("Note:" + indented text) or a Markdown block'),
    (re.compile(r'^(?![ \t]*\.\. ).*\S::[ \t]*$', re.M), 'reST literal block marker; end the line with ":" '
     'and indent the block by four spaces'),
    (re.compile(r'(?<![\w.`\[])~(?:mini)?chainer\.\w'), 'Sphinx "~" short reference; '
     'write the plain name'),
    (re.compile(r'`[^`<]+<[a-z]+://[^>]+>`_'), 'reST link; write [text](url)'),
]


def _api_paths():
    pages = load_generator().generate()
    return sorted({m.group(1) for text in pages.values()
                   for m in re.finditer(r'^::: (\S+)', text, re.M)})


def _resolve(path):
    parts = path.split('.')
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module('.'.join(parts[:i]))
        except ImportError:
            continue
        for part in parts[i:]:
            obj = getattr(obj, part)
        return obj
    raise ImportError(path)


def _docs(path, obj):
    """``[(path, docstring)]`` of an API object and of the members its page shows."""
    found = [(path, inspect.getdoc(obj) if not inspect.isclass(obj) else obj.__doc__)]
    if inspect.isclass(obj):
        for name, member in vars(obj).items():
            if name.startswith('_') and name != '__init__':
                continue
            if isinstance(member, (staticmethod, classmethod)):
                member = member.__func__
            if isinstance(member, property):
                member = member.fget
            if ((inspect.isfunction(member) or inspect.isclass(member))
                    and (member.__module__ or '').startswith('minichainer')):
                found.append(('{}.{}'.format(path, name), member.__doc__))
    return [(p, d) for p, d in found if d]


def _markup_problems(path, doc):
    problems = []
    for pattern, fix in RAW_MARKUP:
        for m in pattern.finditer(doc):
            line = doc[doc.rfind('\n', 0, m.start()) + 1:].split('\n', 1)[0].strip()
            problems.append('{}: {!r} ({})'.format(path, line[:100], fix))
    return problems


def test_the_markup_check_finds_sphinx_markup():
    doc = ('See :class:`~minichainer.Variable`.\n\n.. note::\n   text\n\nExample::\n\n'
           '    code\n\nArgs:\n    x (~chainer.Variable): input, see `paper <https://x.y>`_.')
    assert len(_markup_problems('x', doc)) == 5
    assert _markup_problems('x', 'See [`Variable`][minichainer.variable.Variable], '
                                 '`x[::2]`, ``a``.\n\nExample:\n\n    code') == []


def test_api_docstrings_have_no_raw_sphinx_markup():
    paths = _api_paths()
    assert len(paths) > 300
    problems = []
    for path in paths:
        for member_path, doc in _docs(path, _resolve(path)):
            problems += _markup_problems(member_path, doc)
    assert not problems, '{} pieces of reST markup on the API pages (convert with ' \
        'sphinx2md, see docs/api/index.md):\n{}'.format(
            len(problems), '\n'.join(problems[:60]))
