"""Array manipulation functions (``chainer.functions.array``)."""
from minichainer.functions.util._module_alias import alias_modules as _alias_modules
from minichainer.functions.array.as_strided import as_strided  # noqa: F401
from minichainer.functions.array.as_strided import AsStrided  # noqa: F401
from minichainer.functions.array.broadcast import broadcast  # noqa: F401
from minichainer.functions.array.broadcast import Broadcast  # noqa: F401
from minichainer.functions.array.broadcast import broadcast_to  # noqa: F401
from minichainer.functions.array.broadcast import BroadcastTo  # noqa: F401
from minichainer.functions.array.cast import cast  # noqa: F401
from minichainer.functions.array.cast import Cast  # noqa: F401
from minichainer.functions.array.concat import concat  # noqa: F401
from minichainer.functions.array.concat import Concat  # noqa: F401
from minichainer.functions.array.copy import copy  # noqa: F401
from minichainer.functions.array.copy import Copy  # noqa: F401
from minichainer.functions.array.depth2space import depth2space  # noqa: F401
from minichainer.functions.array.depth2space import Depth2Space  # noqa: F401
from minichainer.functions.array.diagonal import diagonal  # noqa: F401
from minichainer.functions.array.diagonal import Diagonal  # noqa: F401
from minichainer.functions.array.dstack import dstack  # noqa: F401
from minichainer.functions.array.dstack import Dstack  # noqa: F401
from minichainer.functions.array.expand_dims import expand_dims  # noqa: F401
from minichainer.functions.array.expand_dims import ExpandDims  # noqa: F401
from minichainer.functions.array.flatten import flatten  # noqa: F401
from minichainer.functions.array.flip import flip  # noqa: F401
from minichainer.functions.array.flip import Flip  # noqa: F401
from minichainer.functions.array.fliplr import fliplr  # noqa: F401
from minichainer.functions.array.fliplr import FlipLR  # noqa: F401
from minichainer.functions.array.flipud import flipud  # noqa: F401
from minichainer.functions.array.flipud import FlipUD  # noqa: F401
from minichainer.functions.array.get_item import get_item  # noqa: F401
from minichainer.functions.array.get_item import GetItem  # noqa: F401
from minichainer.functions.array.hstack import hstack  # noqa: F401
from minichainer.functions.array.hstack import Hstack  # noqa: F401
from minichainer.functions.array.im2col import im2col  # noqa: F401
from minichainer.functions.array.im2col import Im2Col  # noqa: F401
from minichainer.functions.array.moveaxis import moveaxis  # noqa: F401
from minichainer.functions.array.moveaxis import Moveaxis  # noqa: F401
from minichainer.functions.array.pad import pad  # noqa: F401
from minichainer.functions.array.pad import Pad  # noqa: F401
from minichainer.functions.array.pad_sequence import pad_sequence  # noqa: F401
from minichainer.functions.array.pad_sequence import PadSequence  # noqa: F401
from minichainer.functions.array.permutate import permutate  # noqa: F401
from minichainer.functions.array.permutate import Permutate  # noqa: F401
from minichainer.functions.array.repeat import repeat  # noqa: F401
from minichainer.functions.array.repeat import Repeat  # noqa: F401
from minichainer.functions.array.reshape import reshape  # noqa: F401
from minichainer.functions.array.reshape import Reshape  # noqa: F401
from minichainer.functions.array.resize_images import resize_images  # noqa: F401
from minichainer.functions.array.resize_images import ResizeImages  # noqa: F401
from minichainer.functions.array.rollaxis import rollaxis  # noqa: F401
from minichainer.functions.array.rollaxis import Rollaxis  # noqa: F401
from minichainer.functions.array.scatter_add import scatter_add  # noqa: F401
from minichainer.functions.array.scatter_add import ScatterAdd  # noqa: F401
from minichainer.functions.array.select_item import select_item  # noqa: F401
from minichainer.functions.array.select_item import SelectItem  # noqa: F401
from minichainer.functions.array.separate import separate  # noqa: F401
from minichainer.functions.array.separate import Separate  # noqa: F401
from minichainer.functions.array.space2depth import space2depth  # noqa: F401
from minichainer.functions.array.space2depth import Space2Depth  # noqa: F401
from minichainer.functions.array.split_axis import split_axis  # noqa: F401
from minichainer.functions.array.split_axis import SplitAxis  # noqa: F401
from minichainer.functions.array.squeeze import squeeze  # noqa: F401
from minichainer.functions.array.squeeze import Squeeze  # noqa: F401
from minichainer.functions.array.stack import stack  # noqa: F401
from minichainer.functions.array.stack import Stack  # noqa: F401
from minichainer.functions.array.swapaxes import swapaxes  # noqa: F401
from minichainer.functions.array.swapaxes import Swapaxes  # noqa: F401
from minichainer.functions.array.tile import tile  # noqa: F401
from minichainer.functions.array.tile import Tile  # noqa: F401
from minichainer.functions.array.transpose import transpose  # noqa: F401
from minichainer.functions.array.transpose import Transpose  # noqa: F401
from minichainer.functions.array.transpose_sequence import transpose_sequence  # noqa: F401
from minichainer.functions.array.transpose_sequence import TransposeSequence  # noqa: F401
from minichainer.functions.array.vstack import vstack  # noqa: F401
from minichainer.functions.array.vstack import Vstack  # noqa: F401
from minichainer.functions.array.where import where  # noqa: F401
from minichainer.functions.array.where import Where  # noqa: F401

__all__ = [
    'as_strided', 'broadcast', 'broadcast_to', 'cast', 'concat', 'copy', 'depth2space', 'diagonal',
    'dstack', 'expand_dims', 'flatten', 'flip', 'fliplr', 'flipud', 'get_item', 'hstack',
    'im2col', 'moveaxis', 'pad', 'pad_sequence', 'permutate', 'repeat', 'reshape',
    'resize_images', 'rollaxis', 'scatter_add', 'select_item', 'separate', 'space2depth',
    'split_axis', 'squeeze', 'stack', 'swapaxes', 'tile', 'transpose',
    'transpose_sequence', 'vstack', 'where',
]

# ``from minichainer.functions.array import concat; concat.Concat`` (Chainer's module-style
# access) keeps working although the package re-exports the functions (see _module_alias).
_alias_modules(globals(), __all__)
del _alias_modules
