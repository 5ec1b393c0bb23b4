"""Kernel-source generators of N-D pooling (their output equals Chainer 7.8.1's)."""
from minichainer.functions.pooling import pooling_nd_kernel


class _MaxForward(pooling_nd_kernel.PoolingNDKernelForward):
    def name(self):
        return 'max'

    def out_params(self):
        return ['S indexes']

    def before(self):
        return 'T maxval = (T)-INFINITY;\nint argmax_0 = 0;'

    def main(self, offset, xs):
        return 'T v = in[{}];\nif (maxval < v) {{ maxval = v; }}'.format(offset)

    def after(self, out_xs):
        return 'out = maxval;'


class _AvgBackward(pooling_nd_kernel.PoolingNDKernelBackward):
    def name(self):
        return 'avg'

    def in_params(self):
        return (['raw T w'], ['T coeff'])

    def before(self):
        return 'T val = 0;'

    def main(self, offset, xs, out_xs):
        return 'val = val + gy[{}];'.format(offset)

    def after(self, xs):
        return 'gx = val * coeff;'


def test_forward_source_2d():
    in_params, out_params, operation, name = _MaxForward.generate(2)
    assert name == 'max_pool_2d_fwd'
    assert in_params == ('raw T in, int32 d_0, int32 d_1, int32 out_0, int32 out_1, '
                         'int32 k_0, int32 k_1, int32 s_0, int32 s_1, int32 p_0, int32 p_1')
    assert out_params == 'T out, S indexes'
    lines = operation.split('\n')
    assert lines[:7] == [
        'int c0 = i / (out_0 * out_1);',
        'int out_x_0 = i / (out_1) % out_0;',
        'int out_x_1 = i % out_1;',
        'int in_x0_0 = max(0, out_x_0 * s_0 - p_0);',
        'int in_x1_0 = min(d_0, out_x_0 * s_0 + k_0 - p_0);',
        'int in_x0_1 = max(0, out_x_1 * s_1 - p_1);',
        'int in_x1_1 = min(d_1, out_x_1 * s_1 + k_1 - p_1);',
    ]
    assert 'for (int x_0 = in_x0_0; x_0 < in_x1_0; ++x_0) {' in lines
    assert '  int offset_0 = d_1 * (x_0 + d_0 * c0);' in lines
    assert '    int offset_1 = 1 * (x_1 + offset_0);' in lines
    assert '    T v = in[offset_1];' in lines
    assert lines[-1] == 'out = maxval;'


def test_backward_source_1d_and_memo():
    first = _AvgBackward.generate(1)
    assert _AvgBackward.generate(1) is first
    in_params, out_params, operation, name = first
    assert name == 'avg_pool_1d_bwd'
    assert in_params == ('raw T gy, raw T w, int32 d_0, int32 out_0, int32 k_0, '
                         'int32 s_0, int32 p_0, T coeff')
    assert out_params == 'T gx'
    assert operation.split('\n')[:4] == [
        'int c0  = i / (d_0);',
        'int x_0 = i % d_0 + p_0;',
        'int out_x0_0 = max(0, (x_0 - k_0 + s_0) / s_0);',
        'int out_x1_0 = min(out_0, (x_0 + s_0) / s_0);',
    ]
    assert '  val = val + gy[offset_0];' in operation.split('\n')
