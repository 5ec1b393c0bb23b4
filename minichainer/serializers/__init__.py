"""Serializers (`chainer.serializers`): NPZ (always) and HDF5 (needs h5py)."""
from minichainer.serializers.hdf5 import HDF5Deserializer  # noqa: F401
from minichainer.serializers.hdf5 import HDF5Serializer  # noqa: F401
from minichainer.serializers.hdf5 import load_hdf5  # noqa: F401
from minichainer.serializers.hdf5 import save_hdf5  # noqa: F401
from minichainer.serializers.npz import DictionarySerializer  # noqa: F401
from minichainer.serializers.npz import load_npz  # noqa: F401
from minichainer.serializers.npz import NpzDeserializer  # noqa: F401
from minichainer.serializers.npz import save_npz  # noqa: F401
