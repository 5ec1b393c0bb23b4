"""ProgressBar and PrintReport in a Jupyter notebook, executed by a real kernel."""
import io
import os
import sys
import textwrap

import pytest

from minichainer.training import extensions
from minichainer.training.extensions import _notebook

from .. import _models

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))

_TRAIN_CELL = textwrap.dedent('''
    import sys
    sys.path.insert(0, {root!r})
    import numpy
    import minichainer as chainer
    import minichainer.functions as F
    import minichainer.links as L
    from minichainer import training
    from minichainer.training import extensions

    class MLP(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l1 = L.Linear(None, 32)
                self.l2 = L.Linear(None, 10)

        def forward(self, x):
            return self.l2(F.relu(self.l1(x)))

    numpy.random.seed(0)
    model = L.Classifier(MLP())
    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)
    train, test = chainer.datasets.get_digits()
    updater = training.updaters.StandardUpdater(
        chainer.iterators.SerialIterator(train, 64), optimizer)
    trainer = training.Trainer(updater, (120, 'iteration'), out={out!r})
    trainer.extend(extensions.LogReport(trigger=(20, 'iteration')))
    trainer.extend(extensions.PrintReport(['epoch', 'iteration', 'main/loss',
                                           'main/accuracy']))
    trainer.extend(extensions.ProgressBar(update_interval=2))
    trainer.run()
    print('done', trainer.updater.iteration, sys.executable)
''')


def test_notebook_shows_one_widget_and_one_table_updated_in_place(tmp_path):
    nbformat = pytest.importorskip('nbformat')
    nbclient = pytest.importorskip('nbclient')
    pytest.importorskip('ipykernel')
    pytest.importorskip('ipywidgets')

    source = _TRAIN_CELL.format(root=_ROOT, out=str(tmp_path / 'result'))
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)])
    client = nbclient.NotebookClient(nb, timeout=120, kernel_name='python3',
                                     resources={'metadata': {'path': str(tmp_path)}})
    client.execute()

    outputs = nb.cells[0].outputs
    errors = [o for o in outputs if o.output_type == 'error']
    assert not errors, errors
    displays = [o for o in outputs if o.output_type == 'display_data']
    streams = [o for o in outputs if o.output_type == 'stream']
    # One widget (tqdm's notebook bar, 60 updates), one table, one line of text.
    assert len(displays) == 2, outputs
    widget, table = displays
    model_id = widget.data['application/vnd.jupyter.widget-view+json']['model_id']
    text = ''.join(o.text for o in streams)
    assert text == 'done 120 {}\n'.format(sys.executable)  # the kernel runs this Python

    lines = table.data['text/plain'].split('\n')
    assert lines[0].split() == ['epoch', 'iteration', 'main/loss', 'main/accuracy']
    assert [line.split()[1] for line in lines[1:]] == ['20', '40', '60', '80', '100',
                                                       '120']
    assert '\033' not in table.data['text/plain']

    # The widget's final state, as the kernel left it: the bar is full.
    state = nb.metadata.widgets['application/vnd.jupyter.widget-state+json']['state']
    bar_children = state[model_id]['state']['children']
    values = [state[c.replace('IPY_MODEL_', '')]['state'].get('value')
              for c in bar_children]
    assert 120 in values
    # tqdm's widget writes its text with figure spaces.
    texts = [v.replace('\u2007', ' ') for v in values if isinstance(v, str)]
    assert any('120/120 iterations' in t and '120 iter, 5 epoch' in t for t in texts)


def test_outside_a_kernel_nothing_changes(tmp_path):
    assert not _notebook.is_kernel_stream(sys.stdout)
    assert not _notebook.is_kernel_stream(io.StringIO())
    out = io.StringIO()
    trainer, _ = _models.make_trainer(tmp_path, stop=(2, 'epoch'))
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.PrintReport(['epoch', 'main/loss'], out=out))
    trainer.extend(extensions.ProgressBar(update_interval=7, out=out))
    trainer.run()
    lines = out.getvalue().split('\n')
    assert lines[0].split() == ['epoch', 'main/loss']
    assert lines[1].startswith('7 iter, 0 epoch / 2 epochs, ')
    assert lines[2].startswith('\033[J1 ')


def test_notebook_without_ipywidgets_falls_back_to_text(tmp_path, monkeypatch):
    from minichainer.training.extensions import progress_bar
    monkeypatch.setattr(progress_bar._notebook, 'is_kernel_stream', lambda out: True)
    monkeypatch.setitem(sys.modules, 'ipywidgets', None)  # as if not installed
    out = io.StringIO()
    trainer, _ = _models.make_trainer(tmp_path, stop=(14, 'iteration'))
    trainer.extend(extensions.ProgressBar(update_interval=7, out=out))
    with pytest.warns(UserWarning, match='ProgressBar: showing text.*ipywidgets'):
        trainer.run()
    lines = out.getvalue().splitlines()
    assert [line.split(',')[0] for line in lines] == ['7 iter', '14 iter']
