"""Lazy access to the optional `onnx` / `onnxruntime` packages (extra `minichainer[onnx]`)."""
import functools

_INSTALL_HINT = ("install it with `pip install 'minichainer[onnx]'` "
                 "(or `pip install onnx onnxruntime`)")


def require_onnx():
    """Return the `onnx` module, or raise ImportError saying how to install it."""
    try:
        import onnx
    except ImportError as e:
        raise ImportError(
            'minichainer.onnx (onnx_chainer) needs the onnx package, which is not '
            'installed: {} ({})'.format(_INSTALL_HINT, e)) from e
    return onnx


def require_onnxruntime():
    """Return the `onnxruntime` module, or raise ImportError saying how to install it."""
    try:
        import onnxruntime
    except ImportError as e:
        raise ImportError(
            'running an exported model needs the onnxruntime package, which is not '
            'installed: {} ({})'.format(_INSTALL_HINT, e)) from e
    return onnxruntime


@functools.lru_cache(maxsize=None)
def newest_opset():
    """The newest default-domain opset that both the installed `onnx` knows and the
    installed ONNX Runtime (when there is one) loads; found once per process."""
    onnx = require_onnx()
    newest = int(onnx.defs.onnx_opset_version())
    try:
        import onnxruntime
    except ImportError:
        return newest
    from onnx import helper, TensorProto
    x = helper.make_tensor_value_info('x', TensorProto.FLOAT, [1])
    y = helper.make_tensor_value_info('y', TensorProto.FLOAT, [1])
    graph = helper.make_graph([helper.make_node('Identity', ['x'], ['y'])], 'probe', [x], [y])
    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3
    for version in range(newest, 6, -1):
        model = helper.make_model(graph, opset_imports=[helper.make_operatorsetid('', version)])
        model.ir_version = min(model.ir_version, 7) if version <= 12 else model.ir_version
        try:
            onnxruntime.InferenceSession(model.SerializeToString(), options,
                                         providers=['CPUExecutionProvider'])
        except Exception:  # this ONNX Runtime refuses the opset (or the IR version)
            continue
        return version
    return newest
