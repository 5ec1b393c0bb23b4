# Import shim used by ``minichainer.compat.install()``: a process that imports ``chainer``
# through ``sys.path`` (e.g. a spawned multiprocessing worker, which inherits sys.path but not
# sys.meta_path) gets minichainer, with the compat import hook installed.
import sys

import minichainer.compat

minichainer.compat.install()
sys.modules['chainer'] = sys.modules['minichainer']
