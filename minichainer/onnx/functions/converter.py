"""The calling convention of converters: `FunctionConverterParams` and `FunctionConverter`.

Built-in converters take `(func, opset_version, input_names, output_names, context)`;
the exporter calls every converter, external ones included, with one
`FunctionConverterParams`, and `FunctionConverter` unpacks it for a built-in one.
"""


class FunctionConverterParams:
    """What a converter gets: `func` (the FunctionNode), `opset_version`,
    `input_names` and `output_names` (lists of str) and `context`
    ([`Context`][minichainer.onnx.context.Context])."""

    def __init__(self, func=None, opset_version=None, input_names=None, output_names=None,
                 context=None):
        self.func = func
        self.opset_version = opset_version
        self.input_names = input_names
        self.output_names = output_names
        self.context = context


class FunctionConverter:
    """Wrap a converter of the five-argument form so that it takes one
    `FunctionConverterParams`."""

    def __init__(self, converter):
        self.converter = converter

    def __call__(self, params):
        return self.converter(params.func, params.opset_version, params.input_names,
                              params.output_names, params.context)
