"""PlotReport, VariableStatisticsPlot and ProgressBar."""
import io
import json
import warnings

import numpy
import pytest

import minichainer.links as L
from minichainer.serializers import npz
from minichainer.testing.training import get_trainer_with_mock_updater
from minichainer.training import extensions
from minichainer.training.extensions import _plot_util


def _trainer(tmp_path, stop=(4, 'iteration'), ipe=2):
    trainer = get_trainer_with_mock_updater(stop, iter_per_epoch=ipe)
    trainer.out = str(tmp_path)

    def report(t):
        t.observation['main/loss'] = 1.0 / t.updater.iteration
    trainer.extend(report, priority=1000, name='report')
    return trainer


def test_plot_report_writes_png_and_serializes(tmp_path):
    pytest.importorskip('matplotlib')
    trainer = _trainer(tmp_path)
    plot = extensions.PlotReport(['main/loss', 'other'], 'epoch', filename='loss.png',
                                 marker=None, grid=False)
    trainer.extend(plot)
    trainer.run()
    data = (tmp_path / 'loss.png').read_bytes()
    assert data[:8] == b'\x89PNG\r\n\x1a\n'
    assert plot._data['main/loss'] == [(1, pytest.approx(0.75)), (2, pytest.approx(7 / 24))]
    assert plot._data['other'] == []
    s = npz.DictionarySerializer()
    plot.serialize(s)
    assert json.loads(str(s.target['_plot_loss.png']))['other'] == []
    plot2 = extensions.PlotReport('main/loss', filename='loss.png')
    plot2.serialize(npz.NpzDeserializer(s.target))
    assert plot2._data['main/loss'][1][0] == 2
    assert extensions.PlotReport.available()


def test_plot_report_without_matplotlib_warns_once(tmp_path, monkeypatch):
    monkeypatch.setattr(_plot_util.available, 'found', False)
    monkeypatch.setattr(_plot_util.available, 'warned', False)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        plot = extensions.PlotReport(['main/loss'])
        trainer = _trainer(tmp_path)
        trainer.extend(plot)
        trainer.run()
        extensions.PlotReport(['main/loss'])
    messages = [str(x.message) for x in w if 'matplotlib' in str(x.message)]
    assert len(messages) == 1
    assert 'minichainer[plot]' in messages[0]
    assert list(tmp_path.iterdir()) == []


def test_variable_statistics_plot(tmp_path):
    pytest.importorskip('matplotlib')
    numpy.random.seed(0)
    link = L.Linear(3, 4)
    link.cleargrads()
    trainer = get_trainer_with_mock_updater((4, 'iteration'), iter_per_epoch=2)
    trainer.out = str(tmp_path)
    ext = extensions.VariableStatisticsPlot(link, filename='stats.png')
    trainer.extend(ext)
    trainer.run()
    assert (tmp_path / 'stats.png').read_bytes()[:4] == b'\x89PNG'
    idxs, data = ext._samples.get_data()
    assert list(idxs) == [1, 2, 3, 4]
    assert data.shape == (4, 2, 2 + 9)
    w = numpy.concatenate([link.W.array.ravel(), link.b.array.ravel()])
    assert data[0, 0, 0] == pytest.approx(w.mean())
    assert data[0, 0, 2] == pytest.approx(w.min())   # 0th percentile
    assert data[0, 0, 6] == pytest.approx(numpy.median(w))
    assert data[0, 0, -1] == pytest.approx(w.max())
    with pytest.raises(ValueError, match='Need at least one'):
        extensions.VariableStatisticsPlot([])
    with pytest.raises(ValueError, match='Nothing to plot'):
        extensions.VariableStatisticsPlot(link, plot_mean=False, plot_std=False,
                                          percentile_sigmas=())


def test_progress_bar_plain_output_when_not_a_terminal(tmp_path):
    out = io.StringIO()
    trainer = _trainer(tmp_path, stop=(4, 'epoch'), ipe=5)
    trainer.extend(extensions.ProgressBar(update_interval=5, out=out))
    trainer.run()
    lines = out.getvalue().splitlines()
    assert len(lines) == 4
    assert lines[0].startswith('5 iter, 1 epoch / 4 epochs, ')
    assert 'iters/sec, ETA ' in lines[0]
    assert lines[-1].startswith('20 iter, 4 epoch / 4 epochs')
    assert lines[-1].endswith('ETA 0:00:00')
    assert '\r' not in out.getvalue()


class _FakeTTY(io.StringIO):
    def isatty(self):
        return True


def test_progress_bar_uses_tqdm_on_a_terminal(tmp_path):
    out = _FakeTTY()
    trainer = _trainer(tmp_path, stop=(10, 'iteration'), ipe=5)
    bar = extensions.ProgressBar(update_interval=2, out=out)
    trainer.extend(bar)
    trainer.run()
    text = out.getvalue()
    assert '\r' in text
    assert '10/10 iterations' in text
    assert 'iters/sec' in text and 'ETA' in text
    assert bar._pbar is None  # closed by finalize


def test_progress_bar_bad_arguments():
    with pytest.raises(ValueError, match='update_interval'):
        extensions.ProgressBar(update_interval=0)
    trainer = get_trainer_with_mock_updater(stop_trigger=lambda t: False)
    trainer.updater.iteration = 100
    with pytest.raises(TypeError, match='training_length'):
        extensions.ProgressBar()(trainer)


def test_statistician_percentiles():
    from minichainer.training.extensions import variable_statistics_plot as vsp
    x = numpy.random.RandomState(0).rand(10, 5).astype(numpy.float32)
    stat = vsp.Statistician(True, True, (0., 50., 100.))(x, axis=None)
    for value in stat.values():
        assert value.dtype == x.dtype
    assert stat['mean'] == pytest.approx(x.mean())
    assert list(stat['percentile']) == pytest.approx([x.min(), numpy.median(x), x.max()])
