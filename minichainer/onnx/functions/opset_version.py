"""`support`: pick the newest opset a converter implements that is <= the one asked for."""
import functools


def support(opset_versions):
    """Decorate a converter `f(func, opset_version, input_names, output_names, context)`.

    `opset_versions` lists the opsets at which the converter's output changes, e.g.
    `(7, 13)`; the converter is called with the largest listed version that is not
    above the requested one (13 for a request of 17, 7 for 12).  A request below every
    listed version raises RuntimeError naming the function and the opset.  `None`
    passes the requested version through.
    """
    versions = None if opset_versions is None else sorted(opset_versions, reverse=True)

    def decorator(converter):
        @functools.wraps(converter)
        def wrapped(func, opset_version, *args, **kwargs):
            if versions is None:
                return converter(func, opset_version, *args, **kwargs)
            for version in versions:
                if version <= opset_version:
                    return converter(func, version, *args, **kwargs)
            raise RuntimeError(
                'ONNX-Chainer cannot convert `{}` of Chainer with ONNX opset_version {} '
                '(its converter needs opset {} or newer)'.format(
                    type(func).__name__, opset_version, versions[-1]))
        wrapped.supported_opset_versions = tuple(sorted(versions or ()))
        return wrapped
    return decorator
