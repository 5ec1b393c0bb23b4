"""`links.Parameter`: a link that holds a single parameter array."""
from minichainer import link
from minichainer import variable


class Parameter(link.Link):
    """A link whose only parameter `W` starts as `array`; calling it returns `W`."""

    def __init__(self, array):
        super().__init__()
        with self.init_scope():
            self.W = variable.Parameter(array)

    def forward(self, volatile='off'):
        """Return the parameter variable `W`."""
        return self.W
