"""`export_testcase`: model.onnx plus test_data_set_0 (inputs, outputs, gradients)."""
import os

import numpy
import pytest

import minichainer
import minichainer.functions as F
import minichainer.links as L

onnx = pytest.importorskip('onnx')
pytest.importorskip('onnxruntime')

import minichainer.onnx as oc  # noqa: E402
from minichainer.onnx.testing import input_generator  # noqa: E402
from minichainer.onnx.testing.test_onnxruntime import check_model_expect  # noqa: E402
from minichainer.onnx.testing.test_onnxruntime import load_test_data  # noqa: E402

# export_testcase exports with return_named_inout, which warns that the feature is
# experimental, as onnx_chainer's does: asserted once below, filtered in the other tests
pytestmark = pytest.mark.filterwarnings(
    'ignore:return_named_inout is experimental:FutureWarning')


def _model():
    return minichainer.Sequential(
        L.Convolution2D(None, 4, 3, 1, 1), F.relu, L.Linear(None, 8),
        L.BatchNormalization(8), F.relu, L.Linear(8, 3))


def _tensor(path):
    return onnx.load_tensor(str(path))


@pytest.mark.filterwarnings('error::FutureWarning')
def test_warns_that_named_inout_is_experimental_as_onnx_chainer(tmp_path):
    x = input_generator.increasing(2, 3, 5, 5)
    with pytest.warns(FutureWarning, match='return_named_inout is experimental'):
        oc.export_testcase(_model(), (x,), str(tmp_path))


@pytest.mark.parametrize('in_names,out_names', [(None, None), (['x'], ['y'])])
def test_files_and_names(tmp_path, in_names, out_names):
    x = input_generator.increasing(2, 3, 5, 5)
    model = _model()
    oc.export_testcase(model, (x,), str(tmp_path), input_names=in_names,
                       output_names=out_names)
    data = tmp_path / 'test_data_set_0'
    assert sorted(os.listdir(tmp_path)) == ['model.onnx', 'test_data_set_0']
    assert sorted(os.listdir(data)) == ['input_0.pb', 'output_0.pb']
    x_pb = _tensor(data / 'input_0.pb')
    assert x_pb.name == (in_names[0] if in_names else 'Input_0')
    numpy.testing.assert_array_equal(onnx.numpy_helper.to_array(x_pb), x)
    y_pb = _tensor(data / 'output_0.pb')
    assert y_pb.name == (out_names[0] if out_names else 'LinearFunction_1')
    with minichainer.using_config('train', False):
        numpy.testing.assert_allclose(onnx.numpy_helper.to_array(y_pb), model(x).array,
                                      rtol=1e-6)
    check_model_expect(str(tmp_path), input_names=in_names or ['Input_0'], rtol=1e-4)


@pytest.mark.parametrize('train', [False, True])
def test_gradients(tmp_path, train):
    model = _model()
    x = input_generator.increasing(2, 3, 5, 5)
    oc.export_testcase(model, (x,), str(tmp_path), output_grad=True, train=train)
    data = tmp_path / 'test_data_set_0'
    initializers = {t.name for t in onnx.load(str(tmp_path / 'model.onnx')).graph.initializer}
    params = list(model.namedparams())
    assert len(params) == 8
    expected = {}
    model.cleargrads()
    with minichainer.using_config('train', train):
        y = model(x)
    y.grad = numpy.ones_like(y.array)
    y.backward()
    for name, p in params:
        expected['param' + name.replace('/', '_')] = p.grad
    for i in range(len(params)):
        tensor = _tensor(data / 'gradient_{}.pb'.format(i))
        assert tensor.name.startswith('param_') and tensor.name in initializers
        numpy.testing.assert_allclose(onnx.numpy_helper.to_array(tensor),
                                      expected[tensor.name], rtol=1e-5, atol=1e-6)
    assert not (data / 'gradient_{}.pb'.format(len(params))).exists()


def test_several_outputs_and_inputs(tmp_path):
    class Model(minichainer.Chain):
        def forward(self, a, b):
            return F.tanh(a) * b, F.sigmoid(b)
    a, b = input_generator.increasing(2, 3), input_generator.positive_increasing(2, 3)
    oc.export_testcase(Model(), [a, b], str(tmp_path))
    inputs, outputs = load_test_data(str(tmp_path / 'test_data_set_0'),
                                     ['Input_0', 'Input_1'], ['Mul_0', 'Sigmoid_0'])
    numpy.testing.assert_array_equal(inputs['Input_1'], b)
    numpy.testing.assert_allclose(outputs['Sigmoid_0'], F.sigmoid(b).array)
    check_model_expect(str(tmp_path))


def test_nothing_written_when_the_export_fails(tmp_path):
    class NoConverter(minichainer.function_node.FunctionNode):
        def forward(self, inputs):
            return inputs[0] + 1,
    out = tmp_path / 'case'
    model = minichainer.Sequential(lambda x: NoConverter().apply((x,))[0])
    with pytest.raises(oc.UnsupportedFunctionError):
        oc.export_testcase(model, input_generator.increasing(2, 2), str(out))
    assert not out.exists()


def test_input_generator():
    numpy.testing.assert_array_equal(
        input_generator.increasing(3, 4)[0], [-3, -2.5, -2, -1.5])
    assert (input_generator.nonzero_increasing(3, 4) != 0).all()
    assert (input_generator.positive_increasing(3, 4) > 0).all()
    assert input_generator.increasing(2, 2, dtype=numpy.int32).dtype == numpy.int32


def test_mxnet_checker_says_it_is_not_supported():
    from minichainer.onnx.testing import test_mxnet
    with pytest.raises(ImportError, match='test_onnxruntime'):
        test_mxnet.check_model_expect('anywhere')
