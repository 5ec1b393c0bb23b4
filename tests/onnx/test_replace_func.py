"""`replace_func.as_funcnode` / `fake_as_funcnode`: a Python function as one exported node."""
import numpy
import pytest

import minichainer
import minichainer.functions as F

onnx = pytest.importorskip('onnx')
pytest.importorskip('onnxruntime')

import minichainer.onnx as oc  # noqa: E402
from minichainer.onnx import onnx_helper  # noqa: E402
from minichainer.onnx.replace_func import as_funcnode  # noqa: E402
from minichainer.onnx.replace_func import fake_as_funcnode  # noqa: E402


@pytest.fixture(autouse=True)
def _quiet(monkeypatch):
    monkeypatch.setattr(minichainer, 'disable_experimental_feature_warning', True)


def test_attributes_and_renames():
    captured = {}

    def converter(params):
        captured['func'] = params.func
        return onnx_helper.make_node('Identity', params.input_names[:1],
                                     params.output_names),

    def func(x, a, b, c=1, d=2):
        return x * a

    wrapped = fake_as_funcnode(func, 'Custom', rename_attributes=[(1, 'value'), ('c', 'y')])

    class Model(minichainer.Chain):
        def forward(self, x):
            return wrapped(x, 3, 4, c=5)
    oc.export(Model(), numpy.ones((2, 2), numpy.float32),
              external_converters={'Custom': converter})
    node = captured['func']
    assert node.custom_function_node_name == 'Custom'
    assert (node.value, node.arg2, node.y, node.d) == (3, 4, 5, 2)


def test_converter_for_the_wrapped_function(ort_session):
    @as_funcnode('NumpyFull')
    def full(xs, value=0):
        return numpy.full(xs.array.shape, value, dtype=numpy.float32)

    def converter(params):
        gb = onnx_helper.GraphBuilder()
        shape = gb.op('Shape', params.input_names)
        value = onnx.helper.make_tensor('value', onnx.TensorProto.FLOAT, [1],
                                        [params.func.value])
        gb.op_output_named('ConstantOfShape', [shape], params.output_names, value=value)
        return gb.nodes()

    model = minichainer.Sequential(lambda x: F.sigmoid(full(x, value=5)))
    x = numpy.zeros((2, 3), numpy.float32)
    proto = oc.export(model, x, external_converters={'NumpyFull': converter},
                      input_shapes=[('n', 3)])
    y, = ort_session(proto).run(None, {'Input_0': numpy.zeros((4, 3), numpy.float32)})
    numpy.testing.assert_allclose(y, numpy.full((4, 3), 1 / (1 + numpy.exp(-5.0))),
                                  rtol=1e-6)


def test_structured_results_and_backward():
    @as_funcnode('Pair')
    def pair(x, y):
        return {'sum': x + y, 'prod': [x * y]}
    x = minichainer.Variable(numpy.array([1., 2.], numpy.float32))
    y = minichainer.Variable(numpy.array([3., 4.], numpy.float32))
    out = pair(x, y)
    assert set(out) == {'sum', 'prod'} and isinstance(out['prod'], list)
    assert out['sum'].creator.custom_function_node_name == 'Pair'
    F.sum(out['sum'] + out['prod'][0]).backward()
    numpy.testing.assert_allclose(x.grad, [4, 5])
    numpy.testing.assert_allclose(y.grad, [2, 3])


def test_list_of_variables_are_inputs_and_errors():
    @as_funcnode('Stack')
    def stack(xs, axis=0):
        return F.stack(xs, axis)
    a = minichainer.Variable(numpy.ones(2, numpy.float32))
    y = stack([a, a * 2], axis=1)
    assert len(y.creator.inputs) == 2 and y.creator.axis == 1
    with pytest.raises(ValueError, match='at least one chainer.Variable'):
        stack(numpy.ones(2))
    with pytest.raises(ValueError, match='mixed'):
        stack([a, numpy.ones(2)])

    @as_funcnode('Bad')
    def bad(x):
        return 'text'
    with pytest.raises(ValueError, match='must consist only array'):
        bad(a)
