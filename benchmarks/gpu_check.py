"""The one prepared GPU run of issue 33 (`make gpu-check`): everything that needs a GPU, in
one call of at most ~8 minutes on one H100/H200, printing one short table last.

Sections, in the order they run, each in its own try/except (a failure is recorded and
the run goes on) and under one time budget (`--budget`, seconds; a section that would
start too late is recorded as skipped; every child process runs in its own process group,
killed with it past its timeout):

- ``env``: CuPy imports and sees a GPU (probed in a subprocess with a timeout, so a
  broken driver cannot hang the run); PyTorch and whether it sees the GPU.
- ``example``: Chainer's own ``examples/mnist/train_mnist.py`` (at ``--chainer-mnist``;
  ``make gpu-check`` extracts it from the Chainer mirror into ``build/chainer_examples/``)
  through the compat runner with ``--device @cupy:0`` on a tiny generated MNIST cache;
  without it, the repository's Chainer-style ``tests/e2e/programs/mnist_mlp.py``, and the
  table says Chainer's was NOT RUN.
- ``resume``: the snapshot that program wrote on the GPU resumed on the CPU
  (``--device -1``), a CPU snapshot resumed on the GPU, and a model's ``save_npz`` on the
  GPU loaded into a CPU model (arrays equal).
- ``tests``: the suite's ``gpu``-marked tests and its ``cupy`` tests with
  ``MINICHAINER_TEST_REAL_CUPY=1`` (the same tests CI runs on the CuPy double, here on
  real CuPy), at most ``--tests-cap`` seconds and leaving the later sections their time.
- ``speed``: training steps against PyTorch eager on the same GPU, each case in its own
  worker process: MLP 784-1000-1000-10 and the CIFAR-sized convnet of
  ``bench_convnet.py`` at batch 256 (target <= 1.5x), ResNet-50 batch 64 float32 and
  ``mixed16`` (target <= 2x; mixed16 faster than float32; where the step's time goes),
  per-op overhead of small ops, forward + backward (target <= 2x).
- ``cpu``: the CPU convnet step of ``bench_convnet.py`` (batch 64) at 1, 4 and 16 threads
  beside PyTorch's CPU step (information, no target).

Without CuPy, a GPU or PyTorch the run does not hang: the sections that need them are
recorded as FAILED with the reason, the table is printed and the exit status is 1.

``--dry-run`` runs the same code on the CPU with the CuPy test double of
``tests/cupy_double`` standing in for CuPy (tiny sizes, one timed step, PyTorch on the CPU
if installed, the ``tests`` section only printed): CI uses it to test this script.

Run: ``python benchmarks/gpu_check.py [--budget 450] [--sections env,example,...]
[--out DIR] [--dry-run]``; ``--json PATH`` writes the results.
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SECTIONS = ('env', 'example', 'resume', 'speed', 'cpu', 'tests')
# the order they run in, and the seconds each later section is guaranteed
ORDER = ('env', 'example', 'resume', 'tests', 'speed', 'cpu')
RESERVE = {'speed': 150, 'cpu': 45}
MINIMUM = {'env': 5, 'example': 30, 'resume': 30, 'tests': 30, 'speed': 30, 'cpu': 20}
SPEED_CASES = ('mlp', 'convnet', 'resnet50', 'resnet50_mixed16', 'per_op')
E2E_MNIST = os.path.join(ROOT, 'tests', 'e2e', 'programs', 'mnist_mlp.py')
CHAINER_MNIST = os.path.join(ROOT, 'build', 'chainer_examples', 'train_mnist.py')
RESULT_PREFIX = 'GPU_CHECK_RESULT '
TESTS = os.path.join(ROOT, 'tests')  # holds the CuPy test double (cupy_double), --dry-run
# ratio targets of issue 33 (minichainer time / PyTorch time)
TARGETS = {'mlp': 1.5, 'convnet': 1.5, 'resnet50': 2.0, 'resnet50_mixed16': 2.0,
           'per_op': 2.0}
CASE_TITLES = {
    'mlp': 'MLP 784-1000-1000-10, b256, step',
    'convnet': 'convnet (bench_convnet), b256, step',
    'resnet50': 'ResNet-50 b64 float32, step',
    'resnet50_mixed16': 'ResNet-50 b64 mixed16, step',
    'per_op': 'small op fwd+bwd, per op',
}


class Skipped(Exception):
    """A section that had nothing to do (said why)."""


# -- the environment a child process runs in ----------------------------------------------

def child_env(dry_run, extra=None):
    """Environment of a child process: minichainer from this checkout first on the path;
    with `dry_run`, the CuPy double installed as CuPy (see tests/cupy_double)."""
    env = dict(os.environ)
    paths = [ROOT]
    env['PYTHONPATH'] = os.pathsep.join(paths + [env.get('PYTHONPATH', '')]).rstrip(
        os.pathsep)
    env.setdefault('MPLBACKEND', 'Agg')
    env['PYTHONUNBUFFERED'] = '1'
    env.update(extra or {})
    return env


class ChildTimeout(RuntimeError):
    """A child process ran past its time; `output` holds what it printed until then."""

    def __init__(self, message, output):
        super().__init__(message)
        self.output = output


def run_child(cmd, timeout, dry_run, env_extra=None, cwd=None):
    """Run `cmd` in its own process group; return (returncode, output). Past `timeout`
    the whole group (pytest-xdist workers too) is killed and `ChildTimeout` raised."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, env=child_env(dry_run, env_extra),
                            cwd=cwd or ROOT, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=max(1, timeout))
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            pass
        out, _ = proc.communicate()
        raise ChildTimeout('{} timed out after {:.0f} s; its output ended with:\n{}'.format(
            os.path.basename(cmd[1]) if len(cmd) > 1 else cmd[0], timeout,
            (out or '')[-2000:]), out or '') from None
    return proc.returncode, out


def _last_lines(text, n=15):
    return '\n'.join(text.strip().splitlines()[-n:])


# -- the run ------------------------------------------------------------------------------

class Check:
    """Runs the sections under one time budget and collects what they found."""

    def __init__(self, args):
        self.args = args
        self.start = time.monotonic()
        self.rows = []      # (check, result, pytorch, ratio, target, verdict)
        self.sections = {}  # name -> {'status', 'detail', 'seconds'}
        self.env = {}
        self.example_dir = None
        self.program = None  # (script, extra arguments, label) of the MNIST program
        self.where = {}  # case -> where its time goes

    def remaining(self):
        return self.args.budget - (time.monotonic() - self.start)

    def run_section(self, name, func, minimum):
        if name not in self.args.sections:
            return
        left = self.remaining()
        if left < minimum:
            self._record(name, 'skipped', 'out of time budget ({:.0f} s left, needs {} s)'
                         .format(left, minimum), 0.0)
            return
        print('== {} ({:.0f} s of the budget left)'.format(name, left), flush=True)
        t0 = time.monotonic()
        try:
            detail = func()
            status = 'ok'
        except Skipped as e:
            status, detail = 'skipped', str(e)
        except Exception as e:  # recorded, and the run goes on
            traceback.print_exc()
            status = 'FAILED'
            detail = '{}: {}'.format(type(e).__name__, str(e).strip().splitlines()[0]
                                     if str(e).strip() else '')
        self._record(name, status, detail, time.monotonic() - t0)

    def _record(self, name, status, detail, seconds):
        self.sections[name] = {'status': status, 'detail': detail or '',
                               'seconds': round(seconds, 1)}
        print('-- {}: {} {}'.format(name, status, detail or ''), flush=True)

    # -- env --------------------------------------------------------------------------
    def section_env(self):
        code = ('import json, cupy\n'
                'n = cupy.cuda.runtime.getDeviceCount()\n'
                'name = ""\n'
                'try:\n'
                '    name = cupy.cuda.runtime.getDeviceProperties(0)["name"]\n'
                '    name = name.decode() if isinstance(name, bytes) else str(name)\n'
                'except Exception:\n'
                '    pass\n'
                'print(json.dumps({"cupy": cupy.__version__, "count": n, "name": name}))\n')
        if self.args.dry_run:
            code = ('import sys; sys.path[:0] = [{!r}]; sys.path.append({!r})\n'
                    'import cupy_double; _double = cupy_double.installed()\n'
                    '_double.__enter__()\n'
                    .format(ROOT, TESTS)) + code
        gpu_error = None
        try:
            rc, out = run_child([sys.executable, '-c', code], 60, self.args.dry_run)
            if rc != 0:
                raise RuntimeError(_last_lines(out, 3))
            info = json.loads(out.strip().splitlines()[-1])
            if info['count'] < 1:
                raise RuntimeError('CuPy sees no GPU (getDeviceCount() == 0)')
            self.env.update(info)
        except Exception as e:
            gpu_error = 'no usable CuPy/GPU: {}'.format(str(e).strip().splitlines()[-1]
                                                         if str(e).strip() else e)
            self.env['gpu_error'] = gpu_error
        code = ('import json, torch\n'
                'print(json.dumps({"torch": torch.__version__, '
                '"torch_cuda": torch.cuda.is_available()}))\n')
        try:
            rc, out = run_child([sys.executable, '-c', code], 60, False)
            if rc != 0:
                raise RuntimeError(_last_lines(out, 1))
            self.env.update(json.loads(out.strip().splitlines()[-1]))
        except Exception as e:
            self.env['torch_error'] = 'no PyTorch: {}'.format(
                str(e).strip().splitlines()[-1] if str(e).strip() else e)
        import numpy
        self.env['numpy'] = numpy.__version__
        summary = '{} GPU(s) {!r}, CuPy {}, PyTorch {} (CUDA: {}), NumPy {}'.format(
            self.env.get('count', 0), self.env.get('name', ''), self.env.get('cupy', '-'),
            self.env.get('torch', '-'), self.env.get('torch_cuda', '-'), numpy.__version__)
        if gpu_error:
            raise RuntimeError('{} ({})'.format(gpu_error, summary))
        return summary

    def _require_gpu(self):
        if self.env.get('gpu_error'):
            raise RuntimeError(self.env['gpu_error'])
        if 'env' not in self.sections and not self.env:
            self.section_env()

    # -- example and resume -----------------------------------------------------------
    def _mnist_root(self, base):
        import numpy
        directory = os.path.join(base, 'dataset', 'pfnet', 'chainer', 'mnist')
        os.makedirs(directory, exist_ok=True)
        rng = numpy.random.RandomState(0)
        for name, n in (('train.npz', 200), ('test.npz', 100)):
            y = rng.randint(0, 10, n).astype(numpy.uint8)
            x = rng.randint(0, 60, (n, 784)).astype(numpy.uint8)
            for i in range(n):
                x[i, int(y[i]) * 70:(int(y[i]) + 1) * 70] = 250  # a learnable pattern
            numpy.savez_compressed(os.path.join(directory, name), x=x, y=y)
        root = os.path.join(base, 'dataset')
        return {'CHAINER_DATASET_ROOT': root, 'MINICHAINER_DATASET_ROOT': root}

    def _run_program(self, script, args, timeout, env_extra):
        cmd = [sys.executable, '-m', 'minichainer.compat', script] + [str(a) for a in args]
        if self.args.dry_run:  # the same command in a process with the double installed
            cmd[1:2] = [os.path.abspath(__file__), '--with-double', '--', '-m']
        rc, out = run_child(cmd, timeout, self.args.dry_run, env_extra)
        if rc != 0:
            raise RuntimeError('{} {} exited with {}:\n{}'.format(
                os.path.basename(script), ' '.join(map(str, args)), rc, _last_lines(out)))
        return out

    def section_example(self):
        self._require_gpu()
        base = self.example_dir = tempfile.mkdtemp(prefix='gpu_check_')
        env = self._mnist_root(base)
        timeout = max(30, min(120, self.remaining() - self._reserve('example')))
        chainer_script = self.args.chainer_mnist
        if chainer_script and os.path.exists(chainer_script):
            self.program = (chainer_script, [], "Chainer's examples/mnist/train_mnist.py")
            missing = ''
        else:  # the repository's Chainer-style program, and the table says so
            self.program = (E2E_MNIST, ['--noplot'], 'tests/e2e/programs/mnist_mlp.py')
            missing = ("; Chainer's train_mnist.py NOT RUN: not found at {} (see "
                       'docs/gpu.md)'.format(chainer_script))
            self.rows.append(("Chainer's train_mnist.py on @cupy:0", 'not found', '', '',
                              'runs', 'NOT RUN'))
        script, extra, label = self.program
        out_dir = os.path.join(base, 'gpu')
        out = self._run_program(script, [
            '--device', '@cupy:0', '--epoch', 2, '--unit', 100, '--batchsize', 50,
            '--out', out_dir] + extra, timeout, env)
        _check_program_output(out, out_dir, 'snapshot_iter_8')
        return 'trained on @cupy:0: {}{}'.format(label, missing)

    def section_resume(self):
        self._require_gpu()
        base = self.example_dir
        gpu_snapshot = os.path.join(base or '', 'gpu', 'snapshot_iter_8')
        if base is None or not os.path.exists(gpu_snapshot):
            raise RuntimeError('no snapshot from the example section to resume')
        script, extra, label = self.program
        env = self._mnist_root(base)
        timeout = max(30, min(90, self.remaining() - self._reserve('resume')))
        # a snapshot written on @cupy:0 resumed on the CPU
        out_dir = os.path.join(base, 'resumed_on_cpu')
        out = self._run_program(script, [
            '--device', '-1', '--epoch', 3, '--unit', 100, '--batchsize', 50,
            '--resume', gpu_snapshot, '--out', out_dir] + extra, timeout, env)
        _check_program_output(out, out_dir, 'snapshot_iter_12', '@numpy')
        # and the reverse: a CPU snapshot resumed on @cupy:0
        cpu_snapshot = os.path.join(out_dir, 'snapshot_iter_12')
        out_dir2 = os.path.join(base, 'resumed_on_gpu')
        out = self._run_program(script, [
            '--device', '@cupy:0', '--epoch', 4, '--unit', 100, '--batchsize', 50,
            '--resume', cpu_snapshot, '--out', out_dir2] + extra, timeout, env)
        _check_program_output(out, out_dir2, 'snapshot_iter_16')
        # the arrays themselves: save on the GPU, load on the CPU, equal
        result = self._worker('npz_roundtrip', timeout)
        return ('{}: GPU snapshot resumed on the CPU and the reverse; npz of a model on '
                '@cupy:0 loaded on the CPU: {} arrays equal'.format(
                    os.path.basename(script), result['arrays']))

    # -- speed ------------------------------------------------------------------------
    def _worker(self, case, timeout, extra=()):
        cmd = [sys.executable, os.path.abspath(__file__), '--worker', case] + list(extra)
        if self.args.dry_run:
            cmd.append('--dry-run')
        rc, out = run_child(cmd, timeout, self.args.dry_run)
        for line in reversed(out.splitlines()):
            if line.startswith(RESULT_PREFIX):
                result = json.loads(line[len(RESULT_PREFIX):])
                if 'error' in result and len(result) == 1:
                    raise RuntimeError(result['error'])
                return result
        raise RuntimeError('worker {} exited with {} and no result:\n{}'.format(
            case, rc, _last_lines(out)))

    def section_speed(self):
        self._require_gpu()
        failures = []
        for case in self.args.speed_cases:
            left = self.remaining() - self._reserve('speed')
            if left < 20:
                failures.append('{}: out of time budget'.format(case))
                self.rows.append((CASE_TITLES[case], 'not run', '', '', '', 'SKIPPED'))
                continue
            try:
                result = self._worker(case, min(150, left - 10))
            except Exception as e:
                msg = str(e).strip().splitlines()
                failures.append('{}: {}'.format(case, msg[-1] if msg else type(e).__name__))
                self.rows.append((CASE_TITLES[case], 'failed', '', '', '', 'FAILED'))
                print('worker {} failed: {}'.format(case, e), flush=True)
                continue
            self._speed_row(case, result)
        fp32 = next((r for r in self.rows if r[0] == CASE_TITLES['resnet50']), None)
        mixed = next((r for r in self.rows if r[0] == CASE_TITLES['resnet50_mixed16']), None)
        if fp32 and mixed and fp32[1].endswith('ms') and mixed[1].endswith('ms'):
            faster = float(mixed[1][:-3]) < float(fp32[1][:-3])
            verdict = 'dry run' if self.args.dry_run else ('ok' if faster else 'MISSED')
            self.rows.append(('ResNet-50 mixed16 faster than float32', '{} vs {}'.format(
                mixed[1], fp32[1]), '', '', 'yes', verdict))
        if not self.args.dry_run and not self.env.get('torch_cuda'):
            failures.append('no comparison: {}'.format(
                self.env.get('torch_error') or 'PyTorch does not see the GPU'))
        if failures:
            raise RuntimeError('; '.join(failures))
        return '{} cases timed'.format(len(self.args.speed_cases))

    def _speed_row(self, case, result):
        mc = result.get('minichainer')
        pt = result.get('pytorch')
        unit = result.get('unit', 'ms')
        scale = 1e3 if unit == 'ms' else 1e6
        mc_text = '{:.3f} {}'.format(mc * scale, unit) if mc is not None else 'n/a'
        pt_text = '{:.3f} {}'.format(pt * scale, unit) if pt is not None else \
            _short_error(result.get('pytorch_error'))
        ratio = mc / pt if mc is not None and pt else None
        target = TARGETS.get(case)
        if ratio is None:
            verdict = 'no PyTorch'
        elif self.args.dry_run:
            verdict = 'dry run'
        else:
            verdict = 'ok' if ratio <= target else 'MISSED'
        self.rows.append((CASE_TITLES[case], mc_text, pt_text,
                          '{:.2f}x'.format(ratio) if ratio is not None else '',
                          '<= {}x'.format(target), verdict))
        if result.get('where'):
            self.where[case] = result['where']
            print('  {}: {}'.format(case, result['where']), flush=True)

    # -- CPU threads --------------------------------------------------------------------
    def section_cpu(self):
        threads = [1] if self.args.dry_run else [1, 4, 16]
        cells = []
        for n in threads:
            row = {}
            for framework in ('minichainer', 'pytorch'):
                left = self.remaining()
                if left < 10:
                    raise RuntimeError('out of time budget')
                env = {'OMP_NUM_THREADS': str(n), 'OPENBLAS_NUM_THREADS': str(n),
                       'MKL_NUM_THREADS': str(n)}
                cmd = [sys.executable, os.path.abspath(__file__), '--worker', 'cpu_convnet',
                       '--framework', framework, '--threads', str(n)]
                if self.args.dry_run:
                    cmd.append('--dry-run')
                rc, out = run_child(cmd, min(60, left - 5), False, env)
                line = next((ln for ln in reversed(out.splitlines())
                             if ln.startswith(RESULT_PREFIX)), None)
                result = json.loads(line[len(RESULT_PREFIX):]) if line else {
                    'error': _last_lines(out, 1)}
                row[framework] = result
            mc = row['minichainer'].get('seconds')
            pt = row['pytorch'].get('seconds')
            self.rows.append((
                'CPU convnet b64 step, {} thread{}'.format(n, 's' if n > 1 else ''),
                '{:.1f} ms'.format(mc * 1e3) if mc else 'failed',
                '{:.1f} ms'.format(pt * 1e3) if pt else _short_error(
                    row['pytorch'].get('error')),
                '{:.2f}x'.format(mc / pt) if mc and pt else '', 'info', ''))
            cells.append('{}t {}'.format(n, 'ok' if mc else 'failed'))
            if not mc:
                raise RuntimeError('minichainer CPU step failed: {}'.format(
                    row['minichainer'].get('error')))
        return ', '.join(cells)

    # -- tests ----------------------------------------------------------------------------
    def section_tests(self):
        self._require_gpu()
        commands = [
            ('gpu-marked', ['-m', 'gpu']),
            ('cupy', ['-k', 'cupy']),
        ]
        base = [sys.executable, '-m', 'pytest', '-q', 'tests']
        if _has_module('xdist'):
            base += ['-n', str(self.args.test_workers)]
        if _has_module('pytest_timeout'):
            base += ['--timeout', '120']
        if self.args.dry_run:
            raise Skipped('dry run: would run MINICHAINER_TEST_REAL_CUPY=1 '
                          + ' | '.join(' '.join(base[1:] + extra) for _, extra in commands))
        # the speed and CPU sections run after this one: leave them their time
        deadline = time.monotonic() + min(self.args.tests_cap,
                                          self.remaining() - self._reserve('tests'))
        summaries = []
        failed = False
        for label, extra in commands:
            row = 'tests ' + ' '.join(extra)
            left = deadline - time.monotonic()
            if left < 15:
                summaries.append('{}: not run (out of time budget)'.format(label))
                self.rows.append((row, 'not run: out of time', '', '', 'all pass',
                                  'NOT RUN'))
                failed = True
                continue
            try:
                rc, out = run_child(base + extra, left, False,
                                    {'MINICHAINER_TEST_REAL_CUPY': '1'})
                summary = _pytest_summary(out)
            except ChildTimeout as e:
                rc, out = None, e.output
                summary = 'TIMED OUT after {:.0f} s: {}'.format(left, _progress(out))
            if self.args.out:
                with open(os.path.join(self.args.out, 'tests_{}.log'.format(label)),
                          'w') as f:
                    f.write(out)
            # 5: no test selected (no gpu-marked test yet is not a failure)
            ok = rc in (0, 5)
            if not ok:
                failed = True
                print(_last_lines(out, 40), flush=True)
            summaries.append('{}: {}'.format(label, summary))
            self.rows.append((row, summary, '', '', 'all pass', 'ok' if ok else 'FAILED'))
        if failed:
            raise RuntimeError('; '.join(summaries))
        return '; '.join(summaries)

    def _reserve(self, name):
        """Seconds to keep for the sections that still run after `name`."""
        order = [s for s in ORDER if s in self.args.sections]
        later = order[order.index(name) + 1:] if name in order else []
        return sum(RESERVE.get(s, 0) for s in later)

    # -- report ---------------------------------------------------------------------------
    def report(self):
        if self.example_dir and not self.args.keep:
            shutil.rmtree(self.example_dir, ignore_errors=True)
        elapsed = time.monotonic() - self.start
        if self.args.json:
            with open(self.args.json, 'w') as f:
                json.dump({'env': self.env, 'sections': self.sections,
                           'rows': self.rows, 'where': self.where,
                           'seconds': round(elapsed, 1),
                           'dry_run': self.args.dry_run}, f, indent=1)
        lines = format_table(self.env, self.sections, self.rows, elapsed,
                             self.args.dry_run)
        print('\n'.join(lines), flush=True)
        return 1 if any(s['status'] == 'FAILED' for s in self.sections.values()) else 0


def format_table(env, sections, rows, elapsed, dry_run=False):
    """The closing table: one line per section, then one per timed case."""
    head = 'gpu-check{}: {} | CuPy {} | PyTorch {} | NumPy {} | {:.0f} s'.format(
        ' (DRY RUN on the CuPy double, not a GPU)' if dry_run else '',
        env.get('name') or env.get('gpu_error') or 'no GPU', env.get('cupy', '-'),
        env.get('torch', '-'), env.get('numpy', '-'), elapsed)
    table = [('check', 'minichainer', 'PyTorch', 'ratio', 'target', 'verdict')]
    for name, info in sections.items():
        detail = info['detail']
        if len(detail) > 60:
            detail = detail[:57] + '...'
        table.append(('section ' + name, detail, '', '', '', info['status']))
    table.extend(rows)
    widths = [max(len(str(r[i])) for r in table) for i in range(6)]
    out = ['', head]
    for i, r in enumerate(table):
        out.append('  '.join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip())
        if i == 0:
            out.append('  '.join('-' * w for w in widths))
    return out


def _check_program_output(out, out_dir, snapshot, device='@cupy:0'):
    if 'Device: {}'.format(device) not in out:
        raise RuntimeError('the program did not say it ran on {}:\n{}'.format(
            device, _last_lines(out)))
    log_path = os.path.join(out_dir, 'log')
    with open(log_path) as f:
        log = json.load(f)
    import math
    losses = [entry['main/loss'] for entry in log if 'main/loss' in entry]
    if not losses or not all(math.isfinite(v) for v in losses):
        raise RuntimeError('no finite main/loss in {}: {}'.format(log_path, log))
    if not os.path.exists(os.path.join(out_dir, snapshot)):
        raise RuntimeError('{} not written in {} (found: {})'.format(
            snapshot, out_dir, sorted(os.listdir(out_dir))))


def _short_error(text):
    """A table cell for a contender that could not run."""
    if not text:
        return 'n/a'
    if 'No module named' in text:
        return 'n/a (not installed)'
    return 'n/a ({})'.format(text.split(':')[0][:24])


def _progress(out):
    """What pytest's progress dots say so far (for a run cut short)."""
    counts = {}
    for line in out.splitlines():
        line = re.sub(r'\s*\[\s*\d+%\]$', '', line.strip())
        if line and set(line) <= set('.FEsxX'):
            for ch in line:
                counts[ch] = counts.get(ch, 0) + 1
    names = {'.': 'passed', 'F': 'failed', 'E': 'errors', 's': 'skipped',
             'x': 'xfailed', 'X': 'xpassed'}
    return ', '.join('{} {}'.format(n, names[c]) for c, n in sorted(
        counts.items(), key=lambda item: '.FEsxX'.index(item[0]))) or 'no test finished'


def _pytest_summary(out):
    for line in reversed(out.strip().splitlines()):
        if re.search(r'\d+ (passed|failed|error|skipped|deselected)', line) or \
                'no tests ran' in line:
            return line.strip('= ').strip()
    return _last_lines(out, 1)


def _has_module(name):
    import importlib.util
    return importlib.util.find_spec(name) is not None


# -- workers (each case in its own process) ---------------------------------------------

def _median(values):
    values = sorted(values)
    n = len(values)
    return values[n // 2] if n % 2 else 0.5 * (values[n // 2 - 1] + values[n // 2])


def _time(step, sync, warmup, reps):
    for _ in range(warmup):
        step()
    sync()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        step()
        sync()
        times.append(time.perf_counter() - t0)
    return _median(times)


def install_double():
    """Install the CuPy test double as `cupy` in this process (for --dry-run)."""
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    if TESTS not in sys.path:
        sys.path.append(TESTS)
    import cupy_double
    global _DOUBLE
    _DOUBLE = cupy_double.installed()  # kept: the installation lasts while it lives
    _DOUBLE.__enter__()
    return cupy_double


_DOUBLE = None


def _minichainer(dry_run):
    sys.path.insert(0, ROOT)
    if dry_run:
        install_double()
    import minichainer
    return minichainer


def _gpu(chainer):
    device = chainer.get_device('@cupy:0')
    device.use()
    xp = device.xp

    def sync():
        xp.cuda.Device().synchronize()
    return device, sync


def _torch(dry_run):
    """(torch, device string, sync) or raise ImportError/RuntimeError."""
    import torch
    if dry_run:
        return torch, 'cpu', lambda: None
    if not torch.cuda.is_available():
        raise RuntimeError('PyTorch does not see a GPU')
    torch.backends.cudnn.benchmark = True
    return torch, 'cuda', torch.cuda.synchronize


class _Sizes:
    def __init__(self, dry_run):
        self.batch = 4 if dry_run else 256
        self.hidden = 1000
        self.resnet_batch = 2 if dry_run else 64
        self.resnet_size = 32 if dry_run else 224
        self.warmup = 1 if dry_run else 3
        self.reps = 1 if dry_run else 10
        self.resnet_reps = 1 if dry_run else 5
        self.ops = 20 if dry_run else 200


def _mc_mlp(chainer, device, sizes):
    import numpy
    F, L = chainer.functions, chainer.links
    numpy.random.seed(0)
    model = L.Classifier(chainer.Sequential(
        L.Linear(784, sizes.hidden), F.relu, L.Linear(sizes.hidden, sizes.hidden), F.relu,
        L.Linear(sizes.hidden, 10)))
    model.to_device(device)
    optimizer = chainer.optimizers.MomentumSGD(lr=0.01)
    optimizer.setup(model)
    rng = numpy.random.RandomState(1)
    x = device.send(rng.uniform(-1, 1, (sizes.batch, 784)).astype(numpy.float32))
    t = device.send(rng.randint(0, 10, sizes.batch).astype(numpy.int32))
    return lambda: optimizer.update(model, x, t)


def _torch_mlp(torch, dev, sizes):
    nn = torch.nn
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(784, sizes.hidden), nn.ReLU(),
                          nn.Linear(sizes.hidden, sizes.hidden), nn.ReLU(),
                          nn.Linear(sizes.hidden, 10)).to(dev)
    return _torch_step(torch, model, dev, (sizes.batch, 784), sizes.batch)


def _torch_step(torch, model, dev, x_shape, batch, amp=False):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x = torch.rand(x_shape, device=dev) * 2 - 1
    t = torch.randint(0, 10, (batch,), device=dev)
    loss_fn = torch.nn.CrossEntropyLoss()
    scaler = torch.amp.GradScaler('cuda') if amp else None

    def step():
        optimizer.zero_grad(set_to_none=True)
        if amp:
            with torch.autocast('cuda', dtype=torch.float16):
                loss = loss_fn(model(x), t)
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
        else:
            loss = loss_fn(model(x), t)
            loss.backward()
            optimizer.step()
    return step


def _mc_convnet(chainer, device, sizes):
    import numpy
    sys.path.insert(0, HERE)
    import bench_convnet
    numpy.random.seed(0)
    model = bench_convnet.make_convnet(chainer)
    model.compute_accuracy = False
    model.to_device(device)
    optimizer = chainer.optimizers.MomentumSGD(lr=0.01)
    optimizer.setup(model)
    rng = numpy.random.RandomState(1)
    x = device.send(rng.uniform(-1, 1, (sizes.batch, 3, 32, 32)).astype(numpy.float32))
    t = device.send(rng.randint(0, 10, sizes.batch).astype(numpy.int32))
    return lambda: optimizer.update(model, x, t)


def _torch_convnet_model(torch):
    nn = torch.nn
    return nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1, bias=False), nn.BatchNorm2d(32), nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1, bias=False), nn.BatchNorm2d(64), nn.ReLU(),
        nn.MaxPool2d(2), nn.Flatten(), nn.Linear(4096, 10))


def _torch_convnet(torch, dev, sizes):
    torch.manual_seed(0)
    model = _torch_convnet_model(torch).to(dev)
    return _torch_step(torch, model, dev, (sizes.batch, 3, 32, 32), sizes.batch)


def _mc_resnet50(chainer, device, sizes, mixed16=False):
    import numpy
    F, L = chainer.functions, chainer.links
    numpy.random.seed(0)
    dtype = chainer.mixed16 if mixed16 else numpy.float32
    with chainer.using_config('dtype', dtype):
        model = L.ResNet50Layers(pretrained_model=None)
        model.to_device(device)
        optimizer = chainer.optimizers.MomentumSGD(lr=0.01)
        optimizer.setup(model)
        if mixed16:
            optimizer.use_fp32_update()
            optimizer.loss_scaling()
        in_dtype = numpy.float16 if mixed16 else numpy.float32
        rng = numpy.random.RandomState(1)
        x = device.send(rng.uniform(-1, 1, (
            sizes.resnet_batch, 3, sizes.resnet_size, sizes.resnet_size)).astype(in_dtype))
        t = device.send(rng.randint(0, 1000, sizes.resnet_batch).astype(numpy.int32))

    def loss_fn(x, t):
        return F.softmax_cross_entropy(model(x, layers=['fc6'])['fc6'], t)

    def step():
        with chainer.using_config('dtype', dtype):
            optimizer.update(loss_fn, x, t)

    def phases(sync, reps):
        """Where a step's time goes: forward, forward + backward, whole step (ms)."""
        def forward():
            with chainer.using_config('dtype', dtype):
                return loss_fn(x, t)

        def backward():
            model.cleargrads()
            loss = forward()
            loss.backward()
        return {'forward': _time(forward, sync, 1, reps) * 1e3,
                'forward+backward': _time(backward, sync, 1, reps) * 1e3,
                'step': _time(step, sync, 1, reps) * 1e3}

    step.phases = phases
    return step


def _torch_resnet50(torch, dev, sizes, mixed16=False):
    import torchvision
    torch.manual_seed(0)
    model = torchvision.models.resnet50(num_classes=1000).to(dev)
    return _torch_step(torch, model, dev, (sizes.resnet_batch, 3, sizes.resnet_size,
                                           sizes.resnet_size), sizes.resnet_batch,
                       amp=mixed16 and dev == 'cuda')


def _mc_per_op(chainer, device, sizes):
    import numpy
    x = chainer.Variable(device.send(numpy.ones((16,), numpy.float32)))
    n = sizes.ops

    def step():
        y = x
        for _ in range(n // 2):
            y = y * 1.0001
            y = y + 0.0001
        x.grad = None
        y.grad = device.xp.ones_like(y.array)
        y.backward()
    return step


def _torch_per_op(torch, dev, sizes):
    x = torch.ones(16, device=dev, requires_grad=True)
    n = sizes.ops

    def step():
        y = x
        for _ in range(n // 2):
            y = y * 1.0001
            y = y + 0.0001
        x.grad = None
        y.backward(torch.ones_like(y))
    return step


def worker(case, dry_run, framework=None, threads=None):
    """Run one case in this process and print its result line."""
    try:
        result = _worker(case, dry_run, framework, threads)
    except Exception as e:
        traceback.print_exc()
        result = {'error': '{}: {}'.format(type(e).__name__, str(e).strip()[:300])}
    print(RESULT_PREFIX + json.dumps(result), flush=True)


def _worker(case, dry_run, framework, threads):
    sizes = _Sizes(dry_run)
    if case == 'cpu_convnet':
        return _cpu_convnet(framework, threads, dry_run)
    chainer = _minichainer(dry_run)
    device, sync = _gpu(chainer)
    if case == 'npz_roundtrip':
        return _npz_roundtrip(chainer, device)
    builders = {
        'mlp': (_mc_mlp, _torch_mlp, sizes.reps),
        'convnet': (_mc_convnet, _torch_convnet, sizes.reps),
        'resnet50': (_mc_resnet50, _torch_resnet50, sizes.resnet_reps),
        'resnet50_mixed16': (lambda c, d, s: _mc_resnet50(c, d, s, True),
                             lambda t, d, s: _torch_resnet50(t, d, s, True),
                             sizes.resnet_reps),
        'per_op': (_mc_per_op, _torch_per_op, sizes.reps),
    }
    mc_build, torch_build, reps = builders[case]
    result = {'unit': 'us' if case == 'per_op' else 'ms'}
    mc_step = mc_build(chainer, device, sizes)
    mc = _time(mc_step, sync, sizes.warmup, reps)
    if hasattr(mc_step, 'phases'):
        result['where'] = ', '.join('{} {:.1f} ms'.format(k, v) for k, v in
                                    mc_step.phases(sync, reps).items())
    try:
        torch, dev, torch_sync = _torch(dry_run)
        pt = _time(torch_build(torch, dev, sizes), torch_sync, sizes.warmup, reps)
    except Exception as e:
        pt = None
        result['pytorch_error'] = '{}: {}'.format(type(e).__name__, str(e)[:60])
    if case == 'per_op':
        mc /= sizes.ops
        pt = pt / sizes.ops if pt is not None else None
    result['minichainer'] = mc
    result['pytorch'] = pt
    return result


def _npz_roundtrip(chainer, device):
    import io
    import numpy
    L = chainer.links
    numpy.random.seed(0)
    gpu_model = L.Classifier(chainer.Sequential(L.Linear(20, 30), L.Linear(30, 10)))
    gpu_model.to_device(device)
    optimizer = chainer.optimizers.Adam()
    optimizer.setup(gpu_model)
    x = device.send(numpy.random.RandomState(1).uniform(-1, 1, (8, 20)).astype(numpy.float32))
    t = device.send(numpy.arange(8, dtype=numpy.int32) % 10)
    optimizer.update(gpu_model, x, t)
    buf = io.BytesIO()
    chainer.serializers.save_npz(buf, gpu_model)
    cpu_model = L.Classifier(chainer.Sequential(L.Linear(20, 30), L.Linear(30, 10)))
    buf.seek(0)
    chainer.serializers.load_npz(buf, cpu_model)
    cpu = chainer.backend.CpuDevice()
    n = 0
    for (name, p), (_, q) in zip(sorted(gpu_model.namedparams()),
                                 sorted(cpu_model.namedparams())):
        if not isinstance(q.array, numpy.ndarray):
            raise AssertionError('{} did not load as a NumPy array'.format(name))
        if not numpy.array_equal(cpu.send(p.array), q.array):
            raise AssertionError('{} differs after the round trip'.format(name))
        n += 1
    return {'arrays': n}


def _cpu_convnet(framework, threads, dry_run):
    import numpy  # noqa: F401 (the thread variables are read when NumPy loads)
    batch = 4 if dry_run else 64
    reps = 1 if dry_run else 5
    sys.path.insert(0, HERE)
    import bench_convnet
    if framework == 'pytorch':
        import torch
        torch.manual_seed(0)
        step = bench_convnet.torch_convnet_step(batch=batch)
        torch.set_num_threads(threads)
    else:
        step = bench_convnet.convnet_step(_minichainer(False), batch=batch)
    return {'seconds': _time(step, lambda: None, 1 if dry_run else 2, reps)}


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--budget', type=float, default=450,
                   help='seconds for the whole run (default 450)')
    p.add_argument('--sections', default=','.join(SECTIONS),
                   help='comma-separated subset of ' + ','.join(SECTIONS))
    p.add_argument('--speed-cases', default=','.join(SPEED_CASES),
                   help='comma-separated subset of ' + ','.join(SPEED_CASES))
    p.add_argument('--chainer-mnist', default=CHAINER_MNIST,
                   help="path of Chainer's examples/mnist/train_mnist.py")
    p.add_argument('--tests-cap', type=float, default=240,
                   help='seconds at most for the tests section (default 240)')
    p.add_argument('--test-workers', type=int, default=4,
                   help='pytest-xdist workers for the tests section (default 4)')
    p.add_argument('--out', default=None, help='folder for the test logs')
    p.add_argument('--json', default=None, help='write the results to this JSON file')
    p.add_argument('--keep', action='store_true', help="keep the example's output folder")
    p.add_argument('--dry-run', action='store_true',
                   help='on the CPU with the CuPy test double (tiny sizes); for CI')
    p.add_argument('--worker', help=argparse.SUPPRESS)
    p.add_argument('--framework', help=argparse.SUPPRESS)
    p.add_argument('--threads', type=int, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    sections = [s.strip() for s in args.sections.split(',') if s.strip()]
    unknown = sorted(set(sections) - set(SECTIONS))
    if unknown:
        p.error('unknown section(s) {}; choose from {}'.format(
            ', '.join(unknown), ', '.join(SECTIONS)))
    cases = [s.strip() for s in args.speed_cases.split(',') if s.strip()]
    unknown = sorted(set(cases) - set(SPEED_CASES))
    if unknown:
        p.error('unknown speed case(s) {}; choose from {}'.format(
            ', '.join(unknown), ', '.join(SPEED_CASES)))
    if args.budget <= 0:
        p.error('--budget must be a positive number of seconds, got {}'.format(args.budget))
    args.sections = sections
    args.speed_cases = cases
    return args


def run_with_double(rest):
    """`python gpu_check.py --with-double -- -m module args...`: run a module as
    `python -m` would, with the CuPy test double installed first."""
    import runpy
    if rest and rest[0] == '--':
        rest = rest[1:]
    if len(rest) < 2 or rest[0] != '-m':
        raise SystemExit('--with-double needs -- -m MODULE [ARGS...]')
    install_double()
    sys.argv = rest[1:]
    runpy.run_module(rest[1], run_name='__main__', alter_sys=True)
    return 0


def main(argv=None):
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ['--with-double']:
        return run_with_double(argv[1:])
    args = parse_args(argv)
    if args.worker:
        worker(args.worker, args.dry_run, args.framework, args.threads)
        return 0
    if args.out:
        os.makedirs(args.out, exist_ok=True)
    check = Check(args)
    for name in ORDER:
        check.run_section(name, getattr(check, 'section_' + name), MINIMUM[name])
    return check.report()


if __name__ == '__main__':
    sys.exit(main())
