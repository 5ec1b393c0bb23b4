import functools
import pickle

import numpy as np
import pytest

from minichainer import link as link_module
from minichainer.sequential import Sequential
from minichainer.variable import Parameter


class Affine(link_module.Link):
    def __init__(self, scale):
        super().__init__()
        with self.init_scope():
            self.a = Parameter(np.array([scale], np.float32))

    def forward(self, x):
        return x * self.a.array[0]


def add_one(x):
    return x + 1


def test_forward_applies_layers_in_order():
    seq = Sequential(Affine(2), add_one, Affine(3))
    assert seq(np.float32(1)) == 9
    assert len(seq) == 3 and seq[1] is add_one
    assert [x.name for x in seq._children] == ['0', '1']
    assert [n for n, _ in seq.namedparams()] == ['/0/a', '/1/a']


def test_tuple_outputs_are_unpacked():
    seq = Sequential(lambda x: (x, 2 * x), lambda a, b: a + b)
    assert seq(3) == 9


def test_list_operations_keep_children_named():
    a, b, c = Affine(1), Affine(2), Affine(3)
    seq = Sequential(a, add_one)
    seq.append(b)
    seq.insert(0, c)
    assert list(seq) == [c, a, add_one, b]
    assert [x.name for x in seq._children] == ['0', '1', '2']
    assert seq.pop(1) is a
    assert [x.name for x in seq._children] == ['0', '1'] and seq._children == [c, b]
    seq.remove(add_one)
    assert list(seq) == [c, b]
    seq[0] = add_one
    assert seq._children == [b] and b.name == '0'
    assert seq.index(b) == 1 and seq.count(add_one) == 1 and b in seq
    del seq[0]
    assert list(seq) == [b]
    seq.clear()
    assert len(seq) == 0 and list(seq.params()) == []


def test_bad_layers_are_rejected():
    seq = Sequential()
    with pytest.raises(ValueError, match='callable'):
        seq.append(3)
    with pytest.raises(ValueError, match='not a layer'):
        seq.remove(add_one)
    with pytest.raises(ValueError, match='Sequential'):
        seq + [add_one]


def test_add_iadd_extend_flatten():
    s1 = Sequential(Affine(2), add_one)
    s2 = Sequential(Affine(3))
    s3 = s1 + s2
    assert len(s3) == 3 and s3(np.float32(1)) == 9
    s1 += s2
    assert len(s1) == 3
    nested = Sequential(Sequential(add_one, add_one), add_one)
    assert len(nested.flatten()) == 3 and nested.flatten()(0) == 3


def test_layer_type_helpers():
    seq = Sequential(Affine(1), add_one, Affine(2), add_one)
    assert seq.count_by_layer_type('Affine') == 2
    assert seq.count_by_layer_type('add_one') == 2
    seq.remove_by_layer_type('add_one')
    assert len(seq) == 2 and [x.name for x in seq._children] == ['0', '1']


def test_copy_modes():
    seq = Sequential(Affine(2), add_one)
    shared = seq.copy('share')
    assert shared[0] is not seq[0] and shared[0].a.array is seq[0].a.array
    copied = seq.copy('copy')
    assert copied[0].a.array is not seq[0].a.array
    assert copied(np.float32(1)) == 3


def test_serialize_keys_count_links_only():
    store = {}

    class Ser:
        def __init__(self, path=''):
            self.path = path

        def __getitem__(self, key):
            return Ser(self.path + key + '/')

        def __call__(self, key, value):
            store[self.path + key] = value
            return value

    Sequential(add_one, Affine(1), add_one, Affine(2)).serialize(Ser())
    assert sorted(store) == ['0/a', '1/a']


def test_pickle_rejects_lambda_but_accepts_partial():
    with pytest.raises(ValueError, match='lambda'):
        pickle.dumps(Sequential(lambda x: x))
    seq = Sequential(Affine(2), functools.partial(np.add, 1))
    clone = pickle.loads(pickle.dumps(seq))
    assert clone(np.float32(1)) == 3


def test_str():
    text = str(Sequential(Affine(2), add_one))
    assert text.splitlines()[0] == 'Sequential('
    assert text.splitlines()[1] == '  (0): Affine(),'
    assert text.splitlines()[2].startswith('  (1): <function add_one at ')
    assert str(Sequential()) == 'Sequential()'


def test_empty_forward_and_copyparams():
    with pytest.raises(RuntimeError, match='does not have any layer'):
        Sequential()(1)
    a, b = Sequential(Affine(2), add_one), Sequential(Affine(5), add_one)
    a.copyparams(b)
    assert a[0].a.array[0] == 5
    with pytest.raises(ValueError, match='Sequential'):
        a.copyparams(link_module.ChainList(Affine(1)))


def test_str_matches_chainer_layout_and_slices_are_lists():
    import minichainer.links as L
    s = Sequential(L.Linear(None, 3), L.Linear(3, 2))
    assert str(s) == ('Sequential(\n  (0): Linear(in_size=None, out_size=3, nobias=False),\n'
                      '  (1): Linear(in_size=3, out_size=2, nobias=False),\n)')
    assert isinstance(s[0:1], list)
    with pytest.raises(ValueError, match='less than'):
        s[5] = add_one


def test_nested_sequential_repeat_and_contains():
    import minichainer.links as L
    l1, l2, l3 = L.Linear(None, 3), L.Linear(3, 2), L.Linear(2, 3)
    s1 = Sequential(l1, l2)
    s2 = Sequential(s1, l3)
    assert [n for n, _ in s2.namedparams()] == [
        '/0/0/W', '/0/0/b', '/0/1/W', '/0/1/b', '/1/W', '/1/b']
    assert l1 in s1 and l2 not in s2 and s1.name == '0'
    ret = s2.repeat(2)
    assert type(ret[0]) is Sequential and ret[0] is not ret[1]
    assert not np.array_equal(ret[0][1].W.array, l3.W.array)
    ret = s2.repeat(2, mode='share')
    assert ret[1][1].W.array is l3.W.array
    flat = s2.flatten()
    assert list(flat) == [l1, l2, l3]


def test_child_order_follows_chainer_7():
    # Chainer 7 inserts an appended link right after the first link before it, so the
    # children (and npz keys) of Sequential(A, B, C) are A -> '0', C -> '1', B -> '2'.
    a, b, c = Affine(1), Affine(2), Affine(3)
    seq = Sequential(a, b, add_one, c)
    assert seq._children == [a, c, b]
    assert (a.name, c.name, b.name) == ('0', '1', '2')
    assert seq(np.float32(1)) == 9  # forward still follows the layer order: (1*1*2+1)*3
    del seq[1]
    assert seq._children == [a, c] and c.name == '1'
    seq.clear()
    assert seq._children == [] and list(seq.params()) == []
