"""Legacy-NumPy mode of the compat runner: removed NumPy names restored for old code."""
import os
import subprocess
import sys
import textwrap
import warnings

import numpy
import pytest

from minichainer import compat
from minichainer._compat import numpy_legacy

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# An old program that uses every name the legacy mode restores, each with its old meaning.
OLD_PROGRAM = '''
import numpy as np

assert np.float is float and np.int is int and np.bool in (bool, np.bool_)
assert np.object is object and np.str is str and np.complex is complex
assert np.long in (int, np.int_) and np.unicode is str
assert np.zeros(2, dtype=np.float).dtype == np.float64
assert np.zeros(2, dtype=np.int).dtype == np.dtype(int)
assert np.asscalar(np.array([4.5])) == 4.5
assert np.float_ is np.float64 and np.complex_ is np.complex128 and np.cfloat is np.complex128
assert np.singlecomplex is np.complex64 and np.longfloat is np.longdouble
assert np.longcomplex is np.clongdouble and np.clongfloat is np.clongdouble
assert np.string_ is np.bytes_ and np.unicode_ is np.str_
assert np.int0 is np.intp and np.uint0 is np.uintp and np.bool8 is np.bool_
assert np.object0 is np.object_ and np.str0 is np.str_ and np.bytes0 is np.bytes_
assert np.void0 is np.void
assert np.isnan(np.NaN) and np.isnan(np.NAN)
assert np.Inf == np.Infinity == np.infty == np.PINF == float('inf') and np.NINF == -np.inf
assert np.PZERO == 0.0 and np.NZERO == 0.0 and np.copysign(1, np.NZERO) == -1
assert np.alltrue([True, True]) and not np.sometrue([False, False])
assert np.product([2, 3, 4]) == 24 and list(np.cumproduct([1, 2, 3])) == [1, 2, 6]
assert np.round_(2.567, 1) == 2.6
assert np.msort(np.array([[3, 1], [1, 2]])).tolist() == [[1, 1], [3, 2]]
assert np.asfarray([1, 2]).dtype == np.float64
assert np.asfarray([1, 2], dtype=np.float32).dtype == np.float32
assert np.mat([[1, 2]]).shape == (1, 2)
assert np.cast[np.float32]([1, 2]).dtype == np.float32
assert np.nbytes[np.float16] == 2
assert np.fastCopyAndTranspose(np.arange(6).reshape(2, 3)).shape == (3, 2)
assert np.issubclass_(np.float32, np.floating) and not np.issubclass_(3, int)
assert np.obj2sctype('f4') is np.float32 and np.sctype2char(np.float64) == 'd'
assert np.issctype(np.int8) and not np.issctype(3)
assert np.issubsctype(np.float32, np.floating)
assert np.maximum_sctype(np.int8) is np.int64
assert np.float32 in np.sctypes['float']
assert np.safe_eval('[1, 2]') == [1, 2]
assert callable(np.add_newdoc) and callable(np.add_docstring)
assert isinstance(np.tracemalloc_domain, int)
assert np.DataSource is not None and callable(np.byte_bounds)
assert callable(np.compare_chararrays) and callable(np.format_parser)
assert np.in1d([[1, 5], [7, 1]], [1]).tolist() == [True, False, False, True]
assert np.trapz([1, 1, 1]) == 2.0
assert np.row_stack([np.zeros(2), np.ones(2)]).shape == (2, 2)
assert issubclass(np.VisibleDeprecationWarning, UserWarning)
assert issubclass(np.ComplexWarning, RuntimeWarning) and issubclass(np.RankWarning, Warning)
assert issubclass(np.ModuleDeprecationWarning, DeprecationWarning)
assert issubclass(np.TooHardError, RuntimeError)
try:
    np.zeros(2).sum(axis=3)
except np.AxisError as e:
    assert isinstance(e, IndexError)
else:
    raise AssertionError('no AxisError')
assert np.math.factorial(4) == 24 and np.math.pi == np.pi
assert np.typeDict['float32'] is np.float32
# NumPy 1.24 also stopped taking generators in the stack functions
assert np.hstack(np.full(2, i) for i in range(3)).tolist() == [0, 0, 1, 1, 2, 2]
assert np.vstack(np.zeros((1, 2)) for _ in range(3)).shape == (3, 2)
assert np.stack((np.zeros(2) for _ in range(2)), axis=1).shape == (2, 2)
assert np.dstack(np.zeros((1, 1)) for _ in range(2)).shape == (1, 1, 2)
assert np.column_stack(np.zeros(2) for _ in range(3)).shape == (2, 3)
print('old program ok')
'''


def _runner(script, *options, env=None, python_options=()):
    full_env = dict(os.environ if env is None else env)
    full_env['PYTHONPATH'] = ROOT + os.pathsep + full_env.get('PYTHONPATH', '')
    full_env.pop(numpy_legacy.ENV_VAR, None)
    return subprocess.run([sys.executable] + list(python_options)
                          + ['-m', 'minichainer.compat'] + list(options) + [str(script)],
                          capture_output=True, text=True, env=full_env, timeout=120)


def test_old_program_covers_every_restored_name():
    for name in numpy_legacy.LEGACY_NAMES:
        assert 'np.{}'.format(name) in OLD_PROGRAM, name
    for name in numpy_legacy.STACK_FUNCTIONS:
        if name != 'row_stack':   # deprecated by NumPy 2 itself
            assert 'np.{}('.format(name) in OLD_PROGRAM, name


def test_old_program_runs_in_legacy_mode_and_fails_without(tmp_path):
    script = tmp_path / 'old_numpy.py'
    script.write_text(OLD_PROGRAM)
    proc = _runner(script)
    assert proc.returncode == 0, proc.stderr
    assert 'old program ok' in proc.stdout
    restored = [n for n in numpy_legacy.LEGACY_NAMES
                if 'np.{} was removed'.format(n) in proc.stderr]
    # this NumPy's missing names were each announced once, with a replacement
    assert 'np.float was removed in NumPy 1.24' in proc.stderr
    assert 'Use the builtin `float`' in proc.stderr
    assert proc.stderr.count('np.hstack of a generator was removed in NumPy 1.24') == 1
    for name in restored:
        assert proc.stderr.count('np.{} was removed'.format(name)) == 1, name
    if numpy.lib.NumpyVersion(numpy.__version__) >= '2.0.0':
        assert 'np.NaN was removed in NumPy 2.0' in proc.stderr
        assert 'np.product was removed in NumPy 2.0' in proc.stderr
    else:   # on 1.26 only what 1.26 lacks is served by the mode
        assert 'np.NaN was removed' not in proc.stderr

    proc = _runner(script, '--no-numpy-legacy')
    assert proc.returncode == 1
    assert 'AttributeError' in proc.stderr and 'float' in proc.stderr
    assert 'NumpyLegacyWarning' not in proc.stderr


def test_warning_is_shown_not_raised_under_error_filter(tmp_path):
    script = tmp_path / 'old.py'
    script.write_text('import numpy as np\nx = np.float(2)\ny = np.float\nprint("ran", x)\n')
    proc = _runner(script, python_options=['-W', 'error'])
    assert proc.returncode == 0, proc.stderr
    assert 'ran 2.0' in proc.stdout
    assert proc.stderr.count('NumpyLegacyWarning: np.float was removed') == 1
    proc = _runner(script, python_options=['-W', 'ignore::FutureWarning'])
    assert proc.returncode == 0, proc.stderr
    assert 'was removed' not in proc.stderr


def test_subprocesses_of_the_program_get_the_mode(tmp_path):
    script = tmp_path / 'parent.py'
    script.write_text(textwrap.dedent('''
        import subprocess, sys
        child = subprocess.run(
            [sys.executable, '-c', 'import numpy as np; print("child", np.float, np.int)'],
            capture_output=True, text=True)
        print(child.stdout, child.returncode)
        sys.stderr.write(child.stderr)
    '''))
    proc = _runner(script)
    assert proc.returncode == 0, proc.stderr
    assert "child <class 'float'> <class 'int'>" in proc.stdout
    assert 'np.int was removed' in proc.stderr
    proc = _runner(script, '--no-numpy-legacy')
    assert 'child' not in proc.stdout
    assert 'AttributeError' in proc.stderr


def test_install_opt_in_and_uninstall():
    assert not numpy_legacy.is_installed()
    assert 'float' not in vars(numpy)
    compat.install()
    try:
        assert not numpy_legacy.is_installed()
        compat.install(numpy_legacy=True)
        assert numpy_legacy.is_installed()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')
            assert numpy.float is float
            assert numpy.float is float
            assert numpy.asscalar(numpy.array([2])) == 2
        messages = [str(w.message) for w in caught
                    if issubclass(w.category, numpy_legacy.NumpyLegacyWarning)]
        assert len([m for m in messages if m.startswith('np.float ')]) == 1
        assert any('`a.item()`' in m for m in messages)
        with pytest.raises(AttributeError):
            numpy.no_such_name_anywhere
    finally:
        compat.uninstall()
    assert not numpy_legacy.is_installed()
    assert 'float' not in vars(numpy)
    with pytest.raises(AttributeError):
        numpy.asscalar
    with pytest.raises(TypeError):
        numpy.hstack(numpy.zeros(1) for _ in range(2))


def test_in1d_flattens_like_numpy1():
    in1d = numpy_legacy.LEGACY_NAMES['in1d'][1](numpy)
    out = in1d(numpy.array([[1, 2], [3, 4]]), [4, 1], invert=True)
    assert out.shape == (4,)
    assert out.tolist() == [False, True, True, False]


DEPRECATED_PROGRAM = '''
import numpy as np
from numpy import cumproduct
assert np.product([2, 3, 4]) == 24 and list(cumproduct([1, 2, 3])) == [1, 2, 6]
assert np.alltrue([1, 1]) and np.sometrue([0, 1]) and np.round_(2.567, 1) == 2.6
assert np.msort(np.array([2, 1])).tolist() == [1, 2]
assert np.bool8 is np.bool_ and np.int0 is np.intp and np.math.pi == np.pi
print('deprecated names ok')
'''


def test_deprecated_names_run_under_error_filter_on_every_numpy(tmp_path):
    # NumPy 1.26 still has these names but warns (DeprecationWarning) at each call or
    # access: under `-W error` (Chainer's suite: `filterwarnings = error`) the old code
    # would fail there while it runs on NumPy 2. The mode serves them on both.
    script = tmp_path / 'deprecated.py'
    script.write_text(DEPRECATED_PROGRAM)
    proc = _runner(script, python_options=['-W', 'error'])
    assert proc.returncode == 0, proc.stderr
    assert 'deprecated names ok' in proc.stdout
    assert 'DeprecationWarning' not in proc.stderr.replace("NumPy's DeprecationWarning", '')
    if numpy.lib.NumpyVersion(numpy.__version__) >= '2.0.0':
        assert 'np.product was removed in NumPy 2.0' in proc.stderr
    else:
        assert proc.stderr.count('np.product is deprecated since NumPy 1.25 and removed '
                                 'in NumPy 2.0') == 1


def test_deprecated_names_are_given_back_to_numpy_on_uninstall():
    own = {name: vars(numpy)[name] for name in numpy_legacy.DEPRECATED_IN
           if name in vars(numpy)}
    numpy_legacy.install(numpy)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('error', DeprecationWarning)
            warnings.simplefilter('ignore', numpy_legacy.NumpyLegacyWarning)
            assert numpy.product([2, 5]) == 10
        for name in own:   # taken out of the namespace, served by the hook
            assert name not in vars(numpy) or vars(numpy)[name] is not own[name]
    finally:
        numpy_legacy.uninstall()
    for name, value in own.items():
        assert vars(numpy)[name] is value
    if numpy.lib.NumpyVersion(numpy.__version__) >= '2.0.0':
        assert own == {}
        with pytest.raises(AttributeError):
            numpy.product
    else:
        assert 'product' in own
        with pytest.warns(DeprecationWarning):
            numpy.product([2, 5])
