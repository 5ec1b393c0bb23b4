import copy

import numpy as np
import pytest

import minichainer
import minichainer.links as L
from minichainer import gradient_check
from minichainer.links.loss import hierarchical_softmax as hs
from minichainer.utils import type_check

from . import _common

TREE = ((0, 1), ((2, 3), 4))
# Internal nodes in pre-order: 0 = root, 1 = (0, 1), 2 = ((2, 3), 4), 3 = (2, 3).
PATHS = {0: ([0, 1], [1, 1]), 1: ([0, 1], [1, -1]), 2: ([0, 2, 3], [-1, 1, 1]),
         3: ([0, 2, 3], [-1, 1, -1]), 4: ([0, 2], [-1, -1])}


def _sigmoid(z):
    return 1 / (1 + np.exp(-z))


def _probs(W, x):
    # P(word | x) for every word of TREE.
    W = W.astype(np.float64)
    return np.array([np.prod(_sigmoid(np.array(c) * W[p].dot(x)))
                     for p, c in (PATHS[w] for w in range(5))])


def test_huffman_tree():
    make = L.BinaryHierarchicalSoftmax.create_huffman_tree
    assert make({0: 8, 1: 5, 2: 6, 3: 4}) == ((3, 1), (2, 0))
    assert make({'x': 8, 'y': 6, 'z': 5, 'w': 4, 'v': 3}) == (('z', 'y'), (('v', 'w'), 'x'))
    # Ties are broken by insertion order, as in Chainer.
    assert make({0: 1.5, 1: 1.5, 2: 1.5}) == (2, (0, 1))
    assert make({7: 3}) == 7
    with pytest.raises(ValueError, match='empty'):
        make({})


def test_tree_parser():
    parser = hs.TreeParser()
    parser.parse(((0, (1, 2)), (3, 4)))
    assert parser.size() == 4
    expected = {0: ([0, 1], [1, 1]), 1: ([0, 1, 2], [1, -1, 1]), 2: ([0, 1, 2], [1, -1, -1]),
                3: ([0, 3], [-1, 1]), 4: ([0, 3], [-1, -1])}
    for word, (path, code) in expected.items():
        assert parser.get_paths()[word].tolist() == path
        assert parser.get_paths()[word].dtype == np.int32
        assert parser.get_codes()[word].tolist() == code
    assert parser.get_parent2child() == {0: (1, 3), 1: (-1, 2), 2: (-1, -1), 3: (-1, -1)}
    assert parser.get_node2word() == {0: (-1, -1), 1: (0, -1), 2: (1, 2), 3: (3, 4)}
    assert hs.TreeParser(np.float16).dtype == np.float16
    with pytest.raises(ValueError, match='two child nodes'):
        parser.parse(((0, 1, 2), 3))
    with pytest.raises(ValueError, match='more than once'):
        parser.parse(((0, 1), 1))


def test_function_tables_as_chainer():
    f = hs.BinaryHierarchicalSoftmaxFunction(TREE, np.float32)
    # Values from Chainer 7.8.1.
    assert f.paths.tolist() == [0, 1, 0, 1, 0, 2, 3, 0, 2, 3, 0, 2]
    assert f.codes.tolist() == [1, 1, 1, -1, -1, 1, 1, -1, 1, -1, -1, -1]
    assert f.begins.tolist() == [0, 2, 4, 7, 10, 12]
    assert f.parser_size == 4 and f.begins.dtype == np.int32
    # A word id missing from the tree has an empty path.
    g = hs.BinaryHierarchicalSoftmaxFunction(((0, 3), 1))
    assert g.begins.tolist() == [0, 2, 3, 3, 5]
    # ... so its loss is 0, as in Chainer.
    link = L.BinaryHierarchicalSoftmax(2, ((0, 3), 1))
    assert link(np.ones((1, 2), np.float32), np.array([2], np.int32)).array == 0


def test_parameters_as_chainer():
    np.random.seed(5)
    link = L.BinaryHierarchicalSoftmax(2, ((0, (1, 2)), 3))
    # Uniform(1) draws, computed once with Chainer 7.8.1.
    np.testing.assert_array_equal(link.W.array, np.array(
        [[-0.5560136437416077, 0.7414646148681641], [-0.5865616798400879, 0.8372218012809753],
         [-0.023177621886134148, 0.2234877198934555]], np.float32))
    x = np.random.RandomState(7).uniform(-1, 1, (3, 2)).astype(np.float32)
    loss = link(x, np.array([0, 2, 3], np.int32))
    np.testing.assert_allclose(loss.array, 3.351508, rtol=1e-6)
    assert [name for name, _ in link.namedparams()] == ['/W']
    with minichainer.using_config('dtype', np.float16):
        link = L.BinaryHierarchicalSoftmax(2, TREE)
    assert link.W.dtype == np.float16 and link._func.codes.dtype == np.float16


@pytest.mark.parametrize('dtype,tol', [(np.float16, 5e-3), (np.float32, 1e-5),
                                       (np.float64, 1e-10)])
def test_forward_matches_reference(dtype, tol):
    with minichainer.using_config('dtype', dtype):
        link = L.BinaryHierarchicalSoftmax(3, TREE)
    x = np.random.uniform(-1, 1, (4, 3)).astype(dtype)
    t = np.array([0, 2, 4, 2], np.int32)
    loss = link(x, t)
    assert loss.shape == () and loss.dtype == dtype
    expected = -sum(np.log(_probs(link.W.array, x[i].astype(np.float64))[t[i]])
                    for i in range(4))
    np.testing.assert_allclose(loss.array, expected, rtol=tol, atol=tol)


def test_probabilities_sum_to_one():
    link = L.BinaryHierarchicalSoftmax(3, TREE)
    x = np.array([[1.0, 2.0, 3.0]], np.float32)
    total = sum(np.exp(-link(x, np.array([w], np.int32)).array) for w in range(5))
    assert abs(total - 1) < 1e-5


def test_gradients():
    with minichainer.using_config('dtype', np.float64):
        link = L.BinaryHierarchicalSoftmax(3, TREE)
    x = np.random.uniform(-1, 1, (4, 3))
    t = np.array([0, 3, 3, 4], np.int32)
    gradient_check.check_backward(lambda x: link(x, t), x, np.random.uniform(-1, 1, ()),
                                  params=(link.W,), dtype=np.float64)
    # Rows of W that no path uses get zero gradient; large scores stay finite.
    link.cleargrads()
    link(np.full((1, 3), 50.0), np.array([0], np.int32)).backward()
    assert np.isfinite(link.W.grad).all() and (link.W.grad[2:] == 0).all()


def test_backward_without_forward_state():
    # backward recomputes what forward keeps when it is called on its own.
    link = L.BinaryHierarchicalSoftmax(3, TREE)
    x = np.random.uniform(-1, 1, (3, 3)).astype(np.float32)
    t = np.array([1, 2, 1], np.int32)
    gy = np.float32(0.7)
    gx, gt, gW = copy.copy(link._func).backward((x, t, link.W.array), (gy,))
    xv = minichainer.Variable(x)
    link.cleargrads()
    y = link(xv, t)
    y.grad = np.array(gy)
    y.backward()
    assert gt is None
    np.testing.assert_allclose(gx, xv.grad, rtol=1e-6)
    np.testing.assert_allclose(gW, link.W.grad, rtol=1e-6)


def test_each_call_uses_a_fresh_function():
    link = L.BinaryHierarchicalSoftmax(3, TREE)
    x = np.ones((1, 3), np.float32)
    y1 = link(x, np.array([1], np.int32))
    y2 = link(x, np.array([1], np.int32))
    assert y1.creator is not y2.creator and y1.creator is not link._func
    np.testing.assert_array_equal(y1.array, y2.array)


def test_sample():
    link = L.BinaryHierarchicalSoftmax(3, TREE)
    x = np.random.uniform(-1, 1, (2, 3)).astype(np.float32)
    words = link.sample(minichainer.Variable(x))
    assert isinstance(words, np.ndarray) and words.shape == (2,)
    assert words.dtype == np.int32 and ((0 <= words) & (words <= 4)).all()
    np.random.seed(0)
    counts = np.zeros((2, 5))
    for _ in range(2000):
        counts[[0, 1], link.sample(x)] += 1
    expected = np.stack([_probs(link.W.array, x[i]) for i in range(2)])
    np.testing.assert_allclose(counts / 2000, expected, atol=0.04)
    single = L.BinaryHierarchicalSoftmax(3, 6)
    assert single.sample(x).tolist() == [6, 6]
    with pytest.raises(ValueError, match=r'shape \(batch, 3\)'):
        link.sample(np.zeros((2, 2), np.float32))


def test_bad_arguments():
    with pytest.raises(ValueError, match='non-negative int word ids'):
        L.BinaryHierarchicalSoftmax(3, (('a', 'b'), 'c'))
    link = L.BinaryHierarchicalSoftmax(3, TREE)
    with pytest.raises(ValueError, match=r'word ids in \[0, 5\)'):
        link(np.zeros((1, 3), np.float32), np.array([5], np.int32))
    with pytest.raises(type_check.InvalidType):
        link(np.zeros((1, 3), np.float32), np.array([1], np.int64))
    with pytest.raises(type_check.InvalidType):
        link(np.zeros((1, 4), np.float32), np.array([1], np.int32))


def test_serialization_copy_and_device(tmp_path):
    link = _common.check_npz_copy_and_device(
        lambda: L.BinaryHierarchicalSoftmax(3, TREE), ['W'], tmp_path)
    f = copy.deepcopy(link._func)
    with pytest.deprecated_call(match='to_cpu'):
        link.to_cpu()
    for name in ('paths', 'codes', 'begins'):
        np.testing.assert_array_equal(getattr(link._func, name), getattr(f, name))
