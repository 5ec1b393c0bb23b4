"""conv_nd_kernel generates the same CUDA kernel sources as Chainer 7.8.1 (recorded from
Chainer in fixtures/chainer_conv_nd_kernel.json)."""
import json
import os

import pytest

from minichainer.utils import conv_nd_kernel

with open(os.path.join(os.path.dirname(__file__), 'fixtures',
                       'chainer_conv_nd_kernel.json')) as f:
    RECORDED = json.load(f)


@pytest.mark.parametrize('ndim', [1, 2, 3, 4])
def test_kernel_sources_equal_chainers(ndim):
    assert list(conv_nd_kernel.Im2colNDKernel.generate(ndim)) == \
        RECORDED['im2col'][str(ndim)]
    assert list(conv_nd_kernel.Col2imNDKernel.generate(ndim)) == \
        RECORDED['col2im'][str(ndim)]


def test_helpers_equal_chainers():
    h = RECORDED['helpers']
    assert [conv_nd_kernel.mulexp(['a', 'b', 'c']), conv_nd_kernel.mulexp(['a'], 'z')] \
        == h['mulexp']
    assert [conv_nd_kernel.andexp(['p', 'q']), conv_nd_kernel.andexp(['p'], 'r')] \
        == h['andexp']
    assert [conv_nd_kernel.muladdexp(['a', 'b'], ['x', 'y'], 'c0'),
            conv_nd_kernel.muladdexp(['a', 'b', 'c'], ['x', 'y', 'z'])] == h['muladdexp']
    assert conv_nd_kernel.succ_sublists([1, 2, 3]) == h['succ_sublists']
    assert conv_nd_kernel.vars('k', 3) == h['vars']


def test_writer_indentation():
    w = conv_nd_kernel.Writer()
    w.write('a {', indent='inc')
    w.write('b;')
    w.write('} else {', indent='decinc')
    w.write('c;')
    w.write('}', indent='dec')
    assert w.get() == 'a {\n  b;\n} else {\n  c;\n}'
