"""Hierarchical softmax over a binary tree: `BinaryHierarchicalSoftmax`."""
import copy
import heapq

import numpy

import minichainer
from minichainer import backend
from minichainer import device_resident
from minichainer import function
from minichainer.initializers import uniform
from minichainer import link
from minichainer.links._check import check_size
from minichainer.utils import scatter
from minichainer.utils import type_check
from minichainer import variable

# Child id of an internal node whose child is a leaf / word id of a child that is not a leaf.
LEAF = -1
NOT_LEAF = -1


class TreeParser:
    """Walks a binary tree of nested 2-tuples whose leaves are word ids.

    Internal nodes are numbered in pre-order from 0. For each leaf, `get_paths` gives
    the ids of the internal nodes from the root down to it and `get_codes` the
    direction taken at each (`1` left, `-1` right, in `dtype`).
    `get_parent2child` maps an internal node to the ids of its two children (`-1`
    for a leaf child) and `get_node2word` to the word ids of its two children
    (`-1` for an internal child).

    Args:
        dtype: Dtype of the codes (default float32).
    """

    def __init__(self, dtype=numpy.float32):
        self.next_id = 0
        self.dtype = dtype

    def size(self):
        """Number of internal nodes."""
        return self.next_id

    def get_paths(self):
        return self.paths

    def get_codes(self):
        return self.codes

    def get_parent2child(self):
        return self.parent2child

    def get_node2word(self):
        return self.node2word

    def parse(self, tree):
        """Parse `tree`; raises `ValueError` for a tuple that has not exactly two
        children or a leaf that appears twice."""
        self.next_id = 0
        self.paths = {}
        self.codes = {}
        self.parent2child = {}
        self.node2word = {}
        self._walk(tree, [], [])

    def _walk(self, node, path, code):
        # Returns (node id or LEAF, word or NOT_LEAF) of ``node``.
        if not isinstance(node, tuple):
            if node in self.paths:
                raise ValueError(
                    'TreeParser: leaf {!r} appears more than once in the tree'.format(node))
            self.paths[node] = numpy.array(path, dtype=numpy.int32)
            self.codes[node] = numpy.array(code, dtype=self.dtype)
            return LEAF, node
        if len(node) != 2:
            raise ValueError('TreeParser: all internal nodes must have two child nodes, '
                             'got a tuple of {}: {!r}'.format(len(node), node))
        node_id = self.next_id
        self.next_id += 1
        path.append(node_id)
        code.append(1.0)
        left = self._walk(node[0], path, code)
        code[-1] = -1.0
        right = self._walk(node[1], path, code)
        path.pop()
        code.pop()
        self.parent2child[node_id] = (left[0], right[0])
        self.node2word[node_id] = (left[1], right[1])
        return node_id, NOT_LEAF


class BinaryHierarchicalSoftmaxFunction(device_resident.DeviceResident, function.Function):
    """Old-style function computing the summed hierarchical softmax loss `(x, t, W)`.

    Parses the tree once;
    [`BinaryHierarchicalSoftmax`][minichainer.links.loss.hierarchical_softmax.BinaryHierarchicalSoftmax]
    copies it for every call.

    Args:
        tree: Binary tree of 2-tuples whose leaves are int word ids.
        dtype: Dtype of the codes (default float32).

    Attributes:
        paths (ndarray): int32 internal-node ids of every word's path, concatenated in
            word-id order.
        codes (ndarray): The matching directions (1 left, -1 right).
        begins (ndarray): int32 `(n_vocab + 1,)` offsets of each word in `paths`.
        parent2child, node2word (ndarray): int32 `(n_node, 2)` tables of the children
            of each internal node (see `TreeParser`).
        parser_size (int): Number of internal nodes (rows of `W`).
    """

    def __init__(self, tree, dtype=numpy.float32):
        device_resident.DeviceResident.__init__(self)
        parser = TreeParser(dtype)
        parser.parse(tree)
        paths = parser.get_paths()
        codes = parser.get_codes()
        for word in paths:
            if isinstance(word, bool) or not isinstance(word, (int, numpy.integer)) \
                    or word < 0:
                raise ValueError(
                    'BinaryHierarchicalSoftmax: the leaves of tree must be non-negative '
                    'int word ids, got {!r}'.format(word))
        n_vocab = max(paths) + 1
        n_node = parser.size()
        self.n_vocab = n_vocab
        self.parser_size = n_node
        words = sorted(paths)
        self.paths = numpy.concatenate([paths[w] for w in words])
        self.codes = numpy.concatenate([codes[w] for w in words])
        lengths = numpy.zeros(n_vocab, numpy.int32)
        for w in words:
            lengths[w] = len(paths[w])
        self.begins = numpy.concatenate(([0], numpy.cumsum(lengths))).astype(numpy.int32)
        self.parent2child = numpy.array(
            [parser.parent2child[i] for i in range(n_node)], numpy.int32).reshape(n_node, 2)
        self.node2word = numpy.array(
            [parser.node2word[i] for i in range(n_node)], numpy.int32).reshape(n_node, 2)
        # A tree that is a single leaf has no internal node: that word has probability 1.
        self._only_word = None if n_node else words[0]

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x', 't', 'W'))
        x_type, t_type, w_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == 2,
            t_type.dtype == numpy.int32,
            t_type.ndim == 1,
            x_type.shape[0] == t_type.shape[0],
            w_type.dtype == x_type.dtype,
            w_type.ndim == 2,
            w_type.shape[0] == self.parser_size,
            w_type.shape[1] == x_type.shape[1],
        )

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        for name in ('paths', 'codes', 'begins', 'parent2child', 'node2word'):
            setattr(self, name, visitor.visit_array(getattr(self, name)))

    def _gather(self, x, t, W):
        # All the (example, internal node) pairs of the batch's paths, flattened: ``rows``
        # (sorted) is the example, ``nodes``/``codes`` the node and direction; ``wxy`` is
        # ``code * W[node] . x[row]``. ``counts`` is each example's path length.
        xp = backend.get_array_module(x)
        if t.size and (int(t.min()) < 0 or int(t.max()) >= self.n_vocab):
            raise ValueError(
                'BinaryHierarchicalSoftmax: t must hold word ids in [0, {}), got values in '
                '[{}, {}]'.format(self.n_vocab, int(t.min()), int(t.max())))
        begins = self.begins
        counts = begins[t + 1] - begins[t]
        ends = xp.cumsum(counts)
        rows = xp.repeat(xp.arange(len(t)), counts)
        pos = xp.arange(int(ends[-1]) if len(t) else 0) + xp.repeat(
            begins[t] - (ends - counts), counts)
        nodes = self.paths[pos]
        codes = self.codes[pos].astype(x.dtype, copy=False)
        w = W[nodes]
        wxy = xp.einsum('nd,nd->n', w, x[rows]) * codes
        return rows, nodes, codes, w, wxy, counts

    def forward(self, inputs):
        x, t, W = inputs
        xp = backend.get_array_module(x)
        rows, nodes, codes, _, wxy, counts = self._gather(x, t, W)
        # Kept for backward (without the large W[nodes], gathered again there).
        self._saved = (x, t, W, rows, nodes, codes, wxy, counts)
        # log(1 + exp(-wxy)) summed over every path of the batch.
        loss = xp.logaddexp(x.dtype.type(0), -wxy).sum(dtype=x.dtype)
        return xp.asarray(loss, dtype=x.dtype),

    def backward(self, inputs, grad_outputs):
        x, t, W = inputs
        gloss, = grad_outputs
        xp = backend.get_array_module(x)
        saved = self.__dict__.pop('_saved', None)
        if saved is not None and all(a is b for a, b in zip(saved[:3], inputs)):
            rows, nodes, codes, wxy, counts = saved[3:]
            w = W[nodes]
        else:
            rows, nodes, codes, w, wxy, counts = self._gather(x, t, W)
        gx = xp.zeros_like(x)
        gW = xp.zeros_like(W)
        if not len(nodes):
            return gx, None, gW
        half = x.dtype.type(0.5)
        # d/d(wx) log(1 + exp(-wxy)) = -code * sigmoid(-wxy), written with tanh (no overflow).
        g = ((-gloss * half) * codes * (1 - xp.tanh(wxy * half))).astype(x.dtype, copy=False)
        # rows are sorted, so each example's entries are one run: gx sums its run;
        # gW gets every entry's g * x added into its node's row in the order of the
        # examples, as Chainer's loop adds them
        gx[...] = scatter.segment_sums(g[:, None] * w, counts)
        scatter.add_rows(gW, nodes, g[:, None] * x[rows])
        return gx, None, gW


class BinaryHierarchicalSoftmax(link.Link):
    """Hierarchical softmax loss over a binary tree (Morin & Bengio, AISTATS 2005).

    Each leaf of `tree` is a word id and each internal node `e` has a weight row
    `W[e]`. The probability of word `y` is the product over the internal nodes `e`
    on its path of `sigmoid(b * x . W[e])`, with `b = 1` where the path turns left and
    `-1` where it turns right; the loss is the sum over the batch of `-log P(t | x)`.
    It costs O(path length), O(log n) for a balanced or Huffman tree.

    Args:
        in_size (int): Dimension of the input vectors.
        tree: Binary tree made of 2-tuples with int word ids at the leaves, e.g.
            `((0, 1), 2)` (see
            [`create_huffman_tree`][minichainer.links.loss.hierarchical_softmax.BinaryHierarchicalSoftmax.create_huffman_tree]).
        dtype (numpy.dtype): Dtype of the path codes (default: `config.dtype`).

    Attributes:
        W (Parameter): `(number of internal nodes, in_size)` weight drawn
            from `Uniform(1)`; as in Chainer it has `config.dtype` whatever `dtype`
            is, and inputs must have W's dtype.
    """

    def __init__(self, in_size, tree, dtype=None):
        super().__init__()
        check_size('BinaryHierarchicalSoftmax', 'in_size', in_size)
        dtype = minichainer.get_dtype(dtype)
        self._func = BinaryHierarchicalSoftmaxFunction(tree, dtype)
        with self.init_scope():
            self.W = variable.Parameter(uniform.Uniform(1),
                                        (self._func.parser_size, in_size))

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        self._func.device_resident_accept(visitor)

    @staticmethod
    def create_huffman_tree(word_counts):
        """Build a Huffman tree from a dict mapping words to counts.

        The two least frequent entries are merged repeatedly (ties go to the entry seen
        first in the dict), e.g. `{0: 8, 1: 5, 2: 6, 3: 4}` gives `((3, 1), (2, 0))`.

        Raises:
            ValueError: `word_counts` is empty.
        """
        if not word_counts:
            raise ValueError('BinaryHierarchicalSoftmax.create_huffman_tree: word_counts '
                             'is empty')
        heap = [(count, uid, word) for uid, (word, count) in enumerate(word_counts.items())]
        heapq.heapify(heap)
        while len(heap) > 1:
            count1, uid1, node1 = heapq.heappop(heap)
            count2, uid2, node2 = heapq.heappop(heap)
            heapq.heappush(heap, (count1 + count2, min(uid1, uid2), (node1, node2)))
        return heap[0][2]

    def sample(self, x):
        """Draw one word id per row of `x` from the model's distribution `P(y | x)`.

        Walks down from the root, turning left at node `e` with probability
        `sigmoid(x . W[e])`; each level draws one `uniform(0, 1)` number per row from
        the global RNG of `x`'s array module.

        Args:
            x (Variable or ndarray): `(batch, in_size)` inputs.

        Returns:
            ndarray: int32 `(batch,)` word ids.
        """
        x = variable.as_array(x)
        xp = backend.get_array_module(x)
        func = self._func
        if x.ndim != 2 or x.shape[1] != self.W.shape[1]:
            raise ValueError('BinaryHierarchicalSoftmax.sample: x must have shape (batch, '
                             '{}), got {}'.format(self.W.shape[1], x.shape))
        batch = x.shape[0]
        if func._only_word is not None:
            return xp.full(batch, func._only_word, numpy.int32)
        W = self.W.array
        rows = xp.arange(batch)
        node = xp.zeros(batch, numpy.int32)
        words = xp.full(batch, -1, numpy.int32)
        active = rows
        while active.size:
            score = (W[node] * x[active]).sum(axis=1)
            p_left = 0.5 * (1 + xp.tanh(0.5 * score))
            side = (xp.random.uniform(0, 1, active.size) >= p_left).astype(numpy.int32)
            child = func.parent2child[node, side]
            at_leaf = child == LEAF
            words[active[at_leaf]] = func.node2word[node[at_leaf], side[at_leaf]]
            active = active[~at_leaf]
            node = child[~at_leaf]
        return words

    def forward(self, x, t):
        """Hierarchical softmax loss: `-sum_i log P(t_i | x_i)` as a scalar Variable.

        Args:
            x (Variable or ndarray): `(batch, in_size)` inputs.
            t (Variable or ndarray): int32 `(batch,)` word ids.
        """
        return copy.copy(self._func)(x, t, self.W)
