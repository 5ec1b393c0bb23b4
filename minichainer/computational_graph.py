"""Computational graph drawing in Graphviz dot (`chainer.computational_graph`)."""
import heapq

from minichainer.function_node import FunctionNode
from minichainer.variable import Variable, VariableNode

_var_style = {'shape': 'octagon', 'fillcolor': '#E0E0E0', 'style': 'filled'}
_func_style = {'shape': 'record', 'fillcolor': '#6495ED', 'style': 'filled'}


class DotNode:
    """A graph node with its dot attributes.

    Args:
        node: A VariableNode or FunctionNode.
        attribute (dict): Extra dot attributes (style).
        show_name (bool): Prefix the label of a named variable with its name.
    """

    def __init__(self, node, attribute=None, show_name=True):
        if not isinstance(node, (VariableNode, FunctionNode)):
            raise TypeError('DotNode: node must be a VariableNode or a FunctionNode, got '
                            '{}'.format(type(node).__name__))
        self.node = node
        self.id_ = id(node)
        self.attribute = {'label': node.label}
        if isinstance(node, VariableNode):
            if show_name and node.name is not None:
                self.attribute['label'] = '{}: {}'.format(node.name, self.attribute['label'])
            self.attribute['shape'] = 'oval'
        else:
            self.attribute['shape'] = 'box'
        if attribute is not None:
            self.attribute.update(attribute)

    @property
    def label(self):
        """The dot statement of the node: `<id> [k="v",...];`."""
        attributes = ['%s="%s"' % (k, v) for k, v in self.attribute.items()]
        return '%s [%s];' % (self.id_, ','.join(attributes))


class ComputationalGraph:
    """A directed acyclic graph of variable and function nodes.

    Args:
        nodes (list): VariableNodes and FunctionNodes.
        edges (list): `(head, tail)` pairs of nodes.
        variable_style (dict), function_style (dict): Dot styles.
        rankdir (str): `'TB'`, `'BT'`, `'LR'` or `'RL'`.
        remove_variable (bool): Draw only the function nodes.
        show_name (bool): Show variable names in labels.
    """

    def __init__(self, nodes, edges, variable_style=_var_style, function_style=_func_style,
                 rankdir='TB', remove_variable=False, show_name=True):
        if rankdir not in ('TB', 'BT', 'LR', 'RL'):
            raise ValueError('rankdir must be in TB, BT, LR or RL, got {!r}'.format(rankdir))
        self.nodes = nodes
        self.edges = edges
        self.variable_style = variable_style
        self.function_style = function_style
        self.rankdir = rankdir
        self.remove_variable = remove_variable
        self.show_name = show_name

    def _to_dot(self):
        parts = ['digraph graphname{rankdir=%s;' % self.rankdir]
        if self.remove_variable:
            self.nodes, self.edges = _skip_variable(self.nodes, self.edges)
        for node in self.nodes:
            if isinstance(node, VariableNode):
                if not self.remove_variable:
                    parts.append(DotNode(node, self.variable_style, self.show_name).label)
            else:
                parts.append(DotNode(node, self.function_style, self.show_name).label)
        drawn = set()
        for head, tail in self.edges:
            if not self.remove_variable and not (
                    (isinstance(head, VariableNode) and isinstance(tail, FunctionNode))
                    or (isinstance(head, FunctionNode) and isinstance(tail, VariableNode))):
                raise TypeError('head and tail should be the set of VariableNode and '
                                'Function')
            edge = (id(head), id(tail))
            if edge in drawn:
                continue
            parts.append('%s -> %s;' % edge)
            drawn.add(edge)
        parts.append('}')
        return ''.join(parts)

    def dump(self, format='dot'):
        """Return the graph as text in `format` (only `'dot'`).

        Raises:
            NotImplementedError: another format is asked for.
        """
        if format == 'dot':
            return self._to_dot()
        raise NotImplementedError(
            "ComputationalGraph.dump: only format='dot' is supported, got {!r}".format(
                format))


def _skip_variable(nodes, edges):
    func_edges = []
    for head, tail in edges:
        if isinstance(head, VariableNode):
            if head.creator_node is None:
                continue
            head = head.creator_node
        if isinstance(tail, VariableNode):
            for node in nodes:
                if isinstance(node, FunctionNode) and any(
                        x is tail for x in (node.inputs or ())):
                    tail = node
                    break
            else:
                continue
        func_edges.append((head, tail))
    return nodes, func_edges


def build_computational_graph(outputs, remove_split=True, variable_style=_var_style,
                              function_style=_func_style, rankdir='TB',
                              remove_variable=False, show_name=True):
    """Build the graph of the nodes backward-reachable from `outputs`.

    Args:
        outputs: a Variable, VariableNode or FunctionNode, or a sequence of them.
        remove_split (bool): Must be True (kept for compatibility).
        variable_style, function_style, rankdir, remove_variable, show_name: as in
            `ComputationalGraph`.

    Returns:
        ComputationalGraph: nodes in discovery order (deterministic, unlike Chainer's
        set order) and the edges.
    """
    if not remove_split:
        raise ValueError('remove_split=False is not supported anymore')
    output_types = (Variable, VariableNode, FunctionNode)
    if isinstance(outputs, output_types):
        outputs = [outputs]
    else:
        for o in outputs:
            if not isinstance(o, output_types):
                raise TypeError('build_computational_graph: each output must be a Variable, '
                                'a VariableNode or a FunctionNode, got {}'.format(
                                    type(o).__name__))
    cands = []
    seen_edges = {}
    nodes = {}
    count = [0]

    def add_cand(cand):
        heapq.heappush(cands, (-cand.rank, count[0], cand))
        count[0] += 1

    for o in outputs:
        if isinstance(o, Variable):
            o = o.node
        add_cand(o)
        nodes[id(o)] = o

    while cands:
        _, _, cand = heapq.heappop(cands)
        if isinstance(cand, VariableNode):
            creator = cand.creator_node
            if creator is not None and (id(creator), id(cand)) not in seen_edges:
                add_cand(creator)
                seen_edges[(id(creator), id(cand))] = (creator, cand)
                nodes.setdefault(id(creator), creator)
                nodes.setdefault(id(cand), cand)
        elif isinstance(cand, FunctionNode):
            for input_ in cand.inputs:
                if input_ is not cand and (id(input_), id(cand)) not in seen_edges:
                    add_cand(input_)
                    seen_edges[(id(input_), id(cand))] = (input_, cand)
                    nodes.setdefault(id(input_), input_)
                    nodes.setdefault(id(cand), cand)
    return ComputationalGraph(list(nodes.values()), list(seen_edges.values()),
                              variable_style, function_style, rankdir, remove_variable,
                              show_name)
