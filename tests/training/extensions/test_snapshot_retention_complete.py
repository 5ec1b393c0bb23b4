"""n_retains counts and deletes only complete snapshots."""
import os

import numpy

from minichainer import testing
from minichainer.training import extensions


def test_truncated_snapshot_does_not_push_out_good_ones(tmp_path):
    out = str(tmp_path)
    trainer = testing.get_trainer_with_mock_updater((6, 'iteration'), iter_per_epoch=2)
    trainer.out = out
    trainer.extend(extensions.snapshot(n_retains=2), trigger=(2, 'iteration'))
    trainer.run()
    good = sorted(n for n in os.listdir(out) if n.startswith('snapshot_iter_'))
    assert good == ['snapshot_iter_4', 'snapshot_iter_6']
    with open(os.path.join(out, 'snapshot_iter_4'), 'rb') as f:
        head = f.read(100)
    broken = os.path.join(out, 'snapshot_iter_99')
    with open(broken, 'wb') as f:
        f.write(head)  # a zip header and nothing else: truncated
    os.utime(broken, None)

    trainer2 = testing.get_trainer_with_mock_updater((8, 'iteration'), iter_per_epoch=2)
    trainer2.out = out
    trainer2.updater.iteration = 6
    trainer2.extend(extensions.snapshot(n_retains=2), trigger=(2, 'iteration'))
    trainer2.run()
    names = sorted(n for n in os.listdir(out) if n.startswith('snapshot_iter_'))
    assert 'snapshot_iter_99' in names            # debris is left alone
    complete = [n for n in names if n != 'snapshot_iter_99']
    assert len(complete) == 2                      # and did not count towards n_retains
    assert 'snapshot_iter_8' in complete
