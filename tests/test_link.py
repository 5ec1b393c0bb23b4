import copy
import pickle
import warnings

import numpy as np
import pytest

import minichainer
from minichainer import initializers
from minichainer import link as link_module
from minichainer import link_hook
from minichainer import serializers
from minichainer.link import Chain, ChainList, Link
from minichainer.variable import Parameter, Variable


class Leaf(Link):
    def __init__(self, n_in=3, n_out=2):
        super().__init__()
        with self.init_scope():
            self.W = Parameter(initializers.LeCunNormal(), (n_out, n_in))
            self.b = Parameter(0, (n_out,))
            self.u = Parameter(initializers.Zero())  # uninitialized
        self.add_persistent('count', 0)
        self.add_persistent('stat', np.arange(n_out, dtype=np.float32))

    def forward(self, x):
        return x * 2


class Net(Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l2 = Leaf()
            self.l1 = Leaf()
            self.p = Parameter(np.ones(4, np.float32))


class DictSerializer:
    """A minimal serializer writing into / reading from a flat dict."""

    def __init__(self, target, path='', load=False):
        self.target, self.path, self.load = target, path, load

    def __getitem__(self, key):
        return DictSerializer(self.target, self.path + key + '/', self.load)

    def __call__(self, key, value):
        k = self.path + key
        if self.load:
            stored = self.target[k]
            if value is None or stored is None:
                return stored
            if isinstance(value, np.ndarray):
                np.copyto(value, stored)
                return value
            return type(value)(stored)
        self.target[k] = None if value is None else copy.copy(value)
        return value


# ---------------------------------------------------------------------- registration
def test_init_scope_registers_parameters_only_inside():
    link = Link()
    with link.init_scope():
        link.a = Parameter(np.zeros(2, np.float32))
        assert link.within_init_scope
    assert not link.within_init_scope
    link.outside = Parameter(np.zeros(3, np.float32))  # not registered (Chainer's rule)
    assert [name for name, _ in link.namedparams()] == ['/a']
    assert link.a.name == 'a'


def test_chain_registers_links_only_inside_init_scope():
    c = Chain()
    with c.init_scope():
        c.child = Leaf()
    c.stranger = Leaf()
    assert [name for name, _ in c.namedlinks(skipself=True)] == ['/child']
    assert c.child.name == 'child'
    assert c['child'] is c.child
    with pytest.raises(AttributeError, match='child'):
        with c.init_scope():
            c.child = Leaf()


def test_init_scope_requires_super_init():
    class Bad(Link):
        def __init__(self):
            with self.init_scope():
                self.W = Parameter(np.zeros(1, np.float32))

    with pytest.raises(RuntimeError, match='__init__'):
        Bad()


def test_add_param_add_persistent_register_persistent():
    link = Link()
    link.add_param('w', (2, 3))
    assert link.w.shape == (2, 3) and np.isnan(link.w.array).all()
    with pytest.raises(AttributeError, match='w'):
        link.add_param('w', (1,))
    link.add_persistent('n', 3)
    with pytest.raises(AttributeError, match='n'):
        link.add_persistent('n', 4)
    link.x = 5
    link.register_persistent('x')
    assert link._persistent == {'n', 'x'}
    with pytest.raises(AttributeError, match='missing'):
        link.register_persistent('missing')
    # Re-registering a parameter name as persistent removes it from the parameters.
    link.register_persistent('w')
    assert list(link.params()) == []
    del link.n
    assert 'n' not in link._persistent


def test_deprecated_params_in_constructor():
    link = Link(a=(2, 3), b=((4,), np.float64))
    assert link.a.shape == (2, 3) and link.a.dtype == np.float32
    assert link.b.dtype == np.float64


# ---------------------------------------------------------------------- traversal
def test_params_order_and_paths():
    net = Net()
    names = [name for name, _ in net.namedparams()]
    assert names == ['/p', '/l1/W', '/l1/b', '/l1/u', '/l2/W', '/l2/b', '/l2/u']
    assert [p for p in net.params()] == [p for _, p in net.namedparams()]
    init = [name for name, _ in net.namedparams(include_uninit=False)]
    assert init == ['/p', '/l1/W', '/l1/b', '/l2/W', '/l2/b']
    assert len(list(net.params(include_uninit=False))) == 5
    assert [n for n, _ in net.namedlinks()] == ['/', '/l1', '/l2']
    assert [n for n, _ in net.namedlinks(skipself=True)] == ['/l1', '/l2']
    assert list(net.links()) == [net, net.l1, net.l2]
    assert list(net.children()) == [net.l1, net.l2]


def test_nested_chainlist_paths():
    cl = ChainList(Leaf(), ChainList(Leaf()))
    assert [n for n, _ in cl.namedparams(include_uninit=False)] == [
        '/0/W', '/0/b', '/1/0/W', '/1/0/b']
    assert [n for n, _ in cl.namedlinks()] == ['/', '/0', '/1', '/1/0']
    assert [c.name for c in cl] == ['0', '1']


def test_params_table_is_not_rebuilt_per_call(monkeypatch):
    net = Net()
    list(net.params())
    calls = []
    orig = Chain._build_namedparams

    def counting(self):
        calls.append(self)
        return orig(self)

    monkeypatch.setattr(Chain, '_build_namedparams', counting)
    for _ in range(5):
        list(net.params())
        list(net.namedparams())
        net.cleargrads()
    assert calls == []
    # A structural change invalidates the table.
    with net.init_scope():
        net.l3 = Leaf()
    assert len(list(net.params())) == 10
    assert calls


def test_params_table_follows_replacement_of_registered_objects():
    net = Net()
    list(net.params())
    new_leaf = Leaf()
    net.l1 = new_leaf  # replacing a registered child keeps it registered
    assert any(p is new_leaf.W for p in net.params())
    leaf = net.l2
    new_w = Parameter(np.zeros((2, 3), np.float32))
    leaf.W = new_w
    assert any(p is new_w for p in net.params())
    del net.p
    assert '/p' not in dict(net.namedparams())


# ---------------------------------------------------------------------- gradients
def test_cleargrads_zerograds_addgrads():
    a, b = Net(), Net()
    for p in a.params(include_uninit=False):
        p.grad = np.ones_like(p.array)
    for p in b.params(include_uninit=False):
        p.grad = np.full_like(p.array, 2)
    # as in Chainer, the gradient of a never-cleared uninitialized parameter is unreadable
    with pytest.raises(RuntimeError, match='cleargrad'):
        Net().addgrads(Net())
    a.cleargrads()
    for p in a.params(include_uninit=False):
        p.grad = np.ones_like(p.array)
    b.addgrads(a)
    assert all((p.grad == 3).all() for p in b.params(include_uninit=False))
    b.cleargrads()
    assert all(p.grad is None for p in b.params())
    with pytest.warns(DeprecationWarning):
        b.zerograds()
    assert all((p.grad == 0).all() for p in b.params(include_uninit=False))


def test_copyparams_copies_data_and_persistents():
    a, b = Net(), Net()
    a.l1.count = 7
    a.l1.stat[...] = 9
    b.copyparams(a)
    for (na, pa), (nb, pb) in zip(a.namedparams(False), b.namedparams(False)):
        assert na == nb and pa is not pb
        np.testing.assert_array_equal(pa.array, pb.array)
    assert b.l1.count == 7 and (b.l1.stat == 9).all()
    c = Net()
    c.copyparams(a, copy_persistent=False)
    assert c.l1.count == 0


def test_enable_disable_update():
    net = Net()
    assert not net.update_enabled  # no update rules yet

    class Rule:
        enabled = True

    for p in net.params():
        p.update_rule = Rule()
    assert net.update_enabled
    net.disable_update()
    assert not net.update_enabled
    net.l1.enable_update()
    assert net.update_enabled and not net.l2.update_enabled


def test_count_params_warns_on_uninitialized():
    net = Net()
    with pytest.warns(UserWarning) as record:
        n = net.count_params()
    assert n == 4 + 2 * (6 + 2)
    messages = sorted(str(w.message) for w in record)
    assert len(messages) == 2
    assert "'/l1/u'" in messages[0] and "'/l2/u'" in messages[1]


# ---------------------------------------------------------------------- copy / repeat
def test_copy_share():
    net = Net()
    for p in net.params(False):
        p.grad = np.ones_like(p.array)
    c = net.copy()
    assert c.name is None and c.l1.name == 'l1'
    assert c.l1 is not net.l1 and c.l1.W is not net.l1.W
    assert c.l1.W.array is net.l1.W.array
    assert c.l1.W.grad is None and net.l1.W.grad is not None
    with c.init_scope():
        c.extra = Leaf()
    assert 'extra' not in net._children


def test_copy_copy_and_init():
    np.random.seed(0)
    net = Net()
    c = net.copy('copy')
    for (_, p), (_, q) in zip(net.namedparams(False), c.namedparams(False)):
        assert p is not q and p.array is not q.array
        np.testing.assert_array_equal(p.array, q.array)
    np.random.seed(1)
    i = net.copy('init')
    assert not np.array_equal(i.l1.W.array, net.l1.W.array)
    np.testing.assert_array_equal(i.l1.b.array, net.l1.b.array)
    assert i.l1.u.array is None
    with pytest.raises(ValueError, match='mode'):
        net.copy('deep')


def test_copy_init_draws_in_parameter_order():
    leaf = Leaf(4, 3)
    np.random.seed(5)
    c = leaf.copy('init')
    np.random.seed(5)
    expected = np.random.normal(0, np.sqrt(1 / 4), (3, 4)).astype(np.float32)
    np.testing.assert_array_equal(c.W.array, expected)


def test_repeat_modes():
    leaf = Leaf()
    seq = leaf.repeat(3, mode='share')
    assert len(seq) == 3 and all(s.W.array is leaf.W.array for s in seq)
    seq = leaf.repeat(2, mode='copy')
    assert seq[0].W.array is not seq[1].W.array
    np.testing.assert_array_equal(seq[0].W.array, seq[1].W.array)
    seq = leaf.repeat(2)  # init
    assert not np.array_equal(seq[0].W.array, seq[1].W.array)
    assert len(leaf.repeat(0)) == 0
    with pytest.raises(ValueError, match='mode'):
        leaf.repeat(2, mode='nope')


def test_deepcopy_and_pickle_keep_structure():
    net = Net()
    list(net.params())
    for clone in (copy.deepcopy(net), pickle.loads(pickle.dumps(net))):
        assert [n for n, _ in clone.namedparams()] == [n for n, _ in net.namedparams()]
        assert all(p is not q for p, q in zip(clone.params(), net.params()))
        np.testing.assert_array_equal(clone.l1.W.array, net.l1.W.array)


# ---------------------------------------------------------------------- devices
def test_device_api():
    net = Net()
    assert str(net.device) == '@numpy' and net.xp is np
    with pytest.deprecated_call(match='to_cpu'):
        assert net.to_cpu() is net
    assert net.to_device('@numpy') is net and net.l1.device == minichainer.get_device(-1)
    with pytest.raises(RuntimeError, match='GPU'), pytest.deprecated_call(match='to_gpu'):
        net.to_gpu()
    with pytest.raises(RuntimeError, match='GPU'):
        net.to_device(0)


def test_legacy_to_cpu_override_is_called_by_to_device():
    called = []

    with pytest.warns(DeprecationWarning, match="Overriding method 'to_cpu'"):
        class Old(Link):
            def to_cpu(self):
                called.append(True)
                with pytest.deprecated_call(match='to_cpu is deprecated'):
                    return super().to_cpu()

    Old().to_device('@numpy')
    assert called


# ---------------------------------------------------------------------- serialization
def test_serialize_round_trip_with_dict_serializer():
    src, dst = Net(), Net()
    src.l1.count = 4
    src.l2.stat[...] = 5
    store = {}
    src.serialize(DictSerializer(store))
    assert set(store) == {
        'p', 'l1/W', 'l1/b', 'l1/u', 'l1/count', 'l1/stat',
        'l2/W', 'l2/b', 'l2/u', 'l2/count', 'l2/stat'}
    assert store['l1/u'] is None
    dst.serialize(DictSerializer(store, load=True))
    np.testing.assert_array_equal(dst.l1.W.array, src.l1.W.array)
    assert dst.l1.count == 4 and (dst.l2.stat == 5).all()


def test_serialize_initializes_uninitialized_parameter_on_load():
    store = {'W': np.arange(6, dtype=np.float32).reshape(2, 3)}
    link = Link()
    with link.init_scope():
        link.W = Parameter(initializers.Zero())
    link.serialize(DictSerializer(store, load=True))
    np.testing.assert_array_equal(link.W.array, store['W'])


def test_npz_round_trip_with_chainer_keys(tmp_path):
    src, dst = Net(), Net()
    src.l2.count = 3
    path = str(tmp_path / 'net.npz')
    serializers.save_npz(path, src)
    with np.load(path, allow_pickle=False) as f:
        keys = set(f.files)
    assert {'p', 'l1/W', 'l1/b', 'l2/count', 'l2/stat'} <= keys
    serializers.load_npz(path, dst)
    for (_, p), (_, q) in zip(src.namedparams(False), dst.namedparams(False)):
        np.testing.assert_array_equal(p.array, q.array)
    assert dst.l2.count == 3


# ---------------------------------------------------------------------- call and hooks
class RecordingHook(link_hook.LinkHook):
    name = 'rec'

    def __init__(self):
        self.events = []

    def added(self, link):
        self.events.append(('added', link))

    def deleted(self, link):
        self.events.append(('deleted', link))

    def forward_preprocess(self, args):
        self.events.append(('pre', args.link, args.forward_name, args.args, args.kwargs))

    def forward_postprocess(self, args):
        self.events.append(('post', args.out))


def test_call_runs_forward_and_local_hooks():
    leaf = Leaf()
    assert leaf(3) == 6
    hook = RecordingHook()
    assert leaf.add_hook(hook) is leaf
    assert leaf(4) == 8
    assert hook.events == [('added', leaf), ('pre', leaf, 'forward', (4,), {}),
                           ('post', 8)]
    with pytest.raises(KeyError, match='rec'):
        leaf.add_hook(RecordingHook())
    leaf.delete_hook('rec')
    assert hook.events[-1] == ('deleted', leaf)
    with pytest.raises(KeyError, match='rec'):
        leaf.delete_hook('rec')
    with pytest.raises(TypeError, match='LinkHook'):
        leaf.add_hook(object())


def test_global_hook_with_statement():
    hook = RecordingHook()
    leaf = Leaf()
    with hook:
        leaf(1)
        with pytest.raises(KeyError):
            with RecordingHook():
                pass
    leaf(2)
    kinds = [e[0] for e in hook.events]
    assert kinds == ['added', 'pre', 'post', 'deleted']


def test_timer_hook():
    from minichainer.link_hooks import TimerHook
    leaf = Leaf()
    with TimerHook() as t:
        leaf(1)
        leaf(2)
    assert [name for name, _ in t.call_history] == ['Leaf', 'Leaf']
    assert t.summary()['Leaf']['occurrence'] == 2
    assert t.total_time() >= 0


def test_str_of_links():
    net = Net()
    assert str(net).startswith('Net(\n  (l1): Leaf(),')
    assert str(ChainList()) == 'ChainList()'


# ---------------------------------------------------------------------- ChainList
def test_chainlist_list_api():
    a, b, c = Leaf(), Leaf(), Leaf()
    cl = ChainList(a)
    cl.append(b)
    cl.insert(0, c)
    assert list(cl) == [c, a, b] and [x.name for x in cl] == ['0', '1', '2']
    assert cl[-1] is b and len(cl) == 3
    del cl[0]
    assert [x.name for x in cl] == ['0', '1']
    cl[1] = c
    assert cl[1] is c and c.name == '1'
    assert cl.pop() is c and len(cl) == 1
    with pytest.raises(TypeError, match='Link'):
        cl.append(3)
    with pytest.raises(TypeError):
        with cl.init_scope():
            cl.x = Leaf()


def test_chainlist_copy_and_serialize():
    cl = ChainList(Leaf(), Leaf())
    c = cl.copy('copy')
    assert [x.name for x in c] == ['0', '1'] and c[0] is not cl[0]
    store = {}
    cl.serialize(DictSerializer(store))
    assert '1/W' in store and '0/count' in store


def test_add_link():
    c = Chain()
    c.add_link('a', Leaf())
    assert c.a.name == 'a'
    with pytest.raises(TypeError, match='Link'):
        c.add_link('b', 3)
    with pytest.raises(AttributeError, match='a'):
        c.add_link('a', Leaf())
    old = Chain(x=Leaf())
    assert [n for n, _ in old.namedlinks(True)] == ['/x']


def test_variable_inputs_pass_through_forward():
    leaf = Leaf()
    v = Variable(np.ones(2, np.float32))
    out = leaf(v)
    np.testing.assert_array_equal(out.array, 2 * np.ones(2))


def test_structure_version_is_global():
    before = link_module._structure_version[0]
    Leaf()
    assert link_module._structure_version[0] > before


def test_no_warnings_in_normal_use():
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        net = Net()
        list(net.params())
        net.cleargrads()
        net.copy()


# ---------------------------------------------------------------------- Chainer details
def test_constructor_params_accept_numpy_ints_and_dtype_pairs():
    link = Link(x=((2, np.int64(3)), 'd'), u=(None, 'd'))
    assert link.x.shape == (2, 3) and link.x.dtype == np.float64
    assert np.isnan(link.x.array).all() and np.isnan(link.x.grad).all()
    assert link.u.array is None
    link.u.initialize((2, 3))
    assert link.u.dtype == np.float64


def test_leaf_deep_copy_keeps_name_share_copy_resets_it():
    leaf = Leaf()
    leaf.name = 'a'
    assert leaf.copy('copy').name == 'a' and leaf.copy('init').name == 'a'
    assert leaf.copy('share').name is None
    net = Net()
    net.name = 'n'
    assert net.copy('copy').name == 'n' and net.copy('copy').l1.name == 'l1'
    assert net.copy('share').name is None and ChainList(Leaf()).copy('copy').name is None
    with pytest.warns(DeprecationWarning):
        assert copy.deepcopy(leaf)._device_id is None


def test_serialize_calls_with_mock():
    from unittest import mock
    serializer = mock.MagicMock(return_value=3)
    link = Link()
    with link.init_scope():
        link.x = Parameter(shape=(2, 3))
        link.y = Parameter(shape=2)
    link.add_persistent('z', 1)
    link.serialize(serializer)
    assert serializer.call_count == 3
    serializer.assert_any_call('x', link.x.array)
    serializer.assert_any_call('z', 1)
    assert link.z == 3
    ret = np.random.rand(2, 3).astype(np.float32)
    link = Link()
    with link.init_scope():
        link.x = Parameter()
    link.serialize(mock.MagicMock(return_value=ret))
    np.testing.assert_array_equal(link.x.array, ret)


def test_chain_serialize_visits_children_by_name():
    from unittest import mock
    mocks = {'l1': mock.MagicMock(return_value=None), 'l2': mock.MagicMock(return_value=None)}
    serializer = mock.MagicMock()
    serializer.__getitem__.side_effect = lambda k: mocks[k]
    net = Chain()
    with net.init_scope():
        net.l1 = Leaf()
        net.l2 = Leaf()
    net.serialize(serializer)
    assert serializer.call_count == 0 and serializer.__getitem__.call_count == 2
    mocks['l1'].assert_any_call('W', net.l1.W.array)


def test_count_params_warns_once_per_uninitialized_parameter():
    net = Net()
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        net.count_params()
    assert len(w) == 2 and all(x.category is UserWarning for x in w)


def test_variable_assigned_in_init_scope_is_not_a_parameter():
    link = Link()
    v = Variable(np.zeros(2, np.float32))
    with link.init_scope():
        link.v = v
    assert list(link.params()) == []


def test_chainlist_param_in_init_scope_is_registered():
    cl = ChainList(Leaf())
    p = Parameter()
    with cl.init_scope():
        cl.p = p
    assert next(iter(cl.params())) is p


def test_legacy_to_cpu_override_of_a_child_is_called_once_per_call():
    calls = []

    with pytest.warns(DeprecationWarning):
        class Old(Link):
            def to_cpu(self):
                calls.append(self)
                with pytest.deprecated_call(match='to_cpu is deprecated'):
                    return super().to_cpu()

    parent = Chain()
    with parent.init_scope():
        parent.child = Old()
    with pytest.deprecated_call(match='to_cpu is deprecated'):
        parent.to_cpu()
    assert calls == [parent.child]
    calls.clear()
    parent.child.to_cpu()   # the override's own super() call warns (asserted above)
    assert calls == [parent.child]


def test_call_dispatch_forward_mixin_and_missing_forward():
    from unittest import mock

    class Model(Chain):
        pass

    m = Model()
    m.forward = mock.MagicMock(return_value=5)
    assert m(0) == 5
    m.forward.assert_called_once_with(0)
    with pytest.raises(AttributeError):
        Model()(0)

    class CallMixin:
        def __call__(self, x):
            return ('mixin', x)

    class Mixed(Link, CallMixin):
        def forward(self, x):
            return ('forward', x)

    assert Mixed()(1) == ('mixin', 1)

    # a mixin's __call__ that is a plain callable object (no descriptor) is called as is
    call = mock.MagicMock(return_value=3)
    Injected = type('Injected', (Link, type('CallMock', (), {'__call__': call})), {})
    assert Injected()(1, a=2) == 3
    call.assert_called_once_with(1, a=2)


def test_to_cpu_is_deprecated_as_in_chainer():
    link = minichainer.links.Linear(2, 3)
    with pytest.warns(DeprecationWarning, match=r"to_cpu is deprecated. Please use "
                                                r"to_device\('@numpy'\) instead."):
        assert link.to_cpu() is link


@pytest.mark.parametrize('name', ['to_device', 'to_chx', 'from_chx'])
def test_final_device_methods_cannot_be_overridden(name):
    # Chainer declares them final: defining the class raises.
    with pytest.raises(TypeError, match="method '{}' is final".format(name)):
        type('Bad', (Link,), {name: lambda self, *args: self})


@pytest.mark.parametrize('name', ['to_cpu', 'to_gpu', 'to_intel64'])
def test_overriding_a_legacy_device_method_warns_at_class_creation(name):
    with pytest.warns(DeprecationWarning, match="Overriding method '{}'".format(name)):
        cls = type('Old', (Chain,), {name: lambda self, *args: self})
    # a subclass of that class overrides the user's method, not the final one: no warning
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        type('Older', (cls,), {name: lambda self, *args: self})
