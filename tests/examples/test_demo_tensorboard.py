"""`examples/demo.py --tensorboard` writes event files TensorBoard reads."""
import importlib.util
import json
import os

import pytest

from .conftest import EXAMPLES


def test_demo_tensorboard_flag(tmp_path, capsys):
    pytest.importorskip('tensorboardX')
    event_accumulator = pytest.importorskip(
        'tensorboard.backend.event_processing.event_accumulator')
    spec = importlib.util.spec_from_file_location('_demo', os.path.join(EXAMPLES, 'demo.py'))
    demo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(demo)
    out = tmp_path / 'result'
    demo.main(['--epoch', '1', '--unit', '16', '--out', str(out), '--tensorboard',
               '--no-progress'])
    assert 'tensorboard --logdir {}'.format(out / 'tb') in capsys.readouterr().out

    acc = event_accumulator.EventAccumulator(str(out / 'tb'))
    acc.Reload()
    with open(out / 'log') as f:
        log = json.load(f)
    assert [e.step for e in acc.Scalars('validation/main/accuracy')] == \
        [entry['iteration'] for entry in log]
    assert set(acc.Tags()['scalars']) == {'main/loss', 'main/accuracy',
                                          'validation/main/loss', 'validation/main/accuracy'}
    assert 'predictor/l1/W/data' in acc.Tags()['histograms']
