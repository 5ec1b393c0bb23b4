"""Shape rules of the code that issue 34 set (checked on the source, not by running it)."""
import ast
import os

import minichainer

PACKAGE = os.path.dirname(os.path.abspath(minichainer.__file__))


def _functions(relative):
    with open(os.path.join(PACKAGE, relative), encoding='utf-8') as f:
        tree = ast.parse(f.read())
    return [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def test_backward_engine_functions_fit_on_a_screen():
    lengths = {f.name: f.end_lineno - f.lineno + 1 for f in _functions('_backprop.py')}
    assert max(lengths.values()) <= 60, sorted(lengths.items(), key=lambda kv: -kv[1])[:3]


# -- fast copies kept on the hot path, each proved equal to the plain code ------------

import threading  # noqa: E402

import numpy  # noqa: E402
import pytest  # noqa: E402

from minichainer import configuration  # noqa: E402
from minichainer.function_node import FunctionNode  # noqa: E402
from minichainer.variable import Variable, VariableNode, new_variable  # noqa: E402


class _Plain(FunctionNode):
    """y = 2x, retaining nothing, with a type check that records that it ran."""

    checked = False

    def check_type_forward(self, in_types):
        _Plain.checked = True

    def forward(self, inputs):
        return inputs[0] * 2,

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0] * 2,


def test_new_variable_builds_the_node_the_constructor_builds():
    # new_variable sets each slot by hand: every slot of VariableNode (a new one
    # included) must come out as VariableNode's own __init__ and set_creator_node give.
    x = Variable(numpy.ones(3, numpy.float32))
    y, = _Plain().apply((x,))
    fast = y.node
    plain = VariableNode(y, None)
    plain.set_creator_node(fast.creator_node)
    for slot in VariableNode.__slots__:
        if slot == '__weakref__':
            continue
        a, b = getattr(fast, slot), getattr(plain, slot)
        if slot == 'variable_ref':
            a, b = a(), b()
        assert a is b or a == b, slot


@pytest.mark.parametrize('requires_grad', [True, False])
def test_new_variable_matches_the_constructor(requires_grad):
    data = numpy.ones(2, numpy.float32)
    fast, plain = new_variable(data, requires_grad), Variable(data,
                                                             requires_grad=requires_grad)
    for slot in Variable.__slots__:
        if slot == '__weakref__':
            continue
        a, b = getattr(fast, slot), getattr(plain, slot)
        assert a is b or a == b, slot


_SETTINGS = ('type_check', 'enable_backprop', 'debug')


def _observed():
    # What FunctionNode.apply decided for each setting it reads inline.
    _Plain.checked = False
    func = _Plain()
    y, = func.apply((Variable(numpy.ones(2, numpy.float32)),))
    return {'type_check': _Plain.checked, 'enable_backprop': y.creator is func,
            'debug': func.stack is not None}


@pytest.mark.parametrize('where', ['global', 'thread', 'both'])
@pytest.mark.parametrize('name', _SETTINGS)
def test_apply_reads_the_configuration_as_get_value_does(name, where):
    # apply reads these three settings inline (thread setting, else global) instead of
    # calling configuration.get_value three times per op: the same answers.
    default = getattr(configuration.global_config, name)
    results = []

    def run():
        if where in ('thread', 'both'):
            with configuration.using_config(name, where == 'thread' and not default
                                            or where == 'both' and default):
                results.append((_observed(), {k: configuration.get_value(k)
                                              for k in _SETTINGS}))
        else:
            results.append((_observed(), {k: configuration.get_value(k) for k in _SETTINGS}))

    old = default
    if where in ('global', 'both'):
        setattr(configuration.global_config, name, not default)
    try:
        thread = threading.Thread(target=run)
        thread.start()
        thread.join()
    finally:
        setattr(configuration.global_config, name, old)
    observed, expected = results[0]
    assert observed == expected


# -- one registry rule for each pair of hook kinds -------------------------------------

import minichainer  # noqa: E402
from minichainer import function_hook, link_hook, optimizers  # noqa: E402


def _thread_kinds():
    return [(function_hook.FunctionHook, function_hook.get_function_hooks,
             function_hook.registered_hooks),
            (link_hook.LinkHook, link_hook.get_link_hooks, link_hook.registered_hooks)]


@pytest.mark.parametrize('kind', [0, 1], ids=['function_hook', 'link_hook'])
def test_thread_hooks_behave_alike_on_duplicates_and_bad_exits(kind):
    base, get_hooks, count = _thread_kinds()[kind]
    before = count.value
    first, second = base(), base()
    with first:
        with pytest.raises(KeyError, match='already exists'):
            second.__enter__()            # the same name twice in one thread
        with pytest.raises(KeyError, match='not registered in this thread'):
            second.__exit__(None, None, None)   # never entered: first stays
        assert get_hooks()[first.name] is first and count.value == before + 1
    with pytest.raises(KeyError, match='not registered in this thread'):
        first.__exit__(None, None, None)  # left twice
    assert first.name not in get_hooks() and count.value == before


def _local_owners():
    return [(minichainer.Link(), link_hook.LinkHook),
            (FunctionNode(), function_hook.FunctionHook)]


@pytest.mark.parametrize('kind', [0, 1], ids=['Link', 'FunctionNode'])
def test_local_hooks_behave_alike(kind):
    owner, base = _local_owners()[kind]
    other = _local_owners()[1 - kind][1]
    with pytest.raises(TypeError, match='hook must be a ' + base.__name__):
        owner.add_hook(other())
    owner.add_hook(base())
    with pytest.raises(KeyError, match='already exists'):
        owner.add_hook(base())
    owner.delete_hook(base.name)
    with pytest.raises(KeyError, match='does not exist'):
        owner.delete_hook(base.name)


def test_optimizer_and_update_rule_registries_share_their_rules():
    link = minichainer.links.Linear(2, 3)
    opt = optimizers.SGD().setup(link)
    rule = link.W.update_rule

    def hook(*args):
        pass

    for registry in (opt, rule):
        registry.add_hook(hook, name='h')
        with pytest.raises(KeyError, match='already exists') as info:
            registry.add_hook(hook, name='h')
        assert isinstance(info.value, ValueError)     # Chainer 6's type as well
        with pytest.raises(ValueError, match='timing'):
            registry.add_hook(hook, name='g', timing='later')
        with pytest.raises(TypeError, match='callable'):
            registry.add_hook(3, name='x')
        registry.remove_hook('h')
        with pytest.raises(KeyError):
            registry.remove_hook('h')
    # Bad timing: an optimizer takes hooks only once set up.
    with pytest.raises(RuntimeError, match='setup'):
        optimizers.SGD().add_hook(hook)


# -- process-wide switches: named, explicit ------------------------------------------

def test_memory_layouts_are_switched_on_by_a_named_call_and_off_again():
    import subprocess
    import sys
    # A fresh process that uses no layout keeps the plain apply.
    code = ('import numpy, minichainer, minichainer.functions as F\n'
            'from minichainer import function_node\n'
            'F.relu(minichainer.Variable(numpy.ones(2, "f")))\n'
            'assert not function_node.memory_layouts_enabled()\n'
            'minichainer.Variable(numpy.ones((1, 2, 3, 4), "f"),'
            ' layout=minichainer.memory_layouts.CUDNN_CHANNEL_LAST_X)\n'
            'assert function_node.memory_layouts_enabled()\n')
    subprocess.run([sys.executable, '-c', code], check=True)
    from minichainer import function_node
    was = function_node.memory_layouts_enabled()
    function_node.enable_memory_layouts()
    assert function_node.memory_layouts_enabled()
    function_node.disable_memory_layouts()
    assert not function_node.memory_layouts_enabled()
    if was:
        function_node.enable_memory_layouts()


def test_arithmetic_operators_are_installed_by_importing_basic_math():
    import subprocess
    import sys
    code = ('import numpy, minichainer\n'
            'from minichainer.variable import Variable\n'
            'assert Variable.__add__.__module__ == "minichainer.variable"  # stand-in\n'
            'import minichainer.functions\n'
            'from minichainer.functions.math import basic_math\n'
            'assert Variable.__add__ is basic_math.add and Variable.__rpow__ is basic_math.rpow\n')
    subprocess.run([sys.executable, '-c', code], check=True)
    # Without minichainer.functions, the first operator imports basic_math itself.
    code = ('import numpy, minichainer, sys\n'
            'v = minichainer.Variable(numpy.ones(2, "f"))\n'
            'assert (v * 3 - 1).array.tolist() == [2.0, 2.0]\n'
            'assert "minichainer.functions.math.basic_math" in sys.modules\n')
    subprocess.run([sys.executable, '-c', code], check=True)
