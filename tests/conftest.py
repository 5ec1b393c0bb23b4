"""Shared fixtures for the minichainer test suite."""
import contextlib
import http.server
import importlib.util
import os
import subprocess
import sys
import threading
import time

import numpy
import pytest

import minichainer
from minichainer.dataset import download


def _load_cupy_double():
    # tests/ is not on sys.path (--import-mode=importlib): load the double by its path as
    # the top-level package ``cupy_double`` so that tests can ``import cupy_double``.
    if 'cupy_double' in sys.modules:
        return sys.modules['cupy_double']
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'cupy_double')
    spec = importlib.util.spec_from_file_location(
        'cupy_double', os.path.join(path, '__init__.py'), submodule_search_locations=[path])
    module = importlib.util.module_from_spec(spec)
    sys.modules['cupy_double'] = module
    spec.loader.exec_module(module)
    return module


cupy_double = _load_cupy_double()


@pytest.fixture
def cupy_device():
    """The ``@cupy:0`` device for one test: the CuPy test double (``tests/cupy_double``)
    installed as CuPy, or real CuPy on a GPU machine when ``MINICHAINER_TEST_REAL_CUPY=1``.
    Tests using it have ``cupy`` in their id (``pytest -k cupy``)."""
    from minichainer import backend
    from minichainer.backends import cuda
    if os.environ.get('MINICHAINER_TEST_REAL_CUPY') == '1':
        if not cuda.available:
            pytest.fail('MINICHAINER_TEST_REAL_CUPY=1 but CuPy is not usable: {}'.format(
                cuda.why_unavailable()))
        yield backend.get_device('@cupy:0')
        return
    with cupy_double.installed():
        yield backend.get_device('@cupy:0')


@contextlib.contextmanager
def _cupy_hidden():
    from minichainer.backends import cuda
    names = [n for n in sys.modules if n in ('cupy', 'cupyx') or n.startswith(('cupy.',
                                                                                'cupyx.'))]
    saved = {n: sys.modules.pop(n) for n in names}
    sys.modules['cupy'] = None
    sys.modules['cupyx'] = None
    try:
        cuda.resolve_cupy()
        yield
    finally:
        del sys.modules['cupy'], sys.modules['cupyx']
        sys.modules.update(saved)
        cuda.resolve_cupy()


@pytest.fixture
def no_cupy():
    """CuPy made unusable for one test (``import cupy`` fails), also on a GPU machine, so
    that tests of the CPU-only behaviour (the errors of GPU requests) hold everywhere."""
    with _cupy_hidden():
        yield


# Whether a `cupy` package can be imported here (a GPU machine); not imported by this test.
_CUPY_INSTALLED = importlib.util.find_spec('cupy') is not None


@pytest.fixture(autouse=True)
def _cpu_only_unless_gpu_asked(request, monkeypatch):
    """Where CuPy is installed, every test that neither takes ``cupy_device`` nor is marked
    ``gpu`` runs CPU-only (CuPy hidden in this process, ``CUDA_VISIBLE_DEVICES=''`` for its
    child processes), so that the suite's CPU tests mean the same on a GPU machine. A no-op
    where CuPy is not installed (CI)."""
    if not _CUPY_INSTALLED or 'cupy_device' in request.fixturenames or \
            'no_cupy' in request.fixturenames or \
            request.node.get_closest_marker('gpu') is not None:
        yield
        return
    monkeypatch.setenv('CUDA_VISIBLE_DEVICES', '')
    with _cupy_hidden():
        yield


@pytest.fixture(autouse=True)
def _isolate_global_state():
    """Give every test the default configuration and a seeded global RNG (restored after).

    Seeding makes the random directions of gradient checks reproducible from run to run.
    """
    state = numpy.random.get_state()
    numpy.random.seed(0)
    config_before = dict(minichainer.global_config.__dict__)
    yield
    numpy.random.set_state(state)
    minichainer.global_config.__dict__.clear()
    minichainer.global_config.__dict__.update(config_before)
    minichainer.config._local.__dict__.clear()

class _Server:
    """A local HTTP server on 127.0.0.1 serving in-memory files."""

    def __init__(self):
        self.files = {}      # path -> bytes
        self.truncated = {}  # path -> advertised length larger than the body
        self.requests = []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                server.requests.append(self.path)
                body = server.files.get(self.path)
                if body is None:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header('Content-Length',
                                 str(server.truncated.get(self.path, len(body))))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Handler)
        self.url = 'http://127.0.0.1:{}'.format(self.httpd.server_address[1])
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.02,),
                                       daemon=True)
        self.thread.start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def http_server():
    server = _Server()
    yield server
    server.close()


@pytest.fixture
def dataset_root(tmp_path, monkeypatch):
    root = tmp_path / 'dataset_root'
    monkeypatch.setattr(download, '_dataset_root', str(root))
    return root


class ChildProcesses:
    """Helpers for tests that kill a Python child process and check what it leaves."""

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

    @staticmethod
    def alive(pid):
        """Whether ``pid`` runs (a zombie waiting to be reaped counts as gone)."""
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            pass
        try:
            with open('/proc/{}/stat'.format(pid)) as f:
                return f.read().split()[2] != 'Z'
        except OSError:
            return False

    def wait_gone(self, pids, seconds=15):
        """Wait (at most ``seconds``, a liveness bound, not a timing check) until none
        of ``pids`` is alive; return those still alive."""
        deadline = time.monotonic() + seconds
        alive = list(pids)
        while alive and time.monotonic() < deadline:
            alive = [p for p in alive if self.alive(p)]
            time.sleep(0.05)
        return alive

    def kill_after_first_line(self, script, n_pids, settle=0.0):
        """Run ``python -c script`` in the repository root; once it prints a line of
        ``n_pids`` process ids, wait ``settle`` seconds, ``kill -9`` it and return
        those ids."""
        env = dict(os.environ,
                   PYTHONPATH=self.root + os.pathsep + os.environ.get('PYTHONPATH', ''))
        proc = subprocess.Popen([sys.executable, '-c', script], stdout=subprocess.PIPE,
                                cwd=self.root, env=env)
        try:
            pids = [int(p) for p in proc.stdout.readline().split()]
            assert len(pids) == n_pids
            time.sleep(settle)
            proc.kill()
            proc.wait(timeout=30)
        finally:
            self.reap(proc)
        return pids

    @staticmethod
    def reap(proc):
        """Kill the ``subprocess.Popen`` ``proc`` unless it ended, wait for it and
        close its stdout."""
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()


@pytest.fixture
def child_processes():
    """A :class:`ChildProcesses`."""
    return ChildProcesses()
