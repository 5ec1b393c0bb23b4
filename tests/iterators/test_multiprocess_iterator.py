import multiprocessing
import os
import subprocess
import sys
import textwrap
import time

import numpy
import pytest

from minichainer.dataset import DatasetMixin
from minichainer.iterators import MultiprocessIterator
from minichainer.iterators import SerialIterator
from minichainer.iterators import ShuffleOrderSampler
from minichainer import serializers


class _Failing(DatasetMixin):
    def __len__(self):
        return 8

    def get_example(self, i):
        if i == 5:
            raise ValueError('boom at example {}'.format(i))
        return i


class _Dying(DatasetMixin):
    def __len__(self):
        return 8

    def get_example(self, i):
        if i == 5:  # in the second batch: the first is loaded in the main process
            os._exit(7)
        return i


def _state(it):
    return (it.epoch, it.epoch_detail, it.previous_epoch_detail, it.is_new_epoch,
            it.current_position)


def _our_children():
    return {p.pid for p in multiprocessing.active_children()}


@pytest.mark.parametrize('repeat,n_prefetch', [(True, 1), (False, 3)])
def test_same_batches_and_bookkeeping_as_serial(repeat, n_prefetch):
    data = [(numpy.full(2, i, numpy.float32), numpy.int32(i)) for i in range(7)]
    serial = SerialIterator(data, 3, repeat=repeat, order_sampler=ShuffleOrderSampler(
        numpy.random.RandomState(2)))
    it = MultiprocessIterator(data, 3, repeat=repeat, n_processes=2, n_prefetch=n_prefetch,
                              order_sampler=ShuffleOrderSampler(numpy.random.RandomState(2)))
    try:
        for _ in range(7):
            try:
                expected = serial.next()
            except StopIteration:
                with pytest.raises(StopIteration):
                    it.next()
                continue
            got = it.next()
            assert [int(t) for _, t in got] == [int(t) for _, t in expected]
            assert _state(it) == _state(serial)
    finally:
        it.finalize()


def test_worker_exception_is_reraised_with_worker_traceback():
    it = MultiprocessIterator(_Failing(), 4, shuffle=False, n_processes=2)
    try:
        assert it.next() == [0, 1, 2, 3]
        with pytest.raises(ValueError, match='boom at example 5') as info:
            it.next()
        remote = str(info.value.__cause__)
        assert 'Traceback' in remote and 'get_example' in remote
        assert it.epoch_detail == 0.5  # the failed batch did not advance the state
    finally:
        it.finalize()


def test_worker_death_raises_instead_of_hanging():
    it = MultiprocessIterator(_Dying(), 4, shuffle=False, n_processes=2,
                              dataset_timeout=None)
    start = time.monotonic()
    try:
        assert it.next() == [0, 1, 2, 3]
        with pytest.raises(RuntimeError, match='exited with code 7'):
            it.next()
    finally:
        it.finalize()
    assert time.monotonic() - start < 10


def test_finalize_leaves_no_processes():
    before = _our_children()
    it = MultiprocessIterator(list(range(10)), 2, n_processes=2, maxtasksperchild=1)
    seen = _our_children() - before
    for _ in range(6):  # workers retire and are replaced
        assert len(it.next()) == 2
        # a retired worker's replacement starts when its notice is read, so at one
        # moment both may have exited: look after every batch
        seen |= _our_children() - before
    assert len(seen) >= 1
    it.finalize()
    assert _our_children() - before == set()
    with pytest.raises(RuntimeError, match='finalize'):
        it.next()


def test_serialize_resume(tmp_path):
    it = MultiprocessIterator(list(range(5)), 2, n_processes=1,
                              order_sampler=ShuffleOrderSampler(numpy.random.RandomState(0)))
    try:
        it.next()
        it.next()
        path = str(tmp_path / 'it.npz')
        serializers.save_npz(path, it)
        expected = [it.next() for _ in range(2)]
    finally:
        it.finalize()
    resumed = MultiprocessIterator(list(range(5)), 2, n_processes=1,
                                   order_sampler=ShuffleOrderSampler(
                                       numpy.random.RandomState(0)))
    try:
        serializers.load_npz(path, resumed)
        assert resumed.current_position == 4
        assert resumed.next() == expected[0]  # within the restored order
    finally:
        resumed.finalize()


def test_interpreter_exit_leaves_no_processes(child_processes):
    script = textwrap.dedent('''
        import multiprocessing
        from minichainer.iterators import MultiprocessIterator
        it = MultiprocessIterator(list(range(10)), 2, n_processes=2)
        it.next()
        print(' '.join(str(p.pid) for p in multiprocessing.active_children()), flush=True)
    ''')
    env = dict(os.environ, PYTHONPATH=child_processes.root + os.pathsep
               + os.environ.get('PYTHONPATH', ''))
    out = subprocess.run([sys.executable, '-c', script], capture_output=True, text=True,
                         timeout=30, env=env)
    assert out.returncode == 0, out.stderr
    pids = [int(p) for p in out.stdout.split()]
    assert len(pids) == 2
    assert child_processes.wait_gone(pids, seconds=5) == []


def test_copy_and_bad_arguments():
    import copy
    it = MultiprocessIterator(list(range(5)), 2, shuffle=False, n_processes=1)
    try:
        it.next()
        other = copy.copy(it)
        try:
            assert other.next() == it.next() == [2, 3]
        finally:
            other.finalize()
    finally:
        it.finalize()
    with pytest.raises(ValueError, match='batch_size'):
        MultiprocessIterator([1, 2], -2)
    with pytest.raises(ValueError, match='n_processes'):
        MultiprocessIterator([1, 2], 1, n_processes=0)


class _Slow(DatasetMixin):
    def __init__(self, slow_index=2):
        self.slow_index = slow_index

    def __len__(self):
        return 4

    def get_example(self, i):
        if i == self.slow_index:
            time.sleep(0.4)
        return i


def test_stalled_dataset_warns():
    it = MultiprocessIterator(_Slow(), 2, shuffle=False, repeat=False, n_processes=2,
                              dataset_timeout=0.05)
    try:
        assert it.next() == [0, 1]
        with pytest.warns(MultiprocessIterator.TimeoutWarning):
            assert it.next() == [2, 3]
        with pytest.raises(StopIteration):
            it.next()
    finally:
        it.finalize()


def test_stalled_first_batch_warns_while_loading_in_process():
    # Chainer loads the first batch in the main process when shared_mem is None and
    # warns there too when it takes longer than dataset_timeout.
    it = MultiprocessIterator(_Slow(1), 2, shuffle=False, repeat=False, n_processes=1,
                              dataset_timeout=0.05)
    try:
        with pytest.warns(MultiprocessIterator.TimeoutWarning, match='Stalled dataset'):
            assert it.next() == [0, 1]
        assert it.next() == [2, 3]
    finally:
        it.finalize()


def test_error_in_first_batch_is_raised_with_a_timeout_set():
    data = _Failing()
    it = MultiprocessIterator(data, 6, shuffle=False, n_processes=1, dataset_timeout=5.0)
    try:
        with pytest.raises(ValueError, match='boom at example 5'):
            it.next()
    finally:
        it.finalize()


@pytest.mark.parametrize('start_method', ['fork', 'spawn'])
def test_killed_parent_leaves_no_workers(start_method, child_processes):
    # kill -9 of the main process: no cleanup code runs there, yet every worker exits,
    # the idle ones (waiting for a task) and a busy one (inside a slow get_example).
    script = textwrap.dedent('''
        import multiprocessing, sys, time
        multiprocessing.set_start_method({method!r})
        from minichainer.iterators import MultiprocessIterator
        from tests.iterators.test_multiprocess_iterator import _Stuck
        it = MultiprocessIterator(_Stuck(), 2, shuffle=False, n_processes=2,
                                  dataset_timeout=None)
        it.next()
        print(' '.join(str(p.pid) for p in multiprocessing.active_children()),
              flush=True)
        it.next()  # blocks: example 2 never finishes loading
    ''').format(method=start_method)
    # settle: let a worker enter the stuck get_example
    pids = child_processes.kill_after_first_line(script, 2, settle=0.3)
    assert child_processes.wait_gone(pids) == []


class _Stuck(DatasetMixin):
    def __len__(self):
        return 8

    def get_example(self, i):
        if i >= 2:
            time.sleep(600)
        return i


def test_killed_worker_raises_and_leaves_no_processes(child_processes):
    import signal
    before = _our_children()
    it = MultiprocessIterator(list(range(40)), 2, shuffle=False, n_processes=3,
                              dataset_timeout=None)
    try:
        assert it.next() == [0, 1]
        workers = _our_children() - before
        assert len(workers) == 3
        victim = sorted(workers)[0]
        os.kill(victim, signal.SIGKILL)
        assert child_processes.wait_gone([victim]) == []
        # Raised at once, although the other workers could go on loading.
        with pytest.raises(RuntimeError, match='killed by signal SIGKILL'):
            it.next()
        assert child_processes.wait_gone(workers) == []
    finally:
        it.finalize()
    assert _our_children() - before == set()


def test_pickle_keeps_position_and_starts_new_workers():
    import pickle
    it = MultiprocessIterator(list(range(6)), 2, n_processes=2,
                              order_sampler=ShuffleOrderSampler(numpy.random.RandomState(1)))
    copy = None
    try:
        first = it.next()
        blob = pickle.dumps(it)
        expected = it.next()
        copy = pickle.loads(blob)
        assert copy.epoch_detail == it.previous_epoch_detail == 2 / 6
        assert copy.previous_epoch_detail == 0
        assert copy.next() == expected  # the same order, from the same position
        rest = copy.next()
        assert sorted(first + expected + rest) == list(range(6))
        assert copy.is_new_epoch
        never_started = pickle.loads(pickle.dumps(
            MultiprocessIterator(list(range(6)), 2, n_processes=1, shuffle=False)))
        try:
            assert never_started.next() == [0, 1]
        finally:
            never_started.finalize()
    finally:
        it.finalize()
        if copy is not None:
            copy.finalize()


class _Augmented(DatasetMixin):
    """Each example draws from numpy's global RNG, as random augmentation does."""

    def __len__(self):
        return 10

    def get_example(self, i):
        return i + round(float(numpy.random.rand()), 4)


@pytest.mark.parametrize('shared_mem', [None, 1000])
def test_random_draws_in_the_same_order_as_chainer(shared_mem):
    # Reference numbers from real Chainer 7.8.1 (NumPy 1.26): numpy.random.seed(0),
    # MultiprocessIterator(<this dataset>, 4, n_processes=1, n_prefetch=1, shared_mem=...),
    # and after each next() a GIL-releasing numpy.linalg.inv, then one numpy.random.rand()
    # in the main process.  Chainer loads the first batch in the main process when
    # shared_mem is None and forks its workers after it; its prefetch thread draws the
    # next epoch's order one batch beyond the n_prefetch queued.
    if shared_mem is None:
        batches = [[2.4376, 8.8918, 4.9637, 9.3834], [1.7917, 6.5289, 7.568, 3.9256],
                   [0.071, 5.0871, 5.0202, 2.8326], [3.7782, 4.87, 1.9786, 0.7992],
                   [9.4615, 8.7805, 7.1183, 6.6399], [4.1434, 1.9447, 7.5218, 8.4147]]
        draws = [0.337396, 0.648172, 0.461479, 0.780529, 0.118274, 0.736918]
    else:
        batches = [[2.4376, 8.8918, 4.9637, 9.3834], [1.7917, 6.5289, 7.568, 3.9256],
                   [0.071, 5.0871, 3.0202, 5.8326], [1.7782, 2.87, 9.9786, 8.7992],
                   [0.4615, 6.7805, 7.1183, 4.6399], [2.1434, 4.9447, 3.5218, 6.4147]]
        draws = [0.812169, 0.479977, 0.957155, 0.140351, 0.870087, 0.639921]
    state = numpy.random.get_state()
    numpy.random.seed(0)
    it = MultiprocessIterator(_Augmented(), 4, n_processes=1, n_prefetch=1,
                              shared_mem=shared_mem)
    try:
        for expected_batch, expected_draw in zip(batches, draws):
            got = it.next()
            assert [round(v, 4) for v in got] == expected_batch
            assert round(float(numpy.random.rand()), 6) == expected_draw
    finally:
        it.finalize()
        numpy.random.set_state(state)
