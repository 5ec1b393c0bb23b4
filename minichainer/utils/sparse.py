"""Sparse matrices in COO format (`chainer.utils.CooMatrix`, `to_coo`, `get_order`)."""
import numpy

from minichainer import backend
from minichainer import variable
from minichainer.utils import scatter


class CooMatrix:
    """A matrix (or a batch of matrices) in coordinate format.

    Args:
        data (ndarray): the stored entries, 1-D, or 2-D for a batch.
        row, col (ndarray): their row and column indices (int32; -1 marks padding).
        shape (tuple of int): the dense (rows, cols) shape.
        order ('C', 'F', 'other' or None): whether rows ('C') or columns ('F') are sorted;
            None works it out.
        requires_grad (bool): whether `data` gets a gradient in backward.
    """

    def __init__(self, data, row, col, shape, order=None, requires_grad=False):
        if not 1 <= data.ndim <= 2:
            raise ValueError('ndim of data must be 1 or 2.')
        if not data.ndim == row.ndim == col.ndim:
            raise ValueError('ndim of data, row and col must be the same.')
        if len(shape) != 2:
            raise ValueError('length of shape must be 2.')
        if not (shape[0] > 0 and shape[1] > 0):
            raise ValueError('numbers in shape must be greater than 0.')
        if order not in ('C', 'F', 'other', None):
            raise ValueError("order must be 'C', 'F', 'other' or None.")
        self.data = variable.Variable(data, requires_grad=requires_grad)
        self.row = row
        self.col = col
        self.shape = tuple(shape)
        self.order = get_order(row, col) if order is None else order

    def to_dense(self):
        """The dense array (entries at repeated positions are added)."""
        data = self.data.array
        shape = self.shape if data.ndim == 1 else (data.shape[0],) + self.shape
        xp = backend.get_array_module(data)
        dense = xp.zeros(shape, dtype=data.dtype)
        if data.size == 0:
            return dense
        if data.ndim == 1:
            _scatter(dense, self.row, self.col, data)
        else:
            for i in range(data.shape[0]):
                _scatter(dense[i], self.row[i], self.col[i], data[i])
        return dense


def _scatter(dense, row, col, data):
    keep = (row >= 0) & (col >= 0)
    if isinstance(dense, numpy.ndarray):
        numpy.add.at(dense, (row[keep], col[keep]), data[keep])
    else:   # no boolean selection on a GPU: the padding adds zeros at (0, 0)
        xp = backend.get_array_module(dense)
        scatter.scatter_add(dense, (xp.where(keep, row, 0), xp.where(keep, col, 0)),
                            data * keep)


def to_coo(x, ldnz=None, requires_grad=False):
    """Convert a dense matrix (2-D) or a batch of them (3-D) to a `CooMatrix`.

    `ldnz` sets the stored length (at least the number of non-zeros); unused slots are
    padded with zeros and index -1.
    """
    xp = backend.get_array_module(x)
    if x.ndim == 2:
        rows, cols = xp.nonzero(x)
        nnz = len(rows)
        size = nnz if ldnz is None or ldnz < nnz else ldnz
        data = xp.zeros(size, dtype=x.dtype)
        row = xp.full(size, -1, dtype=numpy.int32)
        col = xp.full(size, -1, dtype=numpy.int32)
        data[:nnz] = x[rows, cols]
        row[:nnz] = rows
        col[:nnz] = cols
        return CooMatrix(data, row, col, x.shape, requires_grad=requires_grad)
    if x.ndim == 3:
        size = 0 if ldnz is None else ldnz
        for matrix in x:
            size = max(size, int(xp.count_nonzero(matrix)))
        parts = [to_coo(matrix, size) for matrix in x]
        data = xp.stack([p.data.array for p in parts]) if parts else \
            xp.empty((0, size), x.dtype)
        row = xp.stack([p.row for p in parts])
        col = xp.stack([p.col for p in parts])
        return CooMatrix(data, row, col, x.shape[1:], requires_grad=requires_grad)
    raise ValueError('ndim of x must be 2 or 3.')


def get_order(row, col):
    """'C' if the row indices are sorted, 'F' if the column indices are, else 'other'."""
    if _is_sorted_by_first(row, col):
        return 'C'
    if _is_sorted_by_first(col, row):
        return 'F'
    return 'other'


def _is_sorted_by_first(first, second):
    if first.shape != second.shape:
        raise ValueError('shape of row and col must be the same.')
    if first.ndim != 1:
        return all(_is_sorted_by_first(f, s) for f, s in zip(first, second))
    valid_first = first[second >= 0]
    valid_second = second[first >= 0]
    if (valid_first < 0).any() or (valid_second < 0).any():
        raise ValueError('invalid index combination of row and col.')
    if valid_first.shape[0] <= 1:
        return True
    xp = backend.get_array_module(first)
    if (xp.diff(valid_first) < 0).any():
        return False
    # within a run of equal first indices, the second ones must be sorted too
    same = xp.diff(valid_first) == 0
    return not (same & (xp.diff(valid_second) < 0)).any()
