"""`minichainer.onnx.export`: graph, names, dynamic batch, determinism, atomic files, no
side effects, and clear errors for bad input."""
import io
import os
import subprocess
import sys
import warnings

import numpy
import pytest

import minichainer
import minichainer.functions as F
import minichainer.links as L
from minichainer.function_node import FunctionNode

onnx = pytest.importorskip('onnx')
pytest.importorskip('onnxruntime')

import minichainer.onnx as oc  # noqa: E402
from minichainer.onnx import onnx_helper  # noqa: E402


def _x(*shape, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(numpy.float32)


class MLP(minichainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(4, 6)
            self.l2 = L.Linear(6, 3)

    def forward(self, x):
        return self.l2(F.relu(self.l1(x)))


def _inputs(proto):
    initializers = {t.name for t in proto.graph.initializer}
    return [i.name for i in proto.graph.input if i.name not in initializers]


# -- names ------------------------------------------------------------------------------

def test_default_names():
    proto = oc.export(MLP(), _x(2, 4))
    assert _inputs(proto) == ['Input_0']
    assert [o.name for o in proto.graph.output] == ['LinearFunction_1']
    assert [t.name for t in proto.graph.initializer] == [
        'param_l1_W', 'param_l1_b', 'param_l2_W', 'param_l2_b']
    assert proto.graph.node[-1].output[0] == 'LinearFunction_1'
    assert proto.graph.node[-1].name.startswith('LinearFunction_1')
    assert proto.producer_name == 'Chainer'
    assert proto.graph.name == 'Graph'
    assert proto.opset_import[0].version == oc.MAXIMUM_OPSET_VERSION


def test_maximum_opset_is_the_newest_onnxruntime_runs():
    import onnxruntime
    assert oc.MINIMUM_OPSET_VERSION == 7
    assert oc.MAXIMUM_OPSET_VERSION <= onnx.defs.onnx_opset_version()
    assert oc.MAXIMUM_OPSET_VERSION >= 11   # onnx_chainer's old cap is exceeded
    # ONNX Runtime loads a model of that opset
    proto = oc.export(minichainer.Sequential(F.relu), _x(2, 3))
    onnxruntime.InferenceSession(proto.SerializeToString(),
                                 providers=['CPUExecutionProvider'])


@pytest.mark.parametrize('args,names,expected', [
    ([_x(2, 4), _x(2, 4)], ['a', 'b'], ['a', 'b']),
    ((_x(2, 4), _x(2, 4)), ('a', 'b'), ['a', 'b']),
    ({'x': _x(2, 4), 'y': _x(2, 4)}, {'y': 'in_y', 'x': 'in_x'}, ['in_x', 'in_y']),
    ({'x': _x(2, 4), 'y': _x(2, 4)}, ['p', 'q'], ['p', 'q']),
    ({'x': _x(2, 4), 'y': _x(2, 4)}, None, ['Input_0', 'Input_1']),
])
def test_input_names(args, names, expected):
    class Model(minichainer.Chain):
        def forward(self, x, y):
            return x * y
    with pytest.warns(FutureWarning, match='return_named_inout is experimental'):
        proto, inputs, outputs = oc.export(Model(), args, input_names=names,
                                           return_named_inout=True)
    assert _inputs(proto) == expected
    assert list(inputs) == expected
    assert all(isinstance(v, minichainer.Variable) for v in inputs.values())
    assert list(outputs) == ['Mul_0']


def test_single_input_name_as_str_and_output_names(ort_session):
    class Model(minichainer.Chain):
        def forward(self, x):
            return {'a': F.tanh(x), 'b': F.sigmoid(x)}
    x = _x(2, 3)
    with pytest.warns(FutureWarning, match='return_named_inout is experimental'):
        proto, inputs, outputs = oc.export(Model(), x, input_names='x',
                                           output_names={'b': 'out_b', 'a': 'out_a'},
                                           return_named_inout=True)
    assert _inputs(proto) == ['x']
    assert [o.name for o in proto.graph.output] == ['out_a', 'out_b']
    a, b = ort_session(proto).run(['out_a', 'out_b'], {'x': x})
    numpy.testing.assert_allclose(a, numpy.tanh(x), rtol=1e-6)
    numpy.testing.assert_array_equal(outputs['out_b'].array, F.sigmoid(x).array)


def test_intermediate_output_named():
    class Model(minichainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l1 = L.Linear(3, 4)
                self.l2 = L.Linear(4, 5)

        def forward(self, x):
            y = self.l1(x)
            return y, self.l2(y)
    proto = oc.export(Model(), _x(1, 3), output_names=['y', 'z'])
    assert [o.name for o in proto.graph.output] == ['y', 'z']
    gemm_inputs = [list(n.input) for n in proto.graph.node if n.output[0] == 'z'][0]
    assert 'y' in gemm_inputs


def test_model_returning_its_input_gets_an_identity(ort_session):
    proto = oc.export(minichainer.Sequential(lambda x: x), _x(2, 2))
    assert [n.op_type for n in proto.graph.node] == ['Identity']
    y, = ort_session(proto).run(None, {'Input_0': _x(2, 2)})
    numpy.testing.assert_array_equal(y, _x(2, 2))


# -- parameters, persistents, implicit inputs ------------------------------------------------

def test_shared_parameter_is_one_initializer(ort_session):
    class Model(minichainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l = L.Linear(3, 3)
                self.alias = self.l   # the same link under a second name

        def forward(self, x):
            return self.alias(F.relu(self.l(x)))
    model = Model()
    proto = oc.export(model, _x(2, 3))
    names = [t.name for t in proto.graph.initializer]
    assert len(names) == 2 and names[0] in ('param_l_W', 'param_alias_W')
    y, = ort_session(proto).run(None, {'Input_0': _x(2, 3)})
    numpy.testing.assert_allclose(y, model(_x(2, 3)).array, rtol=1e-5, atol=1e-6)


def test_constant_array_used_twice_is_one_initializer(ort_session):
    c = _x(3, seed=4)

    class Model(minichainer.Chain):
        def forward(self, x):
            return x * c + F.tanh(x) * c
    proto = oc.export(Model(), _x(2, 3))
    # x * array is MulConstant: its array is a Constant, the same one for both uses
    constants = [n for n in proto.graph.node if n.op_type == 'Constant']
    assert len(constants) == 1
    numpy.testing.assert_array_equal(
        onnx.numpy_helper.to_array(constants[0].attribute[0].t), c)
    y, = ort_session(proto).run(None, {'Input_0': _x(2, 3)})
    numpy.testing.assert_allclose(y, Model()(_x(2, 3)).array, rtol=1e-6)


def test_variable_made_in_forward_and_unregistered_parameter(ort_session):
    class Model(minichainer.Chain):
        def __init__(self):
            super().__init__()
            self.scale = minichainer.Parameter(numpy.array(2, numpy.float32))

        def forward(self, x):
            return x / self.scale + minichainer.Variable(numpy.array(3, numpy.float32))
    x = numpy.array(5, numpy.float32)
    proto = oc.export(Model(), x)
    assert len(proto.graph.initializer) == 2
    y, = ort_session(proto).run(None, {'Input_0': x})
    assert y == 5.5


def test_persistent_array_of_a_link_is_exported_by_path(ort_session):
    class Scale(minichainer.Link):
        def __init__(self):
            super().__init__()
            self.add_persistent('factor', _x(3, 3, seed=7))

        def forward(self, x):
            return F.matmul(x, self.factor)

    class Model(minichainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.s = Scale()

        def forward(self, x):
            return self.s(x)
    model = Model()
    proto = oc.export(model, _x(2, 3))
    assert [t.name for t in proto.graph.initializer] == ['param_s_factor']
    y, = ort_session(proto).run(None, {'Input_0': _x(2, 3)})
    numpy.testing.assert_allclose(y, model(_x(2, 3)).array, rtol=1e-5)


def test_uninitialized_parameter_warns():
    class Model(minichainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.used = L.Linear(None, 3)
                self.unused = L.Linear(None, 3)

        def forward(self, x):
            return self.used(x)
    with pytest.warns(UserWarning, match='unused/W'):
        proto = oc.export(Model(), _x(2, 4))
    assert [t.name for t in proto.graph.initializer] == ['param_used_W', 'param_used_b']


def test_export_params_false_makes_parameters_inputs():
    proto = oc.export(MLP(), _x(2, 4), export_params=False)
    assert not proto.graph.initializer
    assert [i.name for i in proto.graph.input] == [
        'Input_0', 'param_l1_W', 'param_l1_b', 'param_l2_W', 'param_l2_b']


# -- dynamic batch ------------------------------------------------------------------------

@pytest.mark.parametrize('spec', [('batch', 4), (None, 4)])
def test_dynamic_batch(ort_session, spec):
    model = MLP()
    proto = oc.export(model, _x(2, 4), input_shapes=spec)
    dim = proto.graph.input[0].type.tensor_type.shape.dim[0]
    assert dim.dim_param == (spec[0] or '') and not dim.HasField('dim_value')
    out_dim = proto.graph.output[0].type.tensor_type.shape.dim
    assert not out_dim[0].HasField('dim_value') and out_dim[1].dim_value == 3
    if spec[0]:
        assert out_dim[0].dim_param == 'batch'   # inferred through the graph
    session = ort_session(proto)
    for batch in (1, 7):
        x = _x(batch, 4, seed=batch)
        y, = session.run(None, {'Input_0': x})
        numpy.testing.assert_allclose(y, model(x).array, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize('args,shapes', [
    (_x(10, 5), '?'), (_x(10, 5), ('?', 5, 5)), (_x(10, 5), [('?', 5), ('?', 5)]),
    ([_x(10, 5), _x(10, 5)], [('?', 5)]), ([_x(10, 5), _x(10, 5)], [('?', 5), ('?', 5, 5)]),
    ({'a': _x(10, 5), 'b': _x(10, 5)}, {'a': ('?', 5), 'c': ('?', 5)}),
])
def test_bad_input_shapes(args, shapes):
    with pytest.raises(ValueError, match='input_shapes'):
        oc.export(minichainer.Sequential(lambda *xs: xs[0]), args, input_shapes=shapes)


# -- determinism, files --------------------------------------------------------------------

def test_same_model_same_bytes(tmp_path):
    model = MLP()
    first = oc.export(model, _x(2, 4)).SerializeToString()
    assert oc.export(model, _x(2, 4)).SerializeToString() == first
    copy = MLP()
    copy.copyparams(model)
    assert oc.export(copy, _x(2, 4)).SerializeToString() == first
    oc.export(model, _x(2, 4), filename=str(tmp_path / 'a.onnx'), no_testcase=True)
    oc.export(model, _x(2, 4), filename=str(tmp_path / 'b.onnx'), no_testcase=True)
    assert (tmp_path / 'a.onnx').read_bytes() == (tmp_path / 'b.onnx').read_bytes() == first


def test_file_text_and_file_object(tmp_path):
    path = tmp_path / 'm.onnx'
    with pytest.warns(DeprecationWarning, match='export_testcase'):
        proto = oc.export(MLP(), _x(2, 4), filename=str(path), save_text=True)
    assert onnx.load(str(path)) == proto
    assert 'param_l1_W' in (tmp_path / 'm.onnx.txt').read_text()
    stream = io.BytesIO()
    oc.export(MLP(), _x(2, 4), filename=stream, no_testcase=True)
    assert onnx.load_from_string(stream.getvalue()).graph.node
    with pytest.raises(TypeError, match='binary'):
        oc.export(MLP(), _x(2, 4), filename=io.StringIO(), no_testcase=True)
    assert sorted(os.listdir(tmp_path)) == ['m.onnx', 'm.onnx.txt']  # no temporary left


class _NoConverter(FunctionNode):
    def forward(self, inputs):
        return inputs[0] * 2,


def _unsupported(x):
    return _NoConverter().apply((F.relu(x),))[0]


def test_missing_converter_names_function_opset_and_writes_nothing(tmp_path):
    path = tmp_path / 'model.onnx'
    with pytest.raises(oc.UnsupportedFunctionError) as info:
        oc.export(minichainer.Sequential(_unsupported), _x(2, 2), filename=str(path),
                  opset_version=13, no_testcase=True)
    message = str(info.value)
    assert '_NoConverter' in message and 'opset_version 13' in message
    assert 'external_converters' in message
    assert isinstance(info.value, ValueError)
    assert not path.exists() and os.listdir(tmp_path) == []
    # an existing file is left as it was
    path.write_bytes(b'old')
    with pytest.raises(oc.UnsupportedFunctionError):
        oc.export(minichainer.Sequential(_unsupported), _x(2, 2), filename=str(path),
                  no_testcase=True)
    assert path.read_bytes() == b'old' and os.listdir(tmp_path) == ['model.onnx']


def test_external_converter_for_a_missing_one(ort_session, monkeypatch):
    def converter(params):
        gb = onnx_helper.GraphBuilder()
        two = gb.const(numpy.array(2, numpy.float32))
        gb.op('Mul', params.input_names + [two])
        return gb.nodes(params.output_names)
    monkeypatch.setattr(minichainer, 'disable_experimental_feature_warning', True)
    proto = oc.export(minichainer.Sequential(_unsupported), _x(2, 2),
                      external_converters={'_NoConverter': converter})
    y, = ort_session(proto).run(None, {'Input_0': _x(2, 2)})
    numpy.testing.assert_allclose(y, numpy.maximum(_x(2, 2), 0) * 2)


def test_external_converter_replaces_builtin_and_custom_domain(monkeypatch):
    def custom(params):
        return onnx_helper.make_node('MyRelu', params.input_names, params.output_names,
                                     domain='my.domain'),
    monkeypatch.setattr(minichainer, 'disable_experimental_feature_warning', True)
    proto = oc.export(minichainer.Sequential(F.relu), _x(2, 2),
                      external_converters={'ReLU': custom},
                      external_opset_imports={'my.domain': 1})
    assert [(n.op_type, n.domain) for n in proto.graph.node] == [('MyRelu', 'my.domain')]
    assert {(o.domain, o.version) for o in proto.opset_import} >= {('my.domain', 1)}


# -- no side effects -----------------------------------------------------------------------

def test_no_patching_and_no_hooks_left():
    original_apply = FunctionNode.apply
    seen = []

    def probe(x):
        seen.append(FunctionNode.apply is original_apply)
        return F.relu(x)
    model = MLP()
    params = {n: (p.array.copy(), p.grad.copy()) for n, p in model.namedparams()}
    oc.export(minichainer.Sequential(probe, model), _x(2, 4))
    assert seen == [True]
    from minichainer.function_hook import get_function_hooks
    from minichainer.link_hook import get_link_hooks
    assert not get_function_hooks() and not get_link_hooks()
    for n, p in model.namedparams():
        numpy.testing.assert_array_equal(p.array, params[n][0])
        numpy.testing.assert_array_equal(p.grad, params[n][1])
    with pytest.raises(oc.UnsupportedFunctionError):
        oc.export(minichainer.Sequential(_unsupported), _x(2, 2))
    assert not get_function_hooks() and not get_link_hooks()
    assert minichainer.config.train is True   # restored


# -- bad input -------------------------------------------------------------------------------

@pytest.mark.parametrize('opset', [6, 10 ** 3, 'latest', 7.0, True])
def test_bad_opset(opset):
    with pytest.raises((ValueError, TypeError), match='opset_version'):
        oc.export(MLP(), _x(2, 4), opset_version=opset)


def test_bad_args():
    with pytest.raises(TypeError, match=r'args must be'):
        oc.export(MLP(), 'x')
    with pytest.raises(TypeError, match=r'args\[1\]'):
        oc.export(minichainer.Sequential(lambda x, y: x), [_x(2, 4), [1, 2]])
    with pytest.raises(TypeError, match=r"args\['y'\]"):
        oc.export(minichainer.Sequential(lambda x, y: x), {'x': _x(2, 4), 'y': 3})


def test_bad_input_names():
    with pytest.raises(ValueError, match='input_names must give 2 names'):
        oc.export(minichainer.Sequential(lambda x, y: x * y), [_x(2), _x(2)],
                  input_names=['a'])
    with pytest.raises(ValueError, match='input_names must name every'):
        oc.export(minichainer.Sequential(lambda x, y: x * y), {'x': _x(2), 'y': _x(2)},
                  input_names={'x': 'a', 'z': 'b'})
    with pytest.raises(ValueError, match='distinct'):
        oc.export(minichainer.Sequential(lambda x, y: x * y), [_x(2), _x(2)],
                  input_names=['a', 'a'])
    with pytest.raises(ValueError, match='output_names must give 1 name'):
        oc.export(MLP(), _x(2, 4), output_names=['a', 'b'])


@pytest.mark.parametrize('fn,error,match', [
    (lambda x: x.array, RuntimeError, 'Unexpected output type'),
    (lambda x: (x, x.array), ValueError, 'must be Chainer Variable'),
    (lambda x: (), ValueError, 'no outputs'),
    (lambda x: minichainer.Variable(numpy.ones(2, numpy.float32)), ValueError,
     'not computed from its inputs'),
])
def test_model_returning_nothing_differentiable(fn, error, match):
    with pytest.raises(error, match=match):
        oc.export(minichainer.Sequential(fn), _x(2, 2))


def test_gpu_array_without_cupy_gives_the_usual_error():
    class FakeGpuArray:
        shape, dtype, device = (2, 2), numpy.dtype('f'), None

        def get(self):
            return numpy.zeros((2, 2), numpy.float32)
    with pytest.raises(RuntimeError) as info:
        oc.export(MLP(), FakeGpuArray())
    with pytest.raises(RuntimeError) as expected:
        minichainer.backend.get_device_from_array(FakeGpuArray())
    assert str(info.value) == str(expected.value)


def test_model_on_cupy_device_exports_the_same_bytes(cupy_device):
    model = MLP()
    x = _x(2, 4)
    expected = oc.export(model, x).SerializeToString()
    model.to_device(cupy_device)
    xg = cupy_device.send(x)
    assert oc.export(model, xg).SerializeToString() == expected


# -- packaging --------------------------------------------------------------------------------

def test_import_minichainer_does_not_import_onnx():
    code = ('import sys, minichainer, minichainer.functions, minichainer.links; '
            'print("onnx" in sys.modules, "onnxruntime" in sys.modules)')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ['False', 'False']


def test_missing_onnx_gives_a_clear_error():
    code = ('import sys; sys.modules["onnx"] = None\n'
            'try:\n    import minichainer.onnx\n'
            'except ImportError as e:\n    print(e)\n')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         check=True).stdout
    assert 'needs the onnx package' in out and "minichainer[onnx]" in out


def test_served_as_onnx_chainer():
    code = ('import minichainer.compat; minichainer.compat.install()\n'
            'import onnx_chainer, onnx_chainer.export, onnx_chainer.testing.input_generator\n'
            'from onnx_chainer.replace_func import as_funcnode\n'
            'import minichainer.onnx\n'
            'print(onnx_chainer is minichainer.onnx, onnx_chainer.MINIMUM_OPSET_VERSION)\n')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ['True', '7']


def test_old_style_function_with_external_converter(ort_session):
    class Double(minichainer.Function):
        def forward(self, inputs):
            return inputs[0] * 2,

        def backward(self, inputs, grads):
            return grads[0] * 2,

    def converter(params):
        assert type(params.func) is Double
        return onnx_helper.make_node('Add', params.input_names * 2, params.output_names),
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', FutureWarning)
        proto = oc.export(minichainer.Sequential(lambda x: Double()(x)), _x(2, 2),
                          external_converters={'Double': converter})
    y, = ort_session(proto).run(None, {'Input_0': _x(2, 2)})
    numpy.testing.assert_allclose(y, _x(2, 2) * 2)


def test_functions_outside_the_graph_are_traced_while_exporting(ort_session):
    # F.argmax and F.sign make no graph node normally (as Chainer's); while an export
    # traces the forward pass they do (config.record_non_differentiable), so no function is
    # patched
    x = _x(3, 4)
    assert F.argmax(minichainer.Variable(x), axis=1).creator is None
    assert F.sign(minichainer.Variable(x)).creator is None

    class Model(minichainer.Chain):
        def forward(self, x):
            return F.argmax(x, axis=1), F.sign(x) * 2
    proto = oc.export(Model(), x)
    assert {'ArgMax', 'Sign'} <= {n.op_type for n in proto.graph.node}
    index, sign = ort_session(proto).run(None, {'Input_0': x})
    numpy.testing.assert_array_equal(index, x.argmax(axis=1))
    numpy.testing.assert_array_equal(sign, numpy.sign(x) * 2)
    assert minichainer.config.record_non_differentiable is False
    with minichainer.using_config('record_non_differentiable', True):
        assert F.sign(minichainer.Variable(x)).creator is not None


def test_too_large_for_a_protobuf_is_a_clear_error(monkeypatch):
    export_module = sys.modules['minichainer.onnx.export']  # the attribute is the function
    monkeypatch.setattr(export_module, '_PROTOBUF_LIMIT', 100)
    with pytest.raises(ValueError, match='at most 2 GB'):
        oc.export(MLP(), _x(2, 4))
