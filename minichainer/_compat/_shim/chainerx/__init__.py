# Import shim: see ../chainer/__init__.py. Replaced by minichainer's chainerx stub.
import sys

import minichainer.compat

minichainer.compat.install()
sys.modules['chainerx'] = minichainer.compat._chainerx_module()
