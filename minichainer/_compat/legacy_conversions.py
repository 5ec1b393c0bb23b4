"""Legacy-NumPy mode, part two: `float(a)`, `int(a)`, `complex(a)` of a one-element array.

NumPy 1.x converted any array of size 1 (`float(np.array([2.5]))` is 2.5); NumPy 1.25
deprecated it for `ndim > 0` and NumPy 2.4 raises `TypeError` in C (`ndarray.__float__`),
which no attribute patch can reach. Chainer-era code does it everywhere
(`float(loss.array)` of a batch of one). So the mode rewrites users' code as it is
imported: each call `float(x)` / `int(x)` / `complex(x)` with one positional argument,
where the name is the builtin (the module binds that name nowhere), calls
[`legacy_float`][minichainer._compat.legacy_conversions.legacy_float] (resp. `legacy_int`,
`legacy_complex`) instead, which hands everything to the builtin except a NumPy/CuPy
`ndarray` with `ndim > 0` and `size == 1`: that one is converted as NumPy 1 did
(`float(a.item())`) and the first such conversion of each kind shows one
`NumpyLegacyWarning`.

Users' code (see [`UserCodePolicy`][minichainer._compat.legacy_conversions.UserCodePolicy]):
modules from `.py` sources that are in the folder of the program the runner runs, that
belong to an installed distribution requiring `chainer`, or that are not installed and
import Chainer or a Chainer library. Never minichainer, the standard library or other
installed packages (NumPy included).

On NumPy 2 the same transform also rewrites users' arithmetic operators for NumPy 1's
type promotion (see [`legacy_promotion`][minichainer._compat.legacy_promotion]).

Transformed bytecode is cached beside the normal one under its own name
(`__pycache__/mod.cpython-311.minichainer-legacy-3p.pyc`; `-3` on NumPy 1, where the
operators are left alone), so runs without the mode never
see it; pytest's assertion-rewritten test modules get the same rewrite, cached under
pytest's tag plus the same suffix.
"""
import ast
import importlib.machinery
import importlib.util
import marshal
import os
import re
import sys
import threading

from minichainer._compat.numpy_legacy import _announce_message

# Environment of the runner's Python subprocesses: the folders holding the program's own
# code (os.pathsep-separated), so that their imports classify modules as the parent does.
USER_DIRS_ENV_VAR = 'MINICHAINER_NUMPY_LEGACY_USER_DIRS'

# Bump when the transform changes: part of the cache file names.
_TRANSFORM_VERSION = 3


def _numpy_promotes_by_nep50():
    # NumPy 2 (NEP 50 promotion) or NumPy 1, found without importing NumPy (the runner's
    # subprocesses load this module at start-up): only NumPy 2 has a `numpy/_core` package.
    numpy = sys.modules.get('numpy')
    if numpy is not None:
        return not numpy.__version__.startswith('1.')
    spec = importlib.machinery.PathFinder.find_spec('numpy')
    locations = spec.submodule_search_locations if spec is not None else None
    return bool(locations) and os.path.isdir(os.path.join(list(locations)[0], '_core'))


# Setting it to 0 keeps users' arithmetic operators as they are (the rest of the mode stays).
PROMOTION_ENV_VAR = 'MINICHAINER_LEGACY_PROMOTION'

# Whether users' arithmetic operators are rewritten for NumPy 1's promotion
# (minichainer._compat.legacy_promotion): on NumPy 2 only, unless turned off.
PROMOTION = _numpy_promotes_by_nep50() and os.environ.get(PROMOTION_ENV_VAR, '1') != '0'
_CACHE_SUFFIX = '.minichainer-legacy-{}{}.pyc'.format(_TRANSFORM_VERSION,
                                                     'p' if PROMOTION else '')

# ---------------------------------------------------------------------------------------
# The helpers that rewritten calls go to.

_array_classes = {}    # class -> whether it is a NumPy/CuPy ndarray (sub)class
_announced = set()

_builtin_float = float
_builtin_int = int
_builtin_complex = complex


def _is_array_class(cls):
    flag = _array_classes.get(cls)
    if flag is None:
        flag = any(c.__name__ == 'ndarray' and
                   str(getattr(c, '__module__', '')).partition('.')[0] in ('numpy', 'cupy')
                   for c in cls.__mro__)
        _array_classes[cls] = flag
    return flag


def _convert(x, kind, convert):
    if kind not in _announced:
        _announced.add(kind)
        _announce_message(
            '{0}() of an array with ndim > 0 (shape {1}) was deprecated in NumPy 1.25 and '
            'raises TypeError since NumPy 2.4; minichainer\'s legacy-NumPy mode converts '
            'its one element. Use `a.item()` (or `{0}(a[0])`) instead.'.format(
                kind, tuple(x.shape)), sys._getframe(2))
    return convert(x.item())


def legacy_float(x):
    """`float(x)`; a one-element NumPy/CuPy array with `ndim > 0` gives its element."""
    if getattr(x, 'ndim', 0) and _is_array_class(type(x)) and x.size == 1:
        return _convert(x, 'float', legacy_float)
    return _builtin_float(x)


def legacy_int(x):
    """`int(x)`; a one-element NumPy/CuPy array with `ndim > 0` gives its element."""
    if getattr(x, 'ndim', 0) and _is_array_class(type(x)) and x.size == 1:
        return _convert(x, 'int', legacy_int)
    return _builtin_int(x)


def legacy_complex(x):
    """`complex(x)`; a one-element NumPy/CuPy array with `ndim > 0` gives its element."""
    if getattr(x, 'ndim', 0) and _is_array_class(type(x)) and x.size == 1:
        return _convert(x, 'complex', legacy_complex)
    return _builtin_complex(x)


# ---------------------------------------------------------------------------------------
# The source transform.

_HELPERS = {  # builtin -> (helper in this module, the name rewritten calls use)
    'float': ('legacy_float', '__minichainer_float__'),
    'int': ('legacy_int', '__minichainer_int__'),
    'complex': ('legacy_complex', '__minichainer_complex__'),
}

# Cheap pre-check on the source bytes: no match, nothing to rewrite.
_CANDIDATE_CALL = re.compile(rb'\b(?:float|int|complex)\s*\(')


def _scan_tree(tree):
    """One pass over the module: the calls that may be rewritten, and the names the module
    binds anywhere, in any scope (a star import binds them all)."""
    calls = []
    bound = set()
    for node in ast.walk(tree):
        kind = type(node)
        if kind is ast.Call:
            func = node.func
            if type(func) is ast.Name and func.id in _HELPERS and len(node.args) == 1 \
                    and not node.keywords and type(node.args[0]) is not ast.Starred:
                calls.append(node)
        elif kind is ast.Name:
            if type(node.ctx) is not ast.Load:
                bound.add(node.id)
        elif kind is ast.arg:
            bound.add(node.arg)
        elif kind is ast.alias:
            if node.name == '*':
                bound.update(_HELPERS)
            else:
                bound.add(node.asname or node.name.partition('.')[0])
        elif kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            bound.add(node.name)
        elif kind in (ast.Global, ast.Nonlocal):
            bound.update(node.names)
        elif kind is ast.ExceptHandler:
            if node.name:
                bound.add(node.name)
        elif kind.__name__ in ('MatchAs', 'MatchStar'):
            if node.name:
                bound.add(node.name)
        elif kind.__name__ == 'MatchMapping':
            if node.rest:
                bound.add(node.rest)
    return calls, bound


def transform(tree, promotion=None):
    """Rewrite, in place, the module's calls `float(x)`, `int(x)`, `complex(x)` of the
    builtins to the legacy helpers and, where `promotion` (default: on NumPy 2), its
    arithmetic operators to those of `legacy_promotion`; returns the set of builtin
    names and operator helpers used."""
    calls, bound = _scan_tree(tree)
    used = set()
    for call in calls:
        func = call.func
        if func.id not in bound:
            call.func = ast.copy_location(
                ast.Name(id=_HELPERS[func.id][1], ctx=ast.Load()), func)
            used.add(func.id)
    if used:
        _insert_helper_import(tree, __name__, [_HELPERS[n] for n in sorted(used)])
    if PROMOTION if promotion is None else promotion:
        operators = _OperatorRewriter()
        operators.visit(tree)
        if operators.used:
            _insert_helper_import(tree, _PROMOTION_MODULE,
                                  [('legacy_' + name, '__minichainer_{}__'.format(name))
                                   for name in sorted(operators.used)])
            used |= operators.used
    return used


# Operator -> its name in `legacy_promotion` (`legacy_<name>`) and in rewritten code.
_PROMOTION_MODULE = 'minichainer._compat.legacy_promotion'
_BINARY_OPERATORS = {ast.Add: 'add', ast.Sub: 'sub', ast.Mult: 'mul', ast.Div: 'truediv',
                     ast.FloorDiv: 'floordiv', ast.Mod: 'mod', ast.Pow: 'pow'}


def _is_plain_constant(node):
    # An operand no NumPy promotion can involve: a str/bytes constant (formatting,
    # concatenation) or an f-string. (Two number constants are left alone by the caller.)
    return (type(node) is ast.Constant and isinstance(node.value, (str, bytes))) or \
        type(node) is ast.JoinedStr


# NumPy integer types whose construction from an out-of-range Python int NumPy 2 refuses.
_INTEGER_TYPE_NAMES = frozenset([
    'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'intc',
    'uintc', 'intp', 'uintp', 'byte', 'ubyte', 'short', 'ushort', 'longlong', 'ulonglong'])


def _is_integer_type_call(node):
    # `<obj>.dtype(v)` (Chainer's tests keep the dtype under test there) or
    # `<name>.<integer type>(v)` (`numpy.uint8(v)`, `np.int32(v)`), with one positional
    # argument.
    func = node.func
    return type(func) is ast.Attribute and len(node.args) == 1 and not node.keywords and \
        type(node.args[0]) is not ast.Starred and (
            func.attr == 'dtype' or
            (func.attr in _INTEGER_TYPE_NAMES and type(func.value) is ast.Name))


class _OperatorRewriter(ast.NodeTransformer):
    """`a + b` -> `__minichainer_add__(a, b)` (and -, *, /, //, %, **); `x += y` on a plain
    name -> `x = __minichainer_iadd__(x, y)`; `x.dtype(v)` and `np.uint8(v)` ->
    `__minichainer_scalar__(x.dtype, v)` (NumPy 1's wrapping of an out-of-range Python
    int). Annotations are left as they are."""

    def __init__(self):
        self.used = set()

    def _helper(self, name, node):
        self.used.add(name)
        return ast.copy_location(ast.Name(id='__minichainer_{}__'.format(name),
                                          ctx=ast.Load()), node)

    def visit_BinOp(self, node):
        self.generic_visit(node)
        name = _BINARY_OPERATORS.get(type(node.op))
        left, right = node.left, node.right
        if name is None or _is_plain_constant(left) or _is_plain_constant(right) or \
                (type(left) is ast.Constant and type(right) is ast.Constant):
            return node
        return ast.copy_location(
            ast.Call(func=self._helper(name, node), args=[left, right], keywords=[]), node)

    def visit_Call(self, node):
        self.generic_visit(node)
        if not _is_integer_type_call(node):
            return node
        return ast.copy_location(
            ast.Call(func=self._helper('scalar', node), args=[node.func, node.args[0]],
                     keywords=[]), node)

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        name = _BINARY_OPERATORS.get(type(node.op))
        target = node.target
        if name is None or type(target) is not ast.Name or _is_plain_constant(node.value):
            return node
        load = ast.copy_location(ast.Name(id=target.id, ctx=ast.Load()), target)
        call = ast.copy_location(ast.Call(func=self._helper('i' + name, node),
                                          args=[load, node.value], keywords=[]), node)
        return ast.copy_location(ast.Assign(targets=[target], value=call), node)

    def _skip_annotations(self, node, fields):
        saved = [(field, getattr(node, field)) for field in fields]
        for field, _ in saved:
            setattr(node, field, None)
        self.generic_visit(node)
        for field, value in saved:
            setattr(node, field, value)
        return node

    def visit_arg(self, node):
        return self._skip_annotations(node, ('annotation',))

    def visit_FunctionDef(self, node):
        return self._skip_annotations(node, ('returns',))

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_AnnAssign(self, node):
        if node.value is not None:
            node.value = self.visit(node.value)
        if type(node.target) is not ast.Name:
            node.target = self.visit(node.target)
        return node


def _insert_helper_import(tree, module, names):
    body = tree.body
    index = 0
    if body and type(body[0]) is ast.Expr and type(body[0].value) is ast.Constant and \
            isinstance(body[0].value.value, str):
        index = 1   # the docstring stays the docstring
    while index < len(body) and type(body[index]) is ast.ImportFrom and \
            body[index].module == '__future__':
        index += 1
    anchor = body[index] if index < len(body) else body[-1]
    statement = ast.ImportFrom(
        module=module, names=[ast.alias(name=name, asname=asname) for name, asname in names],
        level=0)
    for node in ast.walk(statement):
        node.lineno = node.end_lineno = anchor.lineno
        node.col_offset = node.end_col_offset = 0
    body.insert(index, statement)


def compile_source(source, path):
    """Parse `source` (bytes), transform it and compile it as the file `path`."""
    tree = ast.parse(source, filename=path)
    transform(tree)
    return compile(tree, path, 'exec', dont_inherit=True)


def _may_need_transform(source):
    # Cheap pre-check on the source bytes: without the operator rewrite, a module with no
    # `float(`/`int(`/`complex(` call is left as it is.
    return PROMOTION or _CANDIDATE_CALL.search(source) is not None


# ---------------------------------------------------------------------------------------
# Which modules are users' code.

# Top-level names never transformed, whatever their location.
_NEVER = frozenset(('minichainer', 'numpy', 'cupy', 'cupyx', 'chainer', 'chainerx',
                    'chainermn', 'pytest', '_pytest', 'pluggy', 'tqdm'))

# An import statement of Chainer or a Chainer library (chainercv, chainerrl,
# chainer_chemistry, ...): `import chainer…` or `from chainer… import`.
_IMPORTS_CHAINER = re.compile(rb'^[ \t]*(?:import|from)[ \t]+chainer\w*\b', re.M)

_STDLIB_DIR = os.path.dirname(os.path.abspath(os.__file__)) + os.sep
_REQUIREMENT = re.compile(rb'^Requires-Dist:[ \t]*([A-Za-z0-9._-]+)([^\r\n]*)', re.M | re.I)
_EXTRA_MARKER = re.compile(rb';.*\bextra\s*==')


def _is_installed_path(path):
    parts = path.split(os.sep)
    return 'site-packages' in parts or 'dist-packages' in parts


def _normalize(name):
    return re.sub(rb'[-_.]+', b'-', name).lower()


def _requires_chainer(dist_dir):
    """Whether the `*.dist-info` / `*.egg-info` folder names `chainer` as a requirement
    (requirements that only an extra pulls in do not count)."""
    if dist_dir.endswith('.dist-info'):
        data = _read(os.path.join(dist_dir, 'METADATA'))
        if data is None or b'hainer' not in data:
            return False
        header = re.split(rb'\r?\n\r?\n', data, maxsplit=1)[0]
        return any(_normalize(m.group(1)) == b'chainer' and not _EXTRA_MARKER.search(m.group(2))
                   for m in _REQUIREMENT.finditer(header))
    data = _read(os.path.join(dist_dir, 'requires.txt'))
    if data is None:
        return False
    for line in data.splitlines():
        line = line.strip()
        if line.startswith(b'['):
            return False   # what follows belongs to extras
        match = re.match(rb'[A-Za-z0-9._-]+', line)
        if match and _normalize(match.group(0)) == b'chainer':
            return True
    return False


def _top_levels(dist_dir):
    data = _read(os.path.join(dist_dir, 'top_level.txt'))
    if data is not None:
        return {line.strip().decode('utf-8', 'replace') for line in data.splitlines()
                if line.strip()}
    tops = set()
    for line in (_read(os.path.join(dist_dir, 'RECORD')) or b'').splitlines():
        first = line.split(b',', 1)[0].decode('utf-8', 'replace').replace('\\', '/')
        head, sep, _ = first.partition('/')
        if not sep:
            if head.endswith('.py'):
                tops.add(head[:-3])
        elif not head.endswith(('.dist-info', '.data')) and head not in ('..', '__pycache__'):
            tops.add(head)
    return tops


def _read(path):
    try:
        with open(path, 'rb') as f:
            return f.read()
    except OSError:
        return None


class UserCodePolicy(object):
    """Decides which modules are users' code, to be transformed.

    A module loaded from a `.py` source is users' code when its top-level package is not
    minichainer, NumPy, CuPy, pytest or the standard library, and:

    1. its file is in one of `user_dirs` (the folder of the script the runner runs, or of
       the `-m` module when that is not installed), at any depth, outside
       `site-packages`/`dist-packages`; or
    2. its top-level package belongs to an installed distribution (any `*.dist-info` or
       `*.egg-info` on `sys.path`) that requires `chainer` (not only through an extra),
       e.g. ChainerCV, ChainerRL, Chainer Chemistry; or
    3. it is not installed (not under `site-packages`/`dist-packages`) and its source has
       an import statement of `chainer` or a Chainer library (`import chainer…`,
       `from chainer… import`, matched as text), or its top-level package's `__init__`
       has.

    Installed packages other than those of rule 2 are never transformed.
    """

    def __init__(self, user_dirs=()):
        self.user_dirs = tuple(os.path.join(os.path.abspath(d), '') for d in user_dirs)
        self._lock = threading.Lock()
        self._scanned_entries = {}      # sys.path entry -> top-level names requiring chainer
        self._chainer_packages = set()  # top-level packages whose __init__ imports Chainer
        self._dependents = None         # (copy of sys.path, the top-level names for it)

    def _dependent_top_levels(self):
        dependents = self._dependents
        if dependents is not None and dependents[0] == sys.path:
            return dependents[1]
        with self._lock:
            path = list(sys.path)
            tops = set()
            for entry in path:
                entry = os.path.abspath(entry or os.curdir)
                found = self._scanned_entries.get(entry)
                if found is None:
                    found = self._scan(entry)
                    self._scanned_entries[entry] = found
                tops |= found
            self._dependents = (path, frozenset(tops))
            return self._dependents[1]

    @staticmethod
    def _scan(entry):
        found = set()
        try:
            names = os.listdir(entry)
        except OSError:
            return found
        for name in names:
            if name.endswith(('.dist-info', '.egg-info')):
                dist_dir = os.path.join(entry, name)
                if os.path.isdir(dist_dir) and _requires_chainer(dist_dir):
                    found |= _top_levels(dist_dir)
        return found

    def is_user_code(self, fullname, path, source):
        """Whether the module `fullname` (None when unknown) from `path` with `source`
        (bytes) is users' code."""
        top = fullname.partition('.')[0] if fullname else None
        if top in _NEVER or top in sys.stdlib_module_names:
            return False
        path = os.path.abspath(path)
        installed = _is_installed_path(path)
        if not installed:
            if path.startswith(_STDLIB_DIR):
                return False
            if path.startswith(self.user_dirs):
                return True
            if _IMPORTS_CHAINER.search(source):
                if top is not None and os.path.basename(path) == '__init__.py' and \
                        fullname == top:
                    self._chainer_packages.add(top)
                return True
            if top in self._chainer_packages:
                return True
        return top is not None and top in self._dependent_top_levels()


# ---------------------------------------------------------------------------------------
# The import hook.

def _cache_path(path):
    try:
        normal = importlib.util.cache_from_source(path)
    except NotImplementedError:   # sys.implementation.cache_tag is None
        return None
    return normal[:-len('.pyc')] + _CACHE_SUFFIX


def _load_cached(cache, source_hash):
    data = _read(cache)
    if data is None or len(data) < 16 or data[:4] != importlib.util.MAGIC_NUMBER or \
            data[4:8] != b'\x03\x00\x00\x00' or data[8:16] != source_hash:
        return None
    try:
        return marshal.loads(data[16:])
    except (EOFError, ValueError, TypeError):
        return None


def _store_cached(cache, source_hash, code):
    # Hash-based, checked pyc (PEP 552): valid exactly while the source is unchanged.
    # Written with its own temp-and-rename rather than minichainer.utils.atomic_write:
    # the runner's subprocesses load this module from its file at start-up without
    # importing the minichainer package (see _startup/sitecustomize.py).
    if sys.dont_write_bytecode:
        return
    data = importlib.util.MAGIC_NUMBER + b'\x03\x00\x00\x00' + source_hash + \
        marshal.dumps(code)
    temporary = '{}.{}.tmp'.format(cache, os.getpid())
    try:
        os.makedirs(os.path.dirname(cache), exist_ok=True)
        with open(temporary, 'wb') as f:
            f.write(data)
        os.replace(temporary, cache)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass


def transformed_code(source, path):
    """The transformed code of `source` (bytes) from `path`, through the separate cache."""
    cache = _cache_path(path)
    source_hash = importlib.util.source_hash(source)
    code = _load_cached(cache, source_hash) if cache else None
    if code is None:
        code = compile_source(source, path)
        if cache:
            _store_cached(cache, source_hash, code)
    return code


class LegacySourceLoader(importlib.machinery.SourceFileLoader):
    """`SourceFileLoader` that compiles users' code through the transform (and caches it
    under its own name); other modules load exactly as they would have."""

    policy = None   # set by the finder that makes it

    def get_code(self, fullname):
        path = self.get_filename(fullname)
        try:
            source = self.get_data(path)
        except OSError:
            return super().get_code(fullname)
        if not self.policy.is_user_code(fullname, path, source) or \
                not _may_need_transform(source):
            return super().get_code(fullname)
        return transformed_code(source, path)


class LegacyConversionFinder(object):
    """`sys.meta_path` finder that asks the finders after it for the spec and, for a
    module from a `.py` source that may be users' code, swaps in `LegacySourceLoader`.
    It also extends pytest's assertion rewriting with the same transform."""

    def __init__(self, policy):
        self.policy = policy
        self._loader_class = type('LegacySourceLoader', (LegacySourceLoader,),
                                  {'policy': policy, '__module__': __name__})

    def find_spec(self, fullname, path=None, target=None):
        top = fullname.partition('.')[0]
        pytest_rewrite = fullname == '_pytest.assertion.rewrite'
        if (top in _NEVER or top in sys.stdlib_module_names) and not pytest_rewrite:
            return None
        spec = None
        seen_self = False
        for finder in list(sys.meta_path):
            if finder is self:
                seen_self = True
                continue
            if not seen_self:
                continue
            find = getattr(finder, 'find_spec', None)
            if find is None:
                continue
            spec = find(fullname, path, target)
            if spec is not None:
                break
        if spec is None:
            return None
        if pytest_rewrite:
            _patch_pytest_after_exec(spec, self.policy)
        elif type(spec.loader) is importlib.machinery.SourceFileLoader and spec.origin:
            spec.loader = self._loader_class(fullname, spec.origin)
        return spec


# ---------------------------------------------------------------------------------------
# pytest: test modules are compiled by its assertion rewriter, which runs first.

_pytest_originals = {}


def _patch_pytest_after_exec(spec, policy):
    loader = spec.loader
    exec_module = getattr(loader, 'exec_module', None)
    if exec_module is None:
        return

    def exec_and_patch(module):
        exec_module(module)
        patch_pytest(module, policy)
    loader.exec_module = exec_and_patch


def patch_pytest(rewrite, policy):
    """Make pytest's assertion rewriter also transform the test modules that are users'
    code, caching them under its tag plus this transform's suffix."""
    original = getattr(rewrite, 'rewrite_asserts', None)
    tail = getattr(rewrite, 'PYC_TAIL', None)
    if original is None or not isinstance(tail, str) or not tail.endswith('.pyc') or \
            rewrite in _pytest_originals:
        return

    def rewrite_asserts(mod, source, module_path=None, config=None):
        original(mod, source, module_path, config)
        if module_path is not None and isinstance(source, bytes) and \
                _may_need_transform(source) and \
                policy.is_user_code(None, module_path, source):
            transform(mod)
    rewrite_asserts.__wrapped__ = original
    _pytest_originals[rewrite] = (original, tail)
    rewrite.rewrite_asserts = rewrite_asserts
    rewrite.PYC_TAIL = tail[:-len('.pyc')] + _CACHE_SUFFIX


def _unpatch_pytest():
    for rewrite, (original, tail) in _pytest_originals.items():
        rewrite.rewrite_asserts = original
        rewrite.PYC_TAIL = tail
    _pytest_originals.clear()


# ---------------------------------------------------------------------------------------

def install(user_dirs=()):
    """Put the finder on `sys.meta_path` (after the chainer alias finder, if any).

    Idempotent; a second call with other `user_dirs` adds them. Returns the finder.
    """
    finder = find_installed()
    if finder is not None:
        if user_dirs:
            finder.policy.user_dirs += tuple(
                os.path.join(os.path.abspath(d), '') for d in user_dirs)
        return finder
    finder = LegacyConversionFinder(UserCodePolicy(user_dirs))
    index = 0
    for i, other in enumerate(sys.meta_path):
        # by name: importing minichainer._compat.importer here would import the whole
        # package in the subprocesses' start-up (see _store_cached)
        if type(other).__name__ == 'ChainerAliasFinder':
            index = i + 1
    sys.meta_path.insert(index, finder)
    rewrite = sys.modules.get('_pytest.assertion.rewrite')
    if rewrite is not None:
        patch_pytest(rewrite, finder.policy)
    return finder


def uninstall():
    """Remove the finder and pytest's patch; modules already imported stay as they are."""
    sys.meta_path[:] = [f for f in sys.meta_path
                        if not isinstance(f, LegacyConversionFinder)]
    _unpatch_pytest()
    _announced.clear()


def find_installed():
    """The installed `LegacyConversionFinder`, or None."""
    for finder in sys.meta_path:
        if isinstance(finder, LegacyConversionFinder):
            return finder
    return None


def user_dirs_from_environment():
    """The user folders the runner passed to its subprocesses."""
    value = os.environ.get(USER_DIRS_ENV_VAR, '')
    return tuple(d for d in value.split(os.pathsep) if d)
