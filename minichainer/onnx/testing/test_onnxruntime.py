"""Check an exported test case with ONNX Runtime: `check_model_expect`."""
import glob
import os

import numpy

from minichainer.onnx._deps import require_onnx

onnx = require_onnx()

try:
    import onnxruntime as rt
    ONNXRUNTIME_AVAILABLE = True
except ImportError:
    rt = None
    ONNXRUNTIME_AVAILABLE = False


def load_test_data(data_dir, input_names, output_names):
    """`(inputs, outputs)`: dicts `name -> array` read from ``input_*.pb`` /
    ``output_*.pb`` of `data_dir`; a tensor whose name is not among the names takes the
    next one in order."""
    values = []
    for kind, names in (('input', input_names), ('output', output_names)):
        names = list(names)
        found = {}
        for pb in sorted(glob.glob(os.path.join(data_dir, '{}_*.pb'.format(kind))),
                         key=lambda p: int(os.path.basename(p)[len(kind) + 1:-3])):
            tensor = onnx.load_tensor(pb)
            if tensor.name in names:
                name = tensor.name
                names.remove(name)
            else:
                name = names.pop(0)
            found[name] = onnx.numpy_helper.to_array(tensor)
        values.append(found)
    return tuple(values)


def session(model_or_path, **kwargs):
    """An ONNX Runtime CPU `InferenceSession` of a ModelProto, bytes or file path."""
    if not ONNXRUNTIME_AVAILABLE:
        raise ImportError('ONNX Runtime is not installed: pip install onnxruntime '
                          '(or minichainer[onnx])')
    if hasattr(model_or_path, 'SerializeToString'):
        model_or_path = model_or_path.SerializeToString()
    options = rt.SessionOptions()
    options.log_severity_level = 3
    return rt.InferenceSession(model_or_path, options, providers=['CPUExecutionProvider'],
                               **kwargs)


def check_model_expect(test_path, input_names=None, rtol=1e-5, atol=1e-5):
    """Run ``test_path/model.onnx`` in ONNX Runtime on every ``test_data_set_*`` and
    compare with the stored outputs; with `input_names`, also check that the graph's
    inputs are exactly those."""
    with open(os.path.join(test_path, 'model.onnx'), 'rb') as f:
        onnx_model = onnx.load_model(f)
    sess = session(onnx_model)
    rt_input_names = [v.name for v in sess.get_inputs()]
    rt_output_names = [v.name for v in sess.get_outputs()]
    if input_names is not None:
        assert sorted(input_names) == sorted(rt_input_names), (input_names, rt_input_names)
    data_sets = sorted(p for p in os.listdir(test_path) if p.startswith('test_data_set_'))
    for data_set in data_sets:
        path = os.path.join(test_path, data_set)
        assert os.path.isdir(path)
        inputs, outputs = load_test_data(path, rt_input_names, rt_output_names)
        results = sess.run(list(outputs.keys()), inputs)
        for expected, actual in zip(outputs.values(), results):
            numpy.testing.assert_allclose(expected, actual, rtol=rtol, atol=atol)
