"""Bilinear function `y_il = sum_jk e1_ij e2_ik W_jkl (+ e1 V1 + e2 V2 + b)`."""
from minichainer import function_node
from minichainer.utils import type_check
from minichainer.functions.math.matmul import matmul
from minichainer.functions.math.sum import sum as _sum


def _as_mat(x):
    if x.ndim == 2:
        return x
    return x.reshape(len(x), -1)


class BilinearFunction(function_node.FunctionNode):
    """FunctionNode of [`bilinear`][minichainer.functions.connection.bilinear.bilinear]; inputs
    `(e1, e2, W[, V1, V2, b])`.

    The backward is built from differentiable functions (matmul, reshape, mul, sum)
    so that higher-order gradients work.
    """

    def check_type_forward(self, in_types):
        n_in = type_check.eval(in_types.size())
        if n_in != 3 and n_in != 6:
            raise type_check.InvalidType(
                '{0} or {1}'.format(in_types.size() == 3, in_types.size() == 6),
                '{0} == {1}'.format(in_types.size(), n_in))
        e1_type, e2_type, W_type = in_types[:3]
        type_check.argname((e1_type, e2_type, W_type), ('e1', 'e2', 'W'))
        type_check.expect(
            e1_type.dtype.kind == 'f',
            e1_type.ndim >= 2,
            e2_type.dtype.kind == 'f',
            e2_type.ndim >= 2,
            e1_type.shape[0] == e2_type.shape[0],
            W_type.dtype == e1_type.dtype,
            W_type.ndim == 3,
            type_check.prod(e1_type.shape[1:]) == W_type.shape[0],
            type_check.prod(e2_type.shape[1:]) == W_type.shape[1],
        )
        if n_in == 6:
            out_size = W_type.shape[2]
            V1_type, V2_type, b_type = in_types[3:]
            type_check.argname((V1_type, V2_type, b_type), ('V1', 'V2', 'b'))
            type_check.expect(
                V1_type.dtype == e1_type.dtype,
                V1_type.ndim == 2,
                V1_type.shape[0] == W_type.shape[0],
                V1_type.shape[1] == out_size,
                V2_type.dtype == e1_type.dtype,
                V2_type.ndim == 2,
                V2_type.shape[0] == W_type.shape[1],
                V2_type.shape[1] == out_size,
                b_type.dtype == e1_type.dtype,
                b_type.ndim == 1,
                b_type.shape[0] == out_size,
            )

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        e1 = _as_mat(inputs[0])
        e2 = _as_mat(inputs[1])
        W = inputs[2]
        J, K, L = W.shape
        n = e1.shape[0]
        t = e1.dot(W.reshape(J, K * L)).reshape(n, K, L)
        y = (e2[:, None, :] @ t)[:, 0, :]
        if len(inputs) == 6:
            V1, V2, b = inputs[3:]
            y += e1.dot(V1)
            y += e2.dot(V2)
            y += b
        return y.astype(e1.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        inputs = self.get_retained_inputs()
        e1v, e2v, W = inputs[:3]
        gy, = grad_outputs
        e1 = _as_mat(e1v)
        e2 = _as_mat(e2v)
        J, K, L = W.shape
        n = e1.shape[0]
        ret = []
        need_e = 0 in indexes or 1 in indexes
        if need_e:
            # A[i, j, k] = sum_l W[j, k, l] gy[i, l]
            A = matmul(gy, W.reshape(J * K, L), transb=True).reshape(n, J, K)
        if 0 in indexes:
            ge1 = _sum(A * e2.reshape(n, 1, K), axis=2)
            if len(inputs) == 6:
                ge1 = ge1 + matmul(gy, inputs[3], transb=True)
            ret.append(ge1.reshape(e1v.shape))
        if 1 in indexes:
            ge2 = _sum(A * e1.reshape(n, J, 1), axis=1)
            if len(inputs) == 6:
                ge2 = ge2 + matmul(gy, inputs[4], transb=True)
            ret.append(ge2.reshape(e2v.shape))
        if 2 in indexes:
            outer = (e1.reshape(n, J, 1) * e2.reshape(n, 1, K)).reshape(n, J * K)
            ret.append(matmul(outer, gy, transa=True).reshape(J, K, L))
        if 3 in indexes:
            ret.append(matmul(e1, gy, transa=True))
        if 4 in indexes:
            ret.append(matmul(e2, gy, transa=True))
        if 5 in indexes:
            ret.append(_sum(gy, axis=0))
        return ret


def bilinear(e1, e2, W, V1=None, V2=None, b=None):
    """Bilinear function used by the Bilinear link.

    Args:
        e1 (Variable or ndarray): (N, J) left input (trailing axes are flattened).
        e2 (Variable or ndarray): (N, K) right input (trailing axes are flattened).
        W (Variable or ndarray): (J, K, L) weight.
        V1 (Variable or ndarray or None): (J, L) linear weight for e1.
        V2 (Variable or ndarray or None): (K, L) linear weight for e2.
        b (Variable or ndarray or None): (L,) bias.

    Returns:
        Variable: (N, L) output.

    Raises:
        ValueError: if only some of V1, V2 and b are given.
    """
    flags = [V1 is None, V2 is None, b is None]
    if any(flags):
        if not all(flags):
            raise ValueError('All arguments but e1, e2 and W must be None or not None')
        return BilinearFunction().apply((e1, e2, W))[0]
    return BilinearFunction().apply((e1, e2, W, V1, V2, b))[0]
