"""The trainer's reporter is current during each update and its extensions only, as in
Chainer's Trainer.run: a value reported while the stop trigger is checked is not logged."""
import minichainer
from minichainer import training


class _Updater:
    def __init__(self):
        self.iteration = 0
        self.epoch = 0
        self.epoch_detail = 0.0
        self.previous_epoch_detail = None
        self.is_new_epoch = False

    def update(self):
        self.iteration += 1
        minichainer.report({'from_update': 1.0})

    def finalize(self):
        pass

    def connect_trainer(self, trainer):
        pass

    def get_all_optimizers(self):
        return {}


def test_report_from_stop_trigger_does_not_reach_the_observation(tmp_path):
    seen = []

    def stop(trainer):
        minichainer.report({'from_trigger': 1.0})
        return trainer.updater.iteration >= 3

    def record(trainer):
        seen.append(trainer.observation)  # the dict itself: later reports would show

    trainer = training.Trainer(_Updater(), stop, out=str(tmp_path))
    trainer.extend(record, trigger=(1, 'iteration'), name='record')
    trainer.run()
    assert seen == [{'from_update': 1.0}] * 3
