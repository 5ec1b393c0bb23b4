"""The API reference pages (docs/api/*.md) from minichainer's public names.

minichainer's packages re-export their names dynamically, which a static reader such
as mkdocstrings cannot follow, so each page lists every public object by the module
that defines it: ``::: minichainer.functions.activation.relu.relu``.

This file is an MkDocs hook (``hooks:`` in mkdocs.yml): at build time the pages are
rendered from the current code, so the reference never lags behind. The committed
copies of the pages are for reading on the repository; refresh them with

    python docs/api/_generate.py
"""
import importlib
import inspect
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# page file: (title, intro, sections); sections is a package (listed by sub-package)
# or a list of (section title, package whose public names to list, or dotted names).
_CORE = [
    ('Variables', ['minichainer.variable.Variable', 'minichainer.variable.Parameter',
                   'minichainer.variable.VariableNode', 'minichainer.variable.as_variable',
                   'minichainer.variable.as_array']),
    ('Functions in the graph', ['minichainer.function_node.FunctionNode',
                                'minichainer.function.Function',
                                'minichainer.function.no_backprop_mode',
                                'minichainer.function.force_backprop_mode']),
    ('Links', ['minichainer.link.Link', 'minichainer.link.Chain',
               'minichainer.link.ChainList', 'minichainer.sequential.Sequential']),
    ('Configuration', ['minichainer.configuration.using_config',
                       'minichainer.configuration.GlobalConfig',
                       'minichainer.configuration.LocalConfig']),
    ('Reporter', 'minichainer.reporter'),
    ('Devices and backends', ['minichainer.backend.get_device',
                              'minichainer.backend.get_array_module',
                              'minichainer.backend.CpuDevice']),
    ('Gradient checking', 'minichainer.gradient_check'),
    ('Function hooks', 'minichainer.function_hooks'),
    ('Computational graph', ['minichainer.computational_graph.build_computational_graph']),
]
_LINKS = [
    ('Links', 'minichainer.links'),
    ('Initializers', 'minichainer.initializers'),
]
_OPTIMIZERS = [
    ('Base classes', ['minichainer.optimizer.Optimizer', 'minichainer.optimizer.UpdateRule',
                      'minichainer.optimizer.GradientMethod',
                      'minichainer.optimizer.Hyperparameter']),
    ('Optimizers', 'minichainer.optimizers'),
    ('Optimizer hooks', 'minichainer.optimizer_hooks'),
]
_DATASETS = [
    ('Dataset helpers and converters', 'minichainer.dataset'),
    ('Datasets', 'minichainer.datasets'),
    ('Iterators', 'minichainer.iterators'),
]
_TRAINING = [
    ('Trainer and extension base', 'minichainer.training'),
    ('Updaters', 'minichainer.training.updaters'),
    ('Triggers', 'minichainer.training.triggers'),
    ('Extensions', 'minichainer.training.extensions'),
    ('Snapshot writers', 'minichainer.training.extensions.snapshot_writers'),
]
_COMPAT = [
    ('Runner', ['minichainer.compat.main', 'minichainer.compat.install',
                'minichainer.compat.uninstall']),
]
PAGES = {
    'core.md': ('Core', 'Variables, function nodes, links, configuration, the reporter '
                'and devices: what `import minichainer as chainer` gives at the top '
                'level.', _CORE),
    'functions.md': ('Functions', 'Every function of `minichainer.functions` (`F`), by '
                     'family.', 'minichainer.functions'),
    'distributions.md': ('Distributions', 'Probability distributions '
                         '(`minichainer.distributions`) and their KL divergences.',
                         [('Base class and KL divergence',
                           ['minichainer.distribution.Distribution',
                            'minichainer.distribution.register_kl',
                            'minichainer.distribution.kl_divergence',
                            'minichainer.distribution.cross_entropy']),
                          ('Distributions', 'minichainer.distributions')]),
    'links.md': ('Links and initializers', 'Every link of `minichainer.links` (`L`) and '
                 'every initializer.', _LINKS),
    'optimizers.md': ('Optimizers', 'Optimizers, their base classes and optimizer '
                      'hooks.', _OPTIMIZERS),
    'datasets.md': ('Datasets and iterators', 'Datasets, dataset helpers, iterators and '
                    'converters.', _DATASETS),
    'training.md': ('Training', 'The Trainer, updaters, triggers and extensions.',
                    _TRAINING),
    'serializers.md': ('Serializers', 'Saving and loading npz (and HDF5) files.',
                       'minichainer.serializers'),
    'testing.md': ('Testing helpers', 'Chainer\'s public testing helpers, for your own '
                   'test suites.', 'minichainer.testing'),
    'compat.md': ('Compat runner', 'Run unmodified Chainer programs: '
                  '`python -m minichainer.compat SCRIPT ARGS...`.', _COMPAT),
}


def public_objects(package):
    """``[(name, 'defining.module.qualname')]`` for the public callables of a package."""
    module = importlib.import_module(package)
    names = getattr(module, '__all__', None) or [n for n in dir(module) if not n.startswith('_')]
    found = []
    for name in sorted(set(names), key=lambda n: (n.lower(), n)):
        obj = getattr(module, name, None)
        if not (inspect.isclass(obj) or inspect.isfunction(obj)):
            continue
        home = getattr(obj, '__module__', '') or ''
        qualname = getattr(obj, '__qualname__', name)
        if not home.startswith('minichainer') or '<' in qualname or '.' in qualname:
            continue
        found.append((name, '{}.{}'.format(home, qualname)))
    return found


def _directive(path):
    return '::: {}\n'.format(path)


def render(title, intro, sections):
    lines = ['# {}\n'.format(title), '\n',
             '<!-- generated by docs/api/_generate.py; edit that file, not this one -->\n',
             '\n', intro + '\n', '\n']
    if isinstance(sections, str):   # one package, grouped by its sub-packages
        groups = {}
        for name, path in public_objects(sections):
            family = path[len(sections) + 1:].split('.')[0]
            groups.setdefault(family, []).append(path)
        sections = [(family.replace('_', ' ').capitalize(), paths)
                    for family, paths in sorted(groups.items())]
    seen = set()   # a name re-exported by several packages is documented once
    for section, content in sections:
        paths = ([p for _, p in public_objects(content)] if isinstance(content, str)
                 else content)
        paths = [p for p in paths if p not in seen]
        seen.update(paths)
        if not paths:
            continue
        lines.append('## {}\n\n'.format(section))
        for path in paths:
            lines.append(_directive(path))
            lines.append('\n')
    return ''.join(lines)


def generate():
    """``{file name: text}`` of every page."""
    return {name: render(*spec) for name, spec in PAGES.items()}


def on_page_read_source(page, config):
    """MkDocs hook: serve the freshly generated text for the generated pages."""
    src = page.file.src_uri
    if src.startswith('api/') and src[4:] in PAGES:
        if ROOT not in sys.path:
            sys.path.insert(0, ROOT)
        return render(*PAGES[src[4:]])
    return None


def main():
    sys.path.insert(0, ROOT)
    for name, text in generate().items():
        with open(os.path.join(HERE, name), 'w') as f:
            f.write(text)
        print('wrote docs/api/{} ({} objects)'.format(name, text.count(':::')))


if __name__ == '__main__':
    main()
