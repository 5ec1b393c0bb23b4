"""Distributed training under ``mpiexec -n 2`` (skipped when MPI is not installed).

One job runs the collective scenarios of ``_scenarios.py`` and the tests below check
what each rank wrote; the failure and checkpoint tests launch their own jobs.
"""
import fcntl
import json
import os
import shutil
import subprocess
import sys

import numpy
import pytest

from . import _launch

SCENARIOS = ['equivalence', 'packed', 'shared_memory', 'objects', 'scatter', 'evaluator', 'mismatch',
             'functions', 'mnbn_gradcheck', 'iterators', 'persistent', 'aggregation',
             'chain_list', 'gpu_names']
SCRIPT = os.path.join(_launch.HERE, '_scenarios.py')


@pytest.fixture(scope='module')
def results(tmp_path_factory):
    """Run the scenario job once per test session, even with pytest-xdist (the workers
    share the result through a locked directory)."""
    _launch.require_mpi()
    run_id = os.environ.get('PYTEST_XDIST_TESTRUNUID')
    if run_id:
        out = tmp_path_factory.getbasetemp().parent / ('mpi-scenarios-' + run_id)
    else:
        out = tmp_path_factory.getbasetemp() / 'mpi-scenarios'
    out.mkdir(parents=True, exist_ok=True)
    with open(out / 'lock', 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            done = out / 'done.json'
            if not done.exists():
                rc, stdout, stderr, _ = _launch.run_mpi([SCRIPT, str(out)] + SCENARIOS,
                                                        timeout=90)
                with open(done, 'w') as f:
                    json.dump([rc, stdout, stderr], f)
            with open(done) as f:
                rc, stdout, stderr = json.load(f)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return rc, stdout, stderr, out


def _load(results, name):
    rc, stdout, stderr, out = results
    if 'OK {}'.format(name) not in stdout.split('\n'):
        pytest.fail('scenario {} failed (exit {}):\n{}\n{}'.format(
            name, rc, stdout[-2000:], stderr[-4000:]))
    values = []
    for rank in range(2):
        with open(os.path.join(out, '{}.{}.json'.format(name, rank))) as f:
            values.append(json.load(f))
    return values


def test_job_exits_cleanly(results):
    rc, stdout, stderr, _ = results
    assert rc == 0, stderr[-4000:]
    assert [line for line in stdout.split('\n') if line.startswith('OK ')] == [
        'OK ' + s for s in SCENARIOS]


def test_data_parallel_equals_single_process_full_batch(results):
    # Each scenario asserted, on every rank and after every update, that the
    # parameters equal those of one process trained on the whole batch of 100.
    r0, r1 = _load(results, 'equivalence')
    for key in ('sgd', 'sgd_allreduce', 'adam', 'momentum_bn'):
        assert r0[key]['params'] == r1[key]['params']  # bit-identical across ranks
        assert r0[key]['max_err'] < 1e-5


def test_gradients_packed_into_one_reused_buffer(results):
    r0, r1 = _load(results, 'packed')
    assert r0 == r1 == {'ok': True}


def test_gradients_summed_in_host_shared_memory(results):
    # Asserted in the job: no Allreduce, the mean of both ranks' gradients, gradients
    # that are views of the window, in-place changes that stay on their rank, window
    # reuse, eviction and finalize leaving valid copies, fallback to Allreduce.
    r0, r1 = _load(results, 'shared_memory')
    assert r0['first'] == r1['first']  # bit-identical on both ranks


def test_several_hosts_sum_through_shared_memory_and_allreduce(tmp_path):
    # 4 processes pretending to be 2 hosts of 2: each host sums in its window, process
    # i of each host Allreduces slice i with its peer; training equals one process on
    # the whole batch and the parameters are identical everywhere.
    rc, stdout, stderr, _ = _launch.run_mpi(
        [SCRIPT, str(tmp_path), 'fake_hosts'], n=4, timeout=120)
    assert rc == 0, stderr[-4000:]
    assert 'OK fake_hosts' in stdout
    values = []
    for rank in range(4):
        with open(tmp_path / 'fake_hosts.{}.json'.format(rank)) as f:
            values.append(json.load(f))
    for v in values:
        assert v['topology'] == 'hierarchical'
        assert v['equivalence']['max_err'] < 1e-5
        assert v['equivalence']['params'] == values[0]['equivalence']['params']


def test_small_dev_shm_falls_back_to_allreduce(tmp_path):
    # A 48 MiB /dev/shm (as in containers) in a private mount namespace: writing past a
    # full tmpfs would kill the job with SIGBUS, so the window is not made for a model
    # that does not fit.
    exe = _launch.require_mpi()
    unshare = shutil.which('unshare')
    if unshare is None or subprocess.run(
            [unshare, '-m', 'sh', '-c', 'mount -t tmpfs -o size=1m tmpfs /dev/shm'],
            capture_output=True).returncode != 0:
        pytest.skip('needs unshare -m and mount (root)')
    cmd = '{} -m sh -c "mount -t tmpfs -o size=48m tmpfs /dev/shm && exec {} -n 2 {} {} ' \
          '{} small_shm"'.format(unshare, exe, sys.executable, SCRIPT, tmp_path)
    out = subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=120,
                         env=_launch.mpi_env())
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-4000:]
    assert 'OK small_shm' in out.stdout


def test_object_and_array_collectives(results):
    r0, r1 = _load(results, 'objects')
    for r, d in enumerate((r0, r1)):
        assert d['bcast_obj'] == {'from': 0, 'data': [0, 1, 2, 3, 4]}
        assert d['bcast_obj_chunked'] is True
        assert d['bcast_obj_root1'] == 10
        assert d['allreduce_obj'] == 3
        assert d['allreduce_obj_array'] == [1.0, 2.0]
        assert d['split'] == [0, 1, 5]
        assert d['topology'] == [r, 2, 0, 1]
        x0 = numpy.arange(6.).reshape(2, 3)
        assert d['allreduce'] == (2 * x0 + 1).tolist()
        assert d['allgather'] == [x0[:, :1].tolist(), (x0 + 1)[:, :2].tolist()]
        assert d['bcast'] == (x0 + 1).tolist()
        assert d['scatter'] == [20 * r, 20 * r + 10]
        assert d['alltoall'] == [(x0[0] + 10 * r).tolist(), (x0[0] + 1 + 10 * r).tolist()]
        assert d['float16'] == [4.5, 7.5]
        assert 'dtype' in d['bad_type'] or 'numpy.ndarray' in d['bad_type']
    assert r0['gather_obj'] == [['r', 0], ['r', 1]] and r1['gather_obj'] is None
    assert r0['gather'] == [numpy.arange(6.).reshape(2, 3).tolist(),
                            (numpy.arange(6.).reshape(2, 3) + 1).tolist()]
    assert r1['gather'] is None
    assert r0['recv_obj'] == [1, 2, 3] and r1['recv_obj'] == {'hello': 1}
    x0 = numpy.arange(6.).reshape(2, 3)
    assert r1['recv'] == [x0.tolist(), (2 * x0).tolist(), x0[0].tolist()]


def test_scatter_dataset_coverage(results):
    r0, r1 = _load(results, 'scatter')
    # Divisible: every example exactly once.
    assert sorted(r0['plain10'] + r1['plain10']) == list(range(10))
    assert len(r0['plain10']) == len(r1['plain10']) == 5
    # Not divisible: equal lengths (ChainerMN's rule), every example at least once.
    assert len(r0['plain7']) == len(r1['plain7']) == 4
    assert set(r0['plain7']) | set(r1['plain7']) == set(range(7))
    # force_equal_length=False: exactly once.
    assert sorted(r0['disjoint7'] + r1['disjoint7']) == list(range(7))
    assert sorted(r0['shuffled'] + r1['shuffled']) == list(range(10))
    assert r0['shuffled'] + r1['shuffled'] == numpy.random.RandomState(3).permutation(
        10).tolist()
    assert r0['tuple_len'] == r1['tuple_len'] == 10
    assert r0['index'] == [0, 5] and r1['index'] == [4, 9]
    assert r0['raw_mpi4py'] == [0, 1, 2] and r1['raw_mpi4py'] == [3, 4, 5]
    for d in (r0, r1):
        assert d['one'] == [42] and d['empty'] == []


def test_multi_node_evaluator_equals_single_process(results):
    r0, r1 = _load(results, 'evaluator')
    assert r0['multi'] == r1['multi']
    assert set(r0['multi']) == {'main/loss', 'main/accuracy'}
    for k, v in r0['single'].items():
        assert r0['multi'][k] == pytest.approx(v, rel=1e-6)


def test_mismatched_models_fail_at_first_broadcast(results):
    r0, r1 = _load(results, 'mismatch')
    assert r0 == r1  # the same error on every rank
    assert 'rank 1 does not match the model on rank 0' in r0['shape']
    assert '/W has shape (4, 3) float32 on rank 0 but (5, 3) float32 on rank 1' in \
        r0['shape']
    assert 'exists on rank 0 but not (or uninitialized) on rank 1' in r0['uninit']


def test_communication_functions_forward_and_backward(results):
    r0, r1 = _load(results, 'functions')
    for r, d in enumerate((r0, r1)):
        assert d['allgather'] == [[0., 1., 2.], [10., 11., 12.]]
        # x of rank r appears as ys[r] on both ranks, weighted (r + 1) on each.
        assert d['allgather_grad'] == [2. * (r + 1)] * 3
        assert d['alltoall'] == [[float(r)] * 2, [10. + r] * 2]
        # xs[j] of rank r is ys[r] on rank j, weighted (r + 1) there.
        assert d['alltoall_grad'] == [[r + 1.] * 2] * 2
        assert d['bcast'] == [1., 2.]
        assert d['scatter'] == [7. * (r + 1), 8. * (r + 1)]
    assert r0['bcast_grad'] == [3., 3.]
    assert r0['gather'] == [[1.], [2.]]
    assert r0['gather_grad'] == [3.] and r1['gather_grad'] == [5.]
    assert r0['scatter_grad'] == [[2., 2.], [3., 3.]]
    assert r1['p2p_recv'] == [6.] and r0['p2p_grad'] == [36.]
    assert r0['pseudo'] == [[20., 20.], [3.]]


def test_multi_node_batch_normalization_gradient(results):
    assert _load(results, 'mnbn_gradcheck') == [{'ok': True}] * 2


def test_iterators(results):
    r0, r1 = _load(results, 'iterators')
    assert r0 == r1
    assert sorted(sum(r0['sync'], [])) == list(range(12))
    assert r0['multi'] == [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [10, 11]]


def test_allreduce_persistent(results):
    assert _load(results, 'persistent') == [{'avg_mean': [0.5] * 3}] * 2


def test_observation_aggregator_and_generic_evaluator(results):
    r0, r1 = _load(results, 'aggregation')
    # Every 2 iterations: mean over both ranks and both iterations of rank + iteration.
    assert r0['seen'] == r1['seen'] == [None, 2.0, None, 4.0]
    # Batches of 4 of arange(10) on rank 0 and arange(20) on rank 1, sums at the root.
    expected = [6., 22., 17., 6., 22., 38., 54., 70.]
    assert r0['generic'] == sorted(expected) and r1['generic'] is None
    # MultiNodeEarlyStoppingTrigger: both ranks stop at the same, early iteration.
    assert r0['stopped_at'] == r1['stopped_at'] < 10


def test_multi_node_chain_list_model_parallel(results):
    # Gradients of a 3-part MLP split 0 -> 1 -> 0 equal the single-process ones
    # (asserted in the job); a second output component is refused.
    for d in _load(results, 'chain_list'):
        assert d['ok'] is True
        assert 'more than one component' in d['error']


def test_gpu_only_options_raise(results):
    r0, _ = _load(results, 'gpu_names')
    for name in ('pure_nccl', 'hierarchical', 'two_dimensional', 'single_node'):
        assert 'needs GPUs' in r0[name]
    assert 'unrecognized communicator' in r0['nope']
    assert 'double_buffering' in r0['double_buffering']


def test_rank_failure_aborts_the_whole_job(tmp_path):
    rc, stdout, stderr, seconds = _launch.run_mpi([SCRIPT, str(tmp_path), 'crash'],
                                                  timeout=60)
    assert rc != 0
    assert 'injected failure on rank 1' in stderr
    assert 'Uncaught exception on rank 1' in stderr
    assert seconds < 30


def test_checkpoint_and_resume_across_ranks(tmp_path):
    rc, _, stderr, _ = _launch.run_mpi([SCRIPT, str(tmp_path), 'checkpoint_first'])
    assert rc != 0 and 'injected failure on rank 0' in stderr
    files = sorted(os.listdir(tmp_path / 'cp'))
    assert [f for f in files if f.startswith('run.')] == [
        'run.0.2', 'run.0.4', 'run.1.2', 'run.1.4']
    rc, stdout, stderr, _ = _launch.run_mpi([SCRIPT, str(tmp_path), 'checkpoint_resume'])
    assert rc == 0, stderr[-4000:]
    with open(tmp_path / 'checkpoint.0.json') as f:
        r0 = json.load(f)
    with open(tmp_path / 'checkpoint.1.json') as f:
        r1 = json.load(f)
    # Both ranks resumed from iteration 4, ended equal to an uninterrupted run (asserted
    # in the job) and to each other; the finished run removed its checkpoints.
    assert r0['loaded'] == r1['loaded'] == 4 and r0['start'] == 4
    assert r0['params'] == r1['params']
    assert r0['files_after'] == []


def test_chainermn_program_through_compat_runner(tmp_path):
    program = os.path.join(_launch.HERE, '_chainermn_program.py')
    rc, stdout, stderr, _ = _launch.run_mpi(
        ['-m', 'minichainer.compat', program, str(tmp_path)], timeout=90)
    assert rc == 0, stderr[-4000:]
    accuracy = float(stdout.split('final accuracy')[1].split()[0])
    assert accuracy > 0.7
    with open(tmp_path / 'log') as f:
        assert [e['epoch'] for e in json.load(f)] == [1, 2, 3, 4, 5]
