"""Legacy-NumPy mode: `float()`/`int()`/`complex()` of one-element arrays in users' code."""
import ast
import os
import re
import subprocess
import sys
import textwrap
import warnings

import numpy
import pytest

import minichainer
from minichainer import compat
from minichainer._compat import legacy_conversions
from minichainer._compat import numpy_legacy

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NUMPY_RAISES = numpy.lib.NumpyVersion(numpy.__version__) >= '2.4.0'


def _runner(cwd, *argv, extra_path=(), write_bytecode=False, env=None):
    env = dict(os.environ, **(env or {}))
    env['PYTHONPATH'] = os.pathsep.join([ROOT] + [str(p) for p in extra_path]
                                        + [env.get('PYTHONPATH', '')])
    env.pop(numpy_legacy.ENV_VAR, None)
    env.pop(legacy_conversions.USER_DIRS_ENV_VAR, None)
    if write_bytecode:
        env.pop('PYTHONDONTWRITEBYTECODE', None)
    else:
        env['PYTHONDONTWRITEBYTECODE'] = '1'
    return subprocess.run([sys.executable, '-m', 'minichainer.compat'] + [str(a) for a in argv],
                          capture_output=True, text=True, env=env, cwd=str(cwd), timeout=120)


def _write(path, source):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source))
    return path


def _write_library(folder):
    """Two modules off the script's folder: one imports chainer, one does not."""
    _write(folder / 'chainer_user.py', """
        import chainer

        def value(a):
            return float(a)
    """)
    _write(folder / 'plain_numpy.py', """
        def value(a):
            return float(a)
    """)


def _program(tmp_path):
    """A script, a module beside it, one that shadows `float`, and an outside library."""
    _write(tmp_path / 'app' / 'sibling.py', """
        def convert(a):
            return float(a), int(a), complex(a)
    """)
    _write(tmp_path / 'app' / 'shadowing.py', """
        def float(x):
            return ('own float', x.shape)

        def call(a):
            return float(a)
    """)
    _write_library(tmp_path / 'lib')
    return _write(tmp_path / 'app' / 'prog.py', """
        import subprocess
        import sys
        import warnings
        import numpy as np
        import minichainer.functions
        import chainer_user, plain_numpy, shadowing, sibling

        # users' code: the script, its folder, a module importing chainer
        print('script', float(np.array([2.5])), int(np.array([[3]], np.int32)),
              complex(np.array([1.5], np.float32)), float(np.array([[4]])), int(np.array([7.9])))
        print('sibling', sibling.convert(np.array([[1.5]])))
        print('chainer_user', chainer_user.value(np.array([0.25])))
        print('shadowing', shadowing.call(np.array([1.0])))
        print('untouched', int('ff', 16), float('1e3'), complex(1, 2), int(np.float32(3.5)))
        try:
            float(np.array([1.0, 2.0]))
        except TypeError as e:
            print('size-2 TypeError', e)
        with warnings.catch_warnings():
            warnings.simplefilter('error', DeprecationWarning)
            try:
                plain_numpy.value(np.array([5.0]))
                print('plain_numpy converted')
            except (TypeError, DeprecationWarning) as e:
                print('plain_numpy', type(e).__name__)
        # neither minichainer nor numpy is compiled by the mode
        print('helpers', [m for m in ('numpy', 'minichainer', 'minichainer.functions',
                                      'chainer_user', 'sibling', 'shadowing', 'plain_numpy')
                          if '__minichainer_float__' in vars(sys.modules[m])])
        child = subprocess.run([sys.executable, '-c',
                                'import numpy as np, sibling; '
                                'print(sibling.convert(np.array([9.0])))'],
                               capture_output=True, text=True)
        print('child', child.stdout.strip(), child.returncode, child.stderr.count('Warning'))
    """)


def test_runner_converts_one_element_arrays_in_users_code(tmp_path):
    script = _program(tmp_path)
    proc = _runner(tmp_path / 'app', script, extra_path=[tmp_path / 'lib'])
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert 'script 2.5 3 (1.5+0j) 4.0 7\n' in out
    assert 'sibling (1.5, 1, (1.5+0j))\n' in out
    assert 'chainer_user 0.25\n' in out
    assert "shadowing ('own float', (1,))\n" in out
    assert 'untouched 255 1000.0 (1+2j) 3\n' in out
    assert 'size-2 TypeError' in out          # everything else is the builtin's
    assert 'plain_numpy ' + ('TypeError' if NUMPY_RAISES else 'DeprecationWarning') in out
    assert "helpers ['chainer_user', 'sibling']\n" in out
    assert 'child (9.0, 9, (9+0j)) 0 3\n' in out   # subprocesses: same mode, own warnings
    for kind in ('float', 'int', 'complex'):
        message = ('NumpyLegacyWarning: {}() of an array with ndim > 0'.format(kind))
        assert proc.stderr.count(message) == 1, proc.stderr
    assert 'prog.py:10: NumpyLegacyWarning: float()' in proc.stderr
    assert 'Use `a.item()` (or `float(a[0])`) instead.' in proc.stderr


def test_no_numpy_legacy_keeps_numpys_behaviour(tmp_path):
    script = _write(tmp_path / 'prog.py', """
        import warnings
        import numpy as np
        warnings.simplefilter('error', DeprecationWarning)
        try:
            print('value', float(np.array([2.5])))
        except (TypeError, DeprecationWarning) as e:
            print('raised', type(e).__name__)
    """)
    proc = _runner(tmp_path, '--no-numpy-legacy', script)
    assert proc.returncode == 0, proc.stderr
    assert ('raised ' + ('TypeError' if NUMPY_RAISES else 'DeprecationWarning')) in proc.stdout
    proc = _runner(tmp_path, script)
    assert 'value 2.5' in proc.stdout, proc.stderr


def test_transformed_code_never_goes_to_the_normal_pyc(tmp_path):
    _write_library(tmp_path / 'lib')
    script = _write(tmp_path / 'app' / 'prog.py', """
        import numpy as np
        import chainer_user, plain_numpy
        print('value', chainer_user.value(np.array([[6.5]])))
    """)
    for _ in range(2):   # the second run reads the legacy cache
        proc = _runner(tmp_path / 'app', script, extra_path=[tmp_path / 'lib'],
                       write_bytecode=True)
        assert proc.returncode == 0, proc.stderr
        assert 'value 6.5' in proc.stdout
    cached = sorted(os.listdir(tmp_path / 'lib' / '__pycache__'))
    tag = sys.implementation.cache_tag
    suffix = '.minichainer-legacy-3{}.pyc'.format('p' if legacy_conversions.PROMOTION else '')
    assert cached == ['chainer_user.{}{}'.format(tag, suffix),
                      'plain_numpy.{}.pyc'.format(tag)]
    assert not (tmp_path / 'app' / '__pycache__').exists()   # the script is never cached
    # without the mode, the module compiles (and caches) as plain Python
    proc = _runner(tmp_path / 'app', '--no-numpy-legacy', script,
                   extra_path=[tmp_path / 'lib'], write_bytecode=True)
    assert ('TypeError' if NUMPY_RAISES else 'value 6.5') in proc.stdout + proc.stderr
    assert 'chainer_user.{}.pyc'.format(tag) in os.listdir(tmp_path / 'lib' / '__pycache__')


def test_pytest_test_modules_are_rewritten_with_their_asserts(tmp_path):
    _write(tmp_path / 'test_old.py', """
        import chainer
        import numpy as np

        def test_scalar_of_batch_of_one():
            assert float(np.array([1.5])) == 1.5

        def test_assert_rewriting_still_explains():
            x = 2
            assert int(np.array([x])) == 3
    """)
    proc = _runner(tmp_path, '-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'test_old.py')
    assert '1 failed, 1 passed' in proc.stdout, proc.stdout + proc.stderr
    assert 'assert 2 == 3' in proc.stdout
    proc = _runner(tmp_path, '--no-numpy-legacy', '-m', 'pytest', '-q', '-p',
                   'no:cacheprovider', '-W', 'error::DeprecationWarning', 'test_old.py')
    assert '2 failed' in proc.stdout, proc.stdout + proc.stderr


def _transformed(source, promotion=False):
    tree = ast.parse(textwrap.dedent(source))
    used = legacy_conversions.transform(tree, promotion=promotion)
    return used, ast.unparse(tree)


def test_transform_rewrites_only_one_argument_calls_of_unshadowed_builtins():
    used, code = _transformed('''
        """doc"""
        from __future__ import annotations
        a = float(x) + int(y, 16) + complex(1, 2) + int(*z) + float() + int(x=1)
        class C:
            def m(self):
                return complex(v)
    ''')
    assert used == {'float', 'complex'}
    lines = code.splitlines()
    assert lines[0] == '"""doc"""' and lines[1] == 'from __future__ import annotations'
    assert lines[2] == ('from minichainer._compat.legacy_conversions import '
                        'legacy_complex as __minichainer_complex__, '
                        'legacy_float as __minichainer_float__')
    assert 'a = __minichainer_float__(x) + int(y, 16) + complex(1, 2) + int(*z) + ' \
           'float() + int(x=1)' in code
    assert 'return __minichainer_complex__(v)' in code


@pytest.mark.parametrize('binding', [
    'float = lambda v: v', 'from numpy import float64 as float', 'def f(float): pass',
    'for float in []: pass', 'from somewhere import *', 'class float: pass',
    'def g():\n    global float\n    float = 1',
])
def test_transform_leaves_a_name_the_module_binds(binding):
    used, code = _transformed(binding + '\nb = float(x)\nc = int(x)\n')
    assert 'b = float(x)' in code
    assert ('c = int(x)' in code) == ('*' in binding)


def test_transform_keeps_line_numbers_for_tracebacks():
    source = 'import numpy\n\n\ndef f(a):\n    return float(a)\n'
    code = legacy_conversions.compile_source(source.encode(), 'mod.py')
    namespace = {}
    exec(code, namespace)
    with pytest.raises(TypeError) as info:
        namespace['f'](numpy.array([1.0, 2.0]))
    frames = [(t.tb_frame.f_code.co_filename, t.tb_lineno) for t in _traceback(info.tb)]
    assert ('mod.py', 5) in frames


def _traceback(tb):
    while tb is not None:
        yield tb
        tb = tb.tb_next


def test_helpers_match_the_builtins_except_for_one_element_arrays():
    cases = [3, 2.5, True, '7', numpy.float32(1.25), numpy.int64(4), numpy.array(2.5),
             numpy.array(3)]
    for value in cases:
        assert legacy_conversions.legacy_float(value) == float(value)
        assert legacy_conversions.legacy_int(value) == int(value)
    assert legacy_conversions.legacy_complex(numpy.array(1j)) == 1j
    for bad in ('x', numpy.array([1.0, 2.0]), numpy.zeros((0,)), None, [1.0]):
        for helper, builtin in ((legacy_conversions.legacy_float, float),
                                (legacy_conversions.legacy_int, int)):
            with pytest.raises(Exception) as expected:
                builtin(bad)
            with pytest.raises(type(expected.value), match=_escaped(expected.value)):
                helper(bad)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        assert legacy_conversions.legacy_int(numpy.array([[2.9]])) == 2
        assert legacy_conversions.legacy_float(numpy.array(['1.5'])) == 1.5
        assert type(legacy_conversions.legacy_float(numpy.array([1], numpy.int8))) is float
        assert legacy_conversions.legacy_complex(numpy.array([True])) == 1 + 0j
        with pytest.raises(ValueError):
            legacy_conversions.legacy_int(numpy.array([numpy.nan]))


def _escaped(error):
    return re.escape(str(error))


def test_install_from_python_and_uninstall_removes_the_finder():
    assert legacy_conversions.find_installed() is None
    compat.install(numpy_legacy=True)
    try:
        finder = legacy_conversions.find_installed()
        assert finder is not None
        assert sys.meta_path.index(finder) > sys.meta_path.index(
            compat.importer.find_installed())
    finally:
        compat.uninstall()
    assert legacy_conversions.find_installed() is None
    assert minichainer.__name__ == 'minichainer'


def test_policy_for_users_code(tmp_path, monkeypatch):
    site = tmp_path / 'lib' / 'site-packages'
    _write(site / 'fooml-1.0.dist-info' / 'METADATA', """
        Metadata-Version: 2.1
        Name: fooml
        Requires-Dist: numpy
        Requires-Dist: Chainer (>=7.0)

        Requires-Dist: not a header line
    """)
    _write(site / 'fooml-1.0.dist-info' / 'RECORD', """
        fooml/__init__.py,,
        fooml/models.py,,
        fooml_helpers.py,,
        fooml-1.0.dist-info/METADATA,,
    """)
    _write(site / 'barml-1.0.dist-info' / 'METADATA', """
        Name: barml
        Requires-Dist: chainer ; extra == "chainer"
        Requires-Dist: chainercv
    """)
    _write(site / 'barml-1.0.dist-info' / 'top_level.txt', 'barml\n')
    monkeypatch.syspath_prepend(str(site))
    policy = legacy_conversions.UserCodePolicy(user_dirs=[tmp_path / 'app'])
    imports_chainer = b'import numpy\nfrom chainerrl.agents import dqn\n'
    plain = b'import numpy\n# import chainer\n'

    def decide(name, path, source=plain):
        return policy.is_user_code(name, str(path), source)

    # rule 2: installed, and the distribution requires chainer (not through an extra)
    assert decide('fooml.models', site / 'fooml' / 'models.py')
    assert decide('fooml_helpers', site / 'fooml_helpers.py')
    assert not decide('barml', site / 'barml' / '__init__.py', imports_chainer)
    # rule 1: the script's folder, at any depth
    assert decide('util', tmp_path / 'app' / 'util.py')
    assert decide('models.net', tmp_path / 'app' / 'models' / 'net.py')
    assert not decide('venvmod', tmp_path / 'app' / 'venv' / 'site-packages' / 'venvmod.py')
    # rule 3: not installed, and imports Chainer or a Chainer library
    assert decide('rlcode', tmp_path / 'src' / 'rlcode.py', imports_chainer)
    assert not decide('other', tmp_path / 'src' / 'other.py')
    assert decide('pkg', tmp_path / 'src' / 'pkg' / '__init__.py', b'import chainer\n')
    assert decide('pkg.sub', tmp_path / 'src' / 'pkg' / 'sub.py')
    # never: minichainer, numpy, the standard library
    assert not decide('minichainer.functions', tmp_path / 'app' / 'minichainer' / 'x.py')
    assert not decide('numpy.linalg', numpy.linalg.__file__, imports_chainer)
    assert not decide('os', os.__file__, imports_chainer)


# ---------------------------------------------------------------------------------------
# The operator rewrite for NumPy 1's promotion (minichainer._compat.legacy_promotion).

def test_transform_rewrites_arithmetic_operators_and_plain_name_augmented_assignments():
    used, code = _transformed('''
        def f(a: p + q, b=x - y) -> r * s:
            c = a + b * 2 / d // e % g ** h
            c += a
            obj.total += a
            items[0] -= a
            label: str = 'n=%d' % c + 'x'
            return c, -a, a @ b, a | b, a < b, 2 ** 10, f'{a + 1}'
    ''', promotion=True)
    assert used == {'add', 'sub', 'mul', 'truediv', 'floordiv', 'mod', 'pow', 'iadd'}
    assert 'def f(a: p + q, b=__minichainer_sub__(x, y)) -> r * s:' in code
    assert ('c = __minichainer_add__(a, __minichainer_mod__(__minichainer_floordiv__('
            '__minichainer_truediv__(__minichainer_mul__(b, 2), d), e), '
            '__minichainer_pow__(g, h)))') in code
    assert 'c = __minichainer_iadd__(c, a)' in code
    assert 'obj.total += a' in code and 'items[0] -= a' in code
    assert "label: str = 'n=%d' % c + 'x'" in code
    assert "return (c, -a, a @ b, a | b, a < b, 2 ** 10, f'{__minichainer_add__(a, 1)}')" \
        in code
    assert ('from minichainer._compat.legacy_promotion import legacy_add as '
            '__minichainer_add__, ') in code
    used, code = _transformed('c = a + b\nc += a\n', promotion=False)
    assert not used and 'c = a + b' in code and 'c += a' in code


def test_rewritten_operators_evaluate_each_operand_once_left_to_right():
    source = textwrap.dedent('''
        order = []
        def v(name, value):
            order.append(name)
            return value
        x = v('a', 1) + v('b', 2) * v('c', 3)
        y = 5
        y -= v('d', 1)
    ''')
    tree = ast.parse(source)
    legacy_conversions.transform(tree, promotion=True)
    namespace = {}
    exec(compile(tree, 'mod.py', 'exec'), namespace)
    assert namespace['order'] == ['a', 'b', 'c', 'd']
    assert namespace['x'] == 7 and namespace['y'] == 4


def test_runner_gives_numpy1_promotion_to_users_code(tmp_path):
    script = _write(tmp_path / 'prog.py', """
        import numpy as np
        adv = 0.0
        for v in np.array([1.5, 2.5], np.float32):
            adv = v + 0.99 * adv
        x = np.ones(2, np.float32) * np.sqrt(np.float64(2))
        print('types', type(adv).__name__, x.dtype)
    """)
    proc = _runner(tmp_path, script)
    assert proc.returncode == 0, proc.stderr
    assert 'types float64 float32' in proc.stdout   # NumPy 1's, on any NumPy
    nep50 = not numpy.__version__.startswith('1.')
    expected = 'float32 float64' if nep50 else 'float64 float32'
    proc = _runner(tmp_path, '--no-numpy-legacy', script)
    assert 'types ' + expected in proc.stdout, proc.stderr
    proc = _runner(tmp_path, script, env={legacy_conversions.PROMOTION_ENV_VAR: '0'})
    assert 'types ' + expected in proc.stdout, proc.stderr


def test_transform_rewrites_one_argument_integer_type_and_dtype_calls():
    used, code = _transformed('''
        a = self.dtype(self.pad)
        b = np.uint8(-1) + numpy.int32(v)
        c = np.float32(-1), self.dtype(v, 1), x.dtype(*v), np.uint8(v=1), f(np.int8)(2)
    ''', promotion=True)
    assert used == {'scalar', 'add'}
    assert 'a = __minichainer_scalar__(self.dtype, self.pad)' in code
    assert ('b = __minichainer_add__(__minichainer_scalar__(np.uint8, -1), '
            '__minichainer_scalar__(numpy.int32, v))') in code
    assert 'c = (np.float32(-1), self.dtype(v, 1), x.dtype(*v), np.uint8(v=1), ' \
        'f(np.int8)(2))' in code
    used, code = _transformed('a = self.dtype(-1)\n', promotion=False)
    assert not used and 'a = self.dtype(-1)' in code


def test_legacy_scalar_wraps_only_what_numpy_2_refuses():
    from minichainer._compat import legacy_promotion
    from minichainer._compat.numpy_legacy import NumpyLegacyWarning
    scalar = legacy_promotion.legacy_scalar
    assert scalar(numpy.uint8, 255) == 255 and type(scalar(numpy.uint8, 255)) is numpy.uint8
    assert scalar(numpy.float32, -1) == -1.0
    assert scalar(lambda v: v * 2, 4) == 8   # anything else is just called
    with pytest.raises(TypeError):
        scalar(numpy.dtype('f'), 1)          # not callable: the same error as before
    if numpy.__version__.startswith('1.'):
        return   # NumPy 1 itself wraps (with its DeprecationWarning)
    legacy_promotion._announced_wrap.clear()
    with pytest.warns(NumpyLegacyWarning, match=r'np.uint8\(-1\) raises OverflowError'):
        wrapped = scalar(numpy.uint8, -1)
    assert wrapped == 255 and type(wrapped) is numpy.uint8
    assert scalar(numpy.int8, 200) == -56 and scalar(numpy.uint16, -2) == 65534
    with pytest.raises(OverflowError):
        scalar(numpy.uint8, 2 ** 70)         # NumPy 1 refused this one too


def test_runner_wraps_out_of_range_integer_scalars_as_numpy_1(tmp_path):
    # Chainer's test_pad_sequence.py: the expected padding of an unsigned array is
    # `self.dtype(self.pad)` with pad = -1.
    script = _write(tmp_path / 'prog.py', """
        import numpy as np

        class Case:
            dtype = np.uint8
            pad = -1

            def padding(self):
                return self.dtype(self.pad)

        print('pad', Case().padding(), np.uint16(-1))
    """)
    proc = _runner(tmp_path, script)
    assert proc.returncode == 0, proc.stderr
    assert 'pad 255 65535' in proc.stdout
