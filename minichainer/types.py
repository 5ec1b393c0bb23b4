"""Type aliases for annotations (`chainer.types`).

Only for static typing: nothing here is checked at run time.
"""
import typing as tp

Shape = tp.Tuple[int, ...]
ShapeSpec = tp.Union[int, tp.Sequence[int]]
DTypeSpec = tp.Any
NdArray = tp.Any   # numpy.ndarray (other array types if a backend plugs in)
Xp = tp.Any        # the array module (numpy)


class AbstractInitializer(tp.Protocol):
    """What an initializer offers: a `dtype` and `__call__(array)`."""

    dtype = None  # type: tp.Optional[DTypeSpec]

    def __call__(self, array: NdArray) -> None:
        ...


ScalarValue = tp.Union[tp.Any, int, float, bool]
InitializerSpec = tp.Union[AbstractInitializer, ScalarValue, NdArray]
DeviceSpec = tp.Union[tp.Any, str, int]
CudaDeviceSpec = tp.Union[tp.Any, int]
