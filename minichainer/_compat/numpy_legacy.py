"""Legacy-NumPy mode: names NumPy 1.23, 1.24, 2.0 and 2.4 removed, given back to old code.

Chainer-era programs use `np.float`, `np.asscalar`, `np.product` ... which today's NumPy
no longer has (ChainerCV cannot even be imported without them). `install` restores each
name the running NumPy lacks, bound to what it meant before its removal, through NumPy's
module `__getattr__` (PEP 562): the first access of a restored name shows one
`NumpyLegacyWarning` naming its replacement, then the name is an ordinary attribute of
`numpy` (no further cost, no further warning). On NumPy 1.26 the names it still has but
deprecates with a DeprecationWarning (`DEPRECATED_IN`) are served the same way, so that old
code runs the same there as on NumPy 2.

The warning is *shown*, never raised: a test suite whose configuration turns warnings into
errors (`filterwarnings = error`, as Chainer's own) keeps running its old code. A filter
that ignores the warning (`-W ignore::FutureWarning`, or its category) silences it.

What cannot be restored (C-level behaviour, promotion rules, `copy=False`) is listed in
docs/porting.md.
"""
import ast
import functools
import importlib.util
import math
import os
import sys
import threading
import warnings

# Set in the environment of the programs the compat runner starts, so that their Python
# subprocesses (pytest-xdist workers, ...) run in the same mode.
ENV_VAR = 'MINICHAINER_NUMPY_LEGACY'


class NumpyLegacyWarning(FutureWarning):
    """A name removed from NumPy was used and served by minichainer's legacy-NumPy mode."""


# ---------------------------------------------------------------------------------------
# What each removed name meant. Every entry: name -> (removed in, value factory, replacement).
# A factory takes the numpy module; names whose target the running NumPy lacks are skipped.

def _attr(path):
    def factory(np):
        obj = np
        for part in path.split('.'):
            obj = getattr(obj, part)
        return obj
    return factory


def _const(value):
    return lambda np: value


def _asscalar(np):
    def asscalar(a):
        """Legacy `np.asscalar(a)`: `a.item()`."""
        return a.item()
    return asscalar


def _in1d(np):
    def in1d(ar1, ar2, assume_unique=False, invert=False, **kwargs):
        """Legacy `np.in1d`: `np.isin(ar1, ar2, ...).ravel()`."""
        return np.isin(np.asarray(ar1).ravel(), ar2, assume_unique=assume_unique,
                       invert=invert, **kwargs)
    return in1d


def _msort(np):
    def msort(a):
        """Legacy `np.msort(a)`: `np.sort(a, axis=0)`."""
        return np.sort(a, axis=0)
    return msort


def _asfarray(np):
    def asfarray(a, dtype=None):
        """Legacy `np.asfarray`: an inexact array (float64 unless `dtype` is inexact)."""
        dtype = np.float64 if dtype is None else dtype
        if not np.issubdtype(dtype, np.inexact):
            dtype = np.float64
        return np.asarray(a, dtype=dtype)
    return asfarray


def _fast_copy_and_transpose(np):
    def fastCopyAndTranspose(a):
        """Legacy `np.fastCopyAndTranspose(a)`: `a.T.copy()`."""
        return np.asarray(a).T.copy()
    return fastCopyAndTranspose


def _issubclass_(np):
    def issubclass_(arg1, arg2):
        """Legacy `np.issubclass_`: `issubclass` that answers False for non-classes."""
        try:
            return issubclass(arg1, arg2)
        except TypeError:
            return False
    return issubclass_


def _obj2sctype_impl(np, rep, default=None):
    if isinstance(rep, type) and issubclass(rep, np.generic):
        return rep
    if isinstance(rep, np.ndarray):
        return rep.dtype.type
    try:
        return np.dtype(rep).type
    except Exception:
        return default


def _obj2sctype(np):
    def obj2sctype(rep, default=None):
        """Legacy `np.obj2sctype`: `np.dtype(rep).type` (`default` when not a dtype)."""
        return _obj2sctype_impl(np, rep, default)
    return obj2sctype


def _sctype2char(np):
    def sctype2char(sctype):
        """Legacy `np.sctype2char`: `np.dtype(sctype).char`."""
        sctype = _obj2sctype_impl(np, sctype)
        if sctype is None:
            raise ValueError('unrecognized type')
        return np.dtype(sctype).char
    return sctype2char


def _issctype(np):
    def issctype(rep):
        """Legacy `np.issctype`: whether `rep` is a NumPy scalar type."""
        return isinstance(rep, type) and issubclass(rep, np.generic) and rep is not np.generic
    return issctype


def _issubsctype(np):
    def issubsctype(arg1, arg2):
        """Legacy `np.issubsctype`: `issubclass` of the two scalar types."""
        return issubclass(_obj2sctype_impl(np, arg1), _obj2sctype_impl(np, arg2))
    return issubsctype


def _sctypes(np):
    def present(*names):
        return [getattr(np, n) for n in names if hasattr(np, n)]
    return {
        'int': present('int8', 'int16', 'int32', 'int64'),
        'uint': present('uint8', 'uint16', 'uint32', 'uint64'),
        'float': present('float16', 'float32', 'float64', 'longdouble'),
        'complex': present('complex64', 'complex128', 'clongdouble'),
        'others': [bool, object, bytes, str, np.void],
    }


def _maximum_sctype(np):
    def maximum_sctype(t):
        """Legacy `np.maximum_sctype`: the largest scalar type of `t`'s kind."""
        sctype = _obj2sctype_impl(np, t)
        if sctype is None:
            return t
        for kind_types in _sctypes(np).values():
            if sctype in kind_types:
                return kind_types[-1]
        return sctype
    return maximum_sctype


class _Cast(object):
    """Legacy `np.cast[dtype](x)`: `np.asarray(x).astype(dtype)`."""

    def __init__(self, np):
        self._np = np

    def __getitem__(self, dtype):
        np = self._np
        dtype = np.dtype(dtype)
        return lambda x: np.asarray(x).astype(dtype)


class _Nbytes(object):
    """Legacy `np.nbytes[dtype]`: `np.dtype(dtype).itemsize`."""

    def __init__(self, np):
        self._np = np

    def __getitem__(self, dtype):
        return self._np.dtype(dtype).itemsize


def _safe_eval(np):
    def safe_eval(source):
        """Legacy `np.safe_eval`: `ast.literal_eval`."""
        return ast.literal_eval(source)
    return safe_eval


_BUILTIN = 'the builtin `{0}` (or the NumPy type `np.{1}`)'

LEGACY_NAMES = {
    # NumPy 1.24 removed the aliases of builtins deprecated in 1.20.
    'float': ('1.24', _const(float), _BUILTIN.format('float', 'float64')),
    'int': ('1.24', _const(int), _BUILTIN.format('int', 'int64')),
    'bool': ('1.24', _const(bool), _BUILTIN.format('bool', 'bool_')),
    'object': ('1.24', _const(object), _BUILTIN.format('object', 'object_')),
    'str': ('1.24', _const(str), _BUILTIN.format('str', 'str_')),
    'complex': ('1.24', _const(complex), _BUILTIN.format('complex', 'complex128')),
    'long': ('1.24', _const(int), _BUILTIN.format('int', 'int64')),
    'unicode': ('1.24', _const(str), _BUILTIN.format('str', 'str_')),
    # NumPy 1.23
    'asscalar': ('1.23', _asscalar, '`a.item()`'),
    # NumPy 2.0 (NEP 52): scalar type aliases
    'float_': ('2.0', _attr('float64'), '`np.float64`'),
    'complex_': ('2.0', _attr('complex128'), '`np.complex128`'),
    'cfloat': ('2.0', _attr('complex128'), '`np.complex128`'),
    'singlecomplex': ('2.0', _attr('complex64'), '`np.complex64`'),
    'longfloat': ('2.0', _attr('longdouble'), '`np.longdouble`'),
    'longcomplex': ('2.0', _attr('clongdouble'), '`np.clongdouble`'),
    'clongfloat': ('2.0', _attr('clongdouble'), '`np.clongdouble`'),
    'string_': ('2.0', _attr('bytes_'), '`np.bytes_`'),
    'unicode_': ('2.0', _attr('str_'), '`np.str_`'),
    'int0': ('2.0', _attr('intp'), '`np.intp`'),
    'uint0': ('2.0', _attr('uintp'), '`np.uintp`'),
    'bool8': ('2.0', _attr('bool_'), '`np.bool_`'),
    'object0': ('2.0', _attr('object_'), '`np.object_`'),
    'str0': ('2.0', _attr('str_'), '`np.str_`'),
    'bytes0': ('2.0', _attr('bytes_'), '`np.bytes_`'),
    'void0': ('2.0', _attr('void'), '`np.void`'),
    # NumPy 2.0: constants
    'NaN': ('2.0', _const(float('nan')), '`np.nan`'),
    'NAN': ('2.0', _const(float('nan')), '`np.nan`'),
    'Inf': ('2.0', _const(float('inf')), '`np.inf`'),
    'Infinity': ('2.0', _const(float('inf')), '`np.inf`'),
    'infty': ('2.0', _const(float('inf')), '`np.inf`'),
    'PINF': ('2.0', _const(float('inf')), '`np.inf`'),
    'NINF': ('2.0', _const(float('-inf')), '`-np.inf`'),
    'PZERO': ('2.0', _const(0.0), '`0.0`'),
    'NZERO': ('2.0', _const(-0.0), '`-0.0`'),
    # NumPy 2.0: functions
    'alltrue': ('2.0', _attr('all'), '`np.all`'),
    'sometrue': ('2.0', _attr('any'), '`np.any`'),
    'product': ('2.0', _attr('prod'), '`np.prod`'),
    'cumproduct': ('2.0', _attr('cumprod'), '`np.cumprod`'),
    'round_': ('2.0', _attr('round'), '`np.round`'),
    'msort': ('2.0', _msort, '`np.sort(a, axis=0)`'),
    'asfarray': ('2.0', _asfarray, '`np.asarray` with a float dtype'),
    'mat': ('2.0', _attr('asmatrix'), '`np.asmatrix`'),
    'cast': ('2.0', _Cast, '`np.asarray(x).astype(dtype)`'),
    'nbytes': ('2.0', _Nbytes, '`np.dtype(dtype).itemsize`'),
    'fastCopyAndTranspose': ('2.0', _fast_copy_and_transpose, '`a.T.copy()`'),
    'issubclass_': ('2.0', _issubclass_, 'the builtin `issubclass`'),
    'obj2sctype': ('2.0', _obj2sctype, '`np.dtype(obj).type`'),
    'sctype2char': ('2.0', _sctype2char, '`np.dtype(obj).char`'),
    'issctype': ('2.0', _issctype, '`issubclass(rep, np.generic)`'),
    'issubsctype': ('2.0', _issubsctype, '`np.issubdtype`'),
    'maximum_sctype': ('2.0', _maximum_sctype, 'an explicit dtype'),
    'sctypes': ('2.0', _sctypes, 'explicit dtypes'),
    'safe_eval': ('2.0', _safe_eval, '`ast.literal_eval`'),
    'add_newdoc': ('2.0', _attr('lib.add_newdoc'), '`np.lib.add_newdoc`'),
    'add_docstring': ('2.0', _attr('lib.add_docstring'), '`np.lib.add_docstring`'),
    'tracemalloc_domain': ('2.0', _attr('lib.tracemalloc_domain'),
                           '`np.lib.tracemalloc_domain`'),
    'DataSource': ('2.0', _attr('lib.npyio.DataSource'), '`np.lib.npyio.DataSource`'),
    'byte_bounds': ('2.0', _attr('lib.array_utils.byte_bounds'),
                    '`np.lib.array_utils.byte_bounds`'),
    'compare_chararrays': ('2.0', _attr('char.compare_chararrays'),
                           '`np.char.compare_chararrays`'),
    'format_parser': ('2.0', _attr('rec.format_parser'), '`np.rec.format_parser`'),
    # NumPy 2.0: the warning and exception classes moved to `np.exceptions`
    'VisibleDeprecationWarning': ('2.0', _attr('exceptions.VisibleDeprecationWarning'),
                                  '`np.exceptions.VisibleDeprecationWarning`'),
    'ComplexWarning': ('2.0', _attr('exceptions.ComplexWarning'),
                       '`np.exceptions.ComplexWarning`'),
    'RankWarning': ('2.0', _attr('exceptions.RankWarning'), '`np.exceptions.RankWarning`'),
    'ModuleDeprecationWarning': ('2.0', _attr('exceptions.ModuleDeprecationWarning'),
                                 '`np.exceptions.ModuleDeprecationWarning`'),
    'AxisError': ('2.0', _attr('exceptions.AxisError'), '`np.exceptions.AxisError`'),
    'TooHardError': ('2.0', _attr('exceptions.TooHardError'), '`np.exceptions.TooHardError`'),
    # NumPy 2.0: the alias of the standard library module
    'math': ('2.0', _const(math), 'the standard library `math` module'),
    # NumPy 1.21
    'typeDict': ('1.21', _attr('sctypeDict'), '`np.sctypeDict`'),
    # NumPy 2.4 removed what 2.0 deprecated
    'in1d': ('2.4', _in1d, '`np.isin`'),
    'trapz': ('2.4', _attr('trapezoid'), '`np.trapezoid`'),
    # deprecated in NumPy 2.0, to be removed
    'row_stack': ('2.x', _attr('vstack'), '`np.vstack`'),
}

# Functions whose NumPy 1 form took any iterable of arrays; NumPy 1.24 requires a sequence
# (``np.hstack(a for a in arrays)`` raises TypeError). The mode wraps each so that a
# generator or other non-sequence iterable is made a tuple first (warning once).
STACK_FUNCTIONS = ('stack', 'hstack', 'vstack', 'dstack', 'column_stack', 'row_stack')


def _wrap_stack_function(np, name, original):

    @functools.wraps(original)
    def wrapper(arrays, *args, **kwargs):
        if not isinstance(arrays, (list, tuple, np.ndarray)) and \
                hasattr(arrays, '__iter__') and not hasattr(arrays, '__array__'):
            arrays = tuple(arrays)
            if name not in _announced_stack:
                _announced_stack.add(name)
                _announce_message(
                    'np.{0} of a generator was removed in NumPy 1.24; minichainer\'s '
                    'legacy-NumPy mode makes it a tuple. Pass a list or tuple '
                    'instead.'.format(name), sys._getframe(1))
        return original(arrays, *args, **kwargs)
    wrapper._minichainer_numpy_legacy_original = original
    return wrapper


_announced_stack = set()

# Names NumPy 1.24 and 1.25 deprecated, with a DeprecationWarning at each access (the
# aliases) or call (the functions), before NumPy 2.0 removed them: name -> deprecated in.
# Where the running NumPy still has such a name and warns, the mode serves it as on NumPy
# 2 (its legacy meaning, one shown NumpyLegacyWarning), so that an old program runs the
# same on NumPy 1.26 as on 2 (under ``filterwarnings = error`` NumPy's own warning would
# be raised: Chainer's test helpers call `np.product`).
DEPRECATED_IN = {
    'int0': '1.24', 'uint0': '1.24', 'bool8': '1.24', 'object0': '1.24', 'str0': '1.24',
    'bytes0': '1.24', 'void0': '1.24', 'msort': '1.24',
    'round_': '1.25', 'product': '1.25', 'cumproduct': '1.25', 'sometrue': '1.25',
    'alltrue': '1.25', 'math': '1.25',
}

# Removed names the mode deliberately leaves out (no faithful meaning today); documented in
# docs/porting.md.
NOT_RESTORED = ('set_numeric_ops', 'geterrobj', 'seterrobj', 'set_string_function',
                'add_newdoc_ufunc', 'find_common_type', 'lookfor', 'who', 'source',
                'deprecate', 'deprecate_with_doc', 'get_array_wrap', 'recfromcsv',
                'recfromtxt', 'disp', 'loads')


# ---------------------------------------------------------------------------------------

_lock = threading.Lock()
_state = {}   # 'numpy' -> module, 'original' -> its __getattr__ (or None), 'restored' -> dict,
#             'taken_out' -> the deprecated functions taken out of numpy's namespace


def _deprecated_here(np, name):
    """Whether the given numpy still has `name` but deprecates it (`DEPRECATED_IN`)."""
    since = DEPRECATED_IN.get(name)
    return since is not None and np.lib.NumpyVersion(np.__version__) >= since + '.0'


def _missing_names(np):
    """The legacy names the given numpy lacks or deprecates, mapped to (removed_in, value,
    replacement, deprecated): `deprecated` is the version that deprecated a name this
    numpy still has, None for a removed name."""
    missing = {}
    for name, (removed_in, factory, replacement) in LEGACY_NAMES.items():
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            try:
                getattr(np, name)
                present = True
            except AttributeError:
                present = False
            if present and not _deprecated_here(np, name):
                continue          # served by NumPy itself, without a warning
            try:
                value = factory(np)
            except AttributeError:
                continue          # its replacement does not exist in this NumPy either
        missing[name] = (removed_in, value, replacement,
                         DEPRECATED_IN[name] if present else None)
    return missing


def _filter_action(category, message, module, lineno):
    """The action the current warnings filters give to this warning ('default' if none)."""
    for action, msg, cat, mod, line in warnings.filters:
        if (msg is None or msg.match(message)) and issubclass(category, cat) and \
                (mod is None or mod.match(module)) and (line == 0 or line == lineno):
            return action
    return getattr(warnings, 'defaultaction', 'default')


def _announce(name, removed_in, replacement, deprecated, frame):
    if deprecated is None:
        message = ('np.{0} was removed in NumPy {1}; minichainer\'s legacy-NumPy mode '
                   'restores it. Use {2} instead.'.format(name, removed_in, replacement))
    else:
        message = ('np.{0} is deprecated since NumPy {1} and removed in NumPy {2}; '
                   'minichainer\'s legacy-NumPy mode serves it without NumPy\'s '
                   'DeprecationWarning. Use {3} instead.'.format(
                       name, deprecated, removed_in, replacement))
    _announce_message(message, frame)


def _announce_message(message, frame, category=NumpyLegacyWarning):
    if frame is not None:
        filename, lineno = frame.f_code.co_filename, frame.f_lineno
        module = frame.f_globals.get('__name__', '<string>')
    else:
        filename, lineno, module = '<unknown>', 0, '<unknown>'
    if _filter_action(category, message, module, lineno) == 'ignore':
        return
    # Shown, never raised: ``warnings.showwarning`` bypasses the 'error' filters (and
    # records into ``catch_warnings(record=True)``, so pytest lists it in its summary).
    warnings.showwarning(category(message), category, filename, lineno)


def _make_getattr(np, original, restored):
    def __getattr__(name):
        entry = restored.get(name)
        if entry is None:
            if original is None:
                raise AttributeError(
                    "module 'numpy' has no attribute {!r}".format(name))
            return original(name)
        removed_in, value, replacement, deprecated = entry
        setattr(np, name, value)   # from now on a plain attribute: no hook, no warning
        _announce(name, removed_in, replacement, deprecated, sys._getframe(1))
        return value
    __getattr__._minichainer_numpy_legacy = True
    return __getattr__


def install(np=None):
    """Restore, in `numpy` (or the given module), the removed names it lacks.

    Idempotent. Returns the sorted list of names restored.
    """
    if np is None:
        # Not at module level: the runner's start-up hook loads this module in every Python
        # subprocess and must not import numpy there (``install_when_numpy_imported``).
        import numpy as np
    with _lock:
        if _state.get('numpy') is np:
            return sorted(_state['restored'])
        if _state:
            _uninstall_locked()
        original = vars(np).get('__getattr__')
        restored = _missing_names(np)
        # a deprecated function this numpy still has is taken out of its namespace, so
        # that the hook serves it (and `uninstall` puts NumPy's own back)
        taken_out = {name: vars(np).pop(name) for name in restored if name in vars(np)}
        np.__getattr__ = _make_getattr(np, original, restored)
        stack_originals = {}
        if _stack_needs_sequence(np):
            for name in STACK_FUNCTIONS:
                function = vars(np).get(name)
                if function is not None:
                    stack_originals[name] = function
                    setattr(np, name, _wrap_stack_function(np, name, function))
        _state.update(numpy=np, original=original, restored=restored,
                      taken_out=taken_out, stack_originals=stack_originals)
        return sorted(restored)


def _stack_needs_sequence(np):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            np.hstack(np.zeros(1) for _ in range(1))
    except TypeError:
        return True
    return False


def _uninstall_locked():
    np = _state['numpy']
    for name in _state['restored']:
        vars(np).pop(name, None)
    for name, value in _state['taken_out'].items():
        setattr(np, name, value)
    for name, function in _state['stack_originals'].items():
        setattr(np, name, function)
    _announced_stack.clear()
    if _state['original'] is None:
        vars(np).pop('__getattr__', None)
    else:
        np.__getattr__ = _state['original']
    _state.clear()


def uninstall():
    """Undo `install`: the restored names are gone again."""
    with _lock:
        if _state:
            _uninstall_locked()


def is_installed():
    """True while the legacy-NumPy mode is in effect."""
    return bool(_state)


class _PatchNumpyOnImport(object):
    """`sys.meta_path` finder that turns the mode on once numpy is first imported."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != 'numpy':
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec('numpy')
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        exec_module = loader.exec_module

        def exec_and_patch(module):
            exec_module(module)
            install(module)
        loader.exec_module = exec_and_patch
        return spec


def install_when_numpy_imported():
    """Turn the mode on now if numpy is imported, else right after its import."""
    if 'numpy' in sys.modules:
        install(sys.modules['numpy'])
    elif not any(isinstance(f, _PatchNumpyOnImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _PatchNumpyOnImport())


def requested_by_environment():
    """Whether the environment asks Python subprocesses for the mode (set by the runner)."""
    return os.environ.get(ENV_VAR, '') not in ('', '0')

