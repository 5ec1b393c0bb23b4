import re

import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import computational_graph as c


def _graph():
    x = minichainer.Variable(numpy.ones((2, 3), numpy.float32), name='x')
    h = F.relu(x)
    y = F.sum(h * 2)
    y.name = 'y'
    return x, h, y


def test_build_graph_nodes_and_edges():
    x, h, y = _graph()
    g = c.build_computational_graph([y])
    funcs = [n for n in g.nodes if isinstance(n, minichainer.FunctionNode)]
    assert sorted(f.label for f in funcs) == ['ReLU', 'Sum', '_ * 2.0']
    var_nodes = [n for n in g.nodes if isinstance(n, minichainer.VariableNode)]
    assert x.node in var_nodes and y.node in var_nodes
    assert len(g.edges) == 6  # x->relu->h->mul->t->sum->y
    for head, tail in g.edges:
        assert isinstance(head, minichainer.VariableNode) != \
            isinstance(tail, minichainer.VariableNode)


def test_dump_dot_format():
    x, h, y = _graph()
    dot = c.build_computational_graph([y]).dump()
    assert dot.startswith('digraph graphname{rankdir=TB;')
    assert dot.endswith('}')
    assert '%d [label="x: (2, 3), float32",shape="octagon",fillcolor="#E0E0E0",' \
        'style="filled"];' % id(x.node) in dot
    assert '%d [label="y: float32",' % id(y.node) in dot
    assert re.search(r'\d+ \[label="ReLU",shape="record",fillcolor="#6495ED",'
                     r'style="filled"\];', dot)
    assert '%d -> %d;' % (id(x.node), id(h.creator_node)) in dot
    assert '%d -> %d;' % (id(h.creator_node), id(h.node)) in dot
    assert '%d -> %d;' % (id(y.creator_node), id(y.node)) in dot


def test_styles_rankdir_names_and_remove_variable():
    x, h, y = _graph()
    dot = c.build_computational_graph([y], variable_style=None, function_style=None,
                                      rankdir='LR', show_name=False).dump()
    assert dot.startswith('digraph graphname{rankdir=LR;')
    assert '[label="(2, 3), float32",shape="oval"];' in dot
    assert '[label="ReLU",shape="box"];' in dot
    only_funcs = c.build_computational_graph([y], remove_variable=True).dump()
    assert 'octagon' not in only_funcs
    assert len(re.findall(r'\d+ -> \d+;', only_funcs)) == 2  # relu->mul->sum
    with pytest.raises(ValueError, match='rankdir'):
        c.build_computational_graph([y], rankdir='XY')
    with pytest.raises(ValueError, match='remove_split'):
        c.build_computational_graph([y], remove_split=False)
    with pytest.raises(NotImplementedError, match='dot'):
        c.build_computational_graph([y]).dump('png')


def test_graph_stops_at_unchained_variable():
    x, h, y = _graph()
    h.unchain_backward()
    g = c.build_computational_graph([y])
    assert x.node not in g.nodes


def test_build_graph_accepts_a_single_output_and_rejects_arrays():
    # Chainer takes one Variable (not only a sequence); an ndarray is not iterated into
    # rows but refused.
    x = minichainer.Variable(numpy.zeros((1, 2), numpy.float32))
    z = F.relu(F.relu(x))
    assert len(c.build_computational_graph(z).nodes) == 5
    assert len(c.build_computational_graph(z.node).edges) == 4
    with pytest.raises(TypeError, match='Variable'):
        c.build_computational_graph(z.array)
