"""The batch protocol's names, re-exported from `minichainer.dataset.convert`, where they
are defined with the converters that read them (see docs/architecture.md, "The batch
protocol").
"""
from minichainer.dataset.convert import BatchLayout  # noqa: F401
from minichainer.dataset.convert import ExampleBatch  # noqa: F401
from minichainer.dataset.convert import gather_batch  # noqa: F401
